"""`seat.token_replaced`: a platform that asked for it learns that a seat's token was
replaced, and by whom (the seat itself, perhaps someone holding a leaked token, or the
API key that created the game), never the token. Owed from the replacement on, as the
other webhooks of changes that commit nothing: a process that dies right after the
swap leaves it to the sweep, which sends the same event id and body; a replacement that
lost its compare-and-set sends nothing."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client import REGISTRY

from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay
from services.gameplay.notifier import WebhookNotifier
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.problems import Problem
from services.store.seats import SeatTokens
from tests.conftest import Crash, crash
from tests.gameplay.test_gameplay_webhooks_owed import Recorder, without_at
from tests.gameplay.test_gameplay_webhooks_owed_seats import died, notes

URL = "http://127.0.0.1:9/hook"
PLATFORM = Credentials("platform-key-for-tests-0001", "127.0.0.1", platform=True)

pytestmark = pytest.mark.anyio


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


async def game_told(gameplay: Gameplay, events: list[str]) -> tuple[str, list[Credentials]]:
    request = CreateGameRequest(
        game="hidden-numbers",
        seats=[{"name": "Ann"}, {"name": "Bo"}],
        seed=3,
        webhook_url=URL,
        webhook_events=events,
    )
    created, _ = await gameplay.service.create_game(PLATFORM, request, None)
    return created.id, [Credentials(seat.token, "127.0.0.1") for seat in created.seats]


def replaced_count(by: str) -> float:
    return REGISTRY.get_sample_value("skyport_seat_tokens_replaced_total", {"by": by}) or 0.0


def told(recorder: Recorder) -> list[dict[str, Any]]:
    return [hook for hook in without_at(recorder.webhooks) if hook["type"] != "game.finished"]


async def test_the_platform_is_told_who_replaced_a_token_and_never_the_token(
    gameplay, recorder
) -> None:
    game_id, seats = await game_told(gameplay, ["seat.token_replaced"])
    by_seat = replaced_count("seat")
    by_creator = replaced_count("creator")

    first, _ = await gameplay.service.seat_tokens.replace(game_id, seats[1], 1, None)
    second, _ = await gameplay.service.seat_tokens.replace(game_id, PLATFORM, 1, None)

    hooks = told(recorder)
    assert [(hook["seat"], hook["name"], hook["by"]) for hook in hooks] == [
        (1, "Bo", "seat"),
        (1, "Bo", "creator"),
    ]
    assert all(hook["type"] == "seat.token_replaced" and hook["version"] == 0 for hook in hooks)
    ids = [hook["id"] for hook in hooks]
    assert len(set(ids)) == 2 and all(
        i.startswith(f"{game_id}:0:seat.token_replaced:1-") for i in ids
    )
    for token in (first.token, second.token, seats[1].bearer):
        assert token and all(token not in str(hook) for hook in hooks)
    assert replaced_count("seat") == by_seat + 1
    assert replaced_count("creator") == by_creator + 1
    assert await notes(gameplay) == []


async def test_a_game_that_did_not_ask_is_not_told_and_notes_nothing(gameplay, recorder) -> None:
    game_id, seats = await game_told(gameplay, ["seat.left"])
    await gameplay.service.seat_tokens.replace(game_id, seats[0], 0, None)
    assert told(recorder) == [] and await notes(gameplay) == []


async def test_a_replacement_whose_process_died_is_told_by_the_sweep_as_it_would_have_been(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, seats = await game_told(gameplay, ["seat.token_replaced"])
    await died(
        monkeypatch,
        WebhookNotifier,
        "token_replaced",
        gameplay.service.seat_tokens.replace(game_id, seats[0], 0, None),
    )
    assert told(recorder) == [], "its hooks never ran"
    assert len(await notes(gameplay)) == 1
    assert await gameplay.referee.send_owed_webhooks(60) == 0, "its hooks may still run"
    assert await gameplay.referee.send_owed_webhooks(0) == 1
    swept = told(recorder)
    assert [(hook["seat"], hook["name"], hook["by"]) for hook in swept] == [(0, "Ann", "seat")]
    assert await notes(gameplay) == []

    # The live process sends the same event (id and body) for the next replacement.
    await gameplay.service.seat_tokens.replace(game_id, PLATFORM, 0, None)
    live = told(recorder)[-1]
    assert live.keys() == swept[0].keys() and live["id"] != swept[0]["id"]


async def test_a_replacement_that_lost_its_compare_and_set_is_not_told(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, seats = await game_told(gameplay, ["seat.token_replaced"])
    real = SeatTokens.replace

    async def raced(self, *args: Any, **kwargs: Any):
        # Another replacement lands between the read and this one's script, then this
        # one dies before deciding again: its note matches no token the seat holds.
        monkeypatch.setattr(SeatTokens, "replace", real)
        await gameplay.service.seat_tokens.replace(game_id, PLATFORM, 0, None)
        await real(self, *args, **kwargs)
        crash()

    monkeypatch.setattr(SeatTokens, "replace", raced)
    with pytest.raises(Crash):
        await gameplay.service.seat_tokens.replace(game_id, seats[0], 0, None)
    assert [hook["by"] for hook in told(recorder)] == ["creator"]
    assert len(await notes(gameplay)) == 1, "the loser's note"
    assert await gameplay.referee.send_owed_webhooks(0) == 0
    assert [hook["by"] for hook in told(recorder)] == ["creator"]
    assert await notes(gameplay) == []


async def test_a_refused_replacement_is_not_told(gameplay, recorder) -> None:
    game_id, seats = await game_told(gameplay, ["seat.token_replaced"])
    with pytest.raises(Problem):
        await gameplay.service.seat_tokens.replace(game_id, seats[0], 1, None)
    assert told(recorder) == [] and await notes(gameplay) == []
