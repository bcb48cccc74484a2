"""A webhook the broker cannot take is not lost: the Celery dispatcher keeps it in a
bounded Redis outbox, and the sweep hands it to the broker once the broker is back,
with the same event id (receivers dedupe by it), once even with several sweepers."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from typing import Any

import pytest
from kombu.exceptions import OperationalError

from services.gameplay import dispatch, metrics
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay, build_service
from services.gameplay.dispatch import WEBHOOK_TASK, CeleryDispatcher
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.settings import Settings
from services.store import open_redis
from services.store.webhook_outbox import outbox_keys

pytestmark = pytest.mark.anyio

CLOSED_PORT = "redis://127.0.0.1:9/0"
"""Nothing listens there: a broker (or a Redis) that refuses every connection."""
URL = "http://hooks.example/skyport"


class Broker:
    """Stands in for the broker: refuses while `down`, else records what it takes."""

    def __init__(self, *, down: bool = False, delay: float = 0.0) -> None:
        self.down = down
        self.delay = delay
        self.tries = 0
        self.taken: list[tuple[str, list[Any]]] = []
        self._lock = threading.Lock()

    def send_task(self, name: str, args: list[Any], queue: str) -> None:
        with self._lock:
            self.tries += 1
        time.sleep(self.delay)  # in the dispatcher's threads: lets two sweeps interleave
        if self.down:
            raise OperationalError("broker unreachable")
        with self._lock:
            self.taken.append((name, args))

    def event_ids(self) -> list[str]:
        return [args[0] for _, args in self.taken]


def not_sent() -> float:
    return metrics.WEBHOOKS_NOT_SENT._value.get()


def kept() -> float:
    return metrics.WEBHOOKS_KEPT._value.get()


@pytest.fixture
async def claims(redis_url):
    client = open_redis(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def make_dispatcher(claims, key_prefix):
    made: list[CeleryDispatcher] = []

    def make(broker: Broker | None = None, **options: Any) -> CeleryDispatcher:
        dispatcher = CeleryDispatcher(
            CLOSED_PORT, f"{key_prefix}.q", claims=claims, prefix=key_prefix, **options
        )
        if broker is not None:
            dispatcher._celery.send_task = broker.send_task  # type: ignore[method-assign]
        made.append(dispatcher)
        return dispatcher

    yield make
    for dispatcher in made:
        await dispatcher.close()


@pytest.fixture
def clock(monkeypatch):
    """The dispatcher's clock (unix ms), set by the test."""
    now = {"ms": int(time.time() * 1000)}
    monkeypatch.setattr(dispatch, "_now_ms", lambda: now["ms"])
    return now


async def outbox_size(claims, key_prefix) -> int:
    entries, due, kept_at = outbox_keys(key_prefix)
    sizes = {await claims.hlen(entries), await claims.zcard(due), await claims.zcard(kept_at)}
    assert len(sizes) == 1, "the three keys of the outbox agree"
    return sizes.pop()


async def keep(dispatcher: CeleryDispatcher, *event_ids: str) -> None:
    for event_id in event_ids:
        await dispatcher.send_webhook(event_id, "move", URL, {"id": event_id})


# --- a real game: the move webhook of a committed move -------------------------------------


@pytest.fixture
async def gameplay(redis_url, key_prefix, games, make_dispatcher):
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix, webhook_allow_private=True)
    dispatcher = make_dispatcher()  # its broker URL: a port nothing listens on
    async with build_service(settings, games=games, dispatcher=dispatcher) as built:
        yield built


