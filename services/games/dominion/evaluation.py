"""How good a position looks for one seat — the knowledge the `greedy` and `mcts` bot
levels use. Uses only what that seat could know: VP and the make-up (not the order) of
every player's cards, which is public in Dominion, plus Debt and the Province pile."""

from __future__ import annotations

from services.engine import GameState, Seat

from .cards import CARDS
from .scoring import final_result, victory_points
from .state import DominionState
from .zones import all_cards

WIN = 100.0
ECONOMY_WEIGHT = 30.0
"""VP that $1 more per card is worth at the start (a Gold bought early outweighs a Duchy:
MCTS judges its short playouts by this, and a Duchy's VP are there at once)."""


def money_density(state: DominionState, seat: int) -> float:
    """Average $ per card, Debt counting against it."""
    p = state.player_states[seat]
    cards = all_cards(p)
    money = sum(CARDS[c].coins + (2 if CARDS[c].is_("Action") else 0) for c in cards)
    return (money - p.debt) / max(1, len(cards))


def game_progress(state: DominionState) -> float:
    """0 at the start, 1 when the Province pile is empty."""
    start = {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}[state.players]
    return 1 - state.supply.get("Province", 0) / start


def evaluate(state: GameState, seat: Seat) -> float:
    """Positive when `seat` is ahead: VP lead, plus an economy lead weighted more early."""
    assert isinstance(state, DominionState)
    if state.over:
        result = final_result(state)
        return WIN if seat in result.winners else -WIN
    others = [s for s in range(state.players) if s != seat]
    vp_lead = victory_points(state, seat) - max(victory_points(state, s) for s in others)
    money_lead = money_density(state, seat) - max(money_density(state, s) for s in others)
    return vp_lead + ECONOMY_WEIGHT * money_lead * (1 - game_progress(state))
