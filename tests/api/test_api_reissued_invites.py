"""The creator gives an open seat a new invite code (its first expired, or went to the
wrong person): the earlier code stops working, the new one claims the seat, and only the
creator may do it, only while the seat is open and the game waits."""

from __future__ import annotations

import time

import redis

from services.gameplay import seats as seats_module

OPEN = {"open": True}


def reissue(api, game_id: str, seat: int, token: str | None, key: str | None = None, **body):
    headers = api.auth(token) | ({"Idempotency-Key": key} if key else {})
    return api.client.post(f"/v1/games/{game_id}/seats/{seat}/invite", json=body, headers=headers)


def claim(api, game_id: str, seat: int, code: str, name: str = "Guest"):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/claim", json={"code": code, "name": name}
    )


def test_an_expired_invite_is_reissued_and_the_new_code_claims_the_seat(api, monkeypatch):
    created = api.create(seats=[{"name": "Host"}, OPEN], invite_ttl_seconds=60)
    game_id, creator = created["id"], created["creator_token"]
    first_code = created["seats"][1]["invite_code"]
    etag = api.client.get(f"/v1/games/{game_id}").headers["etag"]
    later = int(time.time() * 1000) + 61_000
    monkeypatch.setattr(seats_module, "now_ms", lambda: later)
    expired = claim(api, game_id, 1, first_code)
    assert expired.status_code == 410 and "new one" in expired.json()["detail"]

    issued = reissue(api, game_id, 1, creator, ttl_seconds=3600)
    assert issued.status_code == 200, issued.text
    body = issued.json()
    assert body["seat"] == 1 and body["invite_code"] != first_code
    assert len(body["invite_code"].replace("-", "")) == 10
    game = api.client.get(f"/v1/games/{game_id}", headers={"If-None-Match": etag})
    assert game.status_code == 200, "a client polling with the old ETag must see the new expiry"
    assert game.json()["seats"][1]["invite_expires_at"] == body["invite_expires_at"]
    assert body["invite_expires_at"] > created["seats"][1]["invite_expires_at"]

    old = claim(api, game_id, 1, first_code)
    assert old.status_code == 403 and old.json()["code"] == "wrong_invite_code"
    taken = claim(api, game_id, 1, body["invite_code"], "Ana")
    assert taken.status_code == 200 and taken.json()["status"] == "active"
    assert api.game(game_id)["seats"][1]["name"] == "Ana"


def test_a_code_that_went_astray_is_replaced_before_it_expires(api):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    leaked = created["seats"][2]["invite_code"]
    issued = reissue(api, game_id, 2, creator).json()
    assert claim(api, game_id, 2, leaked).json()["code"] == "wrong_invite_code"
    assert claim(api, game_id, 1, created["seats"][1]["invite_code"]).status_code == 200
    assert claim(api, game_id, 2, issued["invite_code"]).json()["status"] == "active"


def test_only_the_creator_reissues_and_only_an_open_seat_of_a_waiting_game(api):
    key = api.auth(api.platform_key)
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN, OPEN], headers=key)
    game_id, creator = created["id"], created["creator_token"]
    anonymous = reissue(api, game_id, 1, None)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "creator_token_required"
    host = reissue(api, game_id, 1, created["seats"][0]["token"])
    assert host.status_code == 403 and host.json()["code"] == "not_the_creator"
    assert reissue(api, game_id, 1, api.platform_key).status_code == 200  # the creating key
    not_open = reissue(api, game_id, 0, creator)
    assert not_open.status_code == 409 and not_open.json()["code"] == "seat_not_open"
    no_seat = reissue(api, game_id, 7, creator)
    assert no_seat.status_code == 404 and no_seat.json()["code"] == "seat_not_found"
    too_short = reissue(api, game_id, 1, creator, ttl_seconds=30)
    assert too_short.status_code == 422
    unknown = reissue(api, game_id, 1, creator, minutes=5)
    assert unknown.status_code == 422

    code = reissue(api, game_id, 2, creator).json()["invite_code"]
    assert claim(api, game_id, 2, code).status_code == 200
    taken = reissue(api, game_id, 2, creator)
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    assert api.client.post(f"/v1/games/{game_id}/cancel", headers=api.auth(creator)).is_success
    cancelled = reissue(api, game_id, 3, creator)
    assert cancelled.status_code == 409 and cancelled.json()["code"] == "game_not_waiting"
    assert cancelled.json()["status_now"] == "aborted"


