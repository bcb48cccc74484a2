"""The webhooks of changes that commit nothing - an open seat claimed or filled with a
bot (`game.seat_claimed`), the game started by the last of them (`game.started`), a
waiting game cancelled (`game.cancelled`), a game aborted (`game.aborted`) - are owed
from the change on, as a commit's are: noted with it, taken out once the notifier has
handed them over. A process that dies between the change and its hooks leaves them to
the sweep, which sends each with the event id and the body the live process would have
sent (but for `at`), and only for a change the store holds: a claim that lost the seat,
a fill that did not start the game, a cancel or an abort that lost its compare-and-set
send nothing."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from services.gameplay import referee as referee_module
from services.gameplay import seats as seats_module
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay
from services.gameplay.notifier import WebhookNotifier
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.problems import Problem
from services.gameplay.referee import Referee
from services.gameplay.seats import ClaimSeatRequest, FillSeatRequest, SeatDesk
from services.store import GameStatus
from services.store.webhooks_owed import owed_key
from tests.conftest import Crash, crash
from tests.gameplay.test_gameplay_webhooks_owed import Recorder, without_at

ANYONE = Credentials(None, "127.0.0.1")
URL = "http://127.0.0.1:9/hook"
SEAT_EVENTS = ["game.seat_claimed", "game.started", "game.cancelled"]
OPEN = {"open": True}

pytestmark = pytest.mark.anyio


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


class Waiting:
    """A game with open seats: its id, the invite codes, the creator's credentials."""

    def __init__(self, gameplay: Gameplay, game_id: str, codes: dict[int, str], creator: str):
        self.gameplay = gameplay
        self.id = game_id
        self.codes = codes
        self.creator = Credentials(creator, "127.0.0.1")

    @property
    def desk(self) -> SeatDesk:
        return self.gameplay.service.seats

    async def claim(self, seat: int, name: str) -> Any:
        request = ClaimSeatRequest(code=self.codes[seat], name=name)
        return await self.desk.claim(self.id, seat, request, None)

    async def fill(self, seat: int, bot: str = "random") -> Any:
        return await self.desk.fill_with_bot(
            self.id, self.creator, seat, FillSeatRequest(bot=bot), None
        )

    async def cancel(self) -> Any:
        return await self.desk.cancel(self.id, self.creator, None)


async def waiting(
    gameplay: Gameplay, events: list[str] | None = SEAT_EVENTS, seats: int = 3
) -> Waiting:
    """A game of a named host and `seats - 1` open seats, told of `events`."""
    hooks: dict[str, Any] = {}
    if events is not None:
        hooks = {"webhook_url": URL, "webhook_events": events}
    request = CreateGameRequest(
        game="hidden-numbers", seats=[{"name": "Host"}] + [OPEN] * (seats - 1), seed=3, **hooks
    )
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    assert created.status is GameStatus.WAITING
    codes = {seat.seat: seat.invite_code or "" for seat in created.seats if seat.open}
    return Waiting(gameplay, created.id, codes, created.creator_token or "")


async def bots_game(gameplay: Gameplay, events: list[str]) -> str:
    request = CreateGameRequest(
        game="hidden-numbers",
        seats=[{"name": "B1", "bot": "random"}, {"name": "B2", "bot": "random"}],
        seed=3,
        webhook_url=URL,
        webhook_events=events,
    )
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    return created.id


async def notes(gameplay: Gameplay) -> list[str]:
    return list(await gameplay.store.redis.zrange(owed_key(gameplay.store.prefix), 0, -1))


async def died(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, act, dead: Any = crash
) -> None:
    """Runs `act` in a process that dies where it calls `owner.name` (as `dead`): what
    came before stands, nothing after runs."""
    with monkeypatch.context() as dying:
        dying.setattr(owner, name, dead)
        with pytest.raises(Crash):
            await act


