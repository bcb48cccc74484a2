"""A finished game played again: each player asks with their seat's token and gets their
seat in the same rematch, with the seats turned by one; it starts when the last player
has asked."""

from __future__ import annotations

from services.gameplay.game_ids import created_game_id
from services.gameplay.rematches import rematch_key

OPEN = {"open": True}
NEW_GAME = {"game": "hidden-numbers", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
REMATCH = """mutation($id: ID!) { rematch(gameId: $id) {
  __typename
  ... on RematchJoined { gameId game rematchOf seat name token status }
  ... on Rejected { code message } } }"""


def ask(client, game_id: str, token: str | None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/v1/games/{game_id}/rematch", headers=headers)


def joined(client, game_id: str, token: str) -> dict:
    answer = ask(client, game_id, token)
    assert answer.status_code == 200, answer.text
    return answer.json()


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()


def finished(api, created: dict, resigner: int = 0) -> list[str]:
    """The game ended by `resigner` resigning; its seats' tokens."""
    tokens = [seat["token"] for seat in created["seats"]]
    resigned = api.client.post(
        f"/v1/games/{created['id']}/resign", headers=api.auth(tokens[resigner])
    )
    assert resigned.status_code == 200, resigned.text
    api.wait_until(created["id"], lambda document: document["status"] == "finished")
    return tokens


def test_both_players_ask_and_the_rematch_starts_with_the_seats_turned(api):
    created = api.create(
        seats=[{"name": "Ann"}, {"name": "Bob"}], tags=["league"], seed=None, on_leave="end_game"
    )
    ann, bob = finished(api, created)
    none_yet = api.client.get(f"/v1/games/{created['id']}/rematch")
    assert none_yet.status_code == 200
    assert none_yet.json() == {"rematch_of": created["id"], "rematch": None}

    first = joined(api.client, created["id"], ann)
    assert first["rematch_of"] == created["id"] and first["id"] != created["id"]
    assert first["game"] == "hidden-numbers"
    assert (first["seat"], first["name"], first["status"]) == (1, "Ann", "waiting")
    waiting = api.game(first["id"], first["token"])
    assert waiting["you"] == 1 and waiting["status"] == "waiting"
    assert [seat["open"] for seat in waiting["seats"]] == [True, False]
    assert waiting["seats"][1]["name"] == "Ann" and waiting["tags"] == ["league"]

    seen = api.client.get(f"/v1/games/{created['id']}/rematch").json()["rematch"]
    assert (seen["id"], seen["status"]) == (first["id"], "waiting")
    assert [(seat["name"], seat["open"]) for seat in seen["seats"]] == [("", True), ("Ann", False)]

    second = joined(api.client, created["id"], bob)
    assert second["id"] == first["id"]
    assert (second["seat"], second["name"], second["status"]) == (0, "Bob", "active")
    started = api.game(first["id"], second["token"])
    assert started["status"] == "active" and started["you"] == 0
    assert [seat["name"] for seat in started["seats"]] == ["Bob", "Ann"]

    again = joined(api.client, created["id"], ann)
    assert (again["id"], again["seat"], again["token"]) == (first["id"], 1, first["token"])
    assert again["status"] == "active"
    for old in (ann, bob):
        rematch_read = api.client.get(f"/v1/games/{first['id']}", headers=api.auth(old))
        refused(rematch_read, 401, "invalid_token")


def test_bots_keep_their_seats_and_a_lone_player_starts_the_rematch_at_once(api):
    created = api.create(
        seats=[
            {"name": "Ann"},
            {"name": "Robo", "bot": "random"},
            {"name": "Mecha", "bot": "random"},
        ],
        on_leave="end_game",
    )
    [ann, _, _] = finished(api, created)
    mine = joined(api.client, created["id"], ann)
    assert (mine["seat"], mine["status"]) == (2, "active")
    rematch = api.game(mine["id"], mine["token"])
    assert [(seat["name"], seat["bot"]) for seat in rematch["seats"]] == [
        ("Robo", "random"),
        ("Mecha", "random"),
        ("Ann", None),
    ]


def test_the_rematch_keeps_the_first_games_creator_and_settings(api):
    created = api.create(
        seats=[{"name": "Host"}, OPEN],
        clock={"initial_seconds": 300, "increment_seconds": 2},
        on_leave="end_game",
    )
    creator = created["creator_token"]
    code = created["seats"][1]["invite_code"]
    guest = api.client.post(
        f"/v1/games/{created['id']}/seats/1/claim", json={"code": code, "name": "Guest"}
    ).json()["token"]
    host = created["seats"][0]["token"]
    created["seats"][1]["token"] = guest
    finished(api, created, resigner=1)

    mine = joined(api.client, created["id"], host)
    rematch = api.game(mine["id"], mine["token"])
    clock = rematch["clock"]
    assert (clock["initial_seconds"], clock["increment_seconds"]) == (300.0, 2.0)
    assert clock["on_timeout"] == "forfeit" and clock["remaining"] == [300.0, 300.0]
    cancelled = api.client.post(f"/v1/games/{mine['id']}/cancel", headers=api.auth(creator))
    assert cancelled.status_code == 200, cancelled.text
    refused(ask(api.client, created["id"], guest), 409, "game_not_waiting")


def test_only_a_player_of_a_finished_game_no_platform_made_asks(api):
    created = api.create()
    tokens = [seat["token"] for seat in created["seats"]]
    refused(ask(api.client, created["id"], tokens[0]), 409, "game_not_finished")
    finished(api, created)
    refused(ask(api.client, created["id"], None), 401, "seat_token_required")
    refused(ask(api.client, created["id"], "sps_not-a-seat"), 401, "invalid_token")
    refused(ask(api.client, created["id"], api.platform_key), 403, "not_a_player")
    refused(ask(api.client, "a" * 24, tokens[0]), 404, "game_not_found")

    platforms = api.create(headers=api.auth(api.platform_key))
    finished(api, platforms)
    refused(
        ask(api.client, platforms["id"], platforms["seats"][1]["token"]), 409, "rematch_not_offered"
    )

    table = api.create(tags=[f"tournament:{'b' * 24}"], headers=api.auth(api.platform_key))
    finished(api, table)
    refused(ask(api.client, table["id"], table["seats"][1]["token"]), 409, "rematch_not_offered")


SEE = """query($id: ID!) { rematch(gameId: $id) { id status seats { name open } } }"""


def test_graphql_asks_for_the_same_rematch(api, gql):
    created = api.create()
    ann, bob = finished(api, created)
    assert gql.data(SEE, {"id": created["id"]}) == {"rematch": None}
    first = ask(api.client, created["id"], ann).json()
    seen = gql.data(SEE, {"id": created["id"]})["rematch"]
    assert seen["id"] == first["id"] and seen["status"] == "WAITING"
    assert seen["seats"] == [{"name": "", "open": True}, {"name": "Player 0", "open": False}]
    answer = gql.data(REMATCH, {"id": created["id"]}, token=bob)["rematch"]
    assert answer["__typename"] == "RematchJoined"
    assert answer["gameId"] == first["id"] and answer["rematchOf"] == created["id"]
    assert (answer["seat"], answer["name"], answer["status"]) == (0, "Player 1", "ACTIVE")
    assert api.game(first["id"], answer["token"])["you"] == 0

    active = api.create()
    refusal = gql.data(REMATCH, {"id": active["id"]}, token=active["seats"][0]["token"])
    assert refusal["rematch"] == {
        "__typename": "Rejected",
        "code": "game_not_finished",
        "message": "A rematch follows a finished game; this one is active.",
    }


def test_the_ask_that_creates_the_rematch_counts_as_a_game_created(limited):
    with limited(create_limit_per_ip=2) as client:
        created = client.post("/v1/games", json=NEW_GAME).json()
        ann, bob = (seat["token"] for seat in created["seats"])
        client.post(f"/v1/games/{created['id']}/resign", headers={"Authorization": f"Bearer {ann}"})
        first = ask(client, created["id"], ann)
        second = ask(client, created["id"], bob)
        over = client.post("/v1/games", json=NEW_GAME)
    assert first.status_code == 200, first.text
    assert second.status_code == 200, "joining a rematch made already creates nothing"
    refused(over, 429, "too_many_games_created")
    by_the_first_creator = created_game_id("anonymous:testclient", rematch_key(created["id"]))
    assert first.json()["id"] == by_the_first_creator
