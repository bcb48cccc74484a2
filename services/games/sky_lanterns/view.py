"""What a seat (or a spectator) may see. Hidden: other hands, the deck's order (only its
size shows), and every face-down Upgrade Tile — even from its owner, who sees only the
income under it."""

from __future__ import annotations

from pydantic import BaseModel

from services.engine import Seat

from .asking import everyone_asked, question_text
from .components import PLAYER_BOARDS
from .effects import LANTERN_COLOURS
from .resolver import current_era
from .scoring import breakdowns
from .state import Die, SkyLanternsState


class DieView(BaseModel):
    colour: str
    value: int


class DiceSpaceView(BaseModel):
    space: str
    die: int | None
    upgrade_tile: str | None


class UpgradeSpaceView(BaseModel):
    position: int
    face_down: bool
    """True while a face-down tile lies here, its face unknown to everyone."""
    tile: str | None = None
    """The tile lying here face up (upgrade_tile_arrangement), known to everyone."""


class PlayerView(BaseModel):
    seat: int
    board: str
    coal: int
    indigo: int
    tea: int
    yam: int
    coins: int
    camphor: int
    vp: int
    hand_size: int
    hand: list[str] | None
    """Only in the owner's view."""
    draft_packet: list[str] | None = None
    """starting_card_draft, only in the owner's view: the cards offered to choose from."""
    draft_picked: bool = False
    lantern_zones: list[list[str]]
    railway_zones: list[list[str]]
    lanterns: dict[str, int]
    core_slots: list[DieView | None]
    compensation_slots: list[DieView | None]
    train: int
    upgrade_spaces: list[UpgradeSpaceView]
    incomes: list[str]
    lantern_project: str
    railway_project: str
    score_now: int
    """The score if the game ended now (lantern majorities, railway and resources too)."""


class PendingView(BaseModel):
    """A seat asked to act now, as its prompt says."""

    seat: int
    question: str
    """"contract", "take", "place", or the effect asking: "develop", "convert", ..."""
    effect: dict | None
    """The effect being decided, in the effect vocabulary."""
    text: str
    """The prompt's words ("The ghost took a 2: pay 2 Camphor, or let the ghost gain 2
    Indigo.")."""


class OpponentView(BaseModel):
    """Solo: the virtual opponent, all public but its deck's order and face-down tiles."""

    scenario: str
    challenge: bool
    resources: dict[str, int]
    coins: int
    camphor: int
    vp: dict[str, int]
    deck_size: int
    next_card: str | None
    """burning-hut: the face-up top card of its action deck (dead-mine: face down)."""
    revealed: list[str]
    """Solo Mode cards revealed since the last reshuffle, oldest first."""
    blockades: list[str]
    face_down_tiles: int
    dice: list[DieView]
    chosen_since_income: list[str]
    lost: str | None


class SkyLanternsView(BaseModel):
    round: int
    step: str
    first_player: int
    turn_order: list[int]
    turns_taken: int
    """Turns taken this round (in a paused Event phase, the last round's: the Upkeep
    sets the new round's turn order)."""
    active_seat: int | None
    """Whose move the game is waiting for: in the Player Action phase the player whose
    turn it is (even while an effect asks another seat: see `pending`); in the setup steps
    and a paused Event phase, where nobody has a turn, the seat asked (`pending`'s); None
    once the game is over."""
    eras: list[str]
    current_era: str
    dice_spaces: list[DiceSpaceView]
    bag: dict[str, int]
    held_die: DieView | None
    deck_size: int
    discard: list[str]
    market: list[str] | None
    removed_cards: list[str]
    removed_tiles: list[str]
    coins_supply: int
    camphor_supply: int
    influence: dict[str, int]
    """2 players: the space of each influence die, 0 being seat 0's end (else empty)."""
    players: list[PlayerView]
    pending: PendingView | None
    """The question asked now: the reader's own when it is one of the seats asked, else
    the first of `prompted`; None once the game is over."""
    prompted: list[PendingView]
    """Every seat asked now, one entry per prompt: all the seats still choosing in the
    simultaneous setup steps (drafting, arranging), else one."""
    opponent: OpponentView | None = None


