"""Decisions in the middle of a card, as data: open an `Ask` on a frame, read the answer.

A rule function asks, returns, and is called again once the answer is in
`frame.answers`. A decision with only one possible answer (discard 2 of your 5 Coppers)
is answered at once, without a prompt.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from services.engine import Prompt
from services.engine.state import unchecked

from .state import Ask, Frame

STEPWISE_LIMIT = 300
"""Past this many possible answers, picks are taken one card at a time."""


def ask(
    f: Frame,
    seat: int,
    kind: str,
    text: str,
    options: list[str],
    lo: int = 1,
    hi: int = 1,
    *,
    distinct: bool = False,
    sizes: list[int] | None = None,
    from_hand: bool = True,
    from_discard: bool = False,
) -> None:
    hi = min(hi, len(options))
    lo = min(lo, hi)
    if sizes is not None:
        sizes = [n for n in sizes if n <= len(options)]
    forced = forced_answer(options, lo, hi, distinct, sizes)
    if forced is not None:
        f.answers[str(seat)] = forced
        return
    stepwise = not distinct and sizes is None and count_answers(options, lo, hi) > STEPWISE_LIMIT
    f.asks.append(
        Ask(
            seat=seat,
            kind=kind,
            text=text,
            options=list(options),
            min=lo,
            max=hi,
            distinct=distinct,
            sizes=sizes,
            stepwise=stepwise,
            from_hand=from_hand,
            from_discard=from_discard,
        )
    )


def take(f: Frame, seat: int) -> list[str] | None:
    """The answer `seat` gave to this frame's decision, consumed; None if none is in."""
    return f.answers.pop(str(seat), None)


def forced_answer(
    options: list[str], lo: int, hi: int, distinct: bool, sizes: list[int] | None
) -> list[str] | None:
    allowed = sizes if sizes is not None else list(range(lo, hi + 1))
    if allowed in ([0], []) or not options:
        return []
    if len(allowed) != 1:
        return None
    if allowed[0] == len(options):
        return list(options)
    if not distinct and len(set(options)) == 1:
        return options[: allowed[0]]
    return None


def allowed_sizes(a: Ask) -> list[int]:
    return a.sizes if a.sizes is not None else list(range(a.min, a.max + 1))


def count_answers(options: list[str], lo: int, hi: int) -> int:
    """How many sub-multisets of `options` have between lo and hi cards."""
    ways = [1] + [0] * hi
    for count in Counter(options).values():
        ways = [sum(ways[n - k] for k in range(min(count, n) + 1)) for n in range(hi + 1)]
    return sum(ways[lo:])


def remaining(a: Ask) -> list[str]:
    left = Counter(a.options)
    left.subtract(a.picked)
    return list(left.elements())


def answers(a: Ask) -> list[list[str]]:
    """Every answer to `a` a seat may give now (as sorted card-name multisets)."""
    if a.stepwise:
        step = [[name] for name in dict.fromkeys(remaining(a))]
        return step + ([[]] if len(a.picked) >= a.min else [])
    if a.distinct:
        return [list(c) for n in allowed_sizes(a) for c in combinations(a.options, n)]
    counts = sorted(Counter(a.options).items())
    return [pick for n in allowed_sizes(a) for pick in _multisets(counts, n)]


def _multisets(counts: list[tuple[str, int]], n: int) -> list[list[str]]:
    if n == 0:
        return [[]]
    if not counts:
        return []
    (name, count), rest = counts[0], counts[1:]
    found = []
    for k in range(min(count, n), -1, -1):
        found += [[name] * k + tail for tail in _multisets(rest, n - k)]
    return found


def problem_with(a: Ask, picks: list[str]) -> str | None:
    """Why `picks` does not answer `a`, in words; None if it does."""
    if a.stepwise:
        if not picks and len(a.picked) < a.min:
            return f"pick at least {a.min - len(a.picked)} more"
        if len(picks) > 1:
            return "pick one card at a time"
        return _not_among(picks, remaining(a))
    if len(picks) not in allowed_sizes(a):
        sizes = " or ".join(str(n) for n in allowed_sizes(a))
        return f"pick {sizes}, not {len(picks)}"
    if a.distinct and len(set(picks)) != len(picks):
        return "each option may be picked once"
    return _not_among(picks, a.options)


def _not_among(picks: list[str], options: list[str]) -> str | None:
    missing = Counter(picks) - Counter(options)
    if missing:
        return f"{', '.join(sorted(missing))} is not among the choices ({', '.join(options)})"
    return None


def record(f: Frame, a: Ask, picks: list[str]) -> None:
    """Put a seat's (valid) picks into the frame; close its Ask once it is complete."""
    if a.stepwise:
        a.picked += picks
        if picks and len(a.picked) < a.max and remaining(a):
            return
        picks = a.picked
    f.answers[str(a.seat)] = list(picks)
    f.asks.remove(a)


def prompt_of(a: Ask) -> Prompt:
    if a.stepwise:
        lo = 1 if len(a.picked) < a.min else 0
        text = f"{a.text} (one card at a time; {len(a.picked)} picked so far)"
        return unchecked(Prompt)(
            seat=a.seat, kind=a.kind, text=text, options=remaining(a), min_picks=lo, max_picks=1
        )
    return unchecked(Prompt)(
        seat=a.seat, kind=a.kind, text=a.text, options=a.options, min_picks=a.min, max_picks=a.max
    )
