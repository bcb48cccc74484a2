"""Why a seat resigned reaches every reader of the log: a resignation the seat chose says
`reason: "resigned"`, one committed because its clock ran out (on_timeout forfeit under
on_leave end_game) says `"timeout"`, in the events page, the SSE frames, GraphQL's log
and the move webhook. The record says so too, why each seat that left did, and the
clock and leave policy the game was played under."""

from __future__ import annotations

import orjson
import pytest
from pydantic import SecretStr

from services.gameplay.records import load_record, replay

TIMED = [{"name": "Ada"}, {"name": "Bot", "bot": "random"}]

EVENTS = """query($id: ID!) { events(gameId: $id) {
    edges { node { version seat action reason } } } }"""


@pytest.fixture
def settings(settings):
    update = {
        "clock_sweep_seconds": 0.1,
        "webhook_secret": SecretStr("hook-secret-for-tests"),
        "webhook_allow_private": True,
    }
    return settings.model_copy(update=update)


def finished(api, game_id: str) -> dict:
    return api.wait_until(game_id, lambda d: d["status"] in ("finished", "aborted"), timeout=60)


STANDINGS = """query($id: ID!) { result(gameId: $id) { standings { seat leftReason } } }"""


def standing_reasons(api, gql, game_id: str) -> list[str | None]:
    """Each seat's `left_reason` in the game's result, as REST and GraphQL both give it."""
    answer = api.client.get(f"/v1/games/{game_id}/result")
    assert answer.status_code == 200, answer.text
    by_seat = {s["seat"]: s["left_reason"] for s in answer.json()["standings"]}
    rest = [by_seat[seat] for seat in sorted(by_seat)]
    standings = gql.data(STANDINGS, {"id": game_id})["result"]["standings"]
    graphql = {s["seat"]: s["leftReason"] for s in standings}
    assert [graphql[seat] for seat in sorted(graphql)] == rest
    return rest


def sse_entries(api, game_id: str, token: str | None) -> list[tuple[str, dict]]:
    """(event, data) of the log frames of a finished game's SSE stream (it ends by itself)."""
    headers = {**api.auth(token), "Accept": "text/event-stream"}
    body = api.client.get(f"/v1/games/{game_id}/events", headers=headers).text
    found = []
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if lines.get("event") in ("move", "resign"):
            found.append((lines["event"], orjson.loads(lines["data"])))
    return found


def resignations(api, gql, game_id: str, token: str) -> dict[str, list[tuple[int, str]]]:
    """(seat, reason) of each resignation in the log, as each way of reading it says; a
    move has no reason in any of them."""
    read = {
        "rest": api.events(game_id, token)["entries"],
        "graphql": [e["node"] for e in gql.data(EVENTS, {"id": game_id}, token)["events"]["edges"]],
        "sse": [data for _, data in sse_entries(api, game_id, token)],
    }
    said = {}
    for name, entries in read.items():
        assert [e["reason"] for e in entries if e["action"] == "move"] == [None] * sum(
            e["action"] == "move" for e in entries
        ), name
        said[name] = [(e["seat"], e["reason"]) for e in entries if e["action"] == "resign"]
    return said


def test_a_clock_that_ran_out_under_end_game_says_timeout(api, gql, receiver):
    created = api.create(
        seats=TIMED,
        clock={"initial_seconds": 0.3},
        webhook_url=receiver.url,
        webhook_events=["move", "seat.left"],
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    document = finished(api, game_id)
    assert document["seats"][0]["resigned"] and document["result"]["winners"] == [1]
    said = resignations(api, gql, game_id, token)
    assert said == {name: [(0, "timeout")] for name in ("rest", "graphql", "sse")}
    assert standing_reasons(api, gql, game_id) == ["timeout", None]
    (left,) = receiver.wait_for("seat.left")
    assert left["reason"] == "timeout"
    moves = receiver.wait_for("move", count=document["version"])
    told = [body["entry"] for body in moves if body["entry"]["action"] == "resign"]
    assert [(entry["seat"], entry["reason"]) for entry in told] == [(0, "timeout")]


def test_a_resignation_the_seat_chose_says_resigned(api, gql):
    created = api.create(seats=2)
    game_id, token = created["id"], created["seats"][1]["token"]
    first = api.legal(game_id, created["seats"][0]["token"])[0]
    assert api.move(game_id, created["seats"][0]["token"], first).status_code == 200
    answer = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(token))
    assert answer.status_code == 200, answer.text
    finished(api, game_id)
    said = resignations(api, gql, game_id, token)
    assert said == {name: [(1, "resigned")] for name in ("rest", "graphql", "sse")}
    assert standing_reasons(api, gql, game_id) == [None, "resigned"]


