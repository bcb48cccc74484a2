"""REST and GraphQL: the record of a finished game, the game at any version, and the
records a platform lists by tag. Records replay through the engine (`skyport replay`)."""

from __future__ import annotations

import importlib
import json
import os
import random

import pytest

from services.engine import all_games
from services.gameplay.records import load_record, replay, state_at

RECORD_GAMES = int(os.environ.get("SKYPORT_RECORD_GAMES", "2"))
"""Random bot games per registered game whose records are fetched and replayed."""

BOT_GAMES = {game.id: game for game in all_games()}


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def finished_game(api, **extra) -> dict:
    created = api.create(seats=2, **extra)
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    return created


def record_of(api, game_id: str, token: str | None):
    return api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(token))


@pytest.mark.parametrize("game_id", sorted(BOT_GAMES))
def test_records_of_random_bot_games_replay_through_the_engine(api, game_id):
    game = BOT_GAMES[game_id]
    rng = random.Random(f"records-{game_id}")
    for _ in range(RECORD_GAMES):
        players = rng.randint(max(2, game.min_players), min(4, game.max_players))
        seats = [{"name": f"Bot {n}", "bot": "random"} for n in range(players)]
        created = api.create(
            game_id,
            seats,
            seed=rng.randrange(2**40),
            tags=["replayed"],
            headers=api.auth(api.platform_key),
        )
        api.wait_until(created["id"], lambda d: d["status"] == "finished", timeout=120)
        response = record_of(api, created["id"], api.platform_key)
        assert response.status_code == 200, response.text
        record = load_record(response.content)
        replayed = replay(record)
        final = api.game(created["id"])
        assert record.version == final["version"] and record.moves[-1].version == final["version"]
        assert [s["name"] for s in created["seats"]] == [s.name for s in record.seats]
        assert replayed.result is not None
        assert replayed.result.winners == final["result"]["winners"]


def test_a_record_holds_the_seed_seats_moves_with_times_and_the_result(api, hidden_numbers):
    created = finished_game(api, tags=["league-a"])
    token = tokens_of(created)[0]
    response = record_of(api, created["id"], token)
    assert response.status_code == 200
    body = response.json()
    assert body["format"] == "skyport.record/1" and body["seed"] == 11
    assert body["game"] == "hidden-numbers" and body["tags"] == ["league-a"]
    assert [m["version"] for m in body["moves"]] == list(range(1, len(body["moves"]) + 1))
    assert all(m["at"] and m["seat"] in (0, 1) for m in body["moves"])
    assert body["result"]["winners"] == api.game(created["id"])["result"]["winners"]
    # Hidden information is in it, now that the game is over: the cards drawn.
    drew = [e for m in body["moves"] for e in m["events"] if e["kind"] == "drew"]
    assert drew and all(e["card"] for e in drew)
    replay(load_record(response.content), hidden_numbers)


def test_the_record_of_a_game_not_finished_is_409_not_finished(api):
    created = api.create()
    response = record_of(api, created["id"], tokens_of(created)[0])
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "not_finished" and problem["status_now"] == "active"
    assert response.headers["content-type"].startswith("application/problem+json")


def test_a_record_is_for_the_games_seats_and_the_key_that_created_it(api):
    created = finished_game(api, headers=api.auth(api.platform_key))
    other = api.create()
    assert record_of(api, created["id"], None).json()["code"] == "seat_token_required"
    wrong = record_of(api, created["id"], tokens_of(other)[0])
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_token"
    assert record_of(api, created["id"], api.platform_key).status_code == 200
    anonymous = finished_game(api)  # created without a key: no key reads its record
    refused = record_of(api, anonymous["id"], api.platform_key)
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_token"
    assert record_of(api, "a" * 24, api.platform_key).json()["code"] == "game_not_found"


