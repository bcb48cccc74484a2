"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Every iteration deals the hidden information anew from the bot's own seat
(`game.determinize`), walks one shared tree over the moves legal in that deal, plays
randomly to a depth limit and scores the end with the game's `evaluate` (or the real
result if the game ended). So the bot searches what it could know, never the true state.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import orjson

from services.engine import Game, GameState, Move, Rng, Seat

EXPLORATION = 0.7


@dataclass
class Node:
    seat: Seat | None = None
    """Who made the move leading here (None at the root)."""
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    move: Move | None = None
    children: dict[bytes, Node] = field(default_factory=dict)
    """Keyed by the move's canonical JSON: moves may hold lists, so they need not hash."""

    def ucb(self) -> float:
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def key_of(move: Move) -> bytes:
    return orjson.dumps(move.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)


class MctsBot:
    def __init__(
        self, seed: int, *, iterations: int = 200, seconds: float | None = None, depth: int = 30
    ) -> None:
        self.rng = Rng.from_seed(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for done in range(self.iterations):
            if deadline is not None and done > 0 and time.perf_counter() > deadline:
                break
            self.iterate(game, game.determinize(state, seat, self.rng), root)
        best = max(root.children.values(), key=lambda child: child.visits)
        assert best.move is not None
        return best.move

    def iterate(self, game: Game, world: GameState, root: Node) -> None:
        path = [root]
        node = root
        while not world.over:
            mover = game.prompts(world)[0].seat
            legal = {key_of(m): m for m in game.legal_moves(world, mover)}
            for key in legal.keys() & node.children.keys():
                node.children[key].available += 1
            untried = [key for key in legal if key not in node.children]
            if untried:
                key = self.rng.choice(untried)
                node.children[key] = Node(seat=mover, available=1, move=legal[key])
                world = game.apply(world, mover, legal[key]).state
                path.append(node.children[key])
                break
            node = max((node.children[key] for key in legal), key=Node.ucb)
            world = game.apply(world, mover, node.move).state
            path.append(node)
        rewards = self.rollout(game, world)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += rewards[visited.seat]

    def rollout(self, game: Game, world: GameState) -> list[float]:
        for _ in range(self.depth):
            if world.over:
                break
            mover = game.prompts(world)[0].seat
            world = game.apply(world, mover, self.rng.choice(game.legal_moves(world, mover))).state
        return self.rewards(game, world)

    @staticmethod
    def rewards(game: Game, world: GameState) -> list[float]:
        if world.over:
            standings = game.standings(world)
            return standings.returns() if standings else [0.0] * world.players
        return [game.evaluate(world, s) for s in range(world.players)]
