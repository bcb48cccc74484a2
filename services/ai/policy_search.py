"""Root search for a game that knows a strong policy (its `prior_move`, e.g. Dominion's
expert): every candidate move is followed by that policy for every seat to the end of the
game, in many worlds dealt from the bot's seat, and scored by who won.

Each round deals one world and plays every surviving candidate from it with the same
luck (the world carries its own shuffler), so two candidates' results differ only by
what the moves did: common random numbers, which make a paired difference far less
noisy than two separate means. The weaker half of the candidates is dropped after
rounds 2, 4, 8, 16, … (sequential halving: a budget of a second covers few rollouts),
and the policy's own move is left only when another's paired lead over it is clear
(`CLEAR` standard errors): a noisy search should not undo what the policy knows.

Why this beats the policy it follows: the opponent model is that policy too, so a
rollout is the game as it will be played if both follow it from here; picking the move
whose rollouts win most is one step of policy improvement, and it is most accurate in
the endgame, where rollouts are short and decisions decide games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from services.engine import Game, GameState, Move, Rng, Seat

from .rewards import seat_reward

CLEAR = 2.0
"""Standard errors of paired lead an alternative needs over the policy's move."""
MIN_ROUNDS = 8
"""Rounds before any alternative may replace the policy's move."""
SETTLED_ROUNDS = 16
"""Rounds after which a search in which no candidate has yet done anything different from
the policy's move in any world stops: a rival needs five or more wins over it, and none
against, before its lead is clear, and the rest of a second rarely finds them."""
SHORTLIST = 8
"""Candidates searched at most: the policy's move and the best others one move on."""
MAX_ROLLOUT_MOVES = 4000
"""A bound on a rollout that never ends (a game the policy cannot finish)."""


@dataclass
class Candidate:
    move: Move
    returns: list[float] = field(default_factory=list)
    """The searching seat's return in each round it was played."""


Policy = Callable[[GameState, Seat, Rng], Move]
"""A move for a seat in a state (a game's `prior_move` or `playout_move`)."""


@dataclass(frozen=True)
class Search:
    prior: Policy
    """The move to keep unless another is clearly better."""
    playout: Policy
    """How every seat plays on in the rollouts."""
    key_of: Callable[[Move], object]
    """A hashable key equal for equal moves."""
    out_of_time: Callable[[], bool]
    max_rounds: int


def policy_search(
    game: Game, state: GameState, seat: Seat, moves: list[Move], rng: Rng, search: Search
) -> Move:
    key_of = search.key_of
    first = game.determinize(state, seat, rng)
    favourite = search.prior(first, seat, rng)
    favourite_key = key_of(favourite)
    if favourite_key not in {key_of(move) for move in moves}:
        # The seat's own moves are the same in every world it could be in, so this is a
        # policy that read what the seat cannot know: search nothing on its word.
        return moves[0]
    if search.max_rounds < MIN_ROUNDS:
        return favourite  # too few rounds to ever be evidence against it
    others = shortlist(game, first, seat, moves, favourite_key, key_of)
    lead = Candidate(favourite)
    rivals = [Candidate(move) for move in others]
    rounds = 0
    while rivals and rounds < search.max_rounds:
        world = game.determinize(state, seat, rng)
        played: list[float] = []
        for candidate in [lead, *rivals]:
            if search.out_of_time():
                break
            played.append(rollout(game, world, seat, candidate.move, search.playout, rng))
        if len(played) <= len(rivals):
            break  # the clock cut this round short: its candidates are not comparable
        for candidate, value in zip([lead, *rivals], played, strict=True):
            candidate.returns.append(value)
        rounds += 1
        if rounds >= SETTLED_ROUNDS and not any(differs(c, lead) for c in rivals):
            break
        if rounds >= 2 and rounds & (rounds - 1) == 0 and len(rivals) > 1:
            rivals = halve(lead, rivals)
    if not rivals or rounds < MIN_ROUNDS:
        return favourite
    best = max(rivals, key=lambda c: paired_lead(c, lead)[0])
    mean, error = paired_lead(best, lead)
    return best.move if mean > 0 and mean > CLEAR * error else favourite


def shortlist(
    game: Game,
    world: GameState,
    seat: Seat,
    moves: list[Move],
    favourite_key: object,
    key_of: Callable[[Move], object],
) -> list[Move]:
    """The moves other than the policy's, at most `SHORTLIST - 1` of them: the best by
    the game's evaluation one move on, when there are more."""
    others = [move for move in moves if key_of(move) != favourite_key]
    if len(others) < SHORTLIST:
        return others
    scored = [(game.evaluate(game.apply(world, seat, move).state, seat), move) for move in others]
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return [move for _, move in scored[: SHORTLIST - 1]]


def rollout(
    game: Game, world: GameState, seat: Seat, move: Move, policy: Policy, rng: Rng
) -> float:
    """`seat`'s return after `move` in `world`, everyone then following `policy` (on a copy
    of `world`, played on in place)."""
    state = game.apply(world, seat, move).state
    for _ in range(MAX_ROLLOUT_MOVES):
        if state.over:
            break
        mover = game.prompts(state)[0].seat
        game.apply_in_place(state, mover, policy(state, mover, rng))
    return seat_reward(game, state, seat)


def paired_lead(candidate: Candidate, lead: Candidate) -> tuple[float, float]:
    """The mean of `candidate`'s return minus the policy move's, over the rounds both
    played (the latest ones: a candidate plays every round until it is halved away),
    and that mean's standard error."""
    n = len(candidate.returns)
    diffs = [a - b for a, b in zip(candidate.returns, lead.returns[:n], strict=True)]
    mean = sum(diffs) / max(1, n)
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def differs(candidate: Candidate, lead: Candidate) -> bool:
    """Whether `candidate` ever did better or worse than the policy's move."""
    return any(a != b for a, b in zip(candidate.returns, lead.returns, strict=True))


def halve(lead: Candidate, rivals: list[Candidate]) -> list[Candidate]:
    """Keep the better half of the rivals, by paired lead over the policy's move."""
    ranked = sorted(rivals, key=lambda c: paired_lead(c, lead)[0], reverse=True)
    return ranked[: max(1, len(ranked) // 2)]
