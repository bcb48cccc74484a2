"""A solo game through the whole service: one seat against the Blind Bid house, created
and played over REST and GraphQL, scored by the in-process tasks (and in embedded mode),
with a result that says whether the player won, why, and the house's score breakdown
next to the player's."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from blind_bid import HOUSE, blind_bid_solo  # noqa: E402

from services.api.app import create_app  # noqa: E402
from services.gameplay.settings import Settings  # noqa: E402

SOLO = blind_bid_solo.id
LOST_OUTRIGHT_SEED = 1
"""With the lowest card bid each round, the house takes rounds 1 and 2."""
WON_SEED = 2
"""With the lowest card bid each round, the player wins 28 to 15."""
LOST_ON_POINTS_SEED = 5
"""With the lowest card bid each round, the house wins 32 to 15."""


@pytest.fixture(scope="module")
def games(games):
    return {**games, SOLO: blind_bid_solo}


def lowest(moves: list[dict]) -> dict:
    return min(moves, key=lambda m: m["card"])


def finished_result(api, seed: int) -> tuple[dict, dict]:
    created = api.create(SOLO, [{"name": "Solo"}], seed=seed)
    api.play_out(created, pick=lowest)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    response = api.client.get(f"/v1/games/{created['id']}/result")
    assert response.status_code == 200, response.text
    return final, response.json()


def test_a_solo_player_who_loses_outright_has_no_winner_and_reads_why(api):
    final, result = finished_result(api, LOST_OUTRIGHT_SEED)
    assert result["winners"] == []
    assert result["summary"] == "The house won 2 rounds in a row."
    [player] = result["standings"]
    assert (player["seat"], player["name"], player["rank"]) == (0, "Solo", 2)
    assert player["breakdown"] == {"rounds": 0} and player["score"] == 0
    opponent = result["opponent"]
    assert (opponent["name"], opponent["rank"]) == (HOUSE, 1)
    assert opponent["score"] == sum(opponent["breakdown"].values()) > 0
    assert final["result"] == result
    assert final["view"]["house_cards_left"] == 1  # ended after two of three rounds


def test_a_solo_win_and_a_loss_on_points_carry_both_breakdowns(api):
    _, won = finished_result(api, WON_SEED)
    assert won["winners"] == [0] and won["standings"][0]["rank"] == 1
    assert won["standings"][0]["breakdown"] == {"rounds": 28}
    assert won["opponent"] == {"name": HOUSE, "rank": 2, "score": 15, "breakdown": {"rounds": 15}}
    assert won["summary"] == "You beat the house, 28 points to 15."
    _, lost = finished_result(api, LOST_ON_POINTS_SEED)
    assert lost["winners"] == [] and lost["standings"][0]["rank"] == 2
    assert lost["opponent"]["breakdown"] == {"rounds": 32}
    assert lost["summary"] == "The house beat you, 32 points to 15."


def test_a_solo_game_needs_exactly_one_seat(api):
    response = api.client.post(
        "/v1/games", json={"game": SOLO, "seats": [{"name": "A"}, {"name": "B"}]}
    )
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "player_count"


def test_the_result_of_an_unfinished_solo_game_is_refused(api):
    created = api.create(SOLO, [{"name": "Solo"}], seed=WON_SEED)
    response = api.client.get(f"/v1/games/{created['id']}/result")
    assert response.status_code == 409 and response.json()["code"] == "not_finished"


def test_resigning_a_solo_game_loses_it_to_the_house(api):
    created = api.create(SOLO, [{"name": "Solo"}], seed=WON_SEED)
    token = created["seats"][0]["token"]
    response = api.client.post(
        f"/v1/games/{created['id']}/resign", json={}, headers=api.auth(token)
    )
    assert response.status_code == 200, response.text
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert final["result"]["winners"] == []
    assert final["result"]["standings"][0]["resigned"] is True
    assert final["result"]["opponent"]["rank"] == 1


@pytest.mark.parametrize("level", ["greedy", "mcts"])
def test_a_bot_plays_a_solo_game_to_a_scored_finish(api, level):
    created = api.create(SOLO, [{"name": "Bot", "bot": level}], seed=WON_SEED)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    result = final["result"]
    assert result["summary"] and result["opponent"]["name"] == HOUSE
    assert result["winners"] in ([], [0])
    assert (result["winners"] == [0]) == (result["standings"][0]["rank"] == 1)


def test_the_openapi_document_describes_the_opponent_and_summary(api):
    schemas = api.client.get("/openapi.json").json()["components"]["schemas"]
    result = schemas["GameResult"]["properties"]
    assert {"opponent", "summary", "winners"} <= result.keys()
    assert set(schemas["OpponentInfo"]["required"]) == {"name", "rank", "score", "breakdown"}


# --- GraphQL -----------------------------------------------------------------------------

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on GameCreated { id seats { seat token } }
    ... on Rejected { code message }
  }
}"""

