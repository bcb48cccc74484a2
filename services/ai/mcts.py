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

from services.engine import Game, GameState, Move, Rng, Seat

EXPLORATION = 0.7


@dataclass
class Node:
    seat: Seat | None = None
    """Who made the move leading here (None at the root)."""
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[Move, Node] = field(default_factory=dict)

    def ucb(self) -> float:
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits)


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
        return max(root.children.items(), key=lambda item: item[1].visits)[0]

    def iterate(self, game: Game, world: GameState, root: Node) -> None:
        path = [root]
        node = root
        while not world.over:
            prompts = game.prompts(world)
            mover = prompts[0].seat
            legal = game.legal_moves(world, mover)
            for move in legal:
                if move in node.children:
                    node.children[move].available += 1
            untried = [m for m in legal if m not in node.children]
            if untried:
                move = self.rng.choice(untried)
                node.children[move] = Node(seat=mover, available=1)
                world = game.apply(world, mover, move).state
                path.append(node.children[move])
                break
            move = max(legal, key=lambda m: node.children[m].ucb())
            node = node.children[move]
            world = game.apply(world, mover, move).state
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
            winners = standings.winners if standings else []
            return [1 / len(winners) if s in winners else 0.0 for s in range(world.players)]
        return [game.evaluate(world, s) for s in range(world.players)]
