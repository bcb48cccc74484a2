"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Every iteration deals the hidden information anew from the bot's own seat
(`game.determinize`), walks one shared tree over the moves legal in that deal, plays on
to a depth limit (with the game's `playout_move` policy if it has one, else randomly)
and scores the end with the game's `evaluate` (or the real result if the game ended).
So the bot searches what it could know, never the true state.

The root's children start with a few virtual visits at their one-move-on evaluation:
with dozens of moves (a Sky Islands placement has ~70) a budget of a few hundred
iterations would otherwise hardly tell them apart, and play below the greedy bot.
Short playouts scored by the evaluation beat long random ones for the same reason.

A game that knows a strong move (`prior_move`, e.g. Dominion's expert) is searched
differently (`policy_search`): its root moves only, each followed by that policy to the
end of the game. Dozens of moves expanded at random under every node (buying a Curse as
often as a Province) drag each value towards the average of bad play, and the wide
Dominion tree never gets past it in a second.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from services.engine import Game, GameState, Move, Rng, Seat

from .policy_search import Search, policy_search
from .rewards import rewards, seat_reward

EXPLORATION = 0.7
PRIOR_VISITS = 3


@dataclass
class Node:
    seat: Seat | None = None
    """Who made the move leading here (None at the root)."""
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    move: Move | None = None
    children: dict[object, Node] = field(default_factory=dict)
    """Keyed by `key_of(move)`."""

    def ucb(self) -> float:
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def key_of(move: Move) -> object:
    """A hashable key equal for equal moves: the tuple of the move's field values (its
    `kind` first), which hashes in C, where a frozen pydantic model hashes in Python;
    for moves that hold lists, their canonical JSON."""
    values = tuple(move.__dict__.values())
    try:
        hash(values)
    except TypeError:
        return orjson.dumps(move.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)
    return values


class MctsBot:
    def __init__(
        self,
        seed: int,
        *,
        iterations: int = 200,
        seconds: float | None = None,
        depth: int = 10,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """At most `iterations` per move, and at most `seconds` of `clock` (wall time by
        default: a latency budget; `time.thread_time` gives a CPU budget that other
        load on the machine does not shrink, for fair measurements)."""
        self.rng = Rng.from_seed(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.clock = clock

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        deadline = None if self.seconds is None else self.clock() + self.seconds
        prior, playout = getattr(game, "prior_move", None), getattr(game, "playout_move", None)
        if prior is not None and playout is not None:

            def out_of_time() -> bool:
                return deadline is not None and self.clock() > deadline

            search = Search(prior, playout, key_of, out_of_time, self.iterations)
            return policy_search(game, state, seat, moves, self.rng, search)
        root = self.seeded_root(game, state, seat, moves)
        for done in range(self.iterations):
            if deadline is not None and done > 0 and self.clock() > deadline:
                break
            self.iterate(game, game.determinize(state, seat, self.rng), root, seat)
        best = root.children[max(root.children, key=lambda key: root.children[key].visits)]
        assert best.move is not None
        return best.move

    def seeded_root(self, game: Game, state: GameState, seat: Seat, moves: list[Move]) -> Node:
        """A root whose children start with `PRIOR_VISITS` visits at the value of the
        position one move on (the greedy bot's judgement, in one dealt world), so that
        search begins from the best-looking moves instead of spreading a few playouts
        over dozens of placements."""
        world = game.determinize(state, seat, self.rng)
        root = Node(visits=PRIOR_VISITS * len(moves))
        for move in moves:
            after = game.apply(world, seat, move).state
            value = seat_reward(game, after, seat)
            root.children[key_of(move)] = Node(
                seat=seat,
                visits=PRIOR_VISITS,
                reward=PRIOR_VISITS * value,
                available=PRIOR_VISITS,
                move=move,
            )
        return root

    def iterate(self, game: Game, world: GameState, root: Node, seat: Seat) -> None:
        """One search step in `world`, this step's own dealt copy: it is played on in place."""
        path = [root]
        node = root
        while not world.over:
            # At the root the bot moves for its own seat, even when others are prompted too.
            mover = seat if node is root else game.prompts(world)[0].seat
            legal = {key_of(m): m for m in game.legal_moves(world, mover)}
            for key in legal.keys() & node.children.keys():
                node.children[key].available += 1
            untried = [key for key in legal if key not in node.children]
            if untried:
                key = self.rng.choice(untried)
                node.children[key] = Node(seat=mover, available=1, move=legal[key])
                game.apply_in_place(world, mover, legal[key])
                path.append(node.children[key])
                break
            node = max((node.children[key] for key in legal), key=Node.ucb)
            assert node.move is not None  # only the root has no move
            game.apply_in_place(world, mover, node.move)
            path.append(node)
        values = self.rollout(game, world)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += values[visited.seat]

    def rollout(self, game: Game, world: GameState) -> list[float]:
        """Play on in place from `world` for at most `depth` moves: with the game's own playout
        policy if it has one (`playout_move(state, seat, rng)`, a legal move chosen
        cheaply), else uniformly at random."""
        policy = getattr(game, "playout_move", None)
        for _ in range(self.depth):
            if world.over:
                break
            mover = game.prompts(world)[0].seat
            if policy is not None:
                move = policy(world, mover, self.rng)
            else:
                move = self.rng.choice(game.legal_moves(world, mover))
            game.apply_in_place(world, mover, move)
        return rewards(game, world)
