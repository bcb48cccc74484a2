"""Tournament tables with a clock and a leave policy: a participant who never moves runs
out of time under the tables' on_leave, so one unplayed table cannot stall the event."""

from __future__ import annotations

import pytest

from tests.api.test_api_tournaments import KEY, create, finished

pytestmark = pytest.mark.timeout(120)

PLATFORM = KEY["Authorization"].split()[1]


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"clock_sweep_seconds": 0.1})


def test_a_participant_who_never_moves_forfeits_on_time_and_the_tournament_ends(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Absent"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "swiss", "rounds": 2},
        clock={"initial_seconds": 0.3, "on_timeout": "forfeit"},
    )
    document = finished(api, created["id"])
    assert document["clock"] == {
        "initial_seconds": 0.3,
        "increment_seconds": 0,
        "on_timeout": "forfeit",
    }
    assert document["on_leave"] is None
    for round_ in document["rounds"]:
        (table,) = round_["tables"]
        game = api.game(table["game_id"])
        assert game["clock"] is not None
        absent = table["participants"].index(0)
        assert game["seats"][absent]["resigned"], "end_game: the time-out resigned the seat"
    top = document["standings"][0]
    assert (top["name"], top["points"], top["wins"]) == ("Bot", 2, 2)


def test_the_tables_take_the_tournaments_on_leave(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Grace"}],
        format={"kind": "swiss", "rounds": 1},
        clock={"initial_seconds": 0.3},
        on_leave="bot_takes_over",
    )
    document = finished(api, created["id"])
    assert document["on_leave"] == "bot_takes_over"
    (table,) = document["rounds"][0]["tables"]
    assert table["status"] == "finished"
    game = api.game(table["game_id"])
    assert all(seat["abandoned"] for seat in game["seats"]), "both left; bots played on"


@pytest.mark.parametrize(
    "extra",
    [
        {"clock": {"initial_seconds": 0}},
        {"clock": {"initial_seconds": 31 * 86400}},
        {"clock": {"initial_seconds": 60, "on_timeout": "nap"}},
        {"clock": {"initial_seconds": 60, "byoyomi": 5}},
        {"on_leave": "vanish"},
    ],
)
def test_a_clock_or_on_leave_a_game_would_refuse_is_refused_for_a_tournament(api, extra):
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Grace"}],
        "format": {"kind": "swiss", "rounds": 1},
        **extra,
    }
    response = api.client.post("/v1/tournaments", json=body, headers=KEY)
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"
    game = api.client.post(
        "/v1/games",
        json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], **extra},
        headers=KEY,
    )
    assert game.status_code == 422, "the same limits as a game's"


def test_a_retry_must_ask_for_the_same_clock(api):
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Grace"}],
        "format": {"kind": "swiss", "rounds": 1},
        "clock": {"initial_seconds": 600},
    }
    headers = {**KEY, "Idempotency-Key": "clocked-tournament-0001"}
    first = api.client.post("/v1/tournaments", json=body, headers=headers)
    again = api.client.post("/v1/tournaments", json=body, headers=headers)
    assert first.status_code == 201 and again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    other = {**body, "clock": {"initial_seconds": 60}}
    refused = api.client.post("/v1/tournaments", json=other, headers=headers)
    assert refused.status_code == 422 and refused.json()["code"] == "idempotency_key_reused"


def test_graphql_creates_a_tournament_with_a_clock_and_on_leave(gql, api):
    answer = gql.data(
        """mutation($input: CreateTournamentInput!) { createTournament(input: $input) {
            __typename ... on TournamentCreated { id } ... on Rejected { code message } } }""",
        {
            "input": {
                "game": "hidden-numbers",
                "participants": [{"name": "Ada"}, {"name": "Grace"}],
                "format": {"kind": "swiss", "rounds": 1},
                "clock": {"initialSeconds": 600, "incrementSeconds": 5},
                "onLeave": "end_game",
            }
        },
        token=PLATFORM,
    )["createTournament"]
    assert answer["__typename"] == "TournamentCreated", answer
    read = gql.data(
        "query($id: ID!) { tournament(id: $id) { clock onLeave rounds { tables { gameId } } } }",
        {"id": answer["id"]},
    )["tournament"]
    assert read["clock"] == {
        "initial_seconds": 600,
        "increment_seconds": 5,
        "on_timeout": "forfeit",
    }
    assert read["onLeave"] == "end_game"
    game = api.game(read["rounds"][0]["tables"][0]["gameId"])
    assert game["clock"] is not None
    bad = gql.data(
        """mutation($input: CreateTournamentInput!) { createTournament(input: $input) {
            __typename ... on Rejected { code } } }""",
        {
            "input": {
                "game": "hidden-numbers",
                "participants": [{"name": "Ada"}, {"name": "Grace"}],
                "format": {"kind": "swiss", "rounds": 1},
                "onLeave": "vanish",
            }
        },
        token=PLATFORM,
    )["createTournament"]
    assert bad == {"__typename": "Rejected", "code": "invalid_request"}


def test_a_retry_from_before_clocks_were_taken_still_matches_its_first_request():
    """The Idempotency-Key's fingerprint of a request without clock or on_leave is what
    the release before computed (which had neither field)."""
    from services.gameplay.tournament_payloads import CreateTournamentRequest
    from services.gameplay.tournament_runner import _asked

    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": "Ada"}, {"name": "Grace"}],
            "format": {"kind": "round_robin"},
        }
    )
    assert set(_asked(request)) == {
        "game",
        "options",
        "participants",
        "format",
        "seats_per_table",
        "seed",
        "webhook_url",
    }
    clocked = request.model_copy(update={"on_leave": "end_game"})
    assert _asked(clocked)["on_leave"] == "end_game"
