"""GraphQL clients give 64-bit seeds as `seedText`: REST and records hold seeds up to
2^63 - 1, GraphQL's Int only 32 bits, so a client recreating a game from its record
passes the record's seed as decimal digits. createGame, createGames and createTournament
take it; with `seed` too, or as anything but the digits of a seed REST takes, it is
refused as the mutation refuses any bad input."""

from __future__ import annotations

from typing import Any

import pytest

from services.gameplay.payloads import MAX_SEED

BIG_SEED = MAX_SEED - 2**40 + 977
"""Far beyond GraphQL's Int (2^31 - 1)."""
SEATS = [{"name": "Ada"}, {"name": "Grace"}]

CREATE = """
mutation($input: CreateGameInput!) { createGame(input: $input) {
  __typename
  ... on GameCreated { id seats { seat token } }
  ... on Rejected { code message details }
} }"""

CREATE_MANY = """
mutation($games: [CreateGameInput!]!) { createGames(games: $games) {
  __typename
  ... on GamesCreated { games { id seats { seat token } } }
  ... on Rejected { code message details }
} }"""

CREATE_TOURNAMENT = """
mutation($input: CreateTournamentInput!, $key: String) {
  createTournament(input: $input, idempotencyKey: $key) {
    __typename
    ... on TournamentCreated { id replayed }
    ... on Rejected { code message details }
  }
}"""

RECORD = "query($id: ID!) { record(gameId: $id) }"

TOURNAMENT = {
    "game": "hidden-numbers",
    "participants": [{"name": "Ada"}, {"name": "Grace"}],
    "format": {"kind": "swiss", "rounds": 1},
}


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def played(record: dict[str, Any]) -> list[tuple[int, str, Any, list[dict[str, Any]]]]:
    """What a record says happened, without the times it happened at."""
    return [(m["seat"], m["action"], m["move"], m["events"]) for m in record["moves"]]


def test_a_game_created_with_a_records_seed_as_seed_text_plays_the_rest_game_again(api, gql):
    original = api.create(seats=SEATS, seed=BIG_SEED)
    api.play_out(original)
    api.wait_until(original["id"], lambda d: d["status"] == "finished")
    response = api.client.get(
        f"/v1/games/{original['id']}/record", headers=api.auth(tokens_of(original)[0])
    )
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["seed"] == BIG_SEED

    again = gql.data(
        CREATE,
        {"input": {"game": record["game"], "seats": SEATS, "seedText": str(record["seed"])}},
    )["createGame"]
    assert again["__typename"] == "GameCreated", again
    tokens = tokens_of(again)
    for move in record["moves"]:
        answer = api.move(again["id"], tokens[move["seat"]], move["move"])
        assert answer.status_code == 200, answer.text
    api.wait_until(again["id"], lambda d: d["status"] == "finished")
    replayed = gql.data(RECORD, {"id": again["id"]}, tokens[0])["record"]
    assert replayed["seed"] == BIG_SEED
    assert played(replayed) == played(record)
    assert replayed["result"] == record["result"]
    assert replayed["final_state_sha256"] == record["final_state_sha256"]


def test_create_games_takes_seed_text_for_each_game(api, gql):
    platform = api.platform_key
    games = [
        {"game": "hidden-numbers", "seats": SEATS, "seedText": str(BIG_SEED)},
        {"game": "hidden-numbers", "seats": SEATS, "seed": 11},
    ]
    answer = gql.data(CREATE_MANY, {"games": games}, platform)["createGames"]
    assert answer["__typename"] == "GamesCreated", answer
    big, small = answer["games"]
    for created, seed in ((big, BIG_SEED), (small, 11)):
        twin = api.create(seats=SEATS, seed=seed)
        hand = api.game(created["id"], tokens_of(created)[0])["view"]
        assert hand == api.game(twin["id"], tokens_of(twin)[0])["view"], seed
    other = api.create(seats=SEATS, seed=BIG_SEED + 1)
    assert api.game(other["id"], tokens_of(other)[0])["view"] != hand, "seeds deal differently"


def test_create_tournament_takes_seed_text_as_rest_takes_its_seed(api, gql):
    """The seed reaches the tournament as asked: a REST retry of the same creation (the
    same Idempotency-Key) with that seed is the same tournament, with another it is not."""
    key = "seed-text-tournament-0001"
    answer = gql.data(
        CREATE_TOURNAMENT,
        {"input": {**TOURNAMENT, "seedText": str(BIG_SEED)}, "key": key},
        api.platform_key,
    )["createTournament"]
    assert answer["__typename"] == "TournamentCreated", answer
    headers = {**api.auth(api.platform_key), "Idempotency-Key": key}
    same = api.client.post(
        "/v1/tournaments", json={**TOURNAMENT, "seed": BIG_SEED}, headers=headers
    )
    assert same.status_code == 201, same.text
    assert same.json()["id"] == answer["id"] and same.headers["Idempotent-Replayed"] == "true"
    other = {**TOURNAMENT, "seed": BIG_SEED + 1}
    refused = api.client.post("/v1/tournaments", json=other, headers=headers)
    assert refused.status_code == 422 and refused.json()["code"] == "idempotency_key_reused"