def _opponent(state: SkyLanternsState) -> OpponentView | None:
    rival = state.rival
    if rival is None:
        return None
    return OpponentView(
        scenario=rival.scenario,
        challenge=rival.challenge,
        resources=rival.basics,
        coins=rival.coins,
        camphor=rival.camphor,
        vp=rival.vp,
        deck_size=len(rival.deck),
        next_card=rival.deck[0] if rival.scenario == "burning-hut" and rival.deck else None,
        revealed=rival.revealed,
        blockades=rival.blockades,
        face_down_tiles=sum(t is not None for t in rival.upgrades),
        dice=[DieView(colour=d.colour, value=d.value) for d in rival.dice],
        chosen_since_income=rival.chosen,
        lost=rival.lost,
    )


def _die(die: Die | None) -> DieView | None:
    return None if die is None else DieView(colour=die.colour, value=die.value)


TURN_STEPS = frozenset({"contract", "take", "place", "end"})
"""The steps of the Player Action phase, where a player has the turn."""


def build_view(state: SkyLanternsState, seat: Seat | None) -> SkyLanternsView:
    scores = breakdowns(state)
    prompted = [
        PendingView(
            seat=asked,
            question=kind,
            effect=asking.model_dump(mode="json") if isinstance(asking, BaseModel) else None,
            text=question_text(kind, asking),
        )
        for asked, kind, asking in everyone_asked(state)
    ]
    pending = next((p for p in prompted if p.seat == seat), prompted[0] if prompted else None)
    if state.over:
        active: int | None = None
    elif state.step in TURN_STEPS or pending is None:
        active = state.active
    else:
        active = pending.seat
    return SkyLanternsView(
        round=state.round,
        step=state.step,
        first_player=state.first_player,
        turn_order=state.order,
        turns_taken=state.turn,
        active_seat=active,
        eras=state.eras,
        current_era=current_era(state),
        dice_spaces=[
            DiceSpaceView(space=s, die=v, upgrade_tile=state.covered.get(s))
            for s, v in state.spaces.items()
        ],
        bag=state.bag,
        held_die=_die(state.held),
        deck_size=len(state.deck),
        discard=state.discard,
        market=state.market,
        removed_cards=state.removed,
        removed_tiles=state.removed_tiles,
        coins_supply=state.coins_supply,
        camphor_supply=state.camphor_supply,
        influence=state.influence,
        players=[_player(state, s, s == seat, scores[s]) for s in range(state.players)],
        opponent=_opponent(state),
        pending=pending,
        prompted=prompted,
    )


def _player(state: SkyLanternsState, seat: int, own: bool, score: dict) -> PlayerView:
    player = state.seats[seat]
    board = PLAYER_BOARDS[player.board]
    return PlayerView(
        seat=seat,
        board=board.id,
        **player.basics,
        coins=player.coins,
        camphor=player.camphor,
        vp=player.vp,
        hand_size=len(player.hand),
        hand=list(player.hand) if own else None,
        lantern_zones=player.lantern_zones,
        railway_zones=player.railway_zones,
        lanterns={c: player.lanterns(c) for c in LANTERN_COLOURS},
        core_slots=[_die(d) for d in player.core],
        compensation_slots=[_die(d) for d in player.compensation],
        train=player.train,
        upgrade_spaces=[
            UpgradeSpaceView(
                position=i,
                face_down=t is not None and not state.tiles_face_up,
                tile=t if state.tiles_face_up else None,
            )
            for i, t in enumerate(player.upgrades)
        ],
        draft_packet=state.draft_packets[seat] if own and state.draft_packets else None,
        draft_picked=bool(state.draft_picks) and state.draft_picks[seat] is not None,
        incomes=player.incomes,
        lantern_project=player.lantern_project,
        railway_project=player.railway_project,
        score_now=sum(score.values()),
    )
