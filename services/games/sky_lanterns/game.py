"""Valley of Sky Lanterns, wired into the Skyport game contract."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from services.engine import Event, Game, Move, Prompt, Result, Rng, Seat, copy_state
from services.engine.state import unchecked

from . import effects as fx
from . import moves as mv
from . import solo
from .answers import carry_out
from .asking import QUESTIONS, asked, everyone_asked, question_text
from .components import BOARD, CARDS, ERAS, PLAYER_BOARDS, PROJECTS, TILES
from .evaluation import win_chance
from .offers import offered_moves, trade_lost
from .options import SkyLanternsOptions
from .playout import playout_move
from .resources import amount_words, resource_name
from .scoring import final_result
from .setup import set_up
from .state import SETUP_STEPS, RivalAction, RivalStep, SkyLanternsState
from .view import SkyLanternsView, build_view


def _absent(value: object) -> bool:
    return value is None


def _absent_field() -> Any:
    """An optional field left out of the event's JSON when it has no value."""
    return Field(default=None, exclude_if=_absent)


class MoveMade(Event):
    """A seat's move: `text` says it in words, `move` is the move itself exactly as the
    legal-moves listing and the move endpoint express it (its `kind` and its fields, no
    label). Public, but for the moves `private_move` names."""

    kind: str = "move_made"
    text: str
    move: dict[str, Any]


class PrivateMoveMade(MoveMade):
    """A move that names a card now in its mover's hidden hand (`private_move`): `move` is
    in the mover's events only; the others read `text`."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"move"})


class DraftPickMade(PrivateMoveMade):
    """starting_card_draft: a Starting card kept. Only the drafting seat sees which (`move`
    and `card`); everyone reads "Keep a Starting card"."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"move", "card"})
    card: str


def private_move(move: Move) -> bool:
    """Whether the move names a card the other seats may not see in a structured move: a
    Starting card kept in the draft, and a market card drawn into a hand. Every other move
    names only what is face up once it is made: a card played as a contract (discarded or
    removed), a developed card (tucked, its edge showing), face-up Upgrade Tiles arranged,
    a position to flip, dice spaces, slots, resources.

    A market card was face up until drawn (its words have always named it, the market in
    the views shows it gone, and `determinize` keeps it in its holder's hand), but the
    views hide every card in another hand whole, so the structured move keeps to that."""
    return isinstance(move, mv.DraftCard) or (
        isinstance(move, mv.DrawCard) and move.card is not None
    )


class RoundBegan(Event):
    """A new round's Player Action phase is about to begin: its Event and Upkeep phases
    are done and `dice` are the dice its Upkeep rolled onto the Main Board (space ->
    value). Told once per round from round 2, by the move after which they were rolled —
    the move that ended the previous round, or, when the Event phase stopped for a choice,
    the move that made the last of them. Public."""

    kind: str = "round_began"
    round: int
    dice: dict[str, int]


class OpponentActed(Event):
    """Solo: a step of the virtual opponent's turn, all public. `action` says what kind of
    step; only the fields it uses are given:

    - `take_die`: it reveals Solo Mode `card` and takes the die of `value` on `space`;
    - `gain`: it gains `amount` of `resource` (indigo, coal or vp), as the die action says
      (a full Coal or Indigo track turns it into the other: the view has the totals);
      `player_gains` what the player gains with it ({"coins": 1} or {"cards": 1});
    - `pay`: the player pays `amount` `resource` to the ghost's demand;
    - `plunder`: it takes `amount` of the player's `resource` (what the player had);
    - `blockade`: the player's `resource` is blockaded;
    - `draw`: the player draws a card (`player_gains` {"cards": 1});
    - `flip_tile`: it flips Upgrade Tile `tile` onto `space` of the Main Board.
    """

    kind: str = "opponent_acted"
    text: str
    action: RivalAction
    card: str | None = _absent_field()
    space: str | None = _absent_field()
    value: int | None = _absent_field()
    tile: str | None = _absent_field()
    resource: str | None = _absent_field()
    amount: int | None = _absent_field()
    player_gains: dict[str, int] | None = _absent_field()


