"""The state of a game of Valley of Sky Lanterns: slotted dataclasses, JSON-exact.

Pending choices are data: `stack` holds the effect lists being resolved (each a frozen
`Frame`: which list, how far, for whom), and the effect a frame points at when the
stack rests is the decision the prompted player is making.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from services.engine import GameState

from .components import CARDS, DiceColour
from .effects import LanternColour

ROUNDS = 6
TURNS_PER_ROUND = 2
COINS_IN_SUPPLY = 60
"""Coins x 30: $1 x 15, $2 x 10, $5 x 5 — handled as amounts, change always given."""
CAMPHOR_IN_SUPPLY = 15
STARTING_COINS = (5, 6, 7, 8)
CORE_ZONES = 3

Step = Literal["draft", "arrange", "event", "contract", "take", "place", "end", "over"]
"""What comes once the stack is empty: the setup variants' simultaneous steps (drafting
Starting cards, arranging Upgrade Tiles), the Event phase's effects, the active player's
Contract, Take a Die or Place a Die step, or the end of the turn. While the stack holds
effects, they are resolved first."""
SETUP_STEPS = ("draft", "arrange")


@dataclass(frozen=True, slots=True, kw_only=True)
class Die:
    colour: DiceColour
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Frame:
    """An effect list being resolved: `key` names it in the effect registry, `index` is the
    next effect, `seat` the player gaining, `card` the card it came from (for "this card's
    railway rewards")."""

    key: str
    seat: int
    index: int = 0
    card: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownCards:
    """Cards in hands whose whereabouts `knowers` have seen, though the hands are hidden:
    the hand places these cards hold now hold exactly these cards, which in which being
    all that `knowers` do not know. A card drawn from the face-up Teapot market (known to
    every seat); the cards a seat passed on in the Starting-card draft (to that seat: the
    last one is with its left neighbour, the two before one with each of the next two
    seats). `determinize` keeps them there for a knower. A card leaves every entry when it
    leaves its hand (played or developed, both in view)."""

    cards: tuple[str, ...]
    knowers: tuple[int, ...]


RivalAction = Literal["take_die", "gain", "pay", "plunder", "blockade", "draw", "flip_tile"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RivalStep:
    """One step of the solo opponent's turn, told as an `opponent_acted` event: `text` in
    words, `action` and the fields it uses as data (see `OpponentActed`)."""

    action: RivalAction
    text: str
    card: str | None = None
    space: str | None = None
    value: int | None = None
    tile: str | None = None
    resource: str | None = None
    amount: int | None = None
    player_gains: tuple[str, int] | None = None
    """What the player gains in the same step: ("coins", 1) or ("cards", 1)."""


@dataclass(slots=True, kw_only=True)
class Player:
    board: str
    basics: dict[str, int]
    coins: int = 0
    camphor: int = 0
    vp: int = 0
    hand: list[str] = field(default_factory=list)
    lantern_zones: list[list[str]] = field(default_factory=lambda: [[], [], []])
    """Cards tucked in each Sky Lantern Development zone, top row first."""
    railway_zones: list[list[str]] = field(default_factory=lambda: [[], [], []])
    lantern_tokens: dict[str, int] = field(
        default_factory=lambda: {"red": 0, "yellow": 0, "blue": 0}
    )
    """Sky lanterns gained from effects (not from tucked cards)."""
    core: list[Die | None] = field(default_factory=list)
    compensation: list[Die | None] = field(default_factory=list)
    train: int = 0
    upgrades: list[str | None] = field(default_factory=list)
    """The face-down Upgrade Tile on each of the 4 spaces; None once flipped."""
    incomes: list[str] = field(default_factory=list)
    """Effect keys of every income gained so far, paid again at each Income Event."""
    lantern_project: str = ""
    railway_project: str = ""

    def lanterns(self, colour: LanternColour) -> int:
        tucked = sum(CARDS[c].lantern == colour for zone in self.lantern_zones for c in zone)
        return tucked + self.lantern_tokens[colour]

    def railway_cards(self) -> int:
        return sum(len(zone) for zone in self.railway_zones)

    def core_dice(self) -> int:
        return sum(d is not None for d in self.core)


@dataclass(slots=True, kw_only=True)
class Rival:
    """The solo game's virtual opponent: not a seat, it acts in the game's own steps."""

    scenario: Literal["dead-mine", "burning-hut"]
    challenge: bool = False
    basics: dict[str, int] = field(default_factory=dict)
    """The ghost's Coal and Indigo; the Raiders' Coal, Indigo, Tea and Dyeing Yams."""
    coins: int = 0
    camphor: int = 0
    vp: dict[str, int] = field(default_factory=dict)
    """VP by where they came from: die actions, each Income Event, final scoring."""
    deck: list[str] = field(default_factory=list)
    """The Solo Mode action deck, top card first."""
    revealed: list[str] = field(default_factory=list)
    upgrades: list[str | None] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    """The dice it took, kept beside its board until the Upkeep of rounds 3 and 5."""
    chosen: list[str] = field(default_factory=list)
    """Colours of the red/green/blue dice it chose since the last Income Event."""
    blockades: list[str] = field(default_factory=list)
    """burning-hut: the player's basic resources that cannot be paid now."""
    log: list[RivalStep] = field(default_factory=list)
    """What it did during the move being applied (emitted as events, then cleared)."""
    lost: str | None = None
    """Why the player lost, once they have."""


@dataclass(slots=True, kw_only=True)
class SkyLanternsState(GameState):
    seats: list[Player]
    eras: list[str]
    """The Era card sides in play, by ascending year: rounds 1–2, 3–4, 5–6."""
    round: int = 1
    first_player: int = 0
    """Who holds the First Player Marker now."""
    order: list[int] = field(default_factory=list)
    """This round's turn order (from the round's first player, clockwise)."""
    turn: int = 0
    """Turns taken this round; the active seat is order[turn % players]."""
    step: Step = "contract"
    held: Die | None = None
    """The die taken this turn and not yet placed."""
    spaces: dict[str, int | None] = field(default_factory=dict)
    """Die value on each Main Board dice space (its colour is the space's)."""
    covered: dict[str, str] = field(default_factory=dict)
    """Upgrade Tile lying on a dice space."""
    bag: dict[str, int] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    """Starting cards played as contracts: out of the game, face up."""
    unused_starting: list[str] = field(default_factory=list)
    """Starting cards not dealt in a 3-player game: out of the game unseen."""
    removed_tiles: list[str] = field(default_factory=list)
    coins_supply: int = COINS_IN_SUPPLY
    camphor_supply: int = CAMPHOR_IN_SUPPLY
    stack: list[Frame] = field(default_factory=list)
    draft_packets: list[list[str]] = field(default_factory=list)
    """starting_card_draft: the Starting cards each seat is choosing from now."""
    draft_picks: list[str | None] = field(default_factory=list)
    """starting_card_draft: this pass's secret choice of each seat."""
    tiles_face_up: bool = False
    """upgrade_tile_arrangement: the dealt Upgrade Tiles lie face up, known to all."""
    arranged: list[bool] = field(default_factory=list)
    market: list[str] | None = None
    """teapot_market: the 3 face-up cards one may draw instead of the deck's top card."""
    influence: dict[str, int] = field(default_factory=dict)
    """1-2 players: the space (0 = seat 0's end) of the die on each influence track."""
    rival: Rival | None = None
    """Solo: the virtual opponent."""
    known_cards: list[KnownCards] = field(default_factory=list)
    """What seats know of the others' hidden hands (see `KnownCards`); in no view."""

    @property
    def active(self) -> int:
        return self.order[self.turn % self.players]
