"""A refusal carries the same facts through both doors: GraphQL's `Rejected.details`
holds everything the REST problem document adds to its code and detail, the engine's own
`details` and the facts beside them, for game and tournament mutations alike."""

from __future__ import annotations

from typing import Any

STANDARD = {"type", "title", "status", "detail", "code", "instance"}
"""What every problem document has; the rest are the refusal's own facts."""

CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { __typename ... on Rejected { code message details } }
}"""

MOVE = """
mutation($id: ID!, $move: JSON!) {
  makeMove(gameId: $id, move: $move) { __typename ... on Rejected { code message details } }
}"""


def rest_facts(document: dict[str, Any]) -> dict[str, Any] | None:
    facts = {key: value for key, value in document.items() if key not in STANDARD}
    nested = facts.pop("details", None) or {}
    return {**facts, **nested} or None


def test_an_unknown_bot_level_names_the_known_levels_through_both_doors(api, gql) -> None:
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B", "bot": "godlike"}]}
    rest = api.client.post("/v1/games", json=body)
    assert rest.status_code == 422 and rest.json()["code"] == "unknown_bot_level"
    answer = gql.data(CREATE, {"input": body})["createGame"]
    assert answer["__typename"] == "Rejected" and answer["code"] == "unknown_bot_level"
    assert answer["details"] == rest_facts(rest.json())
    assert "random" in answer["details"]["known"]


def test_a_move_in_a_game_still_waiting_says_its_status_through_both_doors(api, gql) -> None:
    created = api.create(seats=[{"name": "Host"}, {"open": True}])
    host = created["seats"][0]["token"]
    move = {"kind": "discard", "card": "c01"}
    rest = api.client.post(
        f"/v1/games/{created['id']}/moves", json={"move": move}, headers=api.auth(host)
    )
    assert rest.status_code == 409 and rest.json()["code"] == "game_not_started"
    answer = gql.data(MOVE, {"id": created["id"], "move": move}, host)["makeMove"]
    assert answer["code"] == "game_not_started"
    assert answer["details"] == rest_facts(rest.json()) == {"status_now": "waiting"}


def test_an_illegal_move_gives_the_engines_details_through_both_doors(api, gql) -> None:
    created = api.create()
    token = created["seats"][0]["token"]
    move = {"kind": "discard", "card": "c99"}
    rest = api.client.post(
        f"/v1/games/{created['id']}/moves", json={"move": move}, headers=api.auth(token)
    )
    assert rest.status_code == 422 and rest.json()["details"] == {"card": "c99"}
    answer = gql.data(MOVE, {"id": created["id"], "move": move}, token)["makeMove"]
    assert answer["code"] == "not_in_hand"
    assert answer["details"] == rest_facts(rest.json()) == {"card": "c99"}


def test_a_malformed_move_locates_each_problem_as_a_refused_body_does(api, gql) -> None:
    """Like a request body the schema refuses, a move the game cannot read lists where
    each problem is (from the request's root, the move's kind not counted as a key): REST
    in `errors`, GraphQL in `details.errors`."""
    created = api.create()
    token = created["seats"][0]["token"]
    move = {"kind": "discard", "card": 5, "extra": True}
    rest = api.client.post(
        f"/v1/games/{created['id']}/moves", json={"move": move}, headers=api.auth(token)
    )
    assert rest.status_code == 422 and rest.json()["code"] == "malformed_move"
    located = {tuple(error["location"]) for error in rest.json()["errors"]}
    assert located == {("move", "card"), ("move", "extra")}
    answer = gql.data(MOVE, {"id": created["id"], "move": move}, token)["makeMove"]
    assert answer["code"] == "malformed_move"
    assert answer["details"] == rest_facts(rest.json())
    assert "card: Input should be a valid string" in answer["message"]
    assert "discard.card" not in answer["message"]


def test_a_json_literal_with_an_integer_beyond_64_bits_is_refused_as_the_clients_mistake(
    api, gql
) -> None:
    """Found by probing what the fuzzers do not draw: such an integer written in a JSON
    literal reached the Idempotency-Key's fingerprint, which could not encode it, and the
    mutation failed as internal_error. The JSON scalar refuses it now; integers within
    64 bits, signed or unsigned, still pass as they are."""
    created = api.create()
    game_id, token = created["id"], created["seats"][0]["token"]
    literal = 'mutation { makeMove(gameId: "GAME", move: {kind: "discard", card: NUMBER}, '
    literal += 'idempotencyKey: "big-literal-01") { __typename ... on Rejected { code } } }'
    literal = literal.replace("GAME", game_id)
    for huge in (2**64, -(2**63) - 1, 10**30):
        answer = gql(literal.replace("NUMBER", str(huge)), token=token)
        assert answer["data"] is None
        [error] = answer["errors"]
        assert error["extensions"]["code"] == "invalid_query"
        assert "JSON integers must lie between" in error["message"]
    nested = 'mutation { createGame(input: {game: "hidden-numbers", seats: [{name: "A"}, '
    nested += '{name: "B"}], options: {deep: [[{n: NUMBER}]]}}) { __typename } }'
    [error] = gql(nested.replace("NUMBER", str(10**30)))["errors"]
    assert error["extensions"]["code"] == "invalid_query"
    for fits in (2**64 - 1, -(2**63)):  # refused by the rules, not by the scalar
        answer = gql(literal.replace("NUMBER", str(fits)), token=token)
        assert answer["data"]["makeMove"] == {"__typename": "Rejected", "code": "malformed_move"}
    assert api.game(game_id)["version"] == 0


def test_an_expected_version_no_game_can_have_is_a_bad_request_through_both_doors(api, gql) -> None:
    created = api.create()
    token = created["seats"][0]["token"]
    move = {"kind": "discard", "card": "c01"}
    rest = api.client.post(
        f"/v1/games/{created['id']}/moves",
        json={"move": move, "expected_version": -1},
        headers=api.auth(token),
    )
    assert rest.status_code == 422 and rest.json()["code"] == "invalid_request"
    versioned = """mutation($id: ID!, $move: JSON!, $v: Int) {
      makeMove(gameId: $id, move: $move, expectedVersion: $v) {
        __typename ... on Rejected { code } }
      resign(gameId: $id, expectedVersion: $v) { __typename ... on Rejected { code } } }"""
    answer = gql.data(versioned, {"id": created["id"], "move": move, "v": -1}, token)
    assert answer["makeMove"] == {"__typename": "Rejected", "code": "invalid_request"}
    assert answer["resign"] == {"__typename": "Rejected", "code": "invalid_request"}
    assert api.client.get(f"/v1/games/{created['id']}").json()["version"] == 0


def test_a_refused_input_is_located_by_the_graphql_names_of_its_fields(api, gql) -> None:
    body = {
        "game": "hidden-numbers",
        "seats": [{"name": "A"}, {"name": "B"}],
        "clock": {"initialSeconds": -1},
        "inviteTtlSeconds": 5,
    }
    answer = gql.data(CREATE, {"input": body})["createGame"]
    assert answer["code"] == "invalid_request"
    locations = sorted(error["location"] for error in answer["details"]["errors"])
    assert locations == [["clock", "initialSeconds"], ["inviteTtlSeconds"]]
    rest_body = {**body, "clock": {"initial_seconds": -1}, "invite_ttl_seconds": 5}
    del rest_body["inviteTtlSeconds"]
    rest = api.client.post("/v1/games", json=rest_body).json()
    assert sorted(e["location"] for e in rest["errors"]) == [
        ["clock", "initial_seconds"],
        ["invite_ttl_seconds"],
    ]

    tournament = """mutation($input: CreateTournamentInput!) {
      createTournament(input: $input) { __typename ... on Rejected { code details } } }"""
    entry = {
        "game": "hidden-numbers",
        "participants": [{"name": "A"}, {"name": "B"}],
        "format": {"kind": "round_robin"},
        "seatsPerTable": 9,
        "options": {"rounds": 1},
    }
    refused = gql.data(tournament, {"input": entry}, api.platform_key)["createTournament"]
    assert refused["__typename"] == "Rejected"
    assert [e["location"] for e in refused["details"]["errors"]] == [["seatsPerTable"]]
