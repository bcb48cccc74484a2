"""The components, loaded from the JSON files beside this module and validated at import.

Every list of effects a component prints is also registered under a string key
(`"space:red-3"`, `"card:T07:contract"`, `"board:P-00:core:2"`, nested lists as
`"<key>/<index>"`), so the resolver's pending frames in the state hold only that key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .effects import AnySpace, Basic, Convert, Effect, LanternColour, nested

DATA = Path(__file__).parent
DiceColour = Literal["red", "blue", "green", "black"]
DICE_COLOURS: tuple[DiceColour, ...] = ("red", "blue", "green", "black")


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiceSpace(_Data):
    """A dice space of the Main Board's 3–4 player side. Positions count from the bottom;
    `dots` 4 marks a space used only with 4 players."""

    id: str
    colour: DiceColour
    position: int = Field(ge=1, le=5)
    dots: Literal[0, 3, 4] = 0
    effects: list[Effect]


class RoundSpace(_Data):
    round: int = Field(ge=1, le=6)
    event: Literal["none", "lantern_bonus", "income"]


InfluenceColour = Literal["red", "blue", "green"]
INFLUENCE_COLOURS: tuple[InfluenceColour, ...] = ("red", "blue", "green")


class InfluenceSpace(_Data):
    """A space of an influence track on the 1-2 player side: `passed` is gained by the
    player whose contract moves the die onto it, `income` at each Income Event by the
    player on whose side of the die it lies."""

    passed: list[Effect] = Field(default_factory=list)
    income: list[Effect] = Field(default_factory=list)


class TwoPlayerSide(_Data):
    """The Main Board's 1-2 player side ("Two Player Game")."""

    removed_dice: dict[DiceColour, int]
    """Dice out of the game: "Remove 2 black, 1 red, 1 blue, and 1 green dice"."""
    dice: dict[DiceColour, int]
    """Dice in the bag once the removed ones and the three influence dice are out."""
    dice_drawn: int = Field(ge=1)
    spaces: list[DiceSpace]
    influence: dict[InfluenceColour, list[InfluenceSpace]]
    """Each track's spaces from seat 0's end to seat 1's; its die starts in the middle."""

    @model_validator(mode="after")
    def _odd_tracks(self) -> TwoPlayerSide:
        for colour, track in self.influence.items():
            if len(track) % 2 == 0 or len(track) < 3:
                raise ValueError(f"the {colour} influence track needs a middle space")
        return self


class MainBoard(_Data):
    dice: dict[DiceColour, int]
    """Dice of each colour in the bag (3 players: one of each colour fewer)."""
    spaces: list[DiceSpace]
    round_track: list[RoundSpace] = Field(min_length=6, max_length=6)
    two_player: TwoPlayerSide


class UpgradeTile(_Data):
    id: str
    space: str
    dots: Literal[0, 3, 4] = 0
    effects: list[Effect]


class TrackSpace(_Data):
    effects: list[Effect] = Field(default_factory=list)
    zone: int | None = Field(default=None, ge=0, le=2)
    """The Railway Development zone under this space, if any."""


class CoreSlot(_Data):
    zones: list[int] = Field(min_length=1, max_length=2)
    """The Sky Lantern zone(s) above this slot (P-01's extra slots span two)."""
    effects: list[Effect]


class PlayerBoard(_Data):
    id: str
    start: dict[Basic, int]
    cap: int = Field(ge=1)
    track: list[TrackSpace] = Field(min_length=4)
    train_start: int = 0
    core_slots: list[CoreSlot] = Field(min_length=6, max_length=8)
    compensation: list[list[Effect]] = Field(min_length=1, max_length=3)
    upgrade_incomes: list[list[Effect]] = Field(min_length=4, max_length=4)
    exclusive_contracts: list[list[Effect]] = Field(default_factory=list)
    coal_trade: Literal["basic", "coins"] = "basic"
    """P-03 trades 2 Coal for $2 instead of 1 Coal for 1 basic resource."""

    @model_validator(mode="after")
    def _three_railway_zones(self) -> PlayerBoard:
        zones = sorted(s.zone for s in self.track if s.zone is not None)
        if zones != [0, 1, 2] or not 0 <= self.train_start < len(self.track):
            raise ValueError("a train track has one space over each of the 3 railway zones")
        return self


