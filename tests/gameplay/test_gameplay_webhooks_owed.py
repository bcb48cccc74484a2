"""A commit's webhooks (`move`, a resignation's `seat.left`) are owed from the commit on:
noted with it, in its round trip, and taken out once the notifier has handed them over.
A replica that dies between its commit and its hooks leaves them to the sweep, which
sends them with the payload the notifier would have sent - and only for commits that
landed. Games without such webhooks note nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from services.gameplay import metrics
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay, build_service
from services.gameplay.commits import Change, CommitPipeline, commit_of
from services.gameplay.leavers import leave_policy
from services.gameplay.notifier import WebhookNotifier
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.settings import Settings
from services.store import CommitVerdict, GameRecord, GameStatus, LogEntry
from services.store.webhooks_owed import owed_key
from tests.conftest import Crash, crash
from tests.webhook_receiver import Receiver

ANYONE = Credentials(None, "127.0.0.1")
URL = "http://127.0.0.1:9/hook"
MOVE_HOOKS = {"webhook_url": URL, "webhook_events": ["move", "seat.left"]}

pytestmark = pytest.mark.anyio


class Recorder:
    """A dispatcher that sends no turns and records the webhooks handed to it."""

    def __init__(self) -> None:
        self.webhooks: list[dict[str, Any]] = []

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        return None

    async def resend(self, game_id: str, version: int) -> None:
        return None

    async def send_webhook(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any]
    ) -> None:
        assert payload["id"] == event_id and payload["type"] == event_type
        self.webhooks.append({"url": url, **payload})

    def ids(self) -> list[str]:
        return [webhook["id"] for webhook in self.webhooks]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


async def create(
    gameplay: Gameplay, names: tuple[str, ...] = ("Ann", "Bo"), **body: Any
) -> tuple[str, list[Credentials]]:
    seats = [{"name": name} for name in names]
    request = CreateGameRequest(game="hidden-numbers", seats=seats, seed=3, **body)
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    return created.id, [Credentials(seat.token, "127.0.0.1") for seat in created.seats]


async def move(gameplay: Gameplay, game_id: str, seat: Credentials) -> int:
    legal = await gameplay.service.legal_moves(game_id, seat)
    accepted, _ = await gameplay.service.make_move(
        game_id, seat, legal.moves[0], legal.version, None
    )
    return accepted.version


async def notes(gameplay: Gameplay) -> list[str]:
    return list(await gameplay.store.redis.zrange(owed_key(gameplay.store.prefix), 0, -1))


async def normal_webhooks(record: GameRecord, entry: LogEntry) -> list[dict[str, Any]]:
    """What the notifier sends after the commit of `entry` onto `record`, when its
    process lives."""
    sender = Recorder()
    await WebhookNotifier(sender).after_commit(Change(record, entry, "human", clocked=False))
    return sender.webhooks


def without_at(webhooks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Webhooks as compared: `at` is when each was made."""
    return [{key: value for key, value in webhook.items() if key != "at"} for webhook in webhooks]


async def dies_after_commit(gameplay: Gameplay, monkeypatch, act) -> None:
    """Runs `act` in a replica that dies right after its commit, before any hook."""
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "_after", crash)
        with pytest.raises(Crash):
            await act


# --- a replica that dies after its commit -------------------------------------------------


async def test_the_move_webhook_of_a_commit_whose_replica_died_is_sent_by_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, (ann, bo) = await create(gameplay, **MOVE_HOOKS)
    await move(gameplay, game_id, ann)  # a move whose hooks run: handed over, not owed
    assert recorder.ids() == [f"{game_id}:1:move"] and await notes(gameplay) == []
    before = await gameplay.store.load(game_id)
    assert before is not None

    await dies_after_commit(gameplay, monkeypatch, move(gameplay, game_id, bo))

    assert recorder.ids() == [f"{game_id}:1:move"], "its hooks never ran"
    assert len(await notes(gameplay)) == 1, "owed, noted with the commit"
    assert await gameplay.referee.send_owed_webhooks(60) == 0, "its hooks may still run"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{game_id}:1:move", f"{game_id}:2:move"]
    entry = await gameplay.store.logged(game_id, 2)
    assert entry is not None
    assert without_at(recorder.webhooks[1:]) == without_at(await normal_webhooks(before, entry))
    assert await notes(gameplay) == []
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert len(recorder.webhooks) == 2, "sent once"