async def test_a_move_webhook_the_broker_refused_is_sent_by_the_sweep_with_its_event_id(
    gameplay: Gameplay, claims, key_prefix, clock
) -> None:
    hooks = {"webhook_url": "http://127.0.0.1:9/hook", "webhook_events": ["move"]}
    request = CreateGameRequest(
        game="hidden-numbers", seats=[{"name": "Ann"}, {"name": "Bo"}], seed=3, **hooks
    )
    created, _ = await gameplay.service.create_game(Credentials(None, "127.0.0.1"), request, None)
    ann = Credentials(bearer=created.seats[0].token, client_ip="127.0.0.1")
    legal = await gameplay.service.legal_moves(created.id, ann)
    kept_before, not_sent_before = kept(), not_sent()

    accepted, _ = await gameplay.service.make_move(
        created.id, ann, legal.moves[0], legal.version, None
    )  # the broker refuses the move's webhook: the move stands all the same

    event_id = f"{created.id}:{accepted.version}:move"
    assert (kept(), not_sent()) == (kept_before + 1, not_sent_before), "kept, not given up"
    assert await outbox_size(claims, key_prefix) == 1
    assert await gameplay.resend_kept_webhooks() == 0, "the broker is still down"
    assert await outbox_size(claims, key_prefix) == 1

    broker = Broker()  # the broker is back
    gameplay.dispatcher._celery.send_task = broker.send_task  # type: ignore[attr-defined]
    clock["ms"] += dispatch.OUTBOX_BACKOFF_MS[0]  # past the refused try's back-off
    assert await gameplay.resend_kept_webhooks() == 1
    ((task, (sent_id, event_type, url, payload)),) = broker.taken
    assert (task, sent_id, event_type, url) == (
        WEBHOOK_TASK,
        event_id,
        "move",
        hooks["webhook_url"],
    )
    assert payload["id"] == event_id and payload["entry"]["version"] == accepted.version
    assert await outbox_size(claims, key_prefix) == 0
    assert await gameplay.resend_kept_webhooks() == 0
    assert len(broker.taken) == 1, "sent once"


# --- the outbox and the sweep -------------------------------------------------------------


async def test_two_sweeps_at_once_send_each_kept_webhook_once(
    make_dispatcher, claims, key_prefix
) -> None:
    down = Broker(down=True)
    await keep(make_dispatcher(down), *(f"g:{n}:move" for n in range(12)))
    assert await outbox_size(claims, key_prefix) == 12
    first, second = Broker(delay=0.01), Broker(delay=0.01)  # two workers' sweeps
    counts = await asyncio.gather(
        make_dispatcher(first).resend_kept_webhooks(),
        make_dispatcher(second).resend_kept_webhooks(),
    )
    sent = first.event_ids() + second.event_ids()
    assert sorted(sent) == sorted(f"g:{n}:move" for n in range(12)), "each once"
    assert sum(counts) == 12 and await outbox_size(claims, key_prefix) == 0


async def test_a_full_outbox_drops_its_oldest_and_counts_it(
    make_dispatcher, claims, key_prefix, clock
) -> None:
    down = Broker(down=True)
    dispatcher = make_dispatcher(down, outbox_max_entries=3)
    before = not_sent()
    for n in range(1, 6):
        clock["ms"] += 1
        await keep(dispatcher, f"g:{n}:move")
    assert not_sent() == before + 2, "the two oldest were given up"
    assert await outbox_size(claims, key_prefix) == 3
    down.down = False
    assert await dispatcher.resend_kept_webhooks() == 3
    assert down.event_ids() == ["g:3:move", "g:4:move", "g:5:move"]


async def test_a_webhook_the_broker_refuses_again_stays_for_a_later_sweep(
    make_dispatcher, claims, key_prefix, clock
) -> None:
    broker = Broker(down=True)
    dispatcher = make_dispatcher(broker)
    await keep(dispatcher, "g:1:move", "g:2:move", "g:3:move")
    tries = broker.tries
    assert await dispatcher.resend_kept_webhooks() == 0
    assert broker.tries == tries + 1, "one refusal is enough: the rest wait for the next sweep"
    assert await outbox_size(claims, key_prefix) == 3

    broker.down = False
    assert await dispatcher.resend_kept_webhooks() == 2, "the ones not tried yet"
    assert broker.event_ids() == ["g:2:move", "g:3:move"]
    assert await dispatcher.resend_kept_webhooks() == 0, "the refused one backs off"
    clock["ms"] += dispatch.OUTBOX_BACKOFF_MS[0]
    assert await dispatcher.resend_kept_webhooks() == 1
    assert broker.event_ids() == ["g:2:move", "g:3:move", "g:1:move"]
    assert await outbox_size(claims, key_prefix) == 0


