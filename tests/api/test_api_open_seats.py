"""Open seats over REST: a game created with open seats waits for players, each seat is
claimed once with its invite code (wrong, used and expired codes are refused), the creator
may fill a seat with a bot or cancel the waiting game, and the game starts - prompts,
clocks, bots - when the last open seat is filled."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from types import SimpleNamespace

import httpx
import pytest
import redis as sync_redis

from services.api.app import create_app
from services.gameplay import seats as seats_module
from services.gameplay.auth import hash_secret
from tests.conftest import Crash, crash

OPEN = {"open": True}


def claim(api, game_id: str, seat: int | str, code: str | None, name: str = "Guest", **headers):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/claim",
        json={"code": code, "name": name},
        headers=headers,
    )


def fill(api, game_id: str, seat: int, token: str | None, bot: str, **extra):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/bot", json={"bot": bot, **extra}, headers=api.auth(token)
    )


def cancel(api, game_id: str, token: str | None):
    return api.client.post(f"/v1/games/{game_id}/cancel", headers=api.auth(token))


def code_of(created: dict, seat: int) -> str:
    return created["seats"][seat]["invite_code"]


def test_a_game_with_open_seats_waits_then_starts_when_both_are_claimed(api):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id = created["id"]
    assert created["status"] == "waiting"
    host, first, second = created["seats"]
    assert host["token"] and host["invite_code"] is None and not host["open"]
    for seat in (first, second):
        assert seat["open"] and seat["token"] is None and seat["name"] == ""
        assert len(seat["invite_code"].replace("-", "")) == 10 and seat["invite_expires_at"]
    assert first["invite_code"] != second["invite_code"]
    assert created["creator_token"]

    waiting = api.game(game_id, host["token"])
    assert waiting["status"] == "waiting" and waiting["turn"] == [] and waiting["prompts"] == []
    assert [s["open"] for s in waiting["seats"]] == [False, True, True]
    assert api.legal(game_id, host["token"]) == []

    # A guest claims with the code alone: no credentials.
    answer = claim(api, game_id, 1, first["invite_code"].lower(), "  Ana  ")
    assert answer.status_code == 200, answer.text
    ana = answer.json()
    assert ana["seat"] == 1 and ana["name"] == "Ana" and ana["status"] == "waiting"
    assert ana["token"].startswith("sps_")
    assert api.game(game_id, ana["token"])["you"] == 1
    assert api.game(game_id)["status"] == "waiting"

    second_claim = claim(api, game_id, 2, second["invite_code"], "Bruno")
    assert second_claim.status_code == 200, second_claim.text
    bruno = second_claim.json()
    assert bruno["status"] == "active"

    started = api.game(game_id, host["token"])
    assert started["status"] == "active" and started["turn"] == [0, 1, 2]
    assert [s["name"] for s in started["seats"]] == ["Host", "Ana", "Bruno"]
    assert not any(s["open"] for s in started["seats"])
    playing = {
        **created,
        "seats": [host, {**first, "token": ana["token"]}, {**second, "token": bruno["token"]}],
    }
    api.play_out(playing)
    finished = api.wait_until(game_id, lambda d: d["status"] == "finished")
    assert {s["name"] for s in finished["result"]["standings"]} == {"Host", "Ana", "Bruno"}


def test_moves_resigning_and_autopilot_are_refused_while_the_game_waits(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, token = created["id"], created["seats"][0]["token"]
    move = api.move(game_id, token, {"kind": "discard", "card": "c01"})
    assert move.status_code == 409 and move.json()["code"] == "game_not_started"
    assert move.headers["content-type"].startswith("application/problem+json")
    resign = api.client.post(f"/v1/games/{game_id}/resign", headers=api.auth(token))
    assert resign.status_code == 409 and resign.json()["code"] == "game_not_started"
    away = api.client.post(
        f"/v1/games/{game_id}/seats/0/autopilot", json={"on": True}, headers=api.auth(token)
    )
    assert away.status_code == 409 and away.json()["code"] == "game_not_started"
    assert api.game(game_id)["version"] == 0


def test_a_wrong_a_used_and_an_expired_code_are_refused_clearly(api, monkeypatch):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN], invite_ttl_seconds=60)
    game_id = created["id"]
    wrong = claim(api, game_id, 1, "AAAAA-AAAAA")
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_invite_code"
    other_seats_code = claim(api, game_id, 1, code_of(created, 2))
    assert other_seats_code.status_code == 403
    assert claim(api, game_id, 1, code_of(created, 1), "First").status_code == 200
    used = claim(api, game_id, 1, code_of(created, 1), "Second")
    assert used.status_code == 409 and used.json()["code"] == "seat_taken"
    not_open = claim(api, game_id, 0, code_of(created, 2))
    assert not_open.status_code == 409 and not_open.json()["code"] == "seat_not_open"
    no_seat = claim(api, game_id, 5, code_of(created, 2))
    assert no_seat.status_code == 404 and no_seat.json()["code"] == "seat_not_found"
    for not_a_seat in ("one", "-1", "+1"):
        refused = claim(api, game_id, not_a_seat, code_of(created, 1))
        assert refused.status_code == 404 and refused.json()["code"] == "seat_not_found"

    later = time.time() * 1000 + 61_000
    monkeypatch.setattr(seats_module, "now_ms", lambda: int(later))
    expired = claim(api, game_id, 2, code_of(created, 2))
    assert expired.status_code == 410 and expired.json()["code"] == "invite_expired"
    assert expired.headers["content-type"].startswith("application/problem+json")
    assert api.game(game_id)["seats"][2]["open"]  # still open: the creator may fill it


def test_a_seat_number_no_game_has_is_refused_before_any_work(api):
    """Found by a long schemathesis run: a seat beyond 64 bits under an Idempotency-Key
    was a 500 (the key's fingerprint could not encode it). Seats are bounded in the
    path now, so such a seat is refused like any seat the game does not have."""
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator, host = created["id"], created["creator_token"], created["seats"][0]["token"]
    for seat in (10**30, 8):
        answers = [
            fill_once(api, game_id, seat, creator, "fill-key-big-seat"),
            claim(api, game_id, seat, code_of(created, 1), **{"Idempotency-Key": "claim-key-big"}),
            api.client.post(
                f"/v1/games/{game_id}/seats/{seat}/autopilot",
                json={"on": True},
                headers=api.auth(host),
            ),
        ]
        for answer in answers:
            assert answer.status_code == 404, answer.text
            assert answer.json()["code"] == "seat_not_found"
            assert "0 to 7" in answer.json()["detail"]
    assert api.game(game_id)["seats"][1]["open"] and api.game(game_id)["version"] == 0
    # An id no game could have is still that game's 404, whatever the seat.
    unknown = fill_once(api, "not-a-game", 10**30, creator, "fill-key-big-seat")
    assert unknown.status_code == 404 and unknown.json()["code"] == "game_not_found"
    # The seat the key was first sent with was refused, so the key is still free.
    assert fill_once(api, game_id, 1, creator, "fill-key-big-seat").status_code == 200


def test_claims_bound_names_and_codes_before_any_work(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, code = created["id"], code_of(created, 1)
    hidden = claim(api, game_id, 1, code, "Eve\u202e")
    assert hidden.status_code == 422 and hidden.json()["code"] == "invalid_seat_name"
    long_name = claim(api, game_id, 1, code, "x" * 65)
    assert long_name.status_code == 422
    long_code = claim(api, game_id, 1, "A" * 33)
    assert long_code.status_code == 422 and long_code.json()["code"] == "invalid_request"
    empty = api.client.post(f"/v1/games/{game_id}/seats/1/claim")
    assert empty.status_code == 400
    assert api.game(game_id)["seats"][1]["open"]


def test_an_open_seat_has_no_name_or_bot_and_a_seat_needs_one_or_the_other(api):
    body = {"game": "hidden-numbers"}
    named = api.client.post(
        "/v1/games", json={**body, "seats": [{"name": "A"}, {"open": True, "name": "B"}]}
    )
    assert named.status_code == 422 and named.json()["code"] == "invalid_request"
    nameless = api.client.post("/v1/games", json={**body, "seats": [{"name": "A"}, {}]})
    assert nameless.status_code == 422
    ttl = api.client.post(
        "/v1/games", json={**body, "seats": [{"name": "A"}, OPEN], "invite_ttl_seconds": 10**9}
    )
    assert ttl.status_code == 422


def test_a_retried_claim_with_its_idempotency_key_gets_the_same_token(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, code = created["id"], code_of(created, 1)
    key = {"Idempotency-Key": "claim-key-000001"}
    first = claim(api, game_id, 1, code, "Ana", **key)
    again = claim(api, game_id, 1, code, "Ana", **key)
    assert first.status_code == 200 and again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["token"] == first.json()["token"]
    stranger = claim(api, game_id, 1, code, "Ana", **{"Idempotency-Key": "claim-key-000002"})
    assert stranger.status_code == 409


def test_a_claim_key_replays_only_the_same_claim_and_never_without_the_code(api):
    """Keys are not secrets: the guest's key with a wrong code (or another name) once gave
    the seat's token, even after the game started. Now it is another request under the
    key, refused, and only the same claim is answered again."""
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id, code = created["id"], code_of(created, 1)
    key = {"Idempotency-Key": "guest-claim-key-1"}
    # Sent first, a wrong code under the guest's key is refused and keeps nothing.
    early = claim(api, game_id, 1, "AAAAA-BBBBB", "Mallory", **key)
    assert early.status_code == 403 and early.json()["code"] == "wrong_invite_code"
    first = claim(api, game_id, 1, code, "Guest", **key)
    assert first.status_code == 200, first.text
    token = first.json()["token"]
    assert "Idempotent-Replayed" not in first.headers

    def refused_under_the_key() -> None:
        # Another name with the code: another request under the key.
        other = claim(api, game_id, 1, code, "Mallory", **key)
        assert other.status_code == 422, other.text
        assert other.json()["code"] == "idempotency_key_reused"
        assert token not in other.text and "Idempotent-Replayed" not in other.headers
        # Without the code the key is not the guest's: a claim of its own, refused.
        for seat, name in ((1, "Mallory"), (1, "Guest"), (2, "Guest")):
            other = claim(api, game_id, seat, "AAAAA-BBBBB", name, **key)
            assert other.status_code in (403, 409), other.text
            assert token not in other.text and "Idempotent-Replayed" not in other.headers

    refused_under_the_key()
    # The same claim, typed as the README allows (case and dashes do not matter), is a replay.
    again = claim(api, game_id, 1, code.lower().replace("-", ""), "Guest", **key)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()

    assert claim(api, game_id, 2, code_of(created, 2), "Bruno").json()["status"] == "active"
    refused_under_the_key()
    later = claim(api, game_id, 1, code, "Guest", **key)
    assert later.status_code == 200 and later.headers["Idempotent-Replayed"] == "true"
    assert later.json() == first.json()
    assert api.game(game_id, token)["you"] == 1
    assert [s["name"] for s in api.game(game_id)["seats"]] == ["Host", "Guest", "Bruno"]


def test_a_guests_claim_key_used_first_by_another_seats_code_holder_still_claims(api):
    """Keys are not secrets, and claims need no credentials: scoped by the game alone, a
    holder of another seat's code who sent a guest's key first made the guest's claim
    422. A claim's key is its code holder's."""
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id = created["id"]
    key = {"Idempotency-Key": "guest-claim-key-2"}
    other = claim(api, game_id, 2, code_of(created, 2), "Other", **key)
    assert other.status_code == 200
    guest = claim(api, game_id, 1, code_of(created, 1), "Guest", **key)
    assert guest.status_code == 200, guest.text
    assert guest.json()["seat"] == 1 and guest.json()["token"] != other.json()["token"]
    assert "Idempotent-Replayed" not in guest.headers
    again = claim(api, game_id, 1, code_of(created, 1), "Guest", **key)
    assert again.json() == guest.json() and again.headers["Idempotent-Replayed"] == "true"


def fill_once(api, game_id: str, seat: int, token: str, key: str, bot: str = "random"):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/bot",
        json={"bot": bot},
        headers={**api.auth(token), "Idempotency-Key": key},
    )


def cancel_once(api, game_id: str, token: str, key: str):
    return api.client.post(
        f"/v1/games/{game_id}/cancel", headers={**api.auth(token), "Idempotency-Key": key}
    )


@pytest.mark.timeout(60)
def test_a_retried_bot_fill_with_its_idempotency_key_gets_the_first_answer(api):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    first = fill_once(api, game_id, 1, creator, "fill-key-000001")
    again = fill_once(api, game_id, 1, creator, "fill-key-000001")
    assert first.status_code == again.status_code == 200, again.text
    assert first.json()["status"] == "waiting" and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    # Without the key a second fill is what it is: the seat is taken.
    bare = fill(api, game_id, 1, creator, "random")
    assert bare.status_code == 409 and bare.json()["code"] == "seat_taken"
    # Another request under the key is refused, and changes nothing.
    other = fill_once(api, game_id, 2, creator, "fill-key-000001")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    other_bot = fill_once(api, game_id, 1, creator, "fill-key-000001", bot="greedy")
    assert other_bot.status_code == 422 and other_bot.json()["code"] == "idempotency_key_reused"
    assert [s["open"] for s in api.game(game_id)["seats"]] == [False, False, True]
    # The key is the creator's: anyone else sending it gets no answer of theirs.
    stranger = fill_once(api, game_id, 1, created["seats"][0]["token"], "fill-key-000001")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_the_creator"

    last = fill_once(api, game_id, 2, creator, "fill-key-000002")
    assert last.status_code == 200 and last.json()["status"] == "active"
    api.wait_until(game_id, lambda d: d["version"] > 0 or d["status"] != "active")
    later = fill_once(api, game_id, 2, creator, "fill-key-000002")
    assert later.status_code == 200 and later.json() == last.json()
    assert later.headers["Idempotent-Replayed"] == "true"


def test_a_retried_cancel_with_its_idempotency_key_gets_the_first_answer(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    first = cancel_once(api, game_id, creator, "cancel-key-0001")
    again = cancel_once(api, game_id, creator, "cancel-key-0001")
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json() and first.json()["status"] == "aborted"
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    bare = cancel(api, game_id, creator)
    assert bare.status_code == 409 and bare.json()["code"] == "game_not_waiting"
    fill_under_it = fill_once(api, game_id, 1, creator, "cancel-key-0001")
    assert fill_under_it.status_code == 422
    assert fill_under_it.json()["code"] == "idempotency_key_reused"

    other = api.create(seats=[{"name": "Host"}, OPEN])
    filled = fill_once(api, other["id"], 1, other["creator_token"], "fill-then-cancel")
    assert filled.status_code == 200
    cancel_under_it = cancel_once(api, other["id"], other["creator_token"], "fill-then-cancel")
    assert cancel_under_it.status_code == 422
    assert cancel_under_it.json()["code"] == "idempotency_key_reused"
    assert api.game(other["id"])["status"] != "aborted"


def test_a_bot_fill_retried_after_its_replica_died_gets_the_answer_it_never_sent(api, monkeypatch):
    """The fill's script keeps the answer with the seat: the retry is answered, not told
    that its own fill took the seat."""
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    for seat, key, status in ((1, "died-filling-1", "waiting"), (2, "died-filling-2", "active")):
        with monkeypatch.context() as dying:
            dying.setattr(seats_module.SeatDesk, "_after_fill", crash)
            with pytest.raises(Crash):
                fill_once(api, game_id, seat, creator, key)
        retried = fill_once(api, game_id, seat, creator, key)
        assert retried.status_code == 200, retried.text
        assert retried.headers["Idempotent-Replayed"] == "true"
        assert retried.json() == {
            "id": game_id,
            "game": created["game"],
            "seat": seat,
            "name": "Bot (random)",
            "bot": "random",
            "token": None,
            "status": status,
        }
        other = fill_once(api, game_id, seat, creator, key, bot="greedy")
        assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert api.game(game_id)["status"] == "active"


def test_a_cancel_retried_after_its_replica_died_gets_the_answer_it_never_sent(api, monkeypatch):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    with monkeypatch.context() as dying:
        dying.setattr(seats_module, "log", SimpleNamespace(info=crash))  # after the change
        with pytest.raises(Crash):
            cancel_once(api, game_id, creator, "died-cancelling")
    assert api.game(game_id)["status"] == "aborted"
    retried = cancel_once(api, game_id, creator, "died-cancelling")
    assert retried.status_code == 200, retried.text
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == {
        "id": game_id,
        "game": created["game"],
        "status": "aborted",
        "reason": "cancelled by its creator",
    }
    bare = cancel(api, game_id, creator)
    assert bare.status_code == 409 and bare.json()["code"] == "game_not_waiting"


def test_a_retried_creation_answers_the_same_codes_and_creator_token(api):
    key = {"Idempotency-Key": "create-open-seats-1"}
    body = [{"name": "Host"}, OPEN]
    first = api.create(seats=body, headers=key)
    again = api.create(seats=body, headers=key)
    assert again["id"] == first["id"]
    assert code_of(again, 1) == code_of(first, 1)
    assert again["creator_token"] == first["creator_token"]
    assert again["seats"][1]["invite_expires_at"] == first["seats"][1]["invite_expires_at"]


def test_the_creator_cancels_a_waiting_game(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id = created["id"]
    nobody = cancel(api, game_id, None)
    assert nobody.status_code == 401 and nobody.json()["code"] == "creator_token_required"
    seat_token = cancel(api, game_id, created["seats"][0]["token"])
    assert seat_token.status_code == 403 and seat_token.json()["code"] == "not_the_creator"
    other_key = cancel(api, game_id, api.platform_key)  # a key, but not the creator's scope
    assert other_key.status_code == 403
    done = cancel(api, game_id, created["creator_token"])
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "aborted" and "cancelled" in done.json()["reason"]
    aborted = api.game(game_id)
    assert aborted["status"] == "aborted" and aborted["abort_reason"] == "cancelled by its creator"
    late = claim(api, game_id, 1, code_of(created, 1))
    assert late.status_code == 409 and late.json()["code"] == "game_not_waiting"
    twice = cancel(api, game_id, created["creator_token"])
    assert twice.status_code == 409 and twice.json()["code"] == "game_not_waiting"
    stream = api.events(game_id)
    assert stream["status"] == "aborted"


def test_an_api_key_that_created_the_game_may_cancel_it_but_not_a_started_one(api):
    platform = api.auth(api.platform_key)
    created = api.create(seats=[{"name": "Host"}, OPEN], headers=platform)
    assert claim(api, created["id"], 1, code_of(created, 1)).status_code == 200
    started = cancel(api, created["id"], api.platform_key)
    assert started.status_code == 409 and started.json()["code"] == "game_not_waiting"
    other = api.create(seats=[{"name": "Host"}, OPEN], headers=platform)
    assert cancel(api, other["id"], api.platform_key).status_code == 200


@pytest.mark.timeout(60)
def test_the_creator_fills_an_open_seat_with_a_bot_which_then_plays(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    unknown = fill(api, game_id, 1, creator, "godlike")
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_bot_level"
    assert "random" in unknown.json()["known"]
    not_creator = fill(api, game_id, 1, created["seats"][0]["token"], "random")
    assert not_creator.status_code == 403
    filled = fill(api, game_id, 1, creator, "random")
    assert filled.status_code == 200, filled.text
    assert filled.json() == {
        "id": game_id,
        "game": "hidden-numbers",
        "seat": 1,
        "name": "Bot (random)",
        "bot": "random",
        "token": None,
        "status": "active",
    }
    # Everybody discards at once: the bot does without being asked.
    api.wait_until(game_id, lambda d: d["turn"] == [0])
    api.play_out(created)
    finished = api.wait_until(game_id, lambda d: d["status"] == "finished")
    assert finished["seats"][1]["bot"] == "random"
    assert {e["seat"] for e in api.events(game_id, api.platform_key)["entries"]} == {0, 1}
    again = fill(api, game_id, 1, creator, "random")
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"


@pytest.mark.timeout(60)
def test_a_game_of_bots_and_open_seats_starts_its_bots_only_when_full(api):
    created = api.create(seats=[{"name": "Bot", "bot": "random"}, OPEN])
    game_id = created["id"]
    time.sleep(0.3)
    assert api.game(game_id)["version"] == 0, "a bot moved in a game still waiting"
    assert fill(api, game_id, 1, created["creator_token"], "random", name="Robo").status_code == 200
    finished = api.wait_until(game_id, lambda d: d["status"] == "finished")
    assert [s["name"] for s in finished["seats"]] == ["Bot", "Robo"]


def test_clocks_do_not_run_until_the_game_starts(api):
    created = api.create(seats=[{"name": "Host"}, OPEN], clock={"initial_seconds": 60})
    game_id = created["id"]
    clock = api.game(game_id)["clock"]
    assert clock["running"] == [] and clock["remaining"] == [60.0, 60.0]
    time.sleep(0.2)
    assert api.game(game_id)["clock"]["remaining"] == [60.0, 60.0]
    claim(api, game_id, 1, code_of(created, 1))
    started = api.game(game_id)["clock"]
    assert started["running"] == [0, 1]
    time.sleep(0.2)
    assert api.game(game_id)["clock"]["remaining"][0] < 60.0


def test_listings_filter_waiting_games_and_show_open_abandoned_and_autopilot_seats(api):
    platform = api.auth(api.platform_key)
    tag = f"seats-{time.time_ns()}"
    waiting = api.create(seats=[{"name": "Host"}, OPEN], tags=[tag], headers=platform)
    playing = api.create(seats=3, tags=[tag], headers=platform)
    tokens = [s["token"] for s in playing["seats"]]
    assert (
        api.client.post(
            f"/v1/games/{playing['id']}/resign", headers=api.auth(tokens[1])
        ).status_code
        == 200
    )
    away = api.client.post(
        f"/v1/games/{playing['id']}/seats/2/autopilot",
        json={"on": True},
        headers=api.auth(tokens[2]),
    )
    assert away.status_code == 200
    listed = api.client.get("/v1/games", params={"tag": tag}, headers=platform).json()["games"]
    by_id = {game["id"]: game for game in listed}
    assert by_id[waiting["id"]]["status"] == "waiting"
    assert [s["open"] for s in by_id[waiting["id"]]["seats"]] == [False, True]
    expires = [s["invite_expires_at"] for s in by_id[waiting["id"]]["seats"]]
    assert expires == [None, waiting["seats"][1]["invite_expires_at"]], "as the game shows it"
    seats = by_id[playing["id"]]["seats"]
    assert [(s["abandoned"], s["autopilot"]) for s in seats] == [
        (False, False),
        (True, False),
        (False, True),
    ]
    only_waiting = api.client.get(
        "/v1/games", params={"tag": tag, "status": "waiting"}, headers=platform
    ).json()["games"]
    assert [g["id"] for g in only_waiting] == [waiting["id"]]
    claim(api, waiting["id"], 1, code_of(waiting, 1), "Claimed")
    listed = api.client.get("/v1/games", params={"tag": tag}, headers=platform).json()["games"]
    claimed = next(g for g in listed if g["id"] == waiting["id"])
    assert claimed["status"] == "active" and claimed["seats"][1]["name"] == "Claimed"
    assert claimed["seats"][1]["invite_expires_at"] is None, "a claimed seat has no invite"


def test_a_seat_a_bot_plays_has_no_legal_moves_of_its_own(api):
    created = api.create(seats=3)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    api.client.post(f"/v1/games/{game_id}/resign", headers=api.auth(tokens[1]))
    left = api.client.get(f"/v1/games/{game_id}/legal-moves", headers=api.auth(tokens[1]))
    assert left.status_code == 409 and left.json()["code"] == "seat_abandoned"
    api.client.post(
        f"/v1/games/{game_id}/seats/2/autopilot", json={"on": True}, headers=api.auth(tokens[2])
    )
    away = api.client.get(f"/v1/games/{game_id}/legal-moves", headers=api.auth(tokens[2]))
    assert away.status_code == 409 and away.json()["code"] == "autopilot_on"
    assert api.legal(game_id, tokens[0])  # the seat still at the table has its moves


def test_the_etag_changes_when_an_open_seat_is_claimed(api):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id = created["id"]
    before = api.client.get(f"/v1/games/{game_id}").headers["etag"]
    claim(api, game_id, 1, code_of(created, 1))
    after = api.client.get(f"/v1/games/{game_id}", headers={"If-None-Match": before})
    assert after.status_code == 200 and after.headers["etag"] != before


# --- twenty people, one seat -------------------------------------------------------------

CLAIMERS = 20


@pytest.mark.anyio
@pytest.mark.timeout(60)
async def test_twenty_concurrent_claims_of_one_seat_yield_exactly_one_token(
    settings, games, serve, redis_url
):
    with serve(create_app(settings, games)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as host:
            created = await host.post(
                "/v1/games",
                json={"game": "hidden-numbers", "seats": [{"name": "Host"}, OPEN, OPEN], "seed": 5},
            )
            assert created.status_code == 201
            game_id = created.json()["id"]
            code = created.json()["seats"][1]["invite_code"]
            other_code = created.json()["seats"][2]["invite_code"]
        phones = [httpx.AsyncClient(base_url=server.url, timeout=30) for _ in range(CLAIMERS)]
        try:
            answers = await asyncio.gather(
                *(
                    phone.post(
                        f"/v1/games/{game_id}/seats/1/claim",
                        json={"code": code, "name": f"Claimer {n}"},
                    )
                    for n, phone in enumerate(phones)
                )
            )
            # Another guest, on a phone of their own, takes the other seat: the game starts.
            last = await phones[0].post(
                f"/v1/games/{game_id}/seats/2/claim", json={"code": other_code, "name": "Late"}
            )
            assert last.status_code == 200 and last.json()["status"] == "active"
            winner_token = next(a.json()["token"] for a in answers if a.status_code == 200)
            for seat, token in ((1, winner_token), (2, last.json()["token"])):
                auth = {"Authorization": f"Bearer {token}"}
                mine = (await phones[seat].get(f"/v1/games/{game_id}", headers=auth)).json()
                assert mine["you"] == seat and mine["status"] == "active"
                assert seat in mine["turn"]
        finally:
            await asyncio.gather(*(phone.aclose() for phone in phones))
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses == {200: 1, 409: CLAIMERS - 1}, statuses
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"seat_taken"}
    winner = next(a.json() for a in answers if a.status_code == 200)
    client = sync_redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        stored = client.hget(f"{settings.key_prefix}:{{{game_id}}}:game", "seat:1")
        status = client.hget(f"{settings.key_prefix}:{{{game_id}}}:game", "status")
    finally:
        client.close()
    assert hash_secret(winner["token"]) in stored and winner["name"] in stored
    assert status == "active"


def test_embedded_mode_claims_and_expires_open_seats_with_the_same_script(games, monkeypatch):
    from starlette.testclient import TestClient

    from services.gameplay.settings import Settings

    settings = Settings(redis_url=None, log_level="warning", stream_keepalive=0.5)
    with TestClient(create_app(settings, games)) as client:
        created = client.post(
            "/v1/games",
            json={"game": "hidden-numbers", "seats": [{"name": "Host"}, OPEN, OPEN], "seed": 3},
        ).json()
        game_id = created["id"]
        first, second = created["seats"][1]["invite_code"], created["seats"][2]["invite_code"]
        path = f"/v1/games/{game_id}/seats/{{}}/claim"
        wrong = client.post(path.format(1), json={"code": second, "name": "Ana"})
        assert wrong.status_code == 403
        ana = client.post(path.format(1), json={"code": first, "name": "Ana"})
        assert ana.status_code == 200 and ana.json()["status"] == "waiting"
        used = client.post(path.format(1), json={"code": first, "name": "Eve"})
        assert used.status_code == 409 and used.json()["code"] == "seat_taken"
        later = int(time.time() * 1000) + 25 * 3600 * 1000
        monkeypatch.setattr(seats_module, "now_ms", lambda: later)
        expired = client.post(path.format(2), json={"code": second, "name": "Bo"})
        assert expired.status_code == 410
        monkeypatch.undo()
        bo = client.post(path.format(2), json={"code": second, "name": "Bo"})
        assert bo.status_code == 200 and bo.json()["status"] == "active"
        game = client.get(f"/v1/games/{game_id}").json()
        assert game["status"] == "active" and game["turn"] == [0, 1, 2]


def test_the_openapi_document_describes_open_seats(api):
    document = api.client.get("/openapi.json").json()
    paths = document["paths"]
    claim_op = paths["/v1/games/{game_id}/seats/{seat}/claim"]["post"]
    assert {"200", "403", "404", "409", "410", "422"} <= set(claim_op["responses"])
    assert claim_op["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ClaimSeatRequest"
    }
    assert "SeatTaken" in str(claim_op["responses"]["200"])
    assert "GameCancelled" in str(paths["/v1/games/{game_id}/cancel"]["post"]["responses"])
    assert "FillSeatRequest" in str(paths["/v1/games/{game_id}/seats/{seat}/bot"]["post"])
    schemas = document["components"]["schemas"]
    assert "open" in schemas["SeatRequest"]["properties"]
    assert "invite_code" in schemas["CreatedSeat"]["properties"]
    assert "creator_token" in schemas["GameCreated"]["properties"]
    assert "invite_code" not in schemas["SeatInfo"]["properties"]
    statuses = next(p for p in paths["/v1/games"]["get"]["parameters"] if p["name"] == "status")
    assert statuses["schema"] == {"$ref": "#/components/schemas/GameStatus"}
    assert "waiting" in schemas["GameStatus"]["enum"]
    assert "409" in paths["/v1/games/{game_id}/legal-moves"]["get"]["responses"]
