"""Bulk creation: up to 200 games in one request, all or nothing, idempotent."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(120)

KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}


def spec(n: int, tag: str, **extra: Any) -> dict[str, Any]:
    return {
        "game": "hidden-numbers",
        "seats": [{"name": f"A{n}"}, {"name": f"B{n}"}],
        "seed": n,
        "tags": [tag],
        **extra,
    }


def listed(api, tag: str) -> set[str]:
    found: set[str] = set()
    cursor = None
    while True:
        params = {"tag": tag, "limit": 100, **({"cursor": cursor} if cursor else {})}
        page = api.client.get("/v1/games", params=params, headers=KEY).json()
        found |= {g["id"] for g in page["games"]}
        cursor = page["next_cursor"]
        if cursor is None:
            return found


def test_two_hundred_games_are_created_in_one_request_each_with_its_tokens(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    response = api.client.post(
        "/v1/games/bulk", json={"games": [spec(n, tag) for n in range(200)]}, headers=KEY
    )
    assert response.status_code == 201, response.text
    games = response.json()["games"]
    assert len(games) == 200 and len({g["id"] for g in games}) == 200
    assert listed(api, tag) == {g["id"] for g in games}
    first = games[7]
    assert [s["name"] for s in first["seats"]] == ["A7", "B7"]
    document = api.game(first["id"], first["seats"][1]["token"])
    assert document["you"] == 1 and document["status"] == "active"


def test_a_batch_is_set_up_off_the_event_loop(api, monkeypatch):
    """Two hundred set-ups, tokens and answers take a tenth of a second or more of CPU,
    which on the loop held up every other request meanwhile."""
    service = api.client.app.state.service
    set_up = service.set_up
    threads: set[int] = set()

    def watched(request):
        threads.add(threading.get_ident())
        return set_up(request)

    monkeypatch.setattr(service, "set_up", watched)
    body = {"games": [spec(n, f"bulk-{uuid.uuid4().hex[:8]}") for n in range(3)]}
    assert api.client.post("/v1/games/bulk", json=body, headers=KEY).status_code == 201
    loop_thread = api.client.portal.call(threading.get_ident)
    assert threads and loop_thread not in threads


def test_two_hundred_and_one_games_are_refused_before_any_work(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    response = api.client.post(
        "/v1/games/bulk", json={"games": [spec(n, tag) for n in range(201)]}, headers=KEY
    )
    assert response.status_code == 422
    assert response.json()["code"] == "too_many_games"
    assert "at most 200 games; 201 were sent" in response.json()["errors"][0]["message"]
    assert listed(api, tag) == set()


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"seats": [{"name": "A", "bot": "godlike"}, {"name": "B"}]}, "unknown_bot_level"),
        ({"seats": [{"name": "Solo"}]}, "player_count"),
    ],
)
def test_one_bad_game_creates_none_of_the_batch(api, bad, code):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    games = [spec(n, tag) for n in range(20)]
    games[13] = {**games[13], **bad}
    response = api.client.post("/v1/games/bulk", json={"games": games}, headers=KEY)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == code and problem["index"] == 13
    assert problem["detail"].startswith("Game 13:")
    assert listed(api, tag) == set()


def test_a_schema_error_in_one_game_creates_none(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    games = [spec(n, tag) for n in range(5)]
    games[3]["seats"] = "two"
    response = api.client.post("/v1/games/bulk", json={"games": games}, headers=KEY)
    assert response.status_code == 422
    assert response.json()["errors"][0]["location"][:2] == ["games", "3"]
    assert listed(api, tag) == set()


def test_a_repeated_batch_answers_the_same_games_and_tokens(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    body = {"games": [spec(n, tag) for n in range(30)]}
    key = {"Idempotency-Key": f"batch-{uuid.uuid4()}"}
    first = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    again = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert again.json() == first.json()
    assert len(listed(api, tag)) == 30
    changed = {"games": [spec(n, tag) for n in range(31)]}
    reused = api.client.post("/v1/games/bulk", json=changed, headers={**KEY, **key})
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    assert len(listed(api, tag)) == 30


def test_a_repeated_batch_is_answered_without_setting_up_its_games_again(api, monkeypatch):
    """A retry costs a read, not two hundred engine setups."""
    body = {"games": [spec(n, f"bulk-{uuid.uuid4().hex[:8]}") for n in range(20)]}
    key = {"Idempotency-Key": f"batch-{uuid.uuid4()}"}
    first = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    assert first.status_code == 201

    def no_setup(*args, **kwargs):
        raise AssertionError("a replayed batch set a game up again")

    monkeypatch.setattr(api.client.app.state.service, "set_up", no_setup)
    again = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()


def test_the_idempotency_key_may_come_in_the_body(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    body = {"games": [spec(n, tag) for n in range(3)], "idempotency_key": f"k-{uuid.uuid4()}"}
    first = api.client.post("/v1/games/bulk", json=body, headers=KEY).json()
    again = api.client.post("/v1/games/bulk", json=body, headers=KEY).json()
    assert first == again and len(listed(api, tag)) == 3


def test_a_header_key_and_a_different_body_key_are_refused_before_anything_is_made(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    body = {"games": [spec(0, tag)], "idempotency_key": f"k-{uuid.uuid4()}"}
    header = {"Idempotency-Key": f"k-{uuid.uuid4()}"}
    refused = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **header})
    assert refused.status_code == 422
    assert refused.json()["code"] == "idempotency_key_mismatch" and listed(api, tag) == set()
    same = {"Idempotency-Key": body["idempotency_key"]}
    assert api.client.post("/v1/games/bulk", json=body, headers={**KEY, **same}).status_code == 201


def test_bots_of_a_bulk_created_game_are_played_by_the_workers(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    games = [
        {**spec(n, tag), "seats": [{"name": "X", "bot": "random"}, {"name": "Y", "bot": "random"}]}
        for n in range(5)
    ]
    created = api.client.post("/v1/games/bulk", json={"games": games}, headers=KEY).json()
    for game in created["games"]:
        assert all(s["token"] is None for s in game["seats"])
        api.wait_until(game["id"], lambda d: d["status"] == "finished", timeout=30)


def test_only_a_platform_api_key_creates_in_bulk(api):
    body = {"games": [spec(0, "bulk-anon")]}
    assert api.client.post("/v1/games/bulk", json=body).status_code == 401
    seat = api.create()["seats"][0]["token"]
    refused = api.client.post("/v1/games/bulk", json=body, headers=api.auth(seat))
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_api_key"


def test_graphql_creates_games_in_bulk(gql, api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    mutation = """
    mutation($games: [CreateGameInput!]!, $key: String) {
      createGames(games: $games, idempotencyKey: $key) {
        __typename
        ... on GamesCreated { replayed games { id seats { token } } }
        ... on Error { code message }
      }
    }"""
    games = [
        {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "tags": [tag]}
        for _ in range(4)
    ]
    token = KEY["Authorization"].split()[1]
    key = f"gql-{uuid.uuid4()}"
    first = gql.data(mutation, {"games": games, "key": key}, token=token)["createGames"]
    again = gql.data(mutation, {"games": games, "key": key}, token=token)["createGames"]
    assert first["__typename"] == "GamesCreated" and not first["replayed"]
    assert again["replayed"] and again["games"] == first["games"]
    assert len(listed(api, tag)) == 4
    games[2]["game"] = "chess"
    refused = gql.data(mutation, {"games": games}, token=token)["createGames"]
    assert refused["__typename"] == "Rejected" and refused["code"] == "unknown_game"


def test_bulk_games_with_open_seats_get_invite_codes_that_claim_them(api):
    """Bulk creation set no invites up: an open seat answered no code and no creator
    token, and nobody could ever claim it, fill it or start the game."""
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    open_spec = {**spec(1, tag), "seats": [{"name": "Host"}, {"open": True}]}
    body = {"games": [open_spec, spec(2, tag)]}
    key = {"Idempotency-Key": f"batch-{uuid.uuid4()}"}
    first = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    assert first.status_code == 201, first.text
    waiting, plain = first.json()["games"]
    code = waiting["seats"][1]["invite_code"]
    assert code and waiting["seats"][1]["invite_expires_at"] and waiting["creator_token"]
    assert waiting["status"] == "waiting" and plain["creator_token"] is None
    again = api.client.post("/v1/games/bulk", json=body, headers={**KEY, **key})
    assert again.json() == first.json()  # the same codes and creator token on a retry

    claimed = api.client.post(
        f"/v1/games/{waiting['id']}/seats/1/claim", json={"code": code, "name": "Guest"}
    )
    assert claimed.status_code == 200 and claimed.json()["status"] == "active"


def test_the_creator_of_a_bulk_game_fills_its_open_seat_with_a_bot(api):
    tag = f"bulk-{uuid.uuid4().hex[:8]}"
    open_spec = {**spec(3, tag), "seats": [{"name": "Host"}, {"open": True}]}
    created = api.client.post("/v1/games/bulk", json={"games": [open_spec]}, headers=KEY)
    game = created.json()["games"][0]
    for token in (game["creator_token"], KEY["Authorization"].split()[1]):
        issued = api.client.post(
            f"/v1/games/{game['id']}/seats/1/invite", json={}, headers=api.auth(token)
        )
        assert issued.status_code == 200, issued.text
    filled = api.client.post(
        f"/v1/games/{game['id']}/seats/1/bot", json={"bot": "random"}, headers=KEY
    )
    assert filled.status_code == 200 and filled.json()["status"] == "active"