# --- the record -----------------------------------------------------------------------


def record_of(api, game_id: str, token: str) -> dict:
    answer = api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_record_of_a_game_lost_on_time_says_timeout_and_how_it_was_timed(
    api, gql, hidden_numbers
):
    clock = {"initial_seconds": 0.3, "increment_seconds": 0.5, "on_timeout": "forfeit"}
    created = api.create(seats=TIMED, clock=clock)
    game_id, token = created["id"], created["seats"][0]["token"]
    finished(api, game_id)
    record = record_of(api, game_id, token)
    assert [(m["seat"], m["reason"]) for m in record["moves"] if m["action"] == "resign"] == [
        (0, "timeout")
    ]
    assert {m["reason"] for m in record["moves"] if m["action"] == "move"} <= {None}
    assert record["clock"] == clock
    assert record["on_leave"] == "end_game" and record["leave_bot"]
    assert all(s["left_at_version"] is None and s["left_reason"] is None for s in record["seats"])
    replay(load_record(orjson.dumps(record)), hidden_numbers)
    query = "query($id: ID!) { record(gameId: $id) }"
    assert gql.data(query, {"id": game_id}, token)["record"] == record


def test_the_record_of_a_resignation_the_seat_chose_says_resigned(api, hidden_numbers):
    created = api.create(seats=2, on_leave="end_game")
    game_id, token = created["id"], created["seats"][1]["token"]
    answer = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(token))
    assert answer.status_code == 200, answer.text
    finished(api, game_id)
    record = record_of(api, game_id, token)
    assert [(m["seat"], m["action"], m["reason"]) for m in record["moves"]] == [
        (1, "resign", "resigned")
    ]
    assert record["clock"] is None and record["on_leave"] == "end_game"
    replay(load_record(orjson.dumps(record)), hidden_numbers)


def test_a_seat_that_ran_out_of_time_under_bot_takes_over_left_on_timeout(api, gql, hidden_numbers):
    seats = [
        {"name": "Ada"},
        {"name": "Bot 1", "bot": "random"},
        {"name": "Bot 2", "bot": "random"},
    ]
    created = api.create(seats=seats, clock={"initial_seconds": 0.3}, leave_bot="random")
    game_id, token = created["id"], created["seats"][0]["token"]
    document = finished(api, game_id)
    assert document["status"] == "finished" and document["seats"][0]["abandoned"]
    record = record_of(api, game_id, token)
    ada = record["seats"][0]
    assert ada["left_reason"] == "timeout" and ada["left_at_version"] is not None
    assert [s["left_reason"] for s in record["seats"][1:]] == [None, None]
    assert standing_reasons(api, gql, game_id) == ["timeout", None, None]
    assert record["on_leave"] == "bot_takes_over" and record["leave_bot"] == "random"
    assert record["clock"] == {
        "initial_seconds": 0.3,
        "increment_seconds": 0,
        "on_timeout": "forfeit",
    }
    assert all(m["action"] == "move" for m in record["moves"]), "leaving commits nothing"
    replay(load_record(orjson.dumps(record)), hidden_numbers)


def test_a_seat_that_resigned_under_bot_takes_over_left_because_it_resigned(api, gql):
    created = api.create(seats=3, leave_bot="random")
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    answer = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(tokens[1]))
    assert answer.json()["abandoned"] is True
    kept = {
        **created,
        "seats": [dict(s, token=None) if s["seat"] == 1 else s for s in created["seats"]],
    }
    api.play_out(kept)
    finished(api, game_id)
    record = record_of(api, game_id, tokens[0])
    assert [(s["left_at_version"], s["left_reason"]) for s in record["seats"]] == [
        (None, None),
        (0, "resigned"),
        (None, None),
    ]
    assert standing_reasons(api, gql, game_id) == [None, "resigned", None]
    assert record["clock"] is None and record["on_leave"] == "bot_takes_over"
