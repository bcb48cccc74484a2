"""The game contract. Every game is a subclass of `Game` and fills in a few hooks.

A game is a deterministic state machine over plain, serialisable data:

    setup(config, seats, seed) -> state
    prompts(state)             -> who must act now, and on what
    legal_moves(state, seat)   -> every legal move of that seat now
    apply(state, seat, move)   -> Outcome(new state, events); the old state is untouched
    view(state, seat | None)   -> what that seat (None: a spectator) may see
    result(state)              -> final standings with score breakdowns, once over

The base class does the parts that are the same for every game: parsing options and
moves into the game's own pydantic models, refusing moves from seats that are not
prompted, copying the state before a move so that a refused move changes nothing, and
(de)serialising states.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from . import state as mechanism
from .errors import IllegalMove, InvalidConfig
from .rng import Rng
from .types import Event, Move, Outcome, Prompt, Resigned, Result, Seat, seats_to_act
from .validation import describe, describe_validation_error, validation_errors


@dataclass(slots=True, kw_only=True)
class GameState:
    """Fields every game state has. Games subclass it with their own fields, as slotted
    keyword-only dataclasses (see `services.engine.state` for what a state may hold)."""

    players: int
    seed: int
    rng: Rng
    over: bool = False
    resigned: list[int] = field(default_factory=list)
    """Seats that resigned. A resignation ends the game for everyone (see `resign`)."""


StateT = TypeVar("StateT", bound=GameState)
ConfigT = TypeVar("ConfigT", bound=BaseModel)


class Game(ABC, Generic[StateT, ConfigT]):
    """Base class of every game. Subclasses set the class attributes and fill the hooks."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    config_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[Any]]
    """The game's GameState dataclass."""
    move_model: ClassVar[Any]
    """A Move subclass, or an annotated union of them discriminated by `kind`."""
    view_model: ClassVar[type[BaseModel]]

    def __init__(self) -> None:
        self._moves: TypeAdapter[Move] = TypeAdapter(self.move_model)
        self._prompted: tuple[Any, list[Prompt]] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "prompts" in cls.__dict__:
            cls.prompts = _computed_once_per_state(cls.__dict__["prompts"])  # type: ignore[method-assign, assignment]
        if "view" in cls.__dict__:
            cls.view = _seat_checked(cls.__dict__["view"])  # type: ignore[method-assign, assignment]

    # --- hooks a game fills in -------------------------------------------------------

    @abstractmethod
    def new_state(self, config: ConfigT, players: int, seed: int) -> StateT:
        """The state before anyone has moved. Config and player count are already valid."""

    @abstractmethod
    def prompts(self, state: StateT) -> list[Prompt]:
        """Who must act now. Empty exactly when the game is over.

        Computed once per state: the answer for the last state asked about is kept, so
        the bot, `legal_moves` and `apply` asking in turn cost one computation. Treat the
        list as read-only, and do not change a state in place after asking about it."""

    @abstractmethod
    def legal_moves(self, state: StateT, seat: Seat) -> list[Move]:
        """Every move `seat` may make now (empty if it is not prompted)."""

    @abstractmethod
    def play(self, state: StateT, seat: Seat, move: Move) -> list[Event]:
        """Check `move` against the rules and carry it out on `state`, which is a private
        copy: mutate it freely. Raise IllegalMove before changing anything that matters —
        the copy is thrown away on error anyway."""

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> BaseModel:
        """What `seat` may see; None is a spectator. The only door out of the engine."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None:
        """Final standings once the game is over, else None."""

    @abstractmethod
    def describe(self, move: Move) -> str:
        """A short label for a move, in the rulebook's words ("Place tile 12 at (1, 2)")."""

    def label(self, state: StateT, seat: Seat, move: Move) -> str:
        """The label of a move `seat` may make in `state`, as its button reads: `describe`
        unless what the move does depends on the position beyond its fields (Valley of
        Sky Lanterns: a Coal Trade into a full track loses its gain). It may tell only
        what `seat` can see."""
        return self.describe(move)

    def observation(self, state: StateT, seat: Seat) -> Any:
        """What `seat` may know, cheaply, for bots: by default its full view. A game may
        return a lighter read-only object (its own hand, the public counts) that holds
        nothing `seat` could not see in `view(state, seat)`; bots must not change it."""
        return self.view(state, seat)

    def catalog(self) -> dict[str, Any]:
        """Component data (cards, tiles) an app needs to draw the game."""
        return {}

    # --- what searching bots need (optional: without them only the random bot plays) ---

    def determinize(self, state: StateT, seat: Seat, rng: Rng) -> StateT:
        """A copy of `state` in which everything `seat` cannot see — other hands, the
        order of decks and draw piles, the RNG itself — is dealt anew from `rng`,
        consistently with what `seat` can see. Information-set bots search these copies,
        so they never peek at the real hidden state."""
        raise NotImplementedError(f"{self.title} cannot yet deal a hidden state for bots")

    def evaluate(self, state: StateT, seat: Seat) -> float:
        """How well `seat` is doing, from 0 (hopeless) to 1 (won); the greedy bot
        maximises it and MCTS scores its cut-off playouts with it."""
        raise NotImplementedError(f"{self.title} has no evaluation for bots yet")

    def supports_search(self) -> bool:
        cls = type(self)
        return cls.determinize is not Game.determinize and cls.evaluate is not Game.evaluate

    def own_bots(self) -> Mapping[str, Callable[[int], Any]]:
        """Bot levels that only this game offers (reference and expert bots built on its
        own knowledge), by level name: each makes a bot from a seed. They play through
        the contract like every bot, seeing only their seat (`observation`/`view`)."""
        return {}

    # --- the contract, built on the hooks -------------------------------------------

    def setup(
        self,
        config: Mapping[str, Any] | BaseModel | None,
        players: int,
        seed: int,
        *,
        strict: bool = True,
    ) -> StateT:
        """The first state; `strict` as for `parse_config`."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidConfig(
                "player_count",
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}.",
                {"min": self.min_players, "max": self.max_players, "asked": players},
            )
        return self.new_state(self.parse_config(config, players, strict=strict), players, seed)

    def parse_config(
        self,
        config: Mapping[str, Any] | BaseModel | None,
        players: int,
        *,
        strict: bool = True,
    ) -> ConfigT:
        """The options as the game's `config_model`. Strictly by default: every option
        must already have the JSON type `options_schema` publishes (JSON's lists, strings,
        numbers and booleans as parsed), so `true` is no turn limit and `"1"` no seat;
        lenient parsing would read them as 1. `strict=False` is only for options stored
        before they were checked this way (records replayed), to read them as they were."""
        if isinstance(config, self.config_model):
            return config  # type: ignore[return-value]
        raw = config.model_dump() if isinstance(config, BaseModel) else dict(config or {})
        try:
            parsed = self.config_model.model_validate(
                raw, strict=strict, context={"players": players}
            )
        except ValidationError as error:
            raise InvalidConfig(
                "invalid_options",
                describe_validation_error(error),
                {"errors": validation_errors(error, under=["options"])},
            ) from None
        return parsed  # type: ignore[return-value]

    def parse_move(self, move: Mapping[str, Any] | Move) -> Move:
        if isinstance(move, Move):
            return move
        try:
            return self._moves.validate_python(move)
        except ValidationError as error:
            errors = validation_errors(error, under=["move"])
            kind = move.get("kind") if isinstance(move, Mapping) else None
            for item in errors:
                # A union of moves puts the move's kind first, as if it were a key.
                if isinstance(kind, str) and item["location"][1:2] == [kind]:
                    del item["location"][1]
            raise IllegalMove(
                "malformed_move",
                f"That is not a move of {self.title}: {describe(errors, skip=1)}.",
                {"errors": errors},
            ) from None

    def apply(self, state: StateT, seat: Seat, move: Mapping[str, Any] | Move) -> Outcome[StateT]:
        parsed = self._checked_move(state, seat, move)
        new_state = mechanism.copy_state(state)
        events = self.play(new_state, seat, parsed)
        self._forget(new_state)
        return Outcome(state=new_state, events=events)

    def apply_in_place(
        self, state: StateT, seat: Seat, move: Mapping[str, Any] | Move
    ) -> Outcome[StateT]:
        """`apply` without the copy: `state` itself becomes the next state (OpenSpiel's
        `apply_action` beside `child`), for an owner that keeps no other reference to it —
        a playout, a match. A move refused before the rules run leaves `state` as it was;
        one the rules refuse half-way may leave it half-changed, so drop it then."""
        parsed = self._checked_move(state, seat, move)
        try:
            events = self.play(state, seat, parsed)
        finally:
            self._forget(state)
        return Outcome(state=state, events=events)

    def _checked_move(self, state: StateT, seat: Seat, move: Mapping[str, Any] | Move) -> Move:
        """The parsed move, if the game goes on and `seat` is prompted."""
        parsed = self.parse_move(move)
        if state.over:
            raise IllegalMove("game_over", "The game is over; no more moves can be made.")
        prompts = self.prompts(state)
        for prompt in prompts:
            if prompt.seat == seat:
                break
        else:
            raise IllegalMove(
                "not_your_turn",
                f"Seat {seat} is not being asked to act now.",
                {"prompted": seats_to_act(prompts)},
            )
        return parsed

    def copy_state(self, state: StateT) -> StateT:
        return mechanism.copy_state(state)

    def _forget(self, state: StateT) -> None:
        """Drop a cached prompt list computed while `state` was still being changed."""
        if self._prompted is not None and self._prompted[0] is state:
            self._prompted = None

    def resign(self, state: StateT, seat: Seat) -> Outcome[StateT]:
        """`seat` gives up. The game ends at once and is scored as it stands for the
        others; resigned seats rank last and never win (see `standings`)."""
        if state.over:
            raise IllegalMove("game_over", "The game is over; there is nothing to resign.")
        if not 0 <= seat < state.players:
            raise IllegalMove("no_such_seat", f"There is no seat {seat} in this game.")
        new_state = mechanism.copy_state(state)
        new_state.resigned.append(seat)
        new_state.over = True
        return Outcome(state=new_state, events=[Resigned(seat=seat)])

    def standings(self, state: StateT, left: Iterable[Seat] = ()) -> Result | None:
        """The game's own result, with the seats that left moved to the bottom: the
        resigned, and `left` (seats the service abandoned to a bot, which played them to
        the end: a player who left does not win by their stand-in's play)."""
        result = self.result(state)
        losers = sorted({*state.resigned, *left})
        if result is None or not losers:
            return result
        return result.demote(losers)

    def is_over(self, state: StateT) -> bool:
        return state.over

    def dump_state(self, state: StateT) -> str:
        return mechanism.dump_state(state)

    def load_state(self, data: str | bytes) -> StateT:
        """A state from JSON, validated: the boundary where stored data comes in."""
        try:
            return mechanism.load_state(self.state_model, data)  # type: ignore[no-any-return]
        except ValidationError as error:
            raise InvalidConfig(
                "invalid_state", f"Not a {self.title} state: {describe_validation_error(error)}"
            ) from None

    def dump_move(self, move: Move) -> dict[str, Any]:
        # The model's own serializer, called as `model_dump` calls it: without the
        # keyword handling around it, which costs as much as the dump (a listing dumps
        # every legal move).
        return move.__pydantic_serializer__.to_python(move, mode="json")  # type: ignore[no-any-return]

    def options_schema(self) -> dict[str, Any]:
        return self.config_model.model_json_schema()


def _seat_checked(
    view: Callable[[Any, Any, Seat | None], BaseModel],
) -> Callable[[Any, Any, Seat | None], BaseModel]:
    """Wrap a game's `view` so that a seat outside the table is an error: a game indexing
    its players by seat would otherwise show seat -1 the last player's hand."""

    @functools.wraps(view)
    def checked(self: Game, state: Any, seat: Seat | None) -> BaseModel:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"seat {seat} is not at this {state.players}-player table")
        return view(self, state, seat)

    return checked


def _computed_once_per_state(
    compute: Callable[[Any, Any], list[Prompt]],
) -> Callable[[Any, Any], list[Prompt]]:
    """Wrap a game's `prompts` so that asking again about the same state object is free."""

    @functools.wraps(compute)
    def prompts(self: Game, state: Any) -> list[Prompt]:
        cached = self._prompted
        if cached is not None and cached[0] is state:
            return cached[1]
        answer = compute(self, state)
        self._prompted = (state, answer)
        return answer

    return prompts
