"""Reactions to an Attack: Moat and Diplomat.

"When another player plays an Attack card, you may first reveal this": before the Attack
does anything, each other player, in turn order from the attacker's left, may reveal
Reactions from their hand, one at a time and as often as they still may (a Diplomat
again while the hand is still 5 or more cards; Moat before or after it). A player who
reveals Moat is unaffected by that play of the Attack: the play frame's `immune` list.
"""

from __future__ import annotations

from .decisions import ask, take
from .log import CardsRevealed
from .resolution import done, handles, push
from .state import Frame
from .table import Table
from .zones import discard_from_hand, draw


def reactions_for(t: Table, seat: int, moat_revealed: bool) -> list[str]:
    hand = t.player(seat).hand
    options = []
    if "Moat" in hand and not moat_revealed:
        options.append("Moat")  # revealing it again would change nothing
    if "Diplomat" in hand and len(hand) >= 5:
        options.append("Diplomat")
    return options


def start_reactions(t: Table, play: Frame) -> None:
    """Push a `reactions` frame above the Attack's `play` frame if anyone holds a Reaction.
    It remembers where that play frame is on the stack."""
    queue = [
        str(o)
        for o in t.others(play.seat)
        if "Moat" in t.player(o).hand or "Diplomat" in t.player(o).hand
    ]
    if queue:
        at = next(i for i, frame in enumerate(t.s.stack) if frame is play)
        push(t, "reactions", play.seat, queue=queue, immune=[], moat=False, play_at=at)


@handles("reactions")
def reactions(t: Table, f: Frame) -> None:
    queue = f.vars["queue"]
    assert isinstance(queue, list)
    while queue:
        seat = int(queue[0])
        if f.sub == 1:
            f.sub = 0
            picks = take(f, seat) or []
            if not picks:
                queue.pop(0)
                f.vars["moat"] = False
                continue
            t.log.append(CardsRevealed(seat=seat, cards=[picks[0]]))
            if picks[0] == "Moat":
                f.vars["immune"].append(str(seat))  # type: ignore[union-attr]
                f.vars["moat"] = True
                continue
            draw(t, seat, 2)  # Diplomat: "draw 2 cards then discard 3"
            f.sub = 2
            hand = t.player(seat).hand
            ask(f, seat, "discard", "Diplomat: discard 3 cards.", hand, 3, 3)
            return
        if f.sub == 2:
            f.sub = 0
            discard_from_hand(t, seat, take(f, seat) or [])
            continue
        options = reactions_for(t, seat, bool(f.vars["moat"]))
        if not options:
            queue.pop(0)
            f.vars["moat"] = False
            continue
        f.sub = 1
        ask(
            f,
            seat,
            "reaction",
            f"Player {t.active + 1} plays an Attack: you may reveal a Reaction from your hand "
            "(pick none to let the Attack resolve).",
            options,
            0,
            1,
            distinct=True,
        )
        return
    immune, at = f.vars["immune"], f.vars["play_at"]
    done(t, f)
    assert isinstance(at, int)
    t.s.stack[at].vars["immune"] = immune