def as_of(webhooks: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
    """Webhooks as compared across two games: `at` dropped, the game's id as `G`."""
    return [
        {
            key: (value.replace(game_id, "G") if isinstance(value, str) else value)
            for key, value in webhook.items()
        }
        for webhook in without_at(webhooks)
    ]


def of_game(recorder: Recorder, game_id: str) -> list[dict[str, Any]]:
    return [webhook for webhook in recorder.webhooks if webhook["game_id"] == game_id]


# --- game.seat_claimed and game.started ---------------------------------------------------


async def test_a_claim_whose_process_died_gets_game_seat_claimed_from_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    game = await waiting(gameplay)
    await died(monkeypatch, SeatDesk, "_after_fill", game.claim(1, "Ana"))

    stored = await gameplay.store.load(game.id)
    assert stored is not None and stored.seats[1].name == "Ana", "the claim landed"
    assert recorder.webhooks == [], "its hooks never ran"
    assert len(await notes(gameplay)) == 2, "its game.seat_claimed, and a start it might be"
    assert await gameplay.referee.send_owed_webhooks(60) == 0, "its hooks may still run"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert without_at(recorder.webhooks) == [
        {
            "url": URL,
            "id": f"{game.id}:0:game.seat_claimed:1",
            "type": "game.seat_claimed",
            "game_id": game.id,
            "game": "hidden-numbers",
            "version": 0,
            "tags": [],
            "seat": 1,
            "name": "Ana",
            "bot": None,
        }
    ], "no game.started: the game still waits"
    assert await notes(gameplay) == []
    assert await gameplay.referee.send_owed_webhooks(0) == 0 and len(recorder.webhooks) == 1


async def test_a_claim_whose_process_died_is_sent_though_the_seat_replaced_its_token_since(
    gameplay, recorder, monkeypatch
) -> None:
    platform = Credentials("platform-key-for-tests-0001", "127.0.0.1", platform=True)
    request = CreateGameRequest(
        game="hidden-numbers",
        seats=[{"name": "Host"}, OPEN],
        seed=3,
        webhook_url=URL,
        webhook_events=["game.seat_claimed"],
    )
    created, _ = await gameplay.service.create_game(platform, request, None)
    code = created.seats[1].invite_code or ""
    claim = gameplay.service.seats.claim(
        created.id, 1, ClaimSeatRequest(code=code, name="Ana"), None
    )
    await died(monkeypatch, SeatDesk, "_after_fill", claim)
    # The claimant never got its token: the platform gives the seat a new one.
    await gameplay.service.seat_tokens.replace(created.id, platform, 1, None)

    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert [(webhook["id"], webhook["name"]) for webhook in recorder.webhooks] == [
        (f"{created.id}:0:game.seat_claimed:1", "Ana")
    ]
    assert await notes(gameplay) == []


async def test_the_fill_that_started_the_game_and_died_gets_both_webhooks_as_sent_live(
    gameplay, recorder, monkeypatch
) -> None:
    """The same claims in two games: in one the last fill's process lives, in the other
    it dies once the fill landed. The sweep sends the second what the first got."""
    live = await waiting(gameplay)
    await live.claim(1, "Ana")
    await live.fill(2)
    sent_live = as_of(of_game(recorder, live.id), live.id)
    assert [webhook["type"] for webhook in sent_live] == [
        "game.seat_claimed",
        "game.seat_claimed",
        "game.started",
    ]
    assert await notes(gameplay) == [], "all handed over"

    game = await waiting(gameplay)
    await game.claim(1, "Ana")
    await died(monkeypatch, SeatDesk, "_after_fill", game.fill(2))
    started = await gameplay.store.load(game.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    assert len(of_game(recorder, game.id)) == 1, "only the first claim's"

    assert await gameplay.referee.send_owed_webhooks(0) == 2
    sent = of_game(recorder, game.id)
    assert [webhook["id"] for webhook in sent] == [
        f"{game.id}:0:game.seat_claimed:1",
        f"{game.id}:0:game.seat_claimed:2",
        f"{game.id}:0:game.started",
    ]
    assert as_of(sent, game.id) == sent_live
    assert [seat["name"] for seat in sent[2]["seats"]] == ["Host", "Ana", "Bot (random)"]
    assert await notes(gameplay) == []
    assert (
        await gameplay.referee.send_owed_webhooks(0) == 0 and len(of_game(recorder, game.id)) == 3
    )


async def test_game_started_is_owed_on_its_own_when_the_process_dies_after_the_claim_hook(
    gameplay, recorder, monkeypatch
) -> None:
    game = await waiting(gameplay, seats=2)
    await died(monkeypatch, SeatDesk, "_started", game.claim(1, "Ana"))
    assert recorder.ids() == [f"{game.id}:0:game.seat_claimed:1"], "handed over"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids()[1:] == [f"{game.id}:0:game.started"]
    started = recorder.webhooks[1]
    assert [(seat["name"], seat["open"]) for seat in started["seats"]] == [
        ("Host", False),
        ("Ana", False),
    ]
    assert await notes(gameplay) == []


async def test_game_started_keeps_the_seats_as_they_were_at_the_start(
    gameplay, recorder, monkeypatch
) -> None:
    """A seat that leaves (a bot takes over) before the sweep sends game.started is not
    shown as abandoned in it: the live process would not have."""
    game = await waiting(gameplay, ["game.started"], seats=3)
    await game.claim(1, "Ana")
    await died(monkeypatch, SeatDesk, "_after_fill", game.claim(2, "Bo"))
    started = await gameplay.store.load(game.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    verdict = await gameplay.referee.take_over(started, 0, reason="resigned", at_version=False)
    assert verdict.value == "done"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    (sent,) = recorder.webhooks
    assert sent["id"] == f"{game.id}:0:game.started"
    assert [seat["abandoned"] for seat in sent["seats"]] == [False, False, False]


async def test_the_fill_that_starts_the_game_owes_game_started_though_it_read_another_seat_open(
    gameplay, recorder, monkeypatch
) -> None:
    """Two fills of the last two open seats at once: each reads the other's seat still
    open, so neither knows it is the last; only the script does. The one that started
    the game, dying right after, still gets its game.started sent."""
    game = await waiting(gameplay, ["game.started"])
    both_open = await gameplay.store.load(game.id)
    assert both_open is not None and set(both_open.invites) == {1, 2}
    await game.claim(1, "Ana")  # the first lands; the game still waits
    assert len(await notes(gameplay)) == 1, "a start it might have been"
    assert await gameplay.referee.send_owed_webhooks(0) == 0, "it was not"
    assert await notes(gameplay) == []
    request = ClaimSeatRequest(code=game.codes[2], name="Bo")
    fill = game.desk._claim(game.id, 2, request, "a-token", None, both_open)
    await died(monkeypatch, SeatDesk, "_after_fill", fill)
    started = await gameplay.store.load(game.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    assert recorder.webhooks == []
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{game.id}:0:game.started"]


async def test_a_sweep_that_read_the_game_still_waiting_keeps_the_note_of_the_start_made_since(
    gameplay, recorder, monkeypatch
) -> None:
    """A first fill's note of a start it might be outlives the lease; the sweep claims it
    and reads the game still waiting, while the last fill notes it again and starts the
    game (then dies). The sweep must not take out the note it now stands for."""
    game = await waiting(gameplay, ["game.started"])
    await game.claim(1, "Ana")
    assert len(await notes(gameplay)) == 1, "a start it might have been"
    still_waiting = await gameplay.store.load(game.id)
    load = gameplay.store.load
    meanwhile: list[str] = []

    async def the_start_lands_meanwhile(game_id: str) -> Any:
        if meanwhile:
            return await load(game_id)
        meanwhile.append(game_id)
        await asyncio.sleep(0.005)  # noted again later than the sweep claimed it
        await died(monkeypatch, SeatDesk, "_after_fill", game.claim(2, "Bo"))
        return still_waiting

    with monkeypatch.context() as racing:
        racing.setattr(gameplay.store, "load", the_start_lands_meanwhile)
        assert await gameplay.referee.send_owed_webhooks(0) == 0, "it read the game waiting"
    started = await gameplay.store.load(game.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    assert len(await notes(gameplay)) == 1, "kept for the start"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{game.id}:0:game.started"]


async def test_a_claim_that_lost_the_seat_gets_nothing_from_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    """Two claims of one seat, each noted: the first lands and its process dies, the
    second finds the seat taken. The sweep sends the first's game.seat_claimed, once,
    and nothing for the second."""
    game = await waiting(gameplay, ["game.seat_claimed"])
    await died(monkeypatch, SeatDesk, "_after_fill", game.claim(1, "Ana"))
    with pytest.raises(Problem) as lost:
        await game.claim(1, "Bo")
    assert lost.value.code == "seat_taken"
    assert len(await notes(gameplay)) == 2, "each claim noted its own"

    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert [(webhook["id"], webhook["name"]) for webhook in recorder.webhooks] == [
        (f"{game.id}:0:game.seat_claimed:1", "Ana")
    ]
    assert await notes(gameplay) == []


async def test_a_claim_that_lost_to_a_claim_handed_over_gets_nothing_from_the_sweep(
    gameplay, recorder
) -> None:
    game = await waiting(gameplay, ["game.seat_claimed"])
    await game.fill(1)
    assert len(recorder.webhooks) == 1 and await notes(gameplay) == []
    with pytest.raises(Problem):
        await game.claim(1, "Bo")
    assert len(await notes(gameplay)) == 1, "the lost claim's note"
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert len(recorder.webhooks) == 1 and await notes(gameplay) == []


# --- game.cancelled -----------------------------------------------------------------------


async def test_a_cancel_whose_process_died_gets_game_cancelled_as_sent_live(
    gameplay, recorder, monkeypatch
) -> None:
    live = await waiting(gameplay, ["game.cancelled"])
    await live.cancel()
    sent_live = as_of(recorder.webhooks, live.id)
    assert [webhook["type"] for webhook in sent_live] == ["game.cancelled"]
    assert await notes(gameplay) == []

    game = await waiting(gameplay, ["game.cancelled"])
    dead_log = SimpleNamespace(info=crash)  # right after the change, before its webhook
    await died(monkeypatch, seats_module, "log", game.cancel(), dead_log)
    cancelled = await gameplay.store.load(game.id)
    assert cancelled is not None and cancelled.status is GameStatus.ABORTED
    assert len(recorder.webhooks) == 1
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    sent = of_game(recorder, game.id)
    assert [webhook["id"] for webhook in sent] == [f"{game.id}:0:game.cancelled"]
    assert as_of(sent, game.id) == sent_live
    assert sent[0]["reason"] == seats_module.CANCELLED
    assert await notes(gameplay) == []


async def test_a_cancel_that_lost_to_the_start_gets_nothing_from_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    """The creator cancels a game read while it waited; its last seat is filled first.
    The cancel is noted, lands nowhere, and the sweep sends no game.cancelled."""
    game = await waiting(gameplay, ["game.cancelled"], seats=2)
    was_waiting = await gameplay.store.load(game.id)
    await game.claim(1, "Ana")  # the game starts
    desk = game.desk
    reads = [was_waiting]
    load = desk.load

    async def read_before_the_start(game_id: str) -> Any:
        return reads.pop() if reads else await load(game_id)

    monkeypatch.setattr(desk, "load", read_before_the_start)
    with pytest.raises(Problem) as refused:
        await desk.cancel(game.id, game.creator, None)
    assert refused.value.code == "game_not_waiting"
    assert len(await notes(gameplay)) == 1, "the cancel was noted"
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert recorder.webhooks == [] and await notes(gameplay) == []


# --- game.aborted -------------------------------------------------------------------------


@pytest.fixture
def failing_bots(monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the bot crashed")

    monkeypatch.setattr(Referee, "_bot_choice", broken)


@pytest.mark.parametrize("events", [["game.aborted"], ["game.finished"]])
async def test_an_abort_whose_process_died_gets_game_aborted_as_sent_live(
    gameplay, recorder, monkeypatch, failing_bots, events
) -> None:
    live = await bots_game(gameplay, events)
    await gameplay.referee.advance(live, 0)
    sent_live = as_of(recorder.webhooks, live)
    assert [webhook["type"] for webhook in sent_live] == ["game.aborted"]
    assert await notes(gameplay) == []

    game_id = await bots_game(gameplay, events)
    await died(monkeypatch, WebhookNotifier, "aborted", gameplay.referee.advance(game_id, 0))
    aborted = await gameplay.store.load(game_id)
    assert aborted is not None and aborted.status is GameStatus.ABORTED
    assert len(recorder.webhooks) == 1
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    sent = of_game(recorder, game_id)
    assert [webhook["id"] for webhook in sent] == [f"{game_id}:0:game.aborted"]
    assert as_of(sent, game_id) == sent_live
    assert sent[0]["reason"] == aborted.abort_reason == "The bot of seat 0 could not move."
    assert await notes(gameplay) == []


async def test_an_abort_that_lost_to_another_gets_nothing_from_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    """Two aborts decided at one version, for different reasons (a bot that failed, a
    step given up): the first lands and its process dies; the second lands nowhere.
    The sweep sends the first's game.aborted, once, with its reason."""
    game_id = await bots_game(gameplay, ["game.aborted"])
    record = await gameplay.store.load(game_id)
    assert record is not None
    referee = gameplay.referee
    await died(monkeypatch, WebhookNotifier, "aborted", referee._abort(record, "the first"))
    await referee._abort(record, "the second")
    assert len(await notes(gameplay)) == 2
    assert await referee.send_owed_webhooks(0) == 1
    assert [(webhook["id"], webhook["reason"]) for webhook in recorder.webhooks] == [
        (f"{game_id}:0:game.aborted", "the first")
    ]
    assert await notes(gameplay) == []


async def test_an_abort_that_lost_to_a_move_gets_nothing_though_the_game_aborted_later_alike(
    gameplay, recorder, monkeypatch
) -> None:
    """An abort decided at version 0 loses to a bot's move; the game is aborted at
    version 1 for the same reason, and that process dies too. The sweep sends version
    1's game.aborted, and nothing for version 0's."""
    game_id = await bots_game(gameplay, ["game.aborted"])
    at_start = await gameplay.store.load(game_id)
    assert at_start is not None
    await gameplay.referee.advance(game_id, 0)  # a bot moves
    moved = await gameplay.store.load(game_id)
    assert moved is not None and moved.version == 1
    referee = gameplay.referee
    await referee._abort(at_start, "a step kept failing")
    await died(
        monkeypatch, WebhookNotifier, "aborted", referee._abort(moved, "a step kept failing")
    )
    assert len(await notes(gameplay)) == 2
    assert await referee.send_owed_webhooks(0) == 1
    assert recorder.ids() == [f"{game_id}:1:game.aborted"]
    assert await notes(gameplay) == []


async def test_a_step_given_up_whose_worker_died_gets_game_aborted(
    gameplay, recorder, monkeypatch
) -> None:
    game_id = await bots_game(gameplay, ["game.finished"])
    counted = SimpleNamespace(labels=crash)  # right after the change, before its webhook
    given_up = gameplay.referee.give_up(game_id, 0, "its step kept failing")
    await died(monkeypatch, referee_module.metrics, "GAMES_FINISHED", given_up, counted)
    assert recorder.webhooks == []
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    assert [(webhook["id"], webhook["reason"]) for webhook in recorder.webhooks] == [
        (f"{game_id}:0:game.aborted", "its step kept failing")
    ]


# --- games that owe none of them ----------------------------------------------------------


@pytest.mark.parametrize(
    "events", [None, ["move"], ["game.finished"]], ids=["no-webhooks", "move", "finished"]
)
async def test_seats_and_a_cancel_of_a_game_that_asked_for_none_of_them_note_nothing(
    gameplay, recorder, events
) -> None:
    started = await waiting(gameplay, events)
    await started.claim(1, "Ana")
    await started.fill(2)
    cancelled = await waiting(gameplay, events)
    await cancelled.cancel()
    assert await gameplay.store.redis.exists(owed_key(gameplay.store.prefix)) == 0
    assert recorder.webhooks == []


async def test_an_abort_of_a_game_not_told_of_its_end_notes_nothing(
    gameplay, recorder, failing_bots
) -> None:
    game_id = await bots_game(gameplay, ["move", "game.started"])
    await gameplay.referee.advance(game_id, 0)
    aborted = await gameplay.store.load(game_id)
    assert aborted is not None and aborted.status is GameStatus.ABORTED
    assert await gameplay.store.redis.exists(owed_key(gameplay.store.prefix)) == 0