def opponent_acted(step: RivalStep) -> OpponentActed:
    return unchecked(OpponentActed)(
        text=step.text,
        action=step.action,
        card=step.card,
        space=step.space,
        value=step.value,
        tile=step.tile,
        resource=step.resource,
        amount=step.amount,
        player_gains=None if step.player_gains is None else dict([step.player_gains]),
    )


class GameEnded(Event):
    kind: str = "game_ended"


LABELLED_BY_POSITION = frozenset({"coal_trade", "choose_resource", "answer_rival"})
"""Moves whose label says more than `describe` can: what the position makes of them."""


class SkyLanternsGame(Game[SkyLanternsState, SkyLanternsOptions]):
    id = "sky-lanterns"
    title = "Valley of Sky Lanterns"
    min_players = 1
    max_players = 4
    config_model = SkyLanternsOptions
    state_model = SkyLanternsState
    move_model = mv.SkyLanternsMove
    view_model = SkyLanternsView

    def new_state(self, config: SkyLanternsOptions, players: int, seed: int) -> SkyLanternsState:
        return set_up(config, players, seed)

    def prompts(self, state: SkyLanternsState) -> list[Prompt]:
        if state.step in SETUP_STEPS:  # several seats at once (none once over)
            return [
                Prompt(seat=seat, kind=kind, text=question_text(kind, asking))
                for seat, kind, asking in everyone_asked(state)
            ]
        question = asked(state)  # the one seat asked: `everyone_asked`, without the list
        if question is None:
            return []
        seat, kind, asking = question
        text = QUESTIONS.get(kind) or question_text(kind, asking)
        return [Prompt(seat=seat, kind=kind, text=text)]

    def legal_moves(self, state: SkyLanternsState, seat: Seat) -> list[Move]:
        return offered_moves(state, seat)

    def play(self, state: SkyLanternsState, seat: Seat, move: Move) -> list[Event]:
        round_before, step_before = state.round, state.step
        text = self.label(state, seat, move)  # before the move: whether a trade's gain is lost
        carry_out(state, seat, move)
        made: MoveMade
        if isinstance(move, mv.DraftCard):  # drafting reveals nothing early
            made = unchecked(DraftPickMade)(
                seat=seat,
                private_to=[seat],
                text="Keep a Starting card",
                move=self.dump_move(move),
                card=move.card,
            )
        elif private_move(move):
            made = unchecked(PrivateMoveMade)(
                seat=seat, private_to=[seat], text=text, move=self.dump_move(move)
            )
        else:
            made = unchecked(MoveMade)(seat=seat, text=text, move=self.dump_move(move))
        events: list[Event] = [made]
        if state.rival is not None:
            events += [opponent_acted(step) for step in state.rival.log]
            state.rival.log = []
        if state.over:
            events.append(GameEnded())
        elif state.step != "event" and (state.round != round_before or step_before == "event"):
            # Upkeep rolled this round's dice during this move: "Event Phase, Upkeep Phase,
            # Player Action Phase" — not when the round changed while its Event phase
            # still waits for a choice (the dice are still the last round's then).
            dice = {s: v for s, v in state.spaces.items() if v is not None}
            events.append(RoundBegan(round=state.round, dice=dice))
        return events

    def view(self, state: SkyLanternsState, seat: Seat | None) -> SkyLanternsView:
        return build_view(state, seat)

    def result(self, state: SkyLanternsState) -> Result | None:
        return final_result(state) if state.over else None

    def describe(self, move: Move) -> str:
        return describe(move)

    def label(self, state: SkyLanternsState, seat: Seat, move: Move) -> str:
        """`describe`, and for a Coal Trade into a full track that its gain is lost (the
        mover's own track, which everyone sees); a resource chosen says how much, and the
        answers to the ghost's demand what it asks (its die is public)."""
        if move.kind not in LABELLED_BY_POSITION:  # most moves: one look, no isinstance
            return describe(move)
        if isinstance(move, mv.CoalTrade) and trade_lost(state, seat, move):
            return f"{describe(move)} (track full: the {resource_name(move.into, 1)} is lost)"
        if isinstance(move, mv.ChooseResource):
            question = asked(state)
            if question is not None and isinstance(question[2], fx.OneOf):
                return f"Gain {amount_words(move.resource, question[2].amount)}"
        if isinstance(move, mv.AnswerRival):
            question = asked(state)
            if question is not None and question[1] == "rival_choice":
                price, gain = solo.demand(question[2])
                return f"Pay the ghost {price}" if move.pay else f"Let the ghost gain {gain}"
        return describe(move)

    def catalog(self) -> dict[str, Any]:
        return {
            "main_board": BOARD.model_dump(mode="json"),
            "upgrade_tiles": [t.model_dump(mode="json") for t in TILES.values()],
            "player_boards": [b.model_dump(mode="json") for b in PLAYER_BOARDS.values()],
            "cards": [c.model_dump(mode="json") for c in CARDS.values()],
            "eras": [e.model_dump(mode="json") for e in ERAS.values()],
            "projects": [p.model_dump(mode="json") for p in PROJECTS.values()],
        }

    # --- for searching bots ------------------------------------------------------------

    def determinize(self, state: SkyLanternsState, seat: Seat, rng: Rng) -> SkyLanternsState:
        """Other hands (and drafting packets and picks), the deck's order, the unused
        Starting cards and every face-down Upgrade Tile (the seat's own too: nobody sees
        them) are dealt anew from what `seat` has not seen; the RNG is replaced. Hand cards
        whose places `seat` has seen (`known_cards`: a card drawn from the market, the
        cards it passed on in the draft) stay in those places, shuffled among them only
        where it knows no more. (While drafting, the bot forgets which cards it passed.)"""
        dealt = copy_state(state)
        others = [s for s in range(state.players) if s != seat]
        kept = _known_places(state, seat, others, rng) if state.known_cards else {}
        teapots = list(state.deck)
        startings = list(state.unused_starting)
        for other in others:
            hand = state.seats[other].hand
            if kept:
                hand = [card for i, card in enumerate(hand) if (other, i) not in kept]
            for card in [*hand, *self._draft_of(state, other)]:
                (startings if CARDS[card].starting else teapots).append(card)
        rng.shuffle(teapots)
        rng.shuffle(startings)
        for other in others:
            hand = dealt.seats[other].hand
            for i, card in enumerate(hand):
                if kept and (other, i) in kept:
                    hand[i] = kept[other, i]
                else:
                    hand[i] = startings.pop() if CARDS[card].starting else teapots.pop()
            if state.draft_packets:
                packet = dealt.draft_packets[other]
                packet[:] = [startings.pop() for _ in packet]
                if state.draft_picks[other] is not None:
                    dealt.draft_picks[other] = startings.pop()
        # What the others know is theirs: in this world their cards may lie elsewhere.
        if state.known_cards:
            dealt.known_cards = [k for k in state.known_cards if seat in k.knowers]
        dealt.deck = teapots
        dealt.unused_starting = sorted(startings)
        if not state.tiles_face_up:
            tiles = [t for p in state.seats for t in p.upgrades if t is not None]
            rng.shuffle(tiles)
            for player in dealt.seats:
                for i, tile in enumerate(player.upgrades):
                    if tile is not None:
                        player.upgrades[i] = tiles.pop()
        if state.rival is not None and dealt.rival is not None:
            # Its action deck is face down (the Raiders' top card face up), and its tiles.
            seen = 1 if state.rival.scenario == "burning-hut" else 0
            unseen = dealt.rival.deck[seen:]
            rng.shuffle(unseen)
            dealt.rival.deck[seen:] = unseen
            holders = [dealt.rival.upgrades]
            if not state.tiles_face_up:
                holders += [p.upgrades for p in dealt.seats]
            tiles = [t for holder in holders for t in holder if t is not None]
            rng.shuffle(tiles)
            for holder in holders:
                for i, tile in enumerate(holder):
                    if tile is not None:
                        holder[i] = tiles.pop()
        dealt.rng = Rng.from_seed(rng.next64())
        return dealt

    @staticmethod
    def _draft_of(state: SkyLanternsState, seat: int) -> list[str]:
        if not state.draft_packets:
            return []
        pick = state.draft_picks[seat]
        return [*state.draft_packets[seat], *([pick] if pick is not None else [])]

    def evaluate(self, state: SkyLanternsState, seat: Seat) -> float:
        """The seat's chance of winning, from its projected score (now, plus what its
        tableau should still pay) against the others' (see `evaluation.py`)."""
        return win_chance(state, seat)

    def playout_move(self, state: SkyLanternsState, seat: Seat, rng: Rng) -> Move:
        """A sensible legal move chosen cheaply, for the searching bot's playouts (see
        `playout.py`)."""
        return playout_move(state, seat, rng)


