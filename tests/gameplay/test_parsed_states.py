"""The per-process cache of parsed states: a hit is the state stored under that exact
text, and the cache stays bounded."""

from __future__ import annotations

from services.engine import get_game
from services.gameplay.parsed_states import ParsedStates

GAME = get_game("sky-islands")


def _stored(seed: int) -> str:
    return GAME.dump_state(GAME.setup(None, 2, seed))


def test_the_same_text_is_parsed_once_and_equals_a_fresh_parse() -> None:
    states = ParsedStates()
    text = _stored(1)
    first = states.load(GAME, text)
    assert states.load(GAME, text) is first
    assert first == GAME.load_state(text)


def test_another_text_is_another_state() -> None:
    states = ParsedStates()
    one, two = _stored(1), _stored(2)
    assert states.load(GAME, one) != states.load(GAME, two)
    assert states.load(GAME, two) == GAME.load_state(two)


def test_a_committed_state_is_served_to_the_next_reader() -> None:
    states = ParsedStates()
    state = GAME.setup(None, 2, 3)
    seat = GAME.prompts(state)[0].seat
    after = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0]).state
    text = GAME.dump_state(after)
    states.remember(GAME, text, after)
    assert states.load(GAME, text) is after


def test_the_oldest_states_are_dropped_beyond_the_size() -> None:
    states = ParsedStates(size=2)
    texts = [_stored(seed) for seed in (1, 2, 3)]
    first = states.load(GAME, texts[0])
    states.load(GAME, texts[1])
    states.load(GAME, texts[0])  # used again: now the newest
    states.load(GAME, texts[2])  # drops texts[1], the least recently used
    assert states.load(GAME, texts[0]) is first
    assert len(states._states) == 2
