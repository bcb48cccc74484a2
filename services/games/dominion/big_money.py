"""Big Money, the classic baseline: buy Province at $8, Gold at $6–7, Silver at $3–5,
and Duchies (then Estates) once the Provinces run low. It plays no Action cards of its
own choosing but answers any decision a card puts to it sensibly.

Big Money Ultimate, the usual benchmark opponent, is Big Money plus the kingdom's best
single drawing card (Smithy-like, chosen from the cards' data), bought a copy or two and
played whenever drawn.

It sees the game only through `legal_moves` and its seat's `observation`, like every
Skyport bot.
"""

from __future__ import annotations

from services.engine import Game, GameState, Move, Seat

from .card_traits import traits
from .card_values import DEBT_WEIGHT
from .cards import CARDS
from .moves import (
    BUY_CARD,
    END_PHASE,
    END_TURN,
    PLAY_TREASURES,
    Choose,
    PayDebt,
    PlayCard,
    PlayShadow,
)
from .observation import Observation

OPTION_PREFERENCE = [
    "+$2",
    "Gain a Silver",
    "Each other player gains a Curse",
    "+2 Actions",
    "Yes",
    "Discard 3 cards",
    "Gain a Curse onto your deck",
    "No",
]


def wanted_card(coins: int, provinces_left: int) -> str | None:
    """The buy rule. "Provinces run low" is 3 or fewer left for a Duchy at $5, 2 or
    fewer at $6–7, and an Estate with $2–4 when only 1 is left."""
    if coins >= 8:
        return "Province"
    if coins >= 6:
        return "Duchy" if provinces_left <= 2 else "Gold"
    if coins == 5:
        return "Duchy" if provinces_left <= 3 else "Silver"
    if provinces_left <= 1 and coins >= 2:
        return "Estate"
    return "Silver" if coins >= 3 else None


class BigMoneyBot:
    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        seen: Observation = game.observation(state, seat)
        prompt = seen.prompts[0]
        if prompt.kind == "action_phase":
            return pick(moves, END_PHASE)
        if prompt.kind == "buy_phase":
            return buy_phase(moves, seen)
        return best_choice(prompt.kind, [m for m in moves if isinstance(m, Choose)], seen)


class BigMoneyUltimateBot:
    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        seen: Observation = game.observation(state, seat)
        prompt = seen.prompts[0]
        drawer = best_drawing_card(seen.kingdom)
        if prompt.kind == "action_phase":
            plays = [m for m in moves if isinstance(m, PlayCard | PlayShadow) and m.card == drawer]
            return plays[0] if plays else pick(moves, END_PHASE)
        if prompt.kind == "buy_phase":
            if drawer is not None and buys_drawer(moves, seen, drawer):
                return BUY_CARD[drawer]
            return buy_phase(moves, seen)
        return best_choice(prompt.kind, [m for m in moves if isinstance(m, Choose)], seen)


def buys_drawer(moves: list[Move], seen: Observation, drawer: str) -> bool:
    """With the Treasures played and the Debt paid: the drawer instead of Silver."""
    if offered(moves, PLAY_TREASURES) or seen.debt or seen.coins >= 6:
        return False
    return offered(moves, BUY_CARD[drawer]) and wants_drawer(seen, drawer)


def best_drawing_card(kingdom: tuple[str, ...]) -> str | None:
    """The kingdom's best single drawing card: the most cards drawn (less the Debt it
    gives), bought with coins alone; the cheaper on a tie."""
    drawers = [
        name
        for name in kingdom
        if traits(name).action and traits(name).draws >= 2 and not CARDS[name].cost.debt
    ]

    def strength(name: str) -> tuple[float, int]:
        t = traits(name)
        return t.draws - DEBT_WEIGHT * t.debt + 0.3 * t.buys, -CARDS[name].cost.coins

    return max(drawers, key=strength, default=None)


def wants_drawer(seen: Observation, drawer: str) -> bool:
    """One copy, a second from 16 cards and a third from 25 (non-terminal drawers, like
    Laboratory, one per 5 cards), and none once the Provinces run low."""
    size = sum(seen.owned.values())
    have = seen.owned.get(drawer, 0)
    if seen.supply.get("Province", 0) <= 4:
        return False
    if traits(drawer).terminal:
        return have < 1 + (size >= 16) + (size >= 25)
    return have < 1 + size // 5


def offered(moves: list[Move], wanted: Move) -> bool:
    """`legal_moves` hands out the shared move instances of `moves.py`, so identity is
    enough (and much cheaper than comparing models)."""
    for move in moves:  # noqa: SIM110 - a plain loop makes no generator per decision
        if move is wanted:
            return True
    return False


def pick(moves: list[Move], wanted: Move) -> Move:
    return wanted if offered(moves, wanted) else moves[-1]


def buy_phase(moves: list[Move], seen: Observation) -> Move:
    if offered(moves, PLAY_TREASURES):
        return PLAY_TREASURES
    if seen.debt:
        payments = [m for m in moves if isinstance(m, PayDebt)]
        if payments:
            return max(payments, key=lambda m: m.amount)
    card = wanted_card(seen.coins, seen.supply.get("Province", 0))
    if card and offered(moves, BUY_CARD[card]):
        return BUY_CARD[card]
    return pick(moves, END_TURN)


# --- answering decisions --------------------------------------------------------------


def usefulness(card: str) -> float:
    """How much a card in hand is worth keeping (Victory cards and Curses: nothing)."""
    c = CARDS[card]
    if c.is_("Victory") or c.is_("Curse"):
        return -1.0
    return c.coins + 0.5 * (c.cost.coins + c.cost.debt / 2)


def trash_desire(card: str) -> float:
    return {"Curse": 3.0, "Estate": 2.0, "Copper": 1.0}.get(card, -usefulness(card) - 5)


def gain_desire(card: str) -> float:
    c = CARDS[card]
    return -10.0 if c.is_("Curse") else c.cost.coins + c.cost.debt * 0.7 + (c.vp if c.vp > 1 else 0)


def pick_score(kind: str, card: str, seen: Observation) -> float:
    if card not in CARDS:
        order = OPTION_PREFERENCE
        return len(order) - order.index(card) if card in order else 0.0
    if kind == "discard":
        return -usefulness(card)
    if kind == "trash":
        return trash_desire(card)
    if kind == "gain":
        return gain_desire(card)
    return usefulness(card)


def best_choice(kind: str, choices: list[Choose], seen: Observation) -> Move:
    def score(choice: Choose) -> float:
        return sum(pick_score(kind, card, seen) for card in choice.picks)

    return max(choices, key=score)
