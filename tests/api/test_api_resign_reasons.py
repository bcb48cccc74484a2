"""Why a seat resigned reaches every reader of the log: a resignation the seat chose says
`reason: "resigned"`, one committed because its clock ran out (on_timeout forfeit under
on_leave end_game) says `"timeout"`, in the events page, the SSE frames, GraphQL's log
and the move webhook."""

from __future__ import annotations

import orjson
import pytest
from pydantic import SecretStr

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