async def test_a_resignation_whose_replica_died_gets_seat_left_and_move_once_finished(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, (ann, _) = await create(gameplay, on_leave="end_game", **MOVE_HOOKS)
    before = await gameplay.store.load(game_id)
    assert before is not None

    await dies_after_commit(gameplay, monkeypatch, gameplay.service.resign(game_id, ann, 0, None))

    await gameplay.referee.advance(game_id, 1)  # scored meanwhile: the game is over
    finished = await gameplay.store.load(game_id)
    assert finished is not None and finished.status is GameStatus.FINISHED
    assert recorder.webhooks == []
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    entry = await gameplay.store.logged(game_id, 1)
    assert entry is not None and entry.action == "resign"
    assert recorder.ids() == [f"{game_id}:1:seat.left:0", f"{game_id}:1:move"]
    left = recorder.webhooks[0]
    assert (left["seat"], left["name"], left["reason"], left["bot"]) == (0, "Ann", "resigned", None)
    assert without_at(recorder.webhooks) == without_at(await normal_webhooks(before, entry))
    assert await notes(gameplay) == []


async def test_two_sweeps_at_once_send_an_owed_commit_once(gameplay, recorder, monkeypatch) -> None:
    game_id, (ann, _) = await create(gameplay, **MOVE_HOOKS)
    await dies_after_commit(gameplay, monkeypatch, move(gameplay, game_id, ann))
    # A lease, as the sweep has: with none, a claim is stale the instant it is made, so a
    # sweep that read the notes while another was still sending (its read late behind a
    # new pooled connection) claimed the note again and sent it twice (seen once in CI).
    lease = 0.2
    await asyncio.sleep(lease + 0.05)
    sweeps = (gameplay.referee.send_owed_webhooks(lease) for _ in range(4))
    sent = await asyncio.gather(*sweeps)
    assert sum(sent) == 1 and recorder.ids() == [f"{game_id}:1:move"]


async def test_a_note_the_sweep_cannot_look_at_is_put_back_and_does_not_block_the_others(
    gameplay, recorder, monkeypatch
) -> None:
    broken, (ann, _) = await create(gameplay, **MOVE_HOOKS)
    await dies_after_commit(gameplay, monkeypatch, move(gameplay, broken, ann))
    good, (ann, _) = await create(gameplay, **MOVE_HOOKS)
    await dies_after_commit(gameplay, monkeypatch, move(gameplay, good, ann))
    logged = gameplay.store.logged

    async def unreadable(game_id: str, version: int) -> LogEntry | None:
        if game_id == broken:
            raise ValueError("a log this code cannot read")
        return await logged(game_id, version)

    monkeypatch.setattr(gameplay.store, "logged", unreadable)
    failed = metrics.SWEEP_FAILURES.labels(sweep="webhooks")._value.get()
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{good}:1:move"]
    assert metrics.SWEEP_FAILURES.labels(sweep="webhooks")._value.get() == failed + 1
    assert [note.split(":")[0] for note in await notes(gameplay)] == [broken], "kept"
    assert await gameplay.referee.send_owed_webhooks(0) == 0, "put back for later"


async def test_a_process_in_process_mode_sends_what_the_one_before_it_owed(
    redis_url, key_prefix, games
) -> None:
    receiver = Receiver()
    settings = Settings(
        redis_url=redis_url,
        key_prefix=key_prefix,
        tasks="inprocess",
        clock_sweep_seconds=0.05,
        task_stall_seconds=0.2,
        webhook_secret="a-webhook-secret-for-tests",
        webhook_allow_private=True,
    )
    try:
        async with build_service(settings, games=games, dispatcher=Recorder()) as before:
            hooks = {"webhook_url": receiver.url, "webhook_events": ["move"]}
            game_id, (ann, _) = await create(before, **hooks)
            with pytest.MonkeyPatch.context() as dying:
                dying.setattr(CommitPipeline, "_after", crash)
                with pytest.raises(Crash):
                    await move(before, game_id, ann)
        async with build_service(settings, games=games) as after:
            await after.start()
            for _ in range(100):
                if receiver.of_type("move"):
                    break
                await asyncio.sleep(0.05)
            assert [body["id"] for body in receiver.of_type("move")] == [f"{game_id}:1:move"]
    finally:
        receiver.close()


# --- a seat taken over (on_leave bot_takes_over: nothing is committed) --------------------


async def test_seat_left_of_a_seat_taken_over_whose_replica_died_is_sent_by_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, (ann, bo, _) = await create(
        gameplay, ("Ann", "Bo", "Cy"), on_leave="bot_takes_over", **MOVE_HOOKS
    )
    before = await gameplay.store.load(game_id)
    assert before is not None
    bot = leave_policy(before, gameplay.service.served.of(before)).leave_bot
    await gameplay.service.resign(game_id, bo, None, None)  # its hooks run: handed over
    assert recorder.ids() == [f"{game_id}:0:seat.left:1"] and await notes(gameplay) == []

    with monkeypatch.context() as dying:  # dies once the seat is marked, before the rest
        dying.setattr(recorder, "resend", crash)
        with pytest.raises(Crash):
            await gameplay.service.resign(game_id, ann, None, None)

    stored = await gameplay.store.load(game_id)
    assert stored is not None and stored.away[0]["why"] == "abandoned", "the seat left"
    assert len(recorder.webhooks) == 1 and len(await notes(gameplay)) == 1
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids()[1:] == [f"{game_id}:0:seat.left:0"]
    left = recorder.webhooks[1]
    assert (left["seat"], left["name"], left["reason"], left["bot"]) == (0, "Ann", "resigned", bot)
    normal = Recorder()
    await WebhookNotifier(normal).seat_left(before, 0, "resigned", bot=bot)
    assert without_at(recorder.webhooks[1:]) == without_at(normal.webhooks)
    assert await notes(gameplay) == []
    assert await gameplay.referee.send_owed_webhooks(0) == 0


async def test_a_note_for_a_take_over_that_did_not_land_sends_nothing(gameplay, recorder) -> None:
    game_id, (ann, _, _) = await create(
        gameplay, ("Ann", "Bo", "Cy"), on_leave="bot_takes_over", **MOVE_HOOKS
    )
    record = await gameplay.store.load(game_id)
    assert record is not None
    await move(gameplay, game_id, ann)
    recorder.webhooks.clear()
    # A time-out decided at version 0 lands only there; the game moved on meanwhile.
    verdict = await gameplay.referee.take_over(record, 1, reason="timeout", at_version=True)
    assert verdict.value == "moved" and len(await notes(gameplay)) == 1
    # Decided again at version 1, it lands there, and its own hooks send its seat.left.
    moved = await gameplay.store.load(game_id)
    assert moved is not None
    verdict = await gameplay.referee.take_over(moved, 1, reason="timeout", at_version=True)
    assert verdict.value == "done" and recorder.ids() == [f"{game_id}:1:seat.left:1"]
    assert len(await notes(gameplay)) == 1, "the note of the try at version 0"
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert len(recorder.webhooks) == 1 and await notes(gameplay) == []


# --- notes for commits that did not land --------------------------------------------------


async def test_a_note_for_a_commit_that_did_not_land_sends_nothing(gameplay, recorder) -> None:
    """Both seats discard at once at version 0, each noted as owing webhooks (as the
    pipeline notes them); one lands, and neither runs its hooks. The sweep sends the
    webhook of the one that landed, once, and nothing for the other."""
    game_id, _ = await create(gameplay, **MOVE_HOOKS)
    record = await gameplay.store.load(game_id)
    assert record is not None
    game = gameplay.service.served.of(record)
    state = game.load_state(record.state)
    commits = []
    for seat in (0, 1):
        move = game.legal_moves(state, seat)[0]
        commit, _ = commit_of(record, game, seat, move, game.apply(state, seat, move))
        commits.append(replace(commit, webhooks_due=True))
    won = await gameplay.store.commit(commits[0])
    lost = await gameplay.store.commit(commits[1])
    assert (won.verdict, lost.verdict) == (CommitVerdict.COMMITTED, CommitVerdict.CONFLICT)
    assert len(await notes(gameplay)) == 2

    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{game_id}:1:move"]
    assert recorder.webhooks[0]["entry"]["seat"] == 0, "the entry that landed"
    assert without_at(recorder.webhooks) == without_at(
        await normal_webhooks(record, commits[0].entry)
    )
    assert await notes(gameplay) == []


async def test_a_note_of_a_game_that_expired_sends_nothing(gameplay, recorder, monkeypatch) -> None:
    game_id, (ann, _) = await create(gameplay, **MOVE_HOOKS)
    await dies_after_commit(gameplay, monkeypatch, move(gameplay, game_id, ann))
    keys = gameplay.store.keys(game_id)
    await gameplay.store.redis.delete(keys.record, keys.log)  # expired meanwhile
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert recorder.webhooks == [] and await notes(gameplay) == []


# --- games that owe none ------------------------------------------------------------------


@pytest.mark.parametrize(
    "hooks",
    [{}, {"webhook_url": URL}, {"webhook_url": URL, "webhook_events": ["game.finished"]}],
    ids=["no-webhooks", "finished-only-by-default", "finished-only"],
)
async def test_a_commit_owing_no_webhooks_notes_none(
    gameplay, recorder, monkeypatch, hooks
) -> None:
    game_id, (ann, _) = await create(gameplay, **hooks)
    await dies_after_commit(gameplay, monkeypatch, move(gameplay, game_id, ann))
    stored = await gameplay.store.load(game_id)
    assert stored is not None and stored.version == 1, "the move landed"
    assert await gameplay.store.redis.exists(owed_key(gameplay.store.prefix)) == 0
    assert await gameplay.referee.send_owed_webhooks(0) == 0 and recorder.webhooks == []
