"""A small game with hidden hands, served by the API tests: everybody discards one hidden
card at once, then players take turns playing a card and drawing a hidden one.

Its own module (not conftest.py), so that its state's annotations resolve by module name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

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
)

CARDS = [f"c{n:02d}" for n in range(1, 41)]
HAND_SIZE = 3


class HiddenNumbersConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(default=2, ge=1, le=5, description="Cards each player plays.")


@dataclass(slots=True, kw_only=True)
class HiddenNumbersState(GameState):
    deck: list[str]
    hands: list[list[str]]
    played: list[list[str]]
    discards: list[str | None]
    phase: Literal["discard", "play"] = "discard"
    turn: Seat = 0
    rounds: int = 2


class Discard(Move):
    kind: Literal["discard"] = "discard"
    card: str


class Play(Move):
    kind: Literal["play"] = "play"
    card: str


class Drew(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"card"})
    kind: Literal["drew"] = "drew"
    card: str | None = None


class Discarded(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"card"})
    kind: Literal["discarded"] = "discarded"
    card: str | None = None


class Played(Event):
    kind: Literal["played"] = "played"
    card: str


class SeatSummary(BaseModel):
    seat: int
    hand_size: int
    played: list[str]
    discarded: bool


class HiddenNumbersView(BaseModel):
    phase: Literal["discard", "play"]
    turn: int
    over: bool
    you: int | None
    hand: list[str] | None = Field(description="Your hand; None for spectators.")
    your_discard: str | None
    seats: list[SeatSummary]


class HiddenNumbers(Game[HiddenNumbersState, HiddenNumbersConfig]):
    """Everybody discards one hidden card at once, then players take turns playing a card
    and drawing a hidden one. Highest total of played cards wins."""

    id = "hidden-numbers"
    title = "Hidden Numbers"
    min_players = 2
    max_players = 4
    config_model = HiddenNumbersConfig
    state_model = HiddenNumbersState
    move_model = Annotated[Discard | Play, Field(discriminator="kind")]
    view_model = HiddenNumbersView

    def new_state(self, config: HiddenNumbersConfig, players: int, seed: int) -> HiddenNumbersState:
        rng = Rng.from_seed(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
        return HiddenNumbersState(
            players=players,
            seed=seed,
            rng=rng,
            deck=deck,
            hands=hands,
            played=[[] for _ in range(players)],
            discards=[None] * players,
            rounds=config.rounds,
        )

    def prompts(self, state: HiddenNumbersState) -> list[Prompt]:
        if state.over:
            return []
        if state.phase == "discard":
            return [
                Prompt(
                    seat=s,
                    kind="discard",
                    text="Discard a card",
                    options=state.hands[s],
                    min_picks=1,
                    max_picks=1,
                )
                for s in range(state.players)
                if state.discards[s] is None
            ]
        return [
            Prompt(
                seat=state.turn,
                kind="play",
                text="Play a card",
                options=state.hands[state.turn],
                min_picks=1,
                max_picks=1,
            )
        ]

    def legal_moves(self, state: HiddenNumbersState, seat: Seat) -> list[Move]:
        if not any(p.seat == seat for p in self.prompts(state)):
            return []
        kind = Discard if state.phase == "discard" else Play
        return [kind(card=card) for card in state.hands[seat]]

    def play(self, state: HiddenNumbersState, seat: Seat, move: Move) -> list[Event]:
        if not isinstance(move, Discard | Play):
            raise IllegalMove("malformed_move", "Unknown move.")
        if (state.phase == "discard") != isinstance(move, Discard):
            raise IllegalMove("wrong_phase", f"It is the {state.phase} phase.")
        if move.card not in state.hands[seat]:
            raise IllegalMove("not_in_hand", "That card is not in your hand.", {"card": move.card})
        state.hands[seat].remove(move.card)
        if isinstance(move, Discard):
            state.discards[seat] = move.card
            events: list[Event] = [Discarded(seat=seat, card=move.card, private_to=[seat])]
            if all(d is not None for d in state.discards):
                state.phase = "play"
            return events
        state.played[seat].append(move.card)
        events = [Played(seat=seat, card=move.card)]
        if state.deck:
            card = state.deck.pop()
            state.hands[seat].append(card)
            events.append(Drew(seat=seat, card=card, private_to=[seat]))
        state.turn = (state.turn + 1) % state.players
        if all(len(p) >= state.rounds for p in state.played):
            state.over = True
        return events

    def view(self, state: HiddenNumbersState, seat: Seat | None) -> HiddenNumbersView:
        return HiddenNumbersView(
            phase=state.phase,
            turn=state.turn,
            over=state.over,
            you=seat,
            hand=list(state.hands[seat]) if seat is not None else None,
            your_discard=state.discards[seat] if seat is not None else None,
            seats=[
                SeatSummary(
                    seat=s,
                    hand_size=len(state.hands[s]),
                    played=list(state.played[s]),
                    discarded=state.discards[s] is not None,
                )
                for s in range(state.players)
            ],
        )

    def result(self, state: HiddenNumbersState) -> Result | None:
        if not state.over:
            return None
        scores = {}
        for s in range(state.players):
            total = sum(int(card[1:]) for card in state.played[s])
            scores[s] = ({"played": total}, (total,))
        return Result.rank(scores)

    def describe(self, move: Move) -> str:
        verb = "Discard" if isinstance(move, Discard) else "Play"
        return f"{verb} card {move.card}"  # type: ignore[attr-defined]

    def catalog(self) -> dict[str, Any]:
        return {"cards": [{"id": card, "value": int(card[1:])} for card in CARDS]}


HIDDEN_NUMBERS = HiddenNumbers()
