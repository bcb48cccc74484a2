"""Idempotency-Key: a retry with the same key returns the first answer and changes nothing."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor


def key() -> str:
    return str(uuid.uuid4())


def seat_tokens(created: dict) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def post_move(api, game_id, token, move, idempotency_key, **body):
    return api.client.post(
        f"/v1/games/{game_id}/moves",
        json={"move": move, **body},
        headers={**api.auth(token), "Idempotency-Key": idempotency_key},
    )


def test_a_retried_move_gets_the_first_answer_and_commits_once(api):
    created = api.create()
    token = seat_tokens(created)[0]
    move = api.legal(created["id"], token)[0]
    k = key()
    first = post_move(api, created["id"], token, move, k)
    again = post_move(api, created["id"], token, move, k)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert api.game(created["id"])["version"] == 1
    assert len(api.events(created["id"])["entries"]) == 1


def test_a_retry_after_the_game_moved_on_still_gets_the_first_answer(api):
    created = api.create()
    tokens = seat_tokens(created)
    move = api.legal(created["id"], tokens[0])[0]
    k = key()
    first = post_move(api, created["id"], tokens[0], move, k, expected_version=0)
    api.move(created["id"], tokens[1], api.legal(created["id"], tokens[1])[0])
    again = post_move(api, created["id"], tokens[0], move, k, expected_version=0)
    assert again.status_code == 200 and again.json() == first.json()
    assert api.game(created["id"])["version"] == 2


def test_reusing_a_key_for_a_different_move_is_refused(api):
    created = api.create()
    token = seat_tokens(created)[0]
    moves = api.legal(created["id"], token)
    k = key()
    post_move(api, created["id"], token, moves[0], k)
    other = post_move(api, created["id"], token, moves[1], k)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert api.game(created["id"])["version"] == 1


def test_keys_belong_to_one_token(api):
    created = api.create()
    tokens = seat_tokens(created)
    k = key()
    first = post_move(api, created["id"], tokens[0], api.legal(created["id"], tokens[0])[0], k)
    second = post_move(api, created["id"], tokens[1], api.legal(created["id"], tokens[1])[0], k)
    assert first.status_code == second.status_code == 200
    assert (first.json()["seat"], second.json()["seat"]) == (0, 1)
    assert api.game(created["id"])["version"] == 2


def test_concurrent_requests_with_one_key_commit_once(api):
    created = api.create()
    token = seat_tokens(created)[0]
    move = api.legal(created["id"], token)[0]
    k = key()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: post_move(api, created["id"], token, move, k), range(8)))
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert api.game(created["id"])["version"] == 1


def test_a_retried_resignation_resigns_once(api):
    created = api.create(seats=3)
    token = seat_tokens(created)[2]
    k = key()
    headers = {**api.auth(token), "Idempotency-Key": k}
    first = api.client.post(f"/v1/games/{created['id']}/resign", headers=headers)
    again = api.client.post(f"/v1/games/{created['id']}/resign", headers=headers)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    # The seat was abandoned once: the stand-in bot makes its one move (version 1), in the
    # background, and no second resignation or second bot move follows.
    deadline = time.monotonic() + 30
    while api.game(created["id"])["version"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    assert api.game(created["id"])["version"] == 1


def test_a_retried_creation_returns_the_same_game_and_tokens(api):
    platform = {**api.auth(api.platform_key), "Idempotency-Key": key()}
    tag = f"idem-{uuid.uuid4().hex[:8]}"
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "tags": [tag]}
    first = api.client.post("/v1/games", json=body, headers=platform)
    again = api.client.post("/v1/games", json=body, headers=platform)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    listed = api.client.get("/v1/games", params={"tag": tag}, headers=api.auth(api.platform_key))
    assert [g["id"] for g in listed.json()["games"]] == [first.json()["id"]]
    token = first.json()["seats"][0]["token"]
    assert api.game(first.json()["id"], token)["you"] == 0


def test_a_creation_key_reused_for_another_body_is_refused(api):
    headers = {"Idempotency-Key": key()}
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    assert api.client.post("/v1/games", json=body, headers=headers).status_code == 201
    body["seats"].append({"name": "C"})
    other = api.client.post("/v1/games", json=body, headers=headers)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


def test_the_same_creation_key_from_two_platforms_makes_two_games(api):
    k = key()
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    anonymous = api.client.post("/v1/games", json=body, headers={"Idempotency-Key": k})
    platform = api.client.post(
        "/v1/games", json=body, headers={**api.auth(api.platform_key), "Idempotency-Key": k}
    )
    assert anonymous.json()["id"] != platform.json()["id"]


def test_a_malformed_idempotency_key_is_400(api):
    created = api.create()
    token = seat_tokens(created)[0]
    move = api.legal(created["id"], token)[0]
    for bad in ["short", "x" * 256, "has space in it"]:
        answer = post_move(api, created["id"], token, move, bad)
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_idempotency_key"
    assert api.game(created["id"])["version"] == 0