class TeapotCard(_Data):
    """A Teapot card (or, with `starting`, a Starting card: same layout, removed from the
    game when played as a contract)."""

    id: str
    starting: bool = False
    lantern: LanternColour
    requirement: list[int] = Field(min_length=1, max_length=6)
    lantern_reward: list[Effect]
    lantern_cost: int = Field(ge=0)
    railway_cost: int = Field(ge=0)
    contract: list[Effect]
    railway: list[Effect]


class EraSide(_Data):
    id: str
    card: int = Field(ge=1, le=3)
    year: int
    colour: LanternColour
    bonus: list[Effect]
    """Gained once per lantern of `colour` at the Lantern Event of the era's even round."""
    contracts: list[list[Effect]] = Field(min_length=1, max_length=3)


class ProjectRow(_Data):
    per_tuck: list[Effect] = Field(default_factory=list)
    full: list[Effect] = Field(default_factory=list)


class ProjectSide(_Data):
    id: str
    card: int = Field(ge=1, le=4)
    track: Literal["lantern", "railway"]
    side: Literal["A", "B"]
    """A: the side with the icon, for the base game; B: `unique_project_cards`."""
    rows: list[ProjectRow] = Field(min_length=3, max_length=3)


def _load(name: str, model: Any) -> object:
    return TypeAdapter(model).validate_python(json.loads((DATA / name).read_text()))


BOARD: MainBoard = _load("main_board.json", MainBoard)  # type: ignore[assignment]
TILES: dict[str, UpgradeTile] = {
    t.id: t
    for t in _load("upgrade_tiles.json", list[UpgradeTile])  # type: ignore[attr-defined]
}
PLAYER_BOARDS: dict[str, PlayerBoard] = {
    b.id: b
    for b in _load("player_boards.json", list[PlayerBoard])  # type: ignore[attr-defined]
}
CARDS: dict[str, TeapotCard] = {
    c.id: c
    for name in ("starting_cards.json", "teapot_cards.json")
    for c in _load(name, list[TeapotCard])  # type: ignore[attr-defined]
}
ERAS: dict[str, EraSide] = {
    e.id: e
    for e in _load("era_cards.json", list[EraSide])  # type: ignore[attr-defined]
}
PROJECTS: dict[str, ProjectSide] = {
    p.id: p
    for p in _load("project_cards.json", list[ProjectSide])  # type: ignore[attr-defined]
}


class SoloCard(_Data):
    """A Solo Mode card: the virtual opponent takes the die showing `value` (the white
    background), else the `pick` (largest or smallest) die of `colour` (the coloured
    background), else the first die right to left, top to bottom."""

    id: str
    value: int = Field(ge=1, le=6)
    colour: InfluenceColour
    pick: Literal["largest", "smallest"]


SOLO_CARDS: dict[str, SoloCard] = {
    c.id: c
    for c in _load("solo_cards.json", list[SoloCard])  # type: ignore[attr-defined]
}
SPACES: dict[str, DiceSpace] = {s.id: s for s in BOARD.spaces}
TWO_PLAYER = BOARD.two_player
SPACES_2P: dict[str, DiceSpace] = {s.id: s for s in TWO_PLAYER.spaces}
TEAPOT_IDS: tuple[str, ...] = tuple(c.id for c in CARDS.values() if not c.starting)
STARTING_IDS: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.starting)


# --- the effect registry ----------------------------------------------------------------

EFFECTS: dict[str, tuple[Effect, ...]] = {}


def _register(key: str, effects: list[Effect]) -> None:
    assert key not in EFFECTS, f"two effect lists called {key}"
    EFFECTS[key] = tuple(effects)
    for index, effect in enumerate(effects):
        inner = nested(effect)
        if inner is not None:
            _register(f"{key}/{index}", inner)


