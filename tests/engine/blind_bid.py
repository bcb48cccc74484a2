"""A tiny game used only by the engine's tests: simultaneous hidden choices.

Each player holds three secret cards dealt from a shuffled deck of 1..12. In each of
three rounds every player at once picks a card face down; when all have picked, the
highest card takes the sum of the round's cards. It exercises what the real games need
from the contract: several seats prompted at once, hidden hands, RNG in the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.engine import (
    Event,
    Game,
    GameState,
    IllegalMove,
    Move,
    Prompt,
    Result,
    Rng,
    Seat,
    copy_state,
)


class BlindBidOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(default=3, ge=1, le=3, description="rounds to play")


class Pick(Move):
    kind: Literal["pick"] = "pick"
    card: int


class Picked(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"card"})
    kind: str = "picked"
    card: int


class RoundWon(Event):
    kind: str = "round_won"
    cards: list[int]
    points: int


@dataclass(slots=True, kw_only=True)
class BlindBidState(GameState):
    rounds_left: int
    hands: list[list[int]]
    picks: list[int | None]
    points: list[int]
    revealed: list[int] = field(default_factory=list)


class BlindBidView(BaseModel):
    hand: list[int] | None
    hand_sizes: list[int]
    picked: list[bool]
    points: list[int]


class BlindBid(Game[BlindBidState, BlindBidOptions]):
    id = "blind-bid"
    title = "Blind Bid"
    min_players = 2
    max_players = 4
    config_model = BlindBidOptions
    state_model = BlindBidState
    move_model = Pick
    view_model = BlindBidView

    def new_state(self, config: BlindBidOptions, players: int, seed: int) -> BlindBidState:
        rng = Rng.from_seed(seed)
        deck = list(range(1, 13))
        rng.shuffle(deck)
        hands = [sorted(deck[3 * p : 3 * p + 3]) for p in range(players)]
        return BlindBidState(
            players=players,
            seed=seed,
            rng=rng,
            rounds_left=config.rounds,
            hands=hands,
            picks=[None] * players,
            points=[0] * players,
        )

    def prompts(self, state: BlindBidState) -> list[Prompt]:
        if state.over:
            return []
        return [
            Prompt(
                seat=s,
                kind="pick",
                text="Pick a card",
                options=[str(c) for c in state.hands[s]],
                min_picks=1,
                max_picks=1,
            )
            for s in range(state.players)
            if state.picks[s] is None
        ]

    def legal_moves(self, state: BlindBidState, seat: Seat) -> list[Move]:
        if state.over or state.picks[seat] is not None:
            return []
        return [Pick(card=c) for c in state.hands[seat]]

    def play(self, state: BlindBidState, seat: Seat, move: Move) -> list[Event]:
        assert isinstance(move, Pick)
        if move.card not in state.hands[seat]:
            raise IllegalMove("card_not_in_hand", f"You do not hold a {move.card}.")
        state.hands[seat].remove(move.card)
        state.picks[seat] = move.card
        events: list[Event] = [Picked(seat=seat, card=move.card, private_to=[seat])]
        if all(p is not None for p in state.picks):
            events.append(self._finish_round(state))
        return events

    def _finish_round(self, state: BlindBidState) -> RoundWon:
        cards = [p for p in state.picks if p is not None]
        winner = cards.index(max(cards))
        state.points[winner] += sum(cards)
        state.revealed += cards
        state.picks = [None] * state.players
        state.rounds_left -= 1
        state.over = state.rounds_left == 0 or not state.hands[0]
        return RoundWon(seat=winner, cards=cards, points=sum(cards))

    def view(self, state: BlindBidState, seat: Seat | None) -> BlindBidView:
        return BlindBidView(
            hand=None if seat is None else state.hands[seat],
            hand_sizes=[len(h) for h in state.hands],
            picked=[p is not None for p in state.picks],
            points=state.points,
        )

    def result(self, state: BlindBidState) -> Result | None:
        if not state.over:
            return None
        return Result.rank(
            {s: ({"rounds": state.points[s]}, (state.points[s],)) for s in range(state.players)}
        )

    def determinize(self, state: BlindBidState, seat: Seat, rng: Rng) -> BlindBidState:
        """Other hands and face-down picks are re-dealt from the cards `seat` has not seen."""
        dealt = copy_state(state)
        seen = set(state.hands[seat]) | set(state.revealed) | {state.picks[seat]}
        unseen = [c for c in range(1, 13) if c not in seen]
        rng.shuffle(unseen)
        for other in (s for s in range(state.players) if s != seat):
            size = len(state.hands[other])
            dealt.hands[other], unseen = sorted(unseen[:size]), unseen[size:]
            if state.picks[other] is not None:
                dealt.picks[other], unseen = unseen[0], unseen[1:]
        dealt.rng = Rng.from_seed(rng.next64())
        return dealt

    def evaluate(self, state: BlindBidState, seat: Seat) -> float:
        total = sum(state.points)
        return 0.5 if total == 0 else state.points[seat] / total

    def describe(self, move: Move) -> str:
        assert isinstance(move, Pick)
        return f"Pick {move.card}"


blind_bid = BlindBid()


# --- the solo scenario: one player against the house ------------------------------------


class SoloBidState(GameState):
    rounds_left: int
    hand: list[int]
    house: list[int] = Field(description="The house's face-down bids, the next one first.")
    points: int = 0
    house_points: int = 0
    house_streak: int = Field(default=0, description="Rounds the house has won in a row.")
    revealed: list[int] = []


class SoloBidView(BaseModel):
    hand: list[int] | None
    house_cards_left: int
    points: int
    house_points: int
    house_streak: int
    revealed: list[int]


class HouseBid(Event):
    kind: str = "house_bid"
    card: int


HOUSE = "the house"
OUTRIGHT_STREAK = 2
"""The house takes the game at once when it wins this many rounds in a row."""


class BlindBidSolo(Game[SoloBidState, BlindBidOptions]):
    """Blind Bid for one player against a virtual opponent, the house, which bids the
    top card of its own face-down deck each round. The player must end with more points
    than the house (a tie loses), and loses outright if the house wins two rounds in a
    row."""

    id = "blind-bid-solo"
    title = "Blind Bid (solo)"
    min_players = 1
    max_players = 1
    config_model = BlindBidOptions
    state_model = SoloBidState
    move_model = Pick
    view_model = SoloBidView

    def new_state(self, config: BlindBidOptions, players: int, seed: int) -> SoloBidState:
        rng = Rng.from_seed(seed)
        deck = list(range(1, 13))
        rng.shuffle(deck)
        return SoloBidState(
            players=players,
            seed=seed,
            rng=rng,
            rounds_left=config.rounds,
            hand=sorted(deck[:3]),
            house=deck[3:6],
        )

    def prompts(self, state: SoloBidState) -> list[Prompt]:
        if state.over:
            return []
        options = [str(c) for c in state.hand]
        text = "Bid a card against the house"
        return [Prompt(seat=0, kind="pick", text=text, options=options, min_picks=1, max_picks=1)]

    def legal_moves(self, state: SoloBidState, seat: Seat) -> list[Move]:
        if state.over or seat != 0:
            return []
        return [Pick(card=c) for c in state.hand]

    def play(self, state: SoloBidState, seat: Seat, move: Move) -> list[Event]:
        assert isinstance(move, Pick)
        if move.card not in state.hand:
            raise IllegalMove("card_not_in_hand", f"You do not hold a {move.card}.")
        state.hand.remove(move.card)
        house_card = state.house.pop(0)
        cards = [move.card, house_card]
        player_won = move.card > house_card
        if player_won:
            state.points += sum(cards)
            state.house_streak = 0
        else:
            state.house_points += sum(cards)
            state.house_streak += 1
        state.revealed += cards
        state.rounds_left -= 1
        state.over = state.rounds_left == 0 or state.house_streak >= OUTRIGHT_STREAK
        return [
            Picked(seat=0, card=move.card, private_to=[0]),
            HouseBid(card=house_card),
            RoundWon(seat=0 if player_won else None, cards=cards, points=sum(cards)),
        ]

    def view(self, state: SoloBidState, seat: Seat | None) -> SoloBidView:
        return SoloBidView(
            hand=None if seat is None else list(state.hand),
            house_cards_left=len(state.house),
            points=state.points,
            house_points=state.house_points,
            house_streak=state.house_streak,
            revealed=list(state.revealed),
        )

    def result(self, state: SoloBidState) -> Result | None:
        if not state.over:
            return None
        mine, theirs = state.points, state.house_points
        if state.house_streak >= OUTRIGHT_STREAK:
            won, why = False, f"The house won {OUTRIGHT_STREAK} rounds in a row."
        elif mine > theirs:
            won, why = True, f"You beat the house, {mine} points to {theirs}."
        elif mine == theirs:
            won, why = False, f"You tied the house at {mine} points; a tie goes to the house."
        else:
            won, why = False, f"The house beat you, {theirs} points to {mine}."
        return Result.solo(
            {"rounds": mine},
            won=won,
            summary=why,
            opponent=HOUSE,
            opponent_breakdown={"rounds": theirs},
        )

    def determinize(self, state: SoloBidState, seat: Seat, rng: Rng) -> SoloBidState:
        """The house's face-down bids are dealt anew from the cards the player has not seen."""
        dealt = self.load_state(self.dump_state(state))
        unseen = [c for c in range(1, 13) if c not in state.hand and c not in state.revealed]
        rng.shuffle(unseen)
        dealt.house = unseen[: len(state.house)]
        dealt.rng = Rng.from_seed(rng.next64())
        return dealt

    def evaluate(self, state: SoloBidState, seat: Seat) -> float:
        total = state.points + state.house_points
        return 0.5 if total == 0 else state.points / total

    def describe(self, move: Move) -> str:
        assert isinstance(move, Pick)
        return f"Bid {move.card}"


blind_bid_solo = BlindBidSolo()
