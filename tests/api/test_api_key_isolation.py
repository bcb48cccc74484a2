"""Platforms are kept apart: one API key lists, and reads in full once finished, only the
games it created (itself, in bulk or by its tournaments); to another key they are a
spectator's, and their records are refused as to a token of no seat."""

from __future__ import annotations

import time
import uuid
from typing import Any

import orjson
import pytest

pytestmark = pytest.mark.timeout(120)

GAME = """query($id: ID!) { game(id: $id) { you view { ... on HiddenNumbersView { hand } }
  seatViews { ... on HiddenNumbersView { hand } } } }"""
GAMES = """query($tag: String) { games(tag: $tag) { edges { node { id } } } }"""
RECORD = """query($id: ID!) { record(gameId: $id) }"""


def listed(api, key: str, **params: Any) -> list[str]:
    response = api.client.get("/v1/games", params=params, headers=api.auth(key))
    assert response.status_code == 200, response.text
    return [game["id"] for game in response.json()["games"]]


def finished_game(api, tag: str) -> dict[str, Any]:
    created = api.create(tags=[tag], headers=api.auth(api.platform_key))
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    return created


def test_another_key_lists_none_of_a_keys_games(api, gql):
    tag = f"private-{uuid.uuid4().hex[:8]}"
    game_id = finished_game(api, tag)["id"]
    filters: list[dict[str, Any]] = [
        {"tag": tag},
        {"game": "hidden-numbers"},
        {"status": "finished"},
        {"tag": tag, "game": "hidden-numbers", "status": "finished"},
        {},
    ]
    for params in filters:
        assert game_id in listed(api, api.platform_key, **params), params
        assert game_id not in listed(api, api.other_platform_key, **params), params
    mine = gql.data(GAMES, {"tag": tag}, api.platform_key)["games"]["edges"]
    assert [edge["node"]["id"] for edge in mine] == [game_id]
    theirs = gql.data(GAMES, {"tag": tag}, api.other_platform_key)["games"]["edges"]
    assert theirs == []


def test_another_key_reads_a_keys_finished_game_as_a_spectator(api):
    game_id = finished_game(api, f"full-{uuid.uuid4().hex[:8]}")["id"]
    full = api.game(game_id, api.platform_key)
    assert len(full["seat_views"]) == 2 and all(v["hand"] for v in full["seat_views"])
    assert api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(api.platform_key)).json()[
        "seed"
    ]

    spectator = api.game(game_id)
    other = api.game(game_id, api.other_platform_key)
    assert other["seat_views"] is None and other["view"]["hand"] is None
    assert other["view"] == spectator["view"]
    entries = api.events(game_id, api.other_platform_key)["entries"]
    assert entries and all(entry["move"] is None for entry in entries)
    drew = [event for entry in entries for event in entry["events"] if event["kind"] == "drew"]
    assert drew and not any("card" in event for event in drew)
    assert entries == api.events(game_id)["entries"]
    refused = api.client.get(
        f"/v1/games/{game_id}/record", headers=api.auth(api.other_platform_key)
    )
    assert refused.status_code == 401
    problem = refused.json()
    assert problem["code"] == "invalid_token" and "did not create" in problem["detail"]
    assert "seed" not in problem


def test_over_graphql_another_key_reads_a_keys_finished_game_as_a_spectator(api, gql):
    game_id = finished_game(api, f"gql-{uuid.uuid4().hex[:8]}")["id"]
    full = gql.data(GAME, {"id": game_id}, api.platform_key)["game"]
    assert all(view["hand"] for view in full["seatViews"])
    assert gql.data(RECORD, {"id": game_id}, api.platform_key)["record"]["seed"] is not None

    other = gql.data(GAME, {"id": game_id}, api.other_platform_key)["game"]
    assert other == {"you": None, "view": {"hand": None}, "seatViews": None}
    refused = gql(RECORD, {"id": game_id}, api.other_platform_key)
    assert refused["data"] is None or refused["data"]["record"] is None
    assert refused["errors"][0]["extensions"] == {"code": "invalid_token", "status": 401}


def test_games_a_key_creates_in_bulk_are_listed_for_it_alone(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    specs = [
        {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "tags": [tag]}
        for _ in range(3)
    ]
    response = api.client.post(
        "/v1/games/bulk", json={"games": specs}, headers=api.auth(api.platform_key)
    )
    assert response.status_code == 201, response.text
    created = {game["id"] for game in response.json()["games"]}
    assert set(listed(api, api.platform_key, tag=tag)) == created
    assert listed(api, api.other_platform_key, tag=tag) == []


def test_a_keys_tournament_tables_are_its_own_games(api):
    """A tournament creates its tables' games for the key that created it: they are
    listed for that key, which reads them in full once finished, and for no other."""
    response = api.client.post(
        "/v1/tournaments",
        json={
            "game": "hidden-numbers",
            "participants": [{"name": f"Bot {n}", "bot": "random"} for n in range(2)],
            "format": {"kind": "round_robin"},
            "seed": 3,
        },
        headers=api.auth(api.platform_key),
    )
    assert response.status_code == 201, response.text
    tournament_id = response.json()["id"]
    deadline = time.monotonic() + 90
    while True:
        document = api.client.get(f"/v1/tournaments/{tournament_id}").json()
        if document["status"] == "finished":
            break
        assert time.monotonic() < deadline, document
        time.sleep(0.05)
    tables = {table["game_id"] for round_ in document["rounds"] for table in round_["tables"]}
    assert tables
    tag = f"tournament:{tournament_id}"
    assert set(listed(api, api.platform_key, tag=tag)) == tables
    assert listed(api, api.other_platform_key, tag=tag) == []
    for game_id in tables:
        assert api.game(game_id, api.platform_key)["seat_views"] is not None
        assert api.game(game_id, api.other_platform_key)["seat_views"] is None
        record = api.client.get(
            f"/v1/games/{game_id}/record", headers=api.auth(api.other_platform_key)
        )
        assert record.status_code == 401


def sse_entries(api, game_id: str, key: str) -> list[dict[str, Any]]:
    """The log entries the event stream of a finished game sends `key` (it ends there)."""
    headers = {"Accept": "text/event-stream", **api.auth(key)}
    with api.client.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as response:
        assert response.status_code == 200
        body = "".join(response.iter_text())
    found = []
    for line in body.splitlines():
        if line.startswith("data:"):
            data = orjson.loads(line[5:])
            if isinstance(data, dict) and "events" in data and "version" in data:
                found.append(data)
    return found


def test_the_event_stream_of_a_keys_finished_game_is_a_spectators_for_another_key(api):
    game_id = finished_game(api, f"sse-{uuid.uuid4().hex[:8]}")["id"]
    mine = sse_entries(api, game_id, api.platform_key)
    assert mine and all(entry["move"] is not None for entry in mine)
    theirs = sse_entries(api, game_id, api.other_platform_key)
    assert len(theirs) == len(mine) and all(entry["move"] is None for entry in theirs)
    drew = [event for entry in theirs for event in entry["events"] if event["kind"] == "drew"]
    assert drew and not any("card" in event for event in drew)