def _known_places(
    state: SkyLanternsState, seat: int, others: list[int], rng: Rng
) -> dict[tuple[int, int], str]:
    """The places in the other hands (seat, index) whose cards `seat` knows, and the card
    each gets in a determinization: a known card stays put; cards known only as a group
    (the two a seat passed in the draft: one with each of the next two seats) are
    shuffled among their places. Single cards first, so a card in two entries keeps the
    place it is known by exactly. (Cards not in another hand — in `seat`'s own, or in a
    drafting packet — have no place to keep.)"""
    entries = [k.cards for k in state.known_cards if seat in k.knowers]
    if len(entries) > 1:
        entries.sort(key=len)
    hands = [(other, state.seats[other].hand) for other in others]
    kept: dict[tuple[int, int], str] = {}
    for cards in entries:
        places = []
        for card in cards:
            for other, hand in hands:
                if card in hand:
                    place = (other, hand.index(card))
                    if place not in kept:
                        places.append(place)
                    break
        held = [state.seats[o].hand[i] for o, i in places]
        if len(held) > 1:
            rng.shuffle(held)
        kept.update(zip(places, held, strict=True))
    return kept


def describe(move: Move) -> str:
    if isinstance(move, mv.PlayContractCard):
        return f"Play {move.card} as a contract"
    if isinstance(move, mv.EraContract):
        return f"Resolve the Era card's contract {move.option + 1}"
    if isinstance(move, mv.ExclusiveContract):
        return f"Resolve the exclusive contract {move.option + 1}"
    if isinstance(move, mv.InfluenceContract):
        return "Push the influence dice: " + ", then ".join(move.tracks)
    if isinstance(move, mv.TakeDie):
        return f"Take the die on {move.space}" + (" and forfeit its reward" if move.forfeit else "")
    if isinstance(move, mv.CamphorTrade):
        return f"Pay 1 Camphor to change the die by {move.delta:+d}"
    if isinstance(move, mv.CoalTrade):
        if move.into == "coins":
            return "Trade 2 Coal for $2"
        return f"Trade 1 Coal for {amount_words(move.into, 1)}"
    if isinstance(move, mv.PlaceCore):
        return f"Place the die in Core Slot {move.slot + 1}"
    if isinstance(move, mv.PlaceCompensation):
        return f"Place the die in Compensation Slot {move.slot + 1}"
    if isinstance(move, mv.ReturnDie):
        return "Return the die to the bag: no slot can take it"
    if isinstance(move, mv.Develop):
        return f"Develop {move.card} in zone {move.zone + 1}"
    if isinstance(move, mv.Convert):
        return f"Convert {move.times} time{'s' if move.times != 1 else ''}"
    if isinstance(move, mv.ChooseResource):
        return f"Gain {resource_name(move.resource)}"
    if isinstance(move, mv.ChangeDie):
        return f"Change the die by {move.delta:+d}" if move.delta else "Leave the die as it is"
    if isinstance(move, mv.ChooseSpace):
        return f"Resolve the dice space {move.space}"
    if isinstance(move, mv.Upgrade):
        return f"Flip the Upgrade Tile on space {move.position + 1}"
    if isinstance(move, mv.DraftCard):
        return f"Keep {move.card}"
    if isinstance(move, mv.ArrangeTiles):
        return "Arrange the Upgrade Tiles " + ", ".join(move.tiles)
    if isinstance(move, mv.DrawCard):
        return f"Draw {move.card} from the market" if move.card else "Draw the deck's top card"
    if isinstance(move, mv.ChooseDonor):
        return f"Take the token from seat {move.seat}"
    if isinstance(move, mv.AnswerRival):
        return "Pay the ghost" if move.pay else "Let the ghost gain"
    return "Decline"