def ask(gql, api, mutation: str, seeds: dict[str, Any], tags: list[str]) -> dict[str, Any]:
    """The answer of `mutation` asked with `seeds` (seed, seedText) and nothing wrong else."""
    if mutation == "createGame":
        spec = {"game": "hidden-numbers", "seats": SEATS, "tags": tags, **seeds}
        return gql.data(CREATE, {"input": spec}, api.platform_key)["createGame"]
    if mutation == "createGames":
        good = {"game": "hidden-numbers", "seats": SEATS, "tags": tags}
        bad = {**good, **seeds}
        answer = gql.data(CREATE_MANY, {"games": [good, bad]}, api.platform_key)
        return answer["createGames"]
    variables = {"input": {**TOURNAMENT, **seeds}}
    return gql.data(CREATE_TOURNAMENT, variables, api.platform_key)["createTournament"]


LOCATION = {
    "createGame": ["seedText"],
    "createGames": ["games", "1", "seedText"],
    "createTournament": ["seedText"],
}
"""Where the refusal's `errors` say the bad seedText is (pydantic's locations, as for
any other field: createGames's second game here)."""
MUTATIONS = sorted(LOCATION)


def nothing_created(api, mutation: str, tag: str) -> bool:
    """No game of a refused createGame or createGames (all or nothing) was made."""
    if mutation == "createTournament":
        return True  # its refusals come before anything is made, as createGame's
    listed = api.client.get("/v1/games", params={"tag": tag}, headers=api.auth(api.platform_key))
    assert listed.status_code == 200, listed.text
    return listed.json()["games"] == []


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_seed_and_seed_text_together_are_refused(api, gql, mutation):
    tag = f"both-seeds-{mutation}"
    answer = ask(gql, api, mutation, {"seed": 5, "seedText": "5"}, [tag])
    assert answer["__typename"] == "Rejected", answer
    assert answer["code"] == "invalid_request"
    assert "seed" in answer["message"] and "seedText" in answer["message"]
    [error] = answer["details"]["errors"]
    assert error["location"] == LOCATION[mutation]
    assert nothing_created(api, mutation, tag)


SEED_TEXTS_REFUSED = {
    "empty": "",
    "negative": "-1",
    "signed": "+5",
    "leading space": " 5",
    "trailing space": "5 ",
    "underscores": "1_000",
    "letters": "12a",
    "hexadecimal": "0x10",
    "exponent": "1e3",
    "decimal point": "5.0",
    "fullwidth digits": "\uff11\uff12",  # int() would read them as 12
    "arabic-indic digit": "\u0661",
    "one over the bound": str(MAX_SEED + 1),
    "twenty digits": "9" * 20,
    "five thousand digits": "1" * 5000,
}


@pytest.mark.parametrize("mutation", MUTATIONS)
@pytest.mark.parametrize("text", SEED_TEXTS_REFUSED.values(), ids=list(SEED_TEXTS_REFUSED))
def test_a_seed_text_that_is_not_a_seed_rest_takes_is_refused(api, gql, mutation, text):
    tag = f"bad-seed-text-{mutation}"
    answer = ask(gql, api, mutation, {"seedText": text}, [tag])
    assert answer["__typename"] == "Rejected", answer
    assert answer["code"] == "invalid_request"
    assert "seedText" in answer["message"] and str(MAX_SEED) in answer["message"]
    [error] = answer["details"]["errors"]
    assert error["location"] == LOCATION[mutation]
    assert nothing_created(api, mutation, tag)


@pytest.mark.parametrize("text, seed", [("0", 0), (str(MAX_SEED), MAX_SEED), ("007", 7)])
def test_seed_text_takes_every_seed_rest_takes(api, gql, text, seed):
    created = gql.data(
        CREATE, {"input": {"game": "hidden-numbers", "seats": SEATS, "seedText": text}}
    )
    created = created["createGame"]
    assert created["__typename"] == "GameCreated", created
    twin = api.create(seats=SEATS, seed=seed)
    dealt = api.game(created["id"], tokens_of(created)[0])["view"]
    assert dealt == api.game(twin["id"], tokens_of(twin)[0])["view"]


def test_a_null_seed_beside_seed_text_is_not_a_second_seed(api, gql):
    spec = {"game": "hidden-numbers", "seats": SEATS, "seed": None, "seedText": str(BIG_SEED)}
    created = gql.data(CREATE, {"input": spec})["createGame"]
    assert created["__typename"] == "GameCreated", created
    twin = api.create(seats=SEATS, seed=BIG_SEED)
    dealt = api.game(created["id"], tokens_of(created)[0])["view"]
    assert dealt == api.game(twin["id"], tokens_of(twin)[0])["view"]


BIG_LITERAL = """
mutation { createGame(input: {game: "hidden-numbers", seats: [{name: "A"}, {name: "B"}],
  seed: 9223372036854775000}) { __typename } }"""


def test_a_64_bit_seed_given_as_seed_points_to_seed_text(api, gql):
    """A record's seed pasted into `seed`, as a variable's value or in the document."""
    spec = {"game": "hidden-numbers", "seats": SEATS, "seed": BIG_SEED}
    as_variable = gql(CREATE, {"input": spec}, api.platform_key)
    as_literal = gql(BIG_LITERAL, None, api.platform_key)
    for answer in (as_variable, as_literal):
        [error] = answer["errors"]
        assert "seedText" in error["message"], error
    assert as_variable["errors"][0]["extensions"]["code"] == "invalid_variables"
    assert as_literal["errors"][0]["extensions"]["code"] == "invalid_query"
