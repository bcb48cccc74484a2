"""Stopping the service always ends: a live reader whose client went away stops with its
cancellation, and a part that will not stop cannot hold up the process's exit."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.gameplay import build
from services.gameplay.build import build_service
from services.store.live import Doorbell

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]


async def test_a_cancelled_reader_waiting_on_its_doorbell_ends_at_once() -> None:
    bell = Doorbell()
    for _ in range(200):
        waiter = asyncio.create_task(bell.wait(bell.rings, 30))
        await asyncio.sleep(0)
        bell.ring()  # a ring and the cancellation land in the same turn of the loop
        waiter.cancel()
        await asyncio.wait({waiter}, timeout=1)
        # Else the reader's loop goes on for a client that is gone, and never ends.
        assert waiter.cancelled(), "the cancellation was swallowed"


async def test_closing_ends_even_when_the_live_listener_ignores_cancellation(
    settings, games, monkeypatch
) -> None:
    monkeypatch.setattr(build, "CLOSE_STEP_SECONDS", 0.5)
    gameplay = build_service(settings, games=games)
    await gameplay.start()
    stubborn_stop = asyncio.Event()

    async def never_stops() -> None:
        while not stubborn_stop.is_set():
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if stubborn_stop.is_set():
                    raise
                # else: the kind of listener that swallows its cancellation

    assert gameplay.live._task is None  # nobody watches yet: no subscription
    stubborn = asyncio.create_task(never_stops())
    gameplay.live._task = stubborn
    started = time.monotonic()
    await gameplay.close()
    assert time.monotonic() - started < 5
    stubborn_stop.set()
    stubborn.cancel()
    await asyncio.wait({stubborn}, timeout=5)
    assert stubborn.done()
