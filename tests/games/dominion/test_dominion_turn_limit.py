"""The service's turn limit (RULES-NOTES.md, "Turn limit"): a game in which nobody ends it
by the rulebook still ends, once every player has had `turn_limit` turns, and is scored
as it stands."""

import pytest
from dominion_kit import me, new_game

from services.engine import InvalidConfig
from services.games.dominion import game
from services.games.dominion.log import GameEnded
from services.games.dominion.moves import EndPhase, EndTurn


def never_buy(state):
    """Play on with players who never buy anything (ending each phase at once); return
    the final state, the events of the last move and the number of moves made."""
    moves, events = 0, []
    while game.prompts(state):
        seat = game.prompts(state)[0].seat
        legal = game.legal_moves(state, seat)
        move = next(m for m in legal if isinstance(m, EndPhase | EndTurn))
        outcome = game.apply(state, seat, move)
        state, events, moves = outcome.state, outcome.events, moves + 1
        assert moves < 10_000, "the game did not end"
    return state, events, moves


def test_a_game_nobody_ends_stops_at_the_default_limit_of_100_turns_each():
    state = new_game()
    assert state.turn_limit == 100
    state, events, _ = never_buy(state)
    assert state.over and [me(state, seat).turns for seat in (0, 1)] == [100, 100]
    assert state.supply["Province"] == 8  # the rulebook's end never came
    assert "turn limit" in state.end_reason
    assert [e.reason for e in events if isinstance(e, GameEnded)] == [state.end_reason]


def test_the_limit_is_a_game_option_and_the_game_is_scored_as_it_stands():
    state = new_game(players=3, turn_limit=4)
    me(state, 2).discard.append("Province")
    state, _, _ = never_buy(state)
    assert [me(state, seat).turns for seat in (0, 1, 2)] == [4, 4, 4]
    result = game.result(state)
    assert result.winners == [2]
    assert [(s.seat, s.score) for s in result.standings][0] == (2, 9)
    assert result.summary == state.end_reason and "turn limit" in result.summary
    assert game.view(state, 0).over and game.prompts(state) == []


def test_the_limit_ends_the_game_only_after_the_last_seat_has_had_its_turn():
    state = new_game(turn_limit=1)
    while state.turn.seat == 0:
        legal = game.legal_moves(state, 0)
        state = game.apply(
            state, 0, next(m for m in legal if isinstance(m, EndPhase | EndTurn))
        ).state
    assert not state.over and me(state, 0).turns == 1 and game.prompts(state)[0].seat == 1


@pytest.mark.parametrize("limit", [0, -5, 1001, "many"])
def test_a_turn_limit_out_of_range_is_refused(limit):
    with pytest.raises(InvalidConfig) as error:
        new_game(turn_limit=limit)
    assert error.value.code == "invalid_options" and "turn_limit" in error.value.message