def test_a_retried_reissue_gets_the_same_code_until_it_is_used(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    first = reissue(api, game_id, 1, creator, key="reissue-key-0001")
    again = reissue(api, game_id, 1, creator, key="reissue-key-0001")
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    other = reissue(api, game_id, 1, creator, key="reissue-key-0001", ttl_seconds=600)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    stranger = reissue(api, game_id, 1, created["seats"][0]["token"], key="reissue-key-0001")
    assert stranger.status_code == 403  # the key is the creator's, not anyone's who sends it

    assert claim(api, game_id, 1, first.json()["invite_code"]).status_code == 200
    used = reissue(api, game_id, 1, creator, key="reissue-key-0001")
    assert used.status_code == 409 and used.json()["code"] == "invite_replaced"


def test_a_key_used_again_after_it_is_forgotten_gives_a_new_code(
    api, redis_url, key_prefix, monkeypatch
):
    """Once the service forgets a key (its TTL), the same key reissues afresh: a code that
    went astray under it must not come back."""
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    first = reissue(api, game_id, 1, creator, key="reissue-key-0002").json()["invite_code"]
    store = redis.Redis.from_url(redis_url)
    try:
        forgotten = store.delete(*store.keys(f"{key_prefix}:{{{game_id}}}:idem:*"))
    finally:
        store.close()
    assert forgotten == 1
    later = int(time.time() * 1000) + 1_000
    monkeypatch.setattr(seats_module, "now_ms", lambda: later)
    again = reissue(api, game_id, 1, creator, key="reissue-key-0002")
    assert again.status_code == 200 and "Idempotent-Replayed" not in again.headers
    second = again.json()["invite_code"]
    assert second != first
    assert claim(api, game_id, 1, first).json()["code"] == "wrong_invite_code"
    assert claim(api, game_id, 1, second).json()["status"] == "active"


def test_graphql_reissues_an_invite(api, gql):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    mutation = """mutation($id: ID!, $seat: Int!) {
        reissueInvite(gameId: $id, seat: $seat, ttlSeconds: 600) {
            __typename
            ... on InviteIssued { seat inviteCode inviteExpiresAt replayed }
            ... on Rejected { code }
        }
    }"""
    issued = gql.data(mutation, {"id": game_id, "seat": 1}, token=creator)["reissueInvite"]
    assert issued["__typename"] == "InviteIssued" and not issued["replayed"]
    assert issued["inviteCode"] != created["seats"][1]["invite_code"]
    assert claim(api, game_id, 1, issued["inviteCode"]).status_code == 200
    again = gql.data(mutation, {"id": game_id, "seat": 1}, token=creator)["reissueInvite"]
    assert again == {"__typename": "Rejected", "code": "seat_taken"}


def test_embedded_mode_reissues_with_the_same_script(games):
    from starlette.testclient import TestClient

    from services.api.app import create_app
    from services.gameplay.settings import Settings

    settings = Settings(redis_url=None, log_level="warning", stream_keepalive=0.5)
    with TestClient(create_app(settings, games)) as client:
        created = client.post(
            "/v1/games", json={"game": "hidden-numbers", "seats": [{"name": "Host"}, OPEN]}
        ).json()
        game_id, creator = created["id"], created["creator_token"]
        issued = client.post(
            f"/v1/games/{game_id}/seats/1/invite",
            json={},
            headers={"Authorization": f"Bearer {creator}"},
        )
        assert issued.status_code == 200, issued.text
        path = f"/v1/games/{game_id}/seats/1/claim"
        old = client.post(path, json={"code": created["seats"][1]["invite_code"], "name": "A"})
        assert old.status_code == 403
        new = client.post(path, json={"code": issued.json()["invite_code"], "name": "A"})
        assert new.status_code == 200 and new.json()["status"] == "active"


def test_a_reissue_without_a_body_takes_the_default_lifetime(api):
    """The body is optional, as the README shows it (`{"ttl_seconds"?: ...}`): no body at
    all, as an app posting to the URL alone sends, gets a code of the default lifetime."""
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id, creator = created["id"], created["creator_token"]
    issued = api.client.post(f"/v1/games/{game_id}/seats/1/invite", headers=api.auth(creator))
    assert issued.status_code == 200, issued.text
    assert issued.json()["invite_code"] != created["seats"][1]["invite_code"]
    assert claim(api, game_id, 1, issued.json()["invite_code"]).status_code == 200