def test_a_record_asked_without_a_token_is_refused_before_any_is_read(api, monkeypatch):
    """Making a record reads a game's whole log: nobody without a token makes it do so."""
    created = finished_game(api)

    async def never(game_id: str):
        raise AssertionError("the record was read for a caller without a token")

    monkeypatch.setattr(api.client.app.state.service, "_archived", never)
    refused = record_of(api, created["id"], None)
    assert refused.status_code == 401 and refused.json()["code"] == "seat_token_required"


def test_a_finished_game_can_be_stepped_through_version_by_version(api, hidden_numbers):
    created = finished_game(api, headers=api.auth(api.platform_key))
    game_id = created["id"]
    record = load_record(record_of(api, game_id, api.platform_key).content)
    game = hidden_numbers
    for version in range(record.version + 1):
        response = api.client.get(f"/v1/games/{game_id}/states/{version}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["version"] == version and body["last_version"] == record.version
        expected = game.view(state_at(record, version, game), None).model_dump(mode="json")
        assert body["view"] == expected
        assert body["view"]["hand"] is None  # a spectator's view: no hands
    final = api.client.get(f"/v1/games/{game_id}/states/{record.version}").json()
    assert final["view"] == api.game(game_id)["view"]
    beyond = api.client.get(f"/v1/games/{game_id}/states/{record.version + 1}")
    assert beyond.status_code == 404 and beyond.json()["code"] == "version_not_found"
    for huge in (10**12 + 1, 10**30):  # beyond any game's versions: refused by the path
        refused = api.client.get(f"/v1/games/{game_id}/states/{huge}")
        assert refused.status_code == 404 and refused.json()["code"] == "version_not_found"
    for not_a_version in ("abc", "-1", "1.0", "+1", "1_0"):  # not the generic not_found
        refused = api.client.get(f"/v1/games/{game_id}/states/{not_a_version}")
        assert refused.status_code == 404 and refused.json()["code"] == "version_not_found"
        assert "whole number" in refused.json()["detail"]


def test_the_states_of_a_game_not_finished_are_409(api):
    created = api.create()
    response = api.client.get(f"/v1/games/{created['id']}/states/0")
    assert response.status_code == 409 and response.json()["code"] == "not_finished"


def test_records_outlive_the_game(api, redis_url, settings, hidden_numbers):
    import redis as sync_redis

    created = finished_game(api)
    client = sync_redis.Redis.from_url(redis_url)
    game_key = f"{settings.key_prefix}:{{{created['id']}}}:game"
    record_ttl = client.pttl(f"{settings.key_prefix}:{{{created['id']}}}:record")
    game_ttl = client.pttl(game_key)
    assert record_ttl > game_ttl > 0
    client.delete(game_key, f"{settings.key_prefix}:{{{created['id']}}}:log")
    client.close()
    assert api.client.get(f"/v1/games/{created['id']}").status_code == 404
    response = record_of(api, created["id"], tokens_of(created)[1])
    assert response.status_code == 200
    replay(load_record(response.content), hidden_numbers)
    assert api.client.get(f"/v1/games/{created['id']}/states/1").status_code == 200


def test_platforms_list_their_records_by_tag(api):
    key = {"Authorization": f"Bearer {api.platform_key}"}
    mine = [finished_game(api, tags=["cup"], headers=key)["id"] for _ in range(3)]
    finished_game(api, tags=["other"], headers=key)
    finished_game(api, tags=["cup"])  # created without the key: not the platform's
    first = api.client.get("/v1/records", params={"tag": "cup", "limit": 2}, headers=key)
    assert first.status_code == 200, first.text
    page = first.json()
    assert len(page["records"]) == 2 and page["next_cursor"]
    rest = api.client.get(
        "/v1/records", params={"tag": "cup", "cursor": page["next_cursor"]}, headers=key
    ).json()
    listed = [r["id"] for r in page["records"] + rest["records"]]
    assert listed == list(reversed(mine)) and rest["next_cursor"] is None
    assert all(r["tags"] == ["cup"] and r["finished_at"] for r in page["records"])
    assert len(api.client.get("/v1/records", headers=key).json()["records"]) == 4


def test_listing_records_needs_an_api_key(api):
    created = api.create()
    assert api.client.get("/v1/records").json()["code"] == "api_key_required"
    seat = api.client.get("/v1/records", headers=api.auth(tokens_of(created)[0]))
    assert seat.status_code == 401 and seat.json()["code"] == "invalid_api_key"


RECORDS = """
query($first: Int!, $after: String) {
  records(tag: "pages", first: $first, after: $after) {
    edges { cursor node { id } } pageInfo { hasNextPage endCursor }
  }
}"""


def test_graphql_pages_records_with_cursors(api, gql):
    key = {"Authorization": f"Bearer {api.platform_key}"}
    mine = [finished_game(api, tags=["pages"], headers=key)["id"] for _ in range(3)]
    for game_id in mine:  # archived by now (a game is archived just after it finishes)
        assert record_of(api, game_id, api.platform_key).status_code == 200
    first = gql.data(RECORDS, {"first": 2}, token=api.platform_key)["records"]
    assert first["pageInfo"]["hasNextPage"] is True
    after = first["pageInfo"]["endCursor"]
    rest = gql.data(RECORDS, {"first": 2, "after": after}, token=api.platform_key)["records"]
    assert rest["pageInfo"] == {"hasNextPage": False, "endCursor": rest["edges"][0]["cursor"]}
    listed = [edge["node"]["id"] for edge in first["edges"] + rest["edges"]]
    assert listed == list(reversed(mine))
    games_cursor = gql(
        "query($after: String) { games(after: $after) { edges { cursor } } }",
        {"after": after},
        token=api.platform_key,
    )
    assert games_cursor["errors"][0]["extensions"]["code"] == "invalid_cursor"


def test_graphql_reads_records_states_and_listings(api, gql, hidden_numbers):
    key = {"Authorization": f"Bearer {api.platform_key}"}
    created = finished_game(api, tags=["gql"], headers=key)
    data = gql.data(
        """query($id: ID!) {
            record(gameId: $id)
            gameAtVersion(gameId: $id, version: 1) { version lastVersion view { __typename } }
            records(tag: "gql") { edges { node { id tags winners } } pageInfo { hasNextPage } }
        }""",
        {"id": created["id"]},
        token=api.platform_key,
    )
    record = load_record(data["record"])
    replay(record, hidden_numbers)
    assert data["gameAtVersion"]["version"] == 1
    assert data["gameAtVersion"]["lastVersion"] == record.version
    assert [edge["node"]["id"] for edge in data["records"]["edges"]] == [created["id"]]
    assert data["records"]["pageInfo"] == {"hasNextPage": False}
    live = api.create()
    answer = gql(
        "query($id: ID!) { record(gameId: $id) }", {"id": live["id"]}, token=api.platform_key
    )
    assert answer["errors"][0]["extensions"]["code"] == "not_finished"


# --- whole records: parsed and written off the event loop -------------------------------


@pytest.fixture
def record_work_on_the_loop(monkeypatch) -> list[str]:
    """Whole records parsed or written while an event loop runs in the thread (names)."""
    import asyncio

    from services.gameplay.records import Record

    seen: list[str] = []

    def on_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    parse, write = Record.model_validate_json, Record.model_dump_json

    def parsing(text, *args, **kwargs):
        if on_loop():
            seen.append("parse")
        return parse(text, *args, **kwargs)

    def writing(self, *args, **kwargs):
        if on_loop():
            seen.append("write")
        return write(self, *args, **kwargs)

    monkeypatch.setattr(Record, "model_validate_json", parsing)
    monkeypatch.setattr(Record, "model_dump_json", writing)
    return seen


def test_records_are_built_parsed_and_written_off_the_event_loop(
    api, gql, settings, redis_url, record_work_on_the_loop
):
    import redis as sync_redis

    created = finished_game(api)
    token = tokens_of(created)[0]
    client = sync_redis.Redis.from_url(redis_url)
    client.delete(f"{settings.key_prefix}:{{{created['id']}}}:record")  # built on first read
    client.close()
    for _ in range(2):
        assert record_of(api, created["id"], token).status_code == 200
        answer = gql.data(
            "query($id: ID!) { record(gameId: $id) }", {"id": created["id"]}, token=token
        )
        assert answer["record"]["id"] == created["id"]
        assert api.client.get(f"/v1/games/{created['id']}/states/2").status_code == 200
    assert record_work_on_the_loop == []


def test_a_record_kept_by_an_older_record_shape_is_served_in_todays(api, settings, redis_url):
    import redis as sync_redis

    created = finished_game(api)
    token = tokens_of(created)[0]
    today = record_of(api, created["id"], token).json()
    older = {**today, "seats": [{"name": s["name"]} for s in today["seats"]]}  # no bot, left_at
    client = sync_redis.Redis.from_url(redis_url)
    key = f"{settings.key_prefix}:{{{created['id']}}}:record"
    client.hset(key, "record", json.dumps(older))
    client.hdel(key, "shape")
    client.close()
    assert record_of(api, created["id"], token).json() == today


# --- replays: off the event loop, from the nearest state kept, and costed ----------------


@pytest.fixture
def applied(monkeypatch):
    """How many recorded moves replays apply (a list, to reset)."""
    replay_module = importlib.import_module("services.gameplay.records.replay")
    calls: list[int] = []
    original = replay_module._apply

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(replay_module, "_apply", counting)
    return calls


def test_a_game_at_a_version_replays_from_the_nearest_state_kept(
    api, hidden_numbers, applied, monkeypatch
):
    from services.gameplay import version_views

    monkeypatch.setattr(version_views, "CHECKPOINT_EVERY", 2)
    created = finished_game(api, headers=api.auth(api.platform_key))
    game_id = created["id"]
    record = load_record(record_of(api, game_id, api.platform_key).content)
    last = record.version
    assert last >= 4

    expected = {
        version: hidden_numbers.view(state_at(record, version, hidden_numbers), None)
        for version in (last - 1, last)
    }

    def view(version: int) -> None:
        response = api.client.get(f"/v1/games/{game_id}/states/{version}")
        assert response.status_code == 200, response.text
        assert response.json()["view"] == expected[version].model_dump(mode="json")  # the same

    applied.clear()
    view(last)
    assert len(applied) == last  # the first time, from the seed
    applied.clear()
    view(last - 1)
    assert len(applied) <= 1  # from the state kept at an even version
    applied.clear()
    view(last - 1)
    view(last)
    assert applied == []  # answered already


def test_dozens_of_aliased_games_at_versions_are_refused_before_they_run(gql, applied):
    fields = " ".join(
        f'v{n}: gameAtVersion(gameId: "g", version: {n}) {{ version }}' for n in range(20)
    )
    answer = gql("{ " + fields + " }")
    assert answer["data"] is None
    [error] = answer["errors"]
    assert error["extensions"]["code"] == "query_too_costly"
    assert applied == []


@pytest.fixture
def server(settings, games, serve):
    from services.api.app import create_app

    with serve(create_app(settings, games)) as running:
        yield running


@pytest.mark.anyio
async def test_the_server_answers_others_while_a_replay_runs(api, server, monkeypatch):
    import asyncio
    import threading

    import httpx

    replay_module = importlib.import_module("services.gameplay.records.replay")
    created = finished_game(api)  # through the test app: same Redis, same prefix
    started, release = threading.Event(), threading.Event()
    original = replay_module._apply

    def held(*args, **kwargs):
        started.set()
        release.wait(10)  # bounded: a replay on the event loop holds it for 10 s at most
        return original(*args, **kwargs)

    monkeypatch.setattr(replay_module, "_apply", held)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
        replaying = asyncio.create_task(http.get(f"/v1/games/{created['id']}/states/3"))
        try:
            assert await asyncio.to_thread(started.wait, 10)
            health = await http.get("/healthz", timeout=5)  # times out if the loop is held
            assert health.status_code == 200
        finally:
            release.set()
        answer = await replaying
    assert answer.status_code == 200 and answer.json()["version"] == 3