LEGAL = "query($id: ID!) { legalMoves(gameId: $id) { version moves { move } } }"

MOVE = """
mutation($id: ID!, $move: JSON!) {
  makeMove(gameId: $id, move: $move) { __typename ... on MoveApplied { status } }
}"""

RESULT_FIELDS = """
  winners summary
  standings { seat name rank score breakdown { category points } }
  opponent { name rank score breakdown { category points } }
"""

GAME = (
    "query($id: ID!) { game(id: $id) { status view { __typename "
    "... on BlindBidSoloView { houseCardsLeft points housePoints } } "
    "result {" + RESULT_FIELDS + "} } }"
)
RESULT = "query($id: ID!) { result(gameId: $id) {" + RESULT_FIELDS + "} }"


def test_graphql_creates_plays_and_reads_a_lost_solo_game(gql, api):
    input_ = {"game": SOLO, "seats": [{"name": "Solo"}], "seed": LOST_ON_POINTS_SEED}
    created = gql.data(CREATE, {"input": input_})["createGame"]
    assert created["__typename"] == "GameCreated", created
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(3):
        game = gql.data(GAME, {"id": game_id})["game"]
        if game["status"] != "ACTIVE":
            break
        assert game["view"]["__typename"] == "BlindBidSoloView"
        moves = gql.data(LEGAL, {"id": game_id}, token)["legalMoves"]["moves"]
        move = min((m["move"] for m in moves), key=lambda m: m["card"])
        applied = gql.data(MOVE, {"id": game_id, "move": move}, token)["makeMove"]
        assert applied["__typename"] == "MoveApplied"
    api.wait_until(game_id, lambda d: d["status"] == "finished")
    game = gql.data(GAME, {"id": game_id})["game"]
    result = gql.data(RESULT, {"id": game_id})["result"]
    assert game["result"] == result
    assert result["winners"] == [] and result["summary"] == "The house beat you, 32 points to 15."
    assert result["standings"] == [
        {
            "seat": 0,
            "name": "Solo",
            "rank": 2,
            "score": 15,
            "breakdown": [{"category": "rounds", "points": 15}],
        }
    ]
    assert result["opponent"] == {
        "name": HOUSE,
        "rank": 1,
        "score": 32,
        "breakdown": [{"category": "rounds", "points": 32}],
    }
    assert (game["view"]["points"], game["view"]["housePoints"]) == (15, 32)


def test_games_between_seats_have_no_opponent(api):
    created = api.create("hidden-numbers", 2)
    api.play_out(created)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert final["result"]["opponent"] is None and final["result"]["winners"]


# --- embedded mode -----------------------------------------------------------------------


def test_embedded_mode_scores_a_solo_game(games):
    from starlette.testclient import TestClient

    settings = Settings(redis_url=None, log_level="warning", stream_keepalive=0.5)
    with TestClient(create_app(settings, games)) as client:
        created = client.post(
            "/v1/games",
            json={"game": SOLO, "seats": [{"name": "Bot", "bot": "greedy"}], "seed": 3},
        ).json()
        deadline = time.monotonic() + 20
        while client.get(f"/v1/games/{created['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the embedded tasks did not finish the game"
            time.sleep(0.01)
        result = client.get(f"/v1/games/{created['id']}/result").json()
    assert result["opponent"]["name"] == HOUSE and result["summary"]
    assert result["standings"][0]["breakdown"].keys() == {"rounds"}
