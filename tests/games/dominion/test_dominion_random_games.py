"""Property tests: many random games with 2–6 players, over every way of choosing a
kingdom: random Rising Sun kingdoms, each of the seven recommended sets by slug, and
random kingdoms from every card set (base, Intrigue, Seaside, mixed with Rising Sun).

Every game ends; cards are conserved (Supply + players' cards + trash + set aside +
removed piles); Debt is never negative; the state survives a JSON round trip at every
step; exactly the prompted seats have legal moves; final VP equals the breakdown.

SKYPORT_RANDOM_GAMES sets how many games (default 1,400: 20 per kingdom choice and player
count); SKYPORT_DOMINION_HIDDEN_GAMES how many games the determinization check samples.
"""

import os
from collections import Counter

import pytest

from services.engine import Rng
from services.games.dominion import game
from services.games.dominion.cards import CARDS, RECOMMENDED_BY_SLUG
from services.games.dominion.scoring import vp_breakdown
from services.games.dominion.setup import BASIC_SUPPLY, pile_size
from services.games.dominion.state import DominionState
from services.games.dominion.zones import all_cards

CONFIGS: list[dict] = (
    [{}]
    + [{"kingdom": slug} for slug in RECOMMENDED_BY_SLUG]
    + [
        {"card_sets": ["base"]},
        {"card_sets": ["intrigue", "seaside"]},
        {"card_sets": ["rising-sun", "base"]},
        {"card_sets": ["rising-sun", "intrigue"]},
        {"card_sets": ["rising-sun", "seaside"]},
        {"card_sets": ["base", "intrigue", "seaside", "rising-sun"]},
    ]
)
"""Game `seed` uses CONFIGS[seed % len(CONFIGS)] and 2 + (seed // len(CONFIGS)) % 5
players, so every way of choosing a kingdom is played at every player count."""

GAMES = int(os.environ.get("SKYPORT_RANDOM_GAMES", "1400"))
CHUNKS = 10
MOVE_CAP = 20_000


class SaneRandomBot:
    """Random legal moves, nudged so that games end: it pays off Debt when it can, likes
    buying, and takes no more Debt once in debt, once the game runs long, or under Panic.
    (The rules allow a dead end: under Panic, Treasures go back to their piles, and
    players in Debt with no other source of $ can never buy again.)"""

    def __init__(self, seed: int):
        self.rng = Rng.from_seed(seed)

    def choose(self, state: DominionState, seat: int):
        moves = game.legal_moves(state, seat)
        payments = [m for m in moves if m.kind == "pay_debt"]
        if payments:
            return max(payments, key=lambda m: m.amount)
        debt = state.player_states[seat].debt
        panic = state.prophecy == "Panic" and state.sun == 0
        if debt or panic or state.turn_count > 60 * state.players:
            moves = [m for m in moves if not adds_debt(m, debt)] or moves
            coins = [m for m in moves if m.kind == "choose" and "+$2" in m.picks]
            if coins:
                return self.rng.choice(coins)
        buys = [m for m in moves if m.kind in ("buy_card", "buy_event")]
        if buys and self.rng.below(4):
            return self.rng.choice(buys)
        return self.rng.choice(moves)


def adds_debt(move, debt: int) -> bool:
    if move.kind in ("play_card", "play_shadow"):
        return bool(CARDS[move.card].debt) or (move.card == "Change" and not debt)
    if move.kind == "buy_card":
        return bool(CARDS[move.card].cost.debt)
    if move.kind == "buy_event":
        return move.event in ("Continue", "Credit")
    return move.kind == "choose" and move.picks == ["Yes"]


def card_count(state: DominionState) -> int:
    players = sum(len(all_cards(p)) for p in state.player_states)
    return (
        sum(state.supply.values())
        + players
        + len(state.trash)
        + sum(state.removed_piles.values())
        + (1 if state.riverboat_card else 0)
    )


def cards_put_out(state: DominionState) -> int:
    return (
        sum(BASIC_SUPPLY[state.players].values())
        + 10 * state.players
        + sum(pile_size(card, state.players) for card in state.dealt)
        + (1 if state.riverboat_card else 0)
    )


