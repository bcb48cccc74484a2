"""Bot turns and scoring between requests: `advance(game, version)` acts only if the game
is still at that version, so repeated or stale calls (a re-delivered task) do nothing."""

from __future__ import annotations

import asyncio

import pytest

from services.engine import Move
from services.gameplay.auth import Credentials
from services.gameplay.build import build_service
from services.gameplay.bulk import BulkCreateRequest
from services.gameplay.dispatch import InProcessDispatcher, NoDispatch, WebhookPolicy
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.settings import Settings
from services.store import GameStatus

pytestmark = pytest.mark.anyio

ANYONE = Credentials(None, "127.0.0.1")


@pytest.fixture
async def gameplay(redis_url, key_prefix, games):
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix)
    async with build_service(settings, games=games, dispatcher=NoDispatch()) as built:
        yield built


async def create(gameplay, seats, game="hidden-numbers"):
    request = CreateGameRequest(game=game, seats=seats, seed=3)
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    return created


async def test_a_bot_turn_is_played_once_however_often_it_is_asked_for(gameplay):
    created = await create(gameplay, [{"name": "Bot", "bot": "random"}, {"name": "Ann"}])
    await asyncio.gather(*(gameplay.referee.advance(created.id, 0) for _ in range(5)))
    await gameplay.referee.advance(created.id, 0)  # stale: the game is at version 1 now
    record = await gameplay.store.load(created.id)
    assert record.version == 1
    assert [e.seat for e in await gameplay.store.log(created.id, 0, 10)] == [0]


async def test_scoring_finishes_the_game_once(gameplay):
    created = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    token = created.seats[0].token
    await gameplay.service.resign(created.id, Credentials(token, "127.0.0.1"), None, None)
    assert (await gameplay.store.load(created.id)).status is GameStatus.SCORING
    await asyncio.gather(
        gameplay.referee.advance(created.id, 1), gameplay.referee.advance(created.id, 1)
    )
    record = await gameplay.store.load(created.id)
    assert record.status is GameStatus.FINISHED
    assert record.standings["standings"][-1]["seat"] == 0


async def test_a_bot_that_cannot_move_aborts_the_game(gameplay, games, monkeypatch):
    created = await create(gameplay, [{"name": "Bot", "bot": "random"}, {"name": "Ann"}])
    game = games["hidden-numbers"]
    monkeypatch.setattr(type(game), "legal_moves", lambda self, state, seat: [])
    await gameplay.referee.advance(created.id, 0)
    record = await gameplay.store.load(created.id)
    assert record.status is GameStatus.ABORTED
    feed = await gameplay.service.follow(created.id, ANYONE, 0)
    end = await anext(feed)
    assert end.status is GameStatus.ABORTED and end.result is None
    await feed.aclose()


async def test_a_bot_plays_only_its_own_legal_moves(gameplay, games):
    created = await create(gameplay, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}])
    await gameplay.referee.advance(created.id, 0)  # seat 1 (bot) discards at once
    entry = (await gameplay.store.log(created.id, 0, 10))[0]
    state = games["hidden-numbers"].setup({}, 2, 3)
    assert entry.seat == 1 and entry.move["card"] in state.hands[1]
    assert isinstance(games["hidden-numbers"].parse_move(entry.move), Move)


async def test_the_in_process_dispatcher_runs_each_version_once_and_closes():
    started: list[tuple[str, int]] = []
    release = asyncio.Event()

    async def advance(game_id: str, version: int) -> None:
        started.append((game_id, version))
        await release.wait()

    dispatcher = InProcessDispatcher(advance)
    for _ in range(3):
        await dispatcher.after_commit("g", 1)
    await dispatcher.after_commit("g", 2)
    await asyncio.sleep(0.01)
    assert sorted(started) == [("g", 1), ("g", 2)] and dispatcher.busy == 2
    await dispatcher.close()
    assert dispatcher.busy == 0


class Recording(NoDispatch):
    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        self.sent.append((game_id, version))


async def test_a_new_game_sends_a_task_only_when_a_bot_is_prompted(redis_url, key_prefix, games):
    recording = Recording()
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix)
    async with build_service(settings, games=games, dispatcher=recording) as built:
        humans = await create(built, [{"name": "Ann"}, {"name": "Bo"}])
        # Hidden Numbers opens with every seat discarding: the bot is prompted at once.
        with_bot = await create(built, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}])
    # Nothing is due in a game that waits on humans alone.
    assert recording.sent == [(with_bot.id, 0)] and humans.id != with_bot.id


async def test_a_batch_sends_tasks_only_for_its_games_with_a_bot_prompted(
    redis_url, key_prefix, games
):
    recording = Recording()
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix, api_keys="bulk-test-key-0001")
    seats = [[{"name": "Ann"}, {"name": "Bo"}], [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]]
    request = BulkCreateRequest(
        games=[CreateGameRequest(game="hidden-numbers", seats=s, seed=3) for s in seats]
    )
    platform = Credentials("bulk-test-key-0001", "127.0.0.1", platform=True)
    async with build_service(settings, games=games, dispatcher=recording) as built:
        created, _ = await built.bulk.create_games(platform, request, None)
    humans, with_bot = created.games
    assert recording.sent == [(with_bot.id, 0)] and humans.id != with_bot.id


async def test_bot_turns_read_the_state_the_turn_before_committed_without_parsing_it(
    gameplay, games, monkeypatch
):
    """A worker that plays a game's bots turn after turn parses its stored JSON only for
    the first: each commit leaves its state with the service's parsed states."""
    game = games["hidden-numbers"]
    parsed = []
    load_state = type(game).load_state
    monkeypatch.setattr(
        type(game), "load_state", lambda self, text: parsed.append(text) or load_state(self, text)
    )
    bots = [{"name": f"Bot {n}", "bot": "random"} for n in range(3)]
    created = await create(gameplay, bots)
    gameplay.referee.states = type(gameplay.referee.states)()  # as a fresh worker has
    parsed.clear()
    record = await gameplay.store.load(created.id)
    while record.status is not GameStatus.FINISHED:
        await gameplay.referee.advance(record.id, record.version)
        record = await gameplay.store.load(record.id)
    assert record.version > 5
    # The first turn's, and the final one once more for the game's record (the archive);
    # not one of the other turns' nor the scoring's.
    assert len(parsed) == 2 and parsed[1] == record.state


async def test_closing_leaves_no_task_behind_that_a_cancelled_turn_started():
    """A turn cancelled after its commit landed goes on to its after-commit hooks: the next
    turn and its webhooks. Closing must not leave those pending when the loop ends."""
    dispatcher: InProcessDispatcher

    async def advance(game_id: str, version: int) -> None:
        try:
            await asyncio.sleep(30)
        finally:
            await dispatcher.after_commit(game_id, version + 1)
            await dispatcher.send_webhook(f"{game_id}:{version}", "move", "http://x", {})

    dispatcher = InProcessDispatcher(
        advance, WebhookPolicy(secret="s", max_retries=0, backoff_seconds=0, backoff_max=0)
    )
    await dispatcher.after_commit("g", 1)
    await asyncio.sleep(0.01)
    await dispatcher.close()
    left = [
        task
        for task in asyncio.all_tasks()
        if task is not asyncio.current_task() and not task.done()
        if task.get_name().startswith(("advance-", "webhook-"))
    ]
    assert left == [] and dispatcher.busy == 0