def _register_all() -> None:
    for space in BOARD.spaces:
        _register(f"space:{space.id}", space.effects)
    for space in TWO_PLAYER.spaces:
        _register(f"space2:{space.id}", space.effects)
    for colour, track in TWO_PLAYER.influence.items():
        for i, influence_space in enumerate(track):
            _register(f"influence:{colour}:{i}:passed", influence_space.passed)
            _register(f"influence:{colour}:{i}:income", influence_space.income)
    for tile in TILES.values():
        _register(f"tile:{tile.id}", tile.effects)
    for board in PLAYER_BOARDS.values():
        for i, track_space in enumerate(board.track):
            _register(f"board:{board.id}:track:{i}", track_space.effects)
        for i, slot in enumerate(board.core_slots):
            _register(f"board:{board.id}:core:{i}", slot.effects)
        for i, effects in enumerate(board.compensation):
            _register(f"board:{board.id}:comp:{i}", effects)
        for i, effects in enumerate(board.upgrade_incomes):
            _register(f"board:{board.id}:income:{i}", effects)
        for i, effects in enumerate(board.exclusive_contracts):
            _register(f"board:{board.id}:exclusive:{i}", effects)
    for card in CARDS.values():
        _register(f"card:{card.id}:lantern", card.lantern_reward)
        _register(f"card:{card.id}:contract", card.contract)
        _register(f"card:{card.id}:railway", card.railway)
    for era in ERAS.values():
        _register(f"era:{era.id}:bonus", era.bonus)
        for i, effects in enumerate(era.contracts):
            _register(f"era:{era.id}:contract:{i}", effects)
    for project in PROJECTS.values():
        for r, row in enumerate(project.rows, start=1):
            _register(f"project:{project.id}:row{r}:tuck", row.per_tuck)
            _register(f"project:{project.id}:row{r}:full", row.full)


def _check_consistency() -> None:
    """Cross-file rules the per-file models cannot see."""
    for tile in TILES.values():
        assert tile.space in SPACES, f"tile {tile.id} covers no space {tile.space}"
        assert tile.dots == SPACES[tile.space].dots, f"tile {tile.id}: dots differ"
    assert len({t.space for t in TILES.values()}) == len(TILES), "two tiles on one space"
    for space in BOARD.spaces:
        if space.colour != "black":
            covering = [t for t in TILES.values() if t.space == space.id]
            lists = [space.effects, *(t.effects for t in covering)]
            assert not any(isinstance(e, AnySpace) for es in lists for e in es), (
                f"{space.id}: only black spaces may resolve other spaces"
            )
    for colour, count in BOARD.dice.items():
        positions = sorted(s.position for s in BOARD.spaces if s.colour == colour)
        assert positions == list(range(1, count + 1)), f"{colour}: one space per die"
    two = TWO_PLAYER
    for colour, count in two.dice.items():
        positions = sorted(s.position for s in two.spaces if s.colour == colour)
        assert positions == list(range(1, count + 1)), f"1-2 side, {colour}: one space per die"
        influence = 1 if colour in INFLUENCE_COLOURS else 0
        total = count + two.removed_dice.get(colour, 0) + influence
        assert total == BOARD.dice[colour], f"1-2 side: {colour} dice do not add up"
    kept = [t for t in TILES.values() if t.dots == 0]
    assert all(t.space in SPACES_2P for t in kept), "a 2-player tile covers no 1-2 side space"
    for space in two.spaces:
        assert space.dots == 0, f"1-2 side {space.id}: no dots on the 1-2 side"
        if space.colour != "black":
            assert not any(isinstance(e, AnySpace) for e in space.effects), space.id
    contracts = [
        *(card.contract for card in CARDS.values()),
        *(effects for era in ERAS.values() for effects in era.contracts),
        *(effects for board in PLAYER_BOARDS.values() for effects in board.exclusive_contracts),
    ]
    for effects in contracts:
        # A contract one cannot pay is refused whole (`resolver.unpaid_price`): that is
        # only right when its conversion is all it does.
        assert len(effects) == 1 or not any(isinstance(e, Convert) for e in effects), (
            "a contract that converts is that conversion alone"
        )


_register_all()
_check_consistency()
