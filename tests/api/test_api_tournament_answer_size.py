"""A GraphQL answer holds at most one big tournament's tables: `tournament` needs no
credentials, and the cost rule counts an unpaged list as 10 items, so aliases of a
4,000-table round robin (each within the cost limit) made the event loop build megabytes
of answer (29 of them: 7.5 MB in 1.3 s, while every other request waited)."""

from __future__ import annotations

from test_api_tournaments import KEY, bots, finished

from schema import tournaments as graphql_tournaments
from services.gameplay.tournament_payloads import MAX_PARTICIPANTS, MAX_TOURNAMENT_GAMES

WHOLE = "rounds { number tables { number gameId } } standings { rank }"


def aliased(count: int, selection: str) -> str:
    asked = " ".join(f"t{i}: tournament(id: $id) {{ {selection} }}" for i in range(count))
    return "query($id: ID!) { " + asked + " }"


def round_robin_of_four(api) -> str:
    body = {"game": "hidden-numbers", "participants": bots(4), "format": {"kind": "round_robin"}}
    created = api.client.post("/v1/tournaments", json=body, headers=KEY).json()
    finished(api, created["id"])
    return created["id"]


def test_the_largest_tournament_is_answered_whole_once():
    most_rounds = MAX_PARTICIPANTS - 1  # a round robin at tables of two
    assert (
        MAX_TOURNAMENT_GAMES + most_rounds + MAX_PARTICIPANTS
    ) <= graphql_tournaments.MAX_TOURNAMENT_ITEMS


def test_aliases_of_a_tournament_are_refused_past_one_answers_worth(api, gql, monkeypatch):
    tid = round_robin_of_four(api)
    # 3 rounds of 2 tables and 4 standings rows: 13 items a whole read.
    monkeypatch.setattr(graphql_tournaments, "MAX_TOURNAMENT_ITEMS", 20)
    one = gql(aliased(1, WHOLE), {"id": tid})
    assert "errors" not in one and len(one["data"]["t0"]["rounds"]) == 3

    # Each alias's rounds are 3 rounds and 6 tables: two fit in 20, the third does not.
    three = gql(aliased(3, "rounds { tables { number } }"), {"id": tid})
    refused = [alias for alias, answer in three["data"].items() if answer is None]
    assert len(refused) == 1, "whichever came last (they resolve concurrently)"
    [error] = three["errors"]
    assert error["extensions"]["code"] == "answer_too_large", error
    assert error["path"][0] == refused[0]

    light = gql(aliased(29, "status standings { rank }"), {"id": tid})
    assert "errors" in light, "4 rows 29 times is more than 20"
    lighter = gql(aliased(29, "status roundsTotal"), {"id": tid})
    assert "errors" not in lighter, "no rounds or rows: nothing counted"
    assert all(lighter["data"][f"t{i}"]["status"] == "finished" for i in range(29))
