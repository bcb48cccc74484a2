"""The contract, checked the same way on every registered game (and the Blind Bid toy).

Random bots play whole games; at every step the state must survive JSON exactly, the
legal moves must be exactly what `apply` accepts from a prompted seat, views must be
JSON, and the end must come with a result whose scores equal their breakdowns.
"""

import dataclasses
import os

import orjson
import pytest
from blind_bid import blind_bid, blind_bid_solo

from services.ai import RandomBot, play_match
from services.engine import Game, IllegalMove, Rng, all_games, copy_state

GAMES = [*all_games(), blind_bid, blind_bid_solo]
ROUNDS = int(os.environ.get("SKYPORT_CONTRACT_GAMES", "12"))


def player_counts(game):
    return list(range(game.min_players, game.max_players + 1))


def mutable_parts(value, found=None):
    """id -> object for every list, dict, set and unfrozen dataclass reachable from value."""
    found = {} if found is None else found
    if isinstance(value, list | dict | set | bytearray) or (
        dataclasses.is_dataclass(value) and not type(value).__dataclass_params__.frozen
    ):
        found[id(value)] = value
    if isinstance(value, list | tuple | set | frozenset):
        for item in value:
            mutable_parts(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            mutable_parts(item, found)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            mutable_parts(getattr(value, field.name), found)
    return found


def check_picks(prompt):
    """One meaning of `options` and picks for every game, so a client can render any
    prompt: options listed means a pick among them, from min_picks to max_picks (at least
    one possible); no options means the legal moves are the decision, picks 0-0."""
    if prompt.options:
        assert 0 <= prompt.min_picks <= prompt.max_picks <= len(prompt.options), prompt
        assert prompt.max_picks >= 1, prompt
    else:
        assert prompt.min_picks == prompt.max_picks == 0, prompt


def check_step(game, state, seat, move):
    dumped = game.dump_state(state)
    assert game.load_state(dumped) == state
    assert game.dump_state(game.load_state(dumped)) == dumped
    copied = copy_state(state)
    assert copied == state
    assert not mutable_parts(copied).keys() & mutable_parts(state).keys(), "a copy shares"
    for prompt in game.prompts(state):
        check_picks(prompt)
    prompted = {p.seat for p in game.prompts(state)}
    for other in range(state.players):
        assert bool(game.legal_moves(state, other)) == (other in prompted)
    assert move in game.legal_moves(state, seat)
    assert isinstance(game.describe(move), str) and game.describe(move)
    for viewer in [None, *range(state.players)]:
        orjson.dumps(game.view(state, viewer).model_dump(mode="json"))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_random_games_keep_the_contract(game):
    for round_ in range(ROUNDS):
        players = player_counts(game)[round_ % len(player_counts(game))]
        bots = [RandomBot(round_ * 10 + s) for s in range(players)]
        record = play_match(
            game, bots, seed=round_, on_step=lambda st, s, m: check_step(game, st, s, m)
        )
        assert game.prompts(record.state) == []
        assert record.state.over
        for standing in record.result.standings:
            assert standing.score == sum(standing.breakdown.values())
        assert sorted(s.seat for s in record.result.standings) == list(range(players))
        # Only a solo player can lose without anyone winning, and then the result says why.
        assert record.result.winners or (players == 1 and record.result.summary)
        assert all(0.0 <= r <= 1.0 for r in record.result.returns())


def random_starts(game, first_seed, bot_seeds):
    """The first state and the random bots of a few games, every player count in turn."""
    for round_ in range(max(2, ROUNDS // 4)):
        players = player_counts(game)[round_ % len(player_counts(game))]
        bots = [RandomBot(round_ * bot_seeds + s) for s in range(players)]
        yield game.setup(None, players, first_seed + round_), bots


def next_move(game, state, bots):
    seat = game.prompts(state)[0].seat
    return seat, bots[seat].choose(game, state, seat)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_apply_never_changes_the_state_it_was_given(game):
    for state, bots in random_starts(game, 1000, 7):
        while game.prompts(state):
            seat, move = next_move(game, state, bots)
            before = copy_state(state)
            dumped = game.dump_state(state)
            after = game.apply(state, seat, move).state
            assert state == before and game.dump_state(state) == dumped
            assert not mutable_parts(after).keys() & mutable_parts(state).keys()
            state = after


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_apply_in_place_reaches_what_apply_reaches(game):
    """Matches and searches play on in place: they must meet the very states, events and
    prompts that `apply` gives, never prompts remembered from before the move."""
    for state, bots in random_starts(game, 2000, 5):
        while game.prompts(state):
            seat, move = next_move(game, state, bots)
            copied = game.apply(state, seat, move)
            owned = copy_state(state)
            in_place = game.apply_in_place(owned, seat, move)
            assert in_place.state is owned
            assert game.dump_state(owned) == game.dump_state(copied.state)
            assert [e.model_dump() for e in in_place.events] == [
                e.model_dump() for e in copied.events
            ]
            assert game.prompts(owned) == game.prompts(copied.state)
            state = copied.state
        final = game.dump_state(state)
        with pytest.raises(IllegalMove) as error:
            game.apply_in_place(state, 0, move)
        assert error.value.code == "game_over"
        assert game.dump_state(state) == final


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_move_refused_before_the_rules_run_leaves_the_state_in_place_as_it_was(game):
    state = game.setup(None, game.min_players, 5)
    before = game.dump_state(state)
    prompted = {p.seat for p in game.prompts(state)}
    move = game.legal_moves(state, min(prompted))[0]
    with pytest.raises(IllegalMove):
        game.apply_in_place(state, state.players, move)  # no such seat: never prompted
    with pytest.raises(IllegalMove) as error:
        game.apply_in_place(state, min(prompted), {"no": "such move"})
    assert error.value.code == "malformed_move"
    assert game.dump_state(state) == before


@pytest.mark.parametrize(
    "game",
    [g for g in GAMES if type(g).determinize is not Game.determinize],
    ids=lambda g: g.id,
)
def test_a_determinization_shares_nothing_with_the_real_state(game):
    """A search plays on in place in the world it was dealt, so that world must not
    share a list, dict or mutable piece with the real state."""
    seen = []
    players = game.min_players
    play_match(
        game,
        [RandomBot(s) for s in range(players)],
        seed=31,
        on_step=lambda st, s, m: seen.append(st),
    )
    rng = Rng.from_seed(3)
    for state in seen[:: max(1, len(seen) // 12)]:
        for seat in range(state.players):
            dealt = game.determinize(state, seat, rng)
            assert not mutable_parts(dealt).keys() & mutable_parts(state).keys()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_same_seed_and_moves_rebuild_the_identical_state(game):
    players = game.min_players
    record = play_match(game, [RandomBot(s) for s in range(players)], seed=99)
    state = game.setup(None, players, 99)
    for seat, move in record.moves:
        state = game.apply(state, seat, game.dump_move(move)).state
    assert game.dump_state(state) == game.dump_state(record.state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_moves_from_unprompted_seats_are_refused(game):
    state = game.setup(None, game.min_players, 5)
    prompted = {p.seat for p in game.prompts(state)}
    waiting = [s for s in range(state.players) if s not in prompted]
    if not waiting:
        pytest.skip(f"{game.id} prompts every seat at the start")
    move = game.legal_moves(state, next(iter(prompted)))[0]
    with pytest.raises(IllegalMove) as error:
        game.apply(state, waiting[0], move)
    assert error.value.code == "not_your_turn"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_view_for_a_seat_not_at_the_table_is_refused(game):
    state = game.setup(None, game.min_players, 5)
    for seat in (-1, state.players):
        with pytest.raises(ValueError, match="not at this"):
            game.view(state, seat)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_game_describes_itself_for_the_catalog(game):
    assert game.title and game.min_players <= game.max_players
    orjson.dumps(game.catalog())
    assert game.options_schema()["type"] == "object"
