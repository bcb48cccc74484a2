"""Dominion: Rising Sun as a Skyport game: the contract's hooks, each a few lines."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from services.engine import Event, Game, Move, Prompt, Result, Rng, Seat
from services.engine.state import unchecked

from .big_money import BigMoneyBot, BigMoneyUltimateBot
from .cards import EXPANSIONS, SET_CARDS, SHADOWS, components
from .decisions import prompt_of
from .determinize import determinize
from .evaluation import evaluate
from .expert import ExpertBot, expert_move
from .moves import DominionMove, describe
from .observation import Observation, observe
from .player_moves import apply_move, buy_phase_legal_moves, buyable_cards, legal_moves
from .playing import shadow_label
from .scoring import final_result
from .setup import DominionConfig, new_state
from .state import DominionState
from .table import Table
from .turn import advance, playable_action
from .view import DominionView, build_view
from .zones import shadow_positions


class DominionGame(Game[DominionState, DominionConfig]):
    id: ClassVar[str] = "dominion"
    title: ClassVar[str] = "Dominion: Rising Sun"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    config_model = DominionConfig
    state_model = DominionState
    move_model = DominionMove
    view_model = DominionView

    def new_state(self, config: DominionConfig, players: int, seed: int) -> DominionState:
        state = new_state(config, players, seed)
        advance(Table(state))
        return state

    def prompts(self, state: DominionState) -> list[Prompt]:
        if state.over:
            return []
        if state.stack:
            return [prompt_of(a) for a in state.stack[-1].asks]
        return [phase_prompt(state)]

    def legal_moves(self, state: DominionState, seat: Seat) -> list[Move]:
        if state.stack or state.turn.phase != "buy" or state.over:
            return legal_moves(Table(state), seat)
        if seat != state.turn.seat:
            return []
        return buy_phase_legal_moves(Table(state), self.prompts(state)[0].options)

    def play(self, state: DominionState, seat: Seat, move: Move) -> list[Event]:
        table = Table(state)
        apply_move(table, seat, move)
        return table.log

    def view(self, state: DominionState, seat: Seat | None) -> DominionView:
        return build_view(state, seat, self.prompts(state))

    def observation(self, state: DominionState, seat: Seat) -> Observation:
        return observe(state, seat, self.prompts(state))

    def result(self, state: DominionState) -> Result | None:
        return final_result(state) if state.over else None

    def determinize(self, state: DominionState, seat: Seat, rng: Rng) -> DominionState:
        return determinize(state, seat, rng)

    def evaluate(self, state: DominionState, seat: Seat) -> float:
        """The VP-and-economy lead squashed into (0, 1); a lead of 3 VP is about 0.73
        (sharp enough for MCTS's short playouts to tell a Silver from nothing)."""
        return 1 / (1 + math.exp(-evaluate(state, seat) / 3))

    def own_bots(self) -> Mapping[str, Callable[[int], Any]]:
        return OWN_BOTS

    def playout_move(self, state: DominionState, seat: Seat, rng: Rng) -> Move:
        """MCTS's playout policy: the expert's move (uniformly random playouts buy Curses
        and Coppers, and tell search nothing). Playouts run on a world already dealt
        from the searching seat's point of view, so this reads that world directly."""
        moves = self.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        return expert_move(moves, self.observation(state, seat))

    def prior_move(self, state: DominionState, seat: Seat, rng: Rng) -> Move:
        """The move MCTS plays unless its search shows another clearly winning more
        often (see `services.ai.policy_search`): the expert's."""
        return self.playout_move(state, seat, rng)

    def describe(self, move: Move) -> str:
        return describe(move)

    def catalog(self) -> dict[str, Any]:
        """The components, and the card sets (`card_sets` option) with their cards."""
        data = components().model_dump(mode="json")
        data["card_sets"] = [
            {"slug": slug, "name": name, "cards": list(SET_CARDS[slug])}
            for slug, name in EXPANSIONS.items()
        ]
        return data


OWN_BOTS: dict[str, Callable[[int], Any]] = {
    "big-money": lambda seed: BigMoneyBot(),
    "big-money-ultimate": lambda seed: BigMoneyUltimateBot(),
    "expert": ExpertBot,
}
"""Dominion's own bot levels, beside the game-agnostic ones."""


_new_prompt = unchecked(Prompt)


def phase_prompt(s: DominionState) -> Prompt:
    """The active player's turn: `options` are the cards they can play (Action phase: from
    the hand, and Shadows from the deck by their position) or buy (Buy phase) right now,
    one per move, or none (ending the phase: picks 0-1); the
    full list of moves is `legal_moves`."""
    turn = s.turn
    p = s.player_states[turn.seat]
    t = Table(s)
    status = f"{turn.actions} Action(s), {turn.buys} Buy(s), ${turn.coins}, {p.debt} Debt"
    if turn.phase == "action":
        playable = (
            [c for c in dict.fromkeys(p.hand) if playable_action(t, c)] if turn.actions else []
        )
        if turn.actions and not SHADOWS.isdisjoint(s.dealt):  # as `action_phase_moves`
            top = len(p.deck) - 1
            playable += [shadow_label(p.deck[top - i], i) for i in shadow_positions(p)]
        return _new_prompt(
            seat=turn.seat,
            kind="action_phase",
            options=playable,
            min_picks=0,
            max_picks=1 if playable else 0,
            text=f"Action phase ({status}): play an Action card (from your hand, or a Shadow "
            "from your deck), or end the phase.",
        )
    buyable = buyable_cards(t)
    return _new_prompt(
        seat=turn.seat,
        kind="buy_phase",
        options=buyable,
        min_picks=0,
        max_picks=1 if buyable else 0,
        text=f"Buy phase ({status}): play Treasures, buy a card or an Event, or end your turn.",
    )