def check_step(state: DominionState) -> None:
    assert card_count(state) == cards_put_out(state)
    assert all(p.debt >= 0 for p in state.player_states)
    assert state.turn.coins >= 0 and state.turn.buys >= 0 and state.turn.actions >= 0
    assert game.load_state(game.dump_state(state)) == state
    for p in state.player_states:  # unseen discards: in order, and under the pile's top
        assert list(p.discard_unseen) == sorted(set(p.discard_unseen))
        assert all(0 <= at < len(p.discard) - 1 for at in p.discard_unseen)
    prompted = {p.seat for p in game.prompts(state)}
    assert prompted
    for seat in range(state.players):
        assert bool(game.legal_moves(state, seat)) == (seat in prompted)


def check_end(state: DominionState) -> None:
    result = game.result(state)
    assert result is not None and game.legal_moves(state, 0) == []
    for standing in result.standings:
        cards = all_cards(state.player_states[standing.seat])
        owned = Counter(cards)
        counted = sum(CARDS[c].vp for c in cards)
        counted += owned["Gardens"] * (len(cards) // 10) + owned["Duke"] * owned["Duchy"]
        assert standing.score == sum(standing.breakdown.values()) == counted
        assert standing.breakdown == vp_breakdown(state, standing.seat)
    assert result.winners


def config_and_players(seed: int) -> tuple[dict, int]:
    return CONFIGS[seed % len(CONFIGS)], 2 + (seed // len(CONFIGS)) % 5


def play_random_game(seed: int) -> DominionState:
    config, players = config_and_players(seed)
    state = game.setup(config, players, seed)
    bot = SaneRandomBot(seed)
    for step in range(MOVE_CAP):
        prompts = game.prompts(state)
        if not prompts:
            check_end(state)
            return state
        check_step(state)
        seat = prompts[step % len(prompts)].seat  # simultaneous prompts: any order
        state = game.apply(state, seat, bot.choose(state, seat)).state
    raise AssertionError(f"seed {seed}: {config}, {players} players, no end after {MOVE_CAP}")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_end_and_keep_every_invariant(chunk):
    for seed in range(chunk, GAMES, CHUNKS):
        play_random_game(seed)


def test_random_games_cover_every_card_event_and_prophecy():
    seen_cards, seen_events, seen_prophecies = set(), set(), set()
    for seed in range(300):
        state = game.setup({}, 2 + seed % 5, seed)
        seen_cards |= set(state.kingdom)
        seen_events |= set(state.events)
        seen_prophecies |= {state.prophecy}
    assert len(seen_cards) == 25 and len(seen_events) == 10
    assert len(seen_prophecies - {None}) == 15


HIDDEN_GAMES = int(os.environ.get("SKYPORT_DOMINION_HIDDEN_GAMES", "28"))
"""Games sampled for the determinization check below (every config and player count
is reached at 70)."""


def view_json(state: DominionState, viewer: int | None) -> dict:
    return game.view(state, viewer).model_dump(mode="json")


def check_determinization(state: DominionState, rng: Rng) -> None:
    """What `test_hidden_information` checks for every game, at positions of the mixed
    kingdoms (new hidden zones: Sentry's looked-at cards, Secret Passage, reactions...);
    and a re-dealt world can be played on, as bots do when searching."""
    spectator = view_json(state, None)
    for seat in range(state.players):
        world = game.determinize(state, seat, rng)
        assert view_json(world, seat) == view_json(state, seat)
        assert view_json(world, None) == spectator
        assert game.legal_moves(world, seat) == game.legal_moves(state, seat)
        bot = SaneRandomBot(rng.next64())
        for _ in range(40):
            prompts = game.prompts(world)
            if not prompts:
                break
            mover = prompts[0].seat
            world = game.apply(world, mover, bot.choose(world, mover)).state


@pytest.mark.parametrize("chunk", range(4))
def test_determinizing_every_kind_of_kingdom_hides_nothing_and_stays_playable(chunk):
    rng = Rng.from_seed(chunk)
    for seed in range(chunk, HIDDEN_GAMES, 4):
        config, players = config_and_players(seed)
        state = game.setup(config, players, seed)
        bot = SaneRandomBot(seed)
        for step in range(MOVE_CAP):
            prompts = game.prompts(state)
            if not prompts:
                break
            if step % 37 == 0 or (state.stack and step % 5 == 0):  # mid-card often
                check_determinization(state, rng)
            seat = prompts[step % len(prompts)].seat
            state = game.apply(state, seat, bot.choose(state, seat)).state