async def test_a_sweeper_that_died_mid_send_leaves_its_claim_to_the_next_after_the_lease(
    make_dispatcher, claims, key_prefix, clock
) -> None:
    await keep(make_dispatcher(Broker(down=True)), "g:1:move")
    dying = make_dispatcher(Broker())

    async def dies(task: str, args: list[Any]) -> None:
        raise asyncio.CancelledError  # the worker stops while the task is being sent

    dying._in_thread = dies  # type: ignore[method-assign]
    with pytest.raises(asyncio.CancelledError):
        await dying.resend_kept_webhooks()
    broker = Broker()
    other = make_dispatcher(broker)
    assert await other.resend_kept_webhooks() == 0, "claimed"
    clock["ms"] += dispatch.OUTBOX_LEASE_MS
    assert await other.resend_kept_webhooks() == 1
    assert broker.event_ids() == ["g:1:move"]


async def test_a_webhook_kept_too_long_is_given_up_and_counted(
    make_dispatcher, claims, key_prefix, clock
) -> None:
    broker = Broker(down=True)
    dispatcher = make_dispatcher(broker, outbox_max_age=3600)
    await keep(dispatcher, "g:1:move")
    for key in outbox_keys(key_prefix):
        assert 0 < await claims.pttl(key) <= 3600 * 1000, "an outbox nobody adds to expires"
    clock["ms"] += 3600 * 1000 + 1
    broker.down = False
    before = not_sent()
    assert await dispatcher.resend_kept_webhooks() == 0
    assert not_sent() == before + 1 and broker.taken == []
    assert await outbox_size(claims, key_prefix) == 0


async def test_the_same_event_to_two_urls_is_kept_for_each(
    make_dispatcher, claims, key_prefix
) -> None:
    broker = Broker(down=True)
    dispatcher = make_dispatcher(broker)
    for url in (URL, f"{URL}/other", URL):  # the last: the same event and URL again
        await dispatcher.send_webhook("g:1:move", "move", url, {"id": "g:1:move"})
    assert await outbox_size(claims, key_prefix) == 2
    broker.down = False
    assert await dispatcher.resend_kept_webhooks() == 2
    assert sorted(args[2] for _, args in broker.taken) == [URL, f"{URL}/other"]


async def test_a_webhook_neither_the_broker_nor_redis_can_take_is_counted_as_not_sent(
    key_prefix,
) -> None:
    down = open_redis(CLOSED_PORT)
    dispatcher = CeleryDispatcher(CLOSED_PORT, f"{key_prefix}.q", claims=down, prefix=key_prefix)
    dispatcher._celery.send_task = Broker(down=True).send_task  # type: ignore[method-assign]
    before_not_sent, before_kept = not_sent(), kept()
    await dispatcher.send_webhook("g:1:move", "move", URL, {})  # logged, never raised
    assert (not_sent(), kept()) == (before_not_sent + 1, before_kept)
    await dispatcher.close()
    await down.aclose()


async def test_one_sweep_hands_over_a_bounded_batch(make_dispatcher, claims, key_prefix) -> None:
    broker = Broker(down=True)
    dispatcher = make_dispatcher(broker)
    ids = [f"g:{n}:move" for n in range(7)]
    await keep(dispatcher, *ids)
    broker.down = False
    sent = [await dispatcher.resend_kept_webhooks(limit=3) for _ in itertools.repeat(None, 3)]
    assert sent == [3, 3, 1] and sorted(broker.event_ids()) == sorted(ids)
