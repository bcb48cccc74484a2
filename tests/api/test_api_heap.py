"""`skyport serve` settles the heap once the app is built: what start-up made is frozen
out of collections and young collections are spaced (see `services.api.heap`)."""

from __future__ import annotations

import gc

import pytest

from services.api import server
from services.api.heap import THRESHOLDS


@pytest.fixture
def restored_collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_serving_freezes_the_startup_heap_and_spaces_collections(
    monkeypatch, restored_collector, settings
):
    served = []
    monkeypatch.setattr(server, "get_settings", lambda: settings)
    monkeypatch.setattr(server.GracefulServer, "run", lambda self: served.append(self.app))
    gc.unfreeze()
    server.run("127.0.0.1", 0)
    assert served, "the server was started"
    assert gc.get_freeze_count() > 10_000, "the app and the modules it loaded are frozen"
    assert gc.get_threshold() == THRESHOLDS
