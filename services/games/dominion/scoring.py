"""Victory points and the final standings."""

from __future__ import annotations

from collections import Counter

from services.engine import Result

from .cards import CARDS
from .state import DominionState
from .zones import all_cards


def vp_breakdown(s: DominionState, seat: int) -> dict[str, int]:
    """VP per card name, over every card the player has (deck, hand, discard, play, set
    aside). Debt does nothing at the end of the game."""
    owned = Counter(all_cards(s.player_states[seat]))
    breakdown = {name: n * CARDS[name].vp for name, n in sorted(owned.items()) if CARDS[name].vp}
    if owned["Gardens"]:  # "1 VP per 10 cards you have (round down)"
        breakdown["Gardens"] = owned["Gardens"] * (owned.total() // 10)
    if owned["Duke"]:  # "1 VP per Duchy you have"
        breakdown["Duke"] = owned["Duke"] * owned["Duchy"]
    return dict(sorted(breakdown.items()))


def victory_points(s: DominionState, seat: int) -> int:
    return sum(vp_breakdown(s, seat).values())


def final_result(s: DominionState) -> Result:
    """Most VP wins; "tied players with fewer turns win; still tied, they share the win".
    Extra turns (Outpost) do not count as turns for this."""
    scores = {}
    for seat in range(s.players):
        breakdown = vp_breakdown(s, seat)
        turns = s.player_states[seat].turns - s.player_states[seat].extra_turns
        scores[seat] = (breakdown, (sum(breakdown.values()), -turns))
    result = Result.rank(scores)
    result.summary = s.end_reason
    return result
