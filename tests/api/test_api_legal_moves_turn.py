"""An empty list of legal moves says why: the answer carries the game's `status` and the
seats in `turn`, so a client tells "not your turn" from "the game is over" without a
second request (REST and GraphQL alike)."""

from __future__ import annotations

LEGAL = """
query Legal($id: ID!) { legalMoves(gameId: $id) { seat status turn moves { kind } } }"""


def legal(api, game_id: str, token: str) -> dict:
    response = api.client.get(f"/v1/games/{game_id}/legal-moves", headers=api.auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def test_a_seat_that_has_moved_sees_whose_turn_it_is(api, gql):
    created = api.create(seats=2)
    tokens = [seat["token"] for seat in created["seats"]]
    first = legal(api, created["id"], tokens[0])
    assert first["status"] == "active" and first["turn"] == [0, 1] and first["moves"]

    answer = api.move(
        created["id"], tokens[0], {k: v for k, v in first["moves"][0].items() if k != "label"}
    )
    assert answer.status_code == 200, answer.text
    mine = legal(api, created["id"], tokens[0])
    assert mine["moves"] == [] and mine["status"] == "active" and mine["turn"] == [1]
    theirs = legal(api, created["id"], tokens[1])
    assert theirs["moves"] and theirs["turn"] == [1]

    over_graphql = gql.data(LEGAL, {"id": created["id"]}, tokens[0])["legalMoves"]
    assert over_graphql == {"seat": 0, "status": "ACTIVE", "turn": [1], "moves": []}


def test_a_finished_game_says_it_is_finished(api, gql):
    created = api.create(seats=2)
    tokens = [seat["token"] for seat in created["seats"]]
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    done = legal(api, created["id"], tokens[1])
    assert done["moves"] == [] and done["status"] == "finished" and done["turn"] == []
    over_graphql = gql.data(LEGAL, {"id": created["id"]}, tokens[1])["legalMoves"]
    assert over_graphql == {"seat": 1, "status": "FINISHED", "turn": [], "moves": []}


def test_a_game_waiting_for_players_says_it_waits(api):
    created = api.create(seats=[{"name": "Ada"}, {"open": True}])
    mine = legal(api, created["id"], created["seats"][0]["token"])
    assert mine["moves"] == [] and mine["status"] == "waiting" and mine["turn"] == []
