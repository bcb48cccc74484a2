"""Invite codes and the creator token go to the creator only: no view, listing, event,
record, picture, GraphQL field or webhook shows them, and the store keeps only hashes.
And the webhooks of a game with open seats: game.seat_claimed, game.started,
game.cancelled and seat.left."""

from __future__ import annotations

import time

import orjson
import pytest
import redis as sync_redis
from pydantic import SecretStr

OPEN = {"open": True}
EVERY_EVENT = [
    "game.finished",
    "move",
    "game.seat_claimed",
    "game.started",
    "game.cancelled",
    "seat.left",
]


@pytest.fixture
def settings(settings):
    return settings.model_copy(
        update={
            "webhook_secret": SecretStr("hook-secret-for-tests"),
            "webhook_allow_private": True,
        }
    )


def claim(api, game_id: str, seat: int, code: str, name: str) -> dict:
    answer = api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/claim", json={"code": code, "name": name}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


GQL_GAME = """
query Game($id: ID!) {
  game(id: $id) { id status seats { seat name bot open inviteExpiresAt abandoned autopilot } }
}"""
GQL_GAMES = """
query Games($tag: String) {
  games(tag: $tag) { games { id status seats { seat name open abandoned autopilot } } }
}"""
GQL_EVENTS = """
query Events($id: ID!) { events(gameId: $id) { entries { version seat action events { data } } } }
"""


@pytest.mark.timeout(120)
def test_invite_codes_and_the_creator_token_never_leave_the_creation_answer(
    api, gql, receiver, redis_url, settings
):
    tag = f"privacy-{time.time_ns()}"
    created = api.create(
        seats=[{"name": "Host"}, OPEN, OPEN],
        tags=[tag],
        webhook_url=receiver.url,
        webhook_events=EVERY_EVENT,
    )
    game_id = created["id"]
    secrets = [created["seats"][1]["invite_code"], created["seats"][2]["invite_code"]]
    secrets += [code.replace("-", "") for code in secrets]
    secrets.append(created["creator_token"])
    host = created["seats"][0]["token"]
    seen: list[bytes] = []

    def read_every_door(tokens: list[str]) -> None:
        for token in [None, api.platform_key, *tokens]:
            auth = api.auth(token)
            for path in ("", "/events", "/board.svg", "/result", "/record"):
                seen.append(api.client.get(f"/v1/games/{game_id}{path}", headers=auth).content)
            seen.append(api.client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).content)
            seen.append(api.client.get("/v1/games", params={"tag": tag}, headers=auth).content)
            seen.append(orjson.dumps(gql(GQL_GAME, {"id": game_id}, token)))
            seen.append(orjson.dumps(gql(GQL_EVENTS, {"id": game_id}, token)))
            seen.append(orjson.dumps(gql(GQL_GAMES, {"tag": tag}, token)))

    read_every_door([host])
    ana = claim(api, game_id, 1, created["seats"][1]["invite_code"], "Ana")
    seen.append(orjson.dumps(ana))
    read_every_door([host, ana["token"]])
    bot = api.client.post(
        f"/v1/games/{game_id}/seats/2/bot",
        json={"bot": "random"},
        headers=api.auth(created["creator_token"]),
    )
    seen.append(bot.content)
    assert bot.json()["status"] == "active"
    playing = {
        **created,
        "seats": [created["seats"][0], {**created["seats"][1], "token": ana["token"]}],
    }
    api.play_out(playing)
    api.wait_until(game_id, lambda d: d["status"] == "finished")
    read_every_door([host, ana["token"]])
    receiver.wait_for("game.finished")
    seen.extend(receiver.raw)

    text = b"\n".join(seen).decode()
    assert game_id in text and "Ana" in text  # the doors were read
    for secret in secrets:
        assert secret not in text
    client = sync_redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        stored = []
        for key in client.scan_iter(match=f"{settings.key_prefix}*"):
            kind = client.type(key)
            if kind == "hash":
                stored.append(orjson.dumps(client.hgetall(key)).decode())
            elif kind == "string":
                stored.append(client.get(key) or "")
            elif kind == "stream":
                stored.append(repr(client.xrange(key)))
    finally:
        client.close()
    for secret in secrets:
        assert secret not in "\n".join(stored)


@pytest.mark.timeout(60)
def test_webhooks_tell_a_platform_of_claims_the_start_and_a_cancellation(api, receiver):
    created = api.create(
        seats=[{"name": "Host"}, OPEN, OPEN], webhook_url=receiver.url, webhook_events=EVERY_EVENT
    )
    game_id = created["id"]
    claim(api, game_id, 1, created["seats"][1]["invite_code"], "Ana")
    api.client.post(
        f"/v1/games/{game_id}/seats/2/bot",
        json={"bot": "random"},
        headers=api.auth(created["creator_token"]),
    )
    claimed = receiver.wait_for("game.seat_claimed", 2)
    assert sorted((c["seat"], c["name"], c["bot"]) for c in claimed) == [
        (1, "Ana", None),
        (2, "Bot (random)", "random"),
    ]
    assert len({c["id"] for c in claimed}) == 2, "each claim has an event id of its own"
    (started,) = receiver.wait_for("game.started")
    assert started["game_id"] == game_id
    assert [s["name"] for s in started["seats"]] == ["Host", "Ana", "Bot (random)"]

    other = api.create(
        seats=[{"name": "Host"}, OPEN], webhook_url=receiver.url, webhook_events=EVERY_EVENT
    )
    api.client.post(f"/v1/games/{other['id']}/cancel", headers=api.auth(other["creator_token"]))
    (cancelled,) = receiver.wait_for("game.cancelled")
    assert cancelled["game_id"] == other["id"] and "cancelled" in cancelled["reason"]


@pytest.mark.timeout(60)
def test_seat_left_is_sent_when_a_seat_is_abandoned_or_ends_the_game(api, receiver):
    three = api.create(seats=3, webhook_url=receiver.url, webhook_events=["seat.left"])
    token = three["seats"][1]["token"]
    api.client.post(f"/v1/games/{three['id']}/resign", headers=api.auth(token))
    (left,) = receiver.wait_for("seat.left")
    assert (left["game_id"], left["seat"], left["reason"]) == (three["id"], 1, "resigned")
    assert left["bot"] and left["name"] == "Player 1"

    two = api.create(seats=2, webhook_url=receiver.url, webhook_events=["seat.left"])
    api.client.post(f"/v1/games/{two['id']}/resign", headers=api.auth(two["seats"][0]["token"]))
    ended = [body for body in receiver.wait_for("seat.left", 2) if body["game_id"] == two["id"]]
    assert [(e["seat"], e["reason"], e["bot"]) for e in ended] == [(0, "resigned", None)]
    assert ended[0]["version"] == 1
    assert receiver.of_type("move") == [], "only the events asked for are sent"
