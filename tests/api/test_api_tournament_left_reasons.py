"""A tournament's tables say why a seat left, as the game's record does (`left_reason`):
"timeout" for a participant whose clock ran out, "resigned" for one who gave up, null
for a seat that stayed, over REST (`left_reasons`) and GraphQL (`leftReasons`) alike,
under either leave policy."""

from __future__ import annotations

import time
from typing import Any

import pytest

from services.gameplay.build import build_service
from services.gameplay.tournament_payloads import StoredTournament
from services.gameplay.tournament_views import tournament_document
from tests.api.test_api_tournaments import create, finished
from tests.gameplay.test_gameplay_tournament_runner import game_ended_unreported

pytestmark = pytest.mark.timeout(120)

TABLES = """query($id: ID!) { tournament(id: $id) {
    rounds { tables { participants status leftReasons } } } }"""


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"clock_sweep_seconds": 0.1})


def tables(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [table for round_ in document["rounds"] for table in round_["tables"]]


def by_participant(table: dict[str, Any], key: str = "left_reasons") -> dict[int, str | None]:
    """Why each participant at the table left (None: stayed)."""
    return dict(zip(table["participants"], table[key], strict=True))


def same_over_graphql(gql, document: dict[str, Any]) -> None:
    read = gql.data(TABLES, {"id": document["id"]})["tournament"]
    assert [(t["participants"], t["leftReasons"]) for t in tables(read)] == [
        (t["participants"], t["left_reasons"]) for t in tables(document)
    ]


def seat_token(api, tournament_id: str, participant_token: str) -> tuple[str, str]:
    """The game and seat token of the participant's current round, once its game exists."""
    deadline = time.monotonic() + 20
    while True:
        mine = api.client.get(
            f"/v1/tournaments/{tournament_id}/me", headers=api.auth(participant_token)
        ).json()
        current = mine["rounds"][-1]
        if current["seat_token"] is not None:
            return current["game_id"], current["seat_token"]
        assert time.monotonic() < deadline, mine
        time.sleep(0.05)


def test_a_participant_who_runs_out_of_time_left_on_timeout(api, gql):
    created = create(
        api,
        game="hidden-numbers",
        participants=[
            {"name": "Absent"},
            *({"name": f"Bot {n}", "bot": "random"} for n in range(3)),
        ],
        format={"kind": "swiss", "rounds": 2},
        clock={"initial_seconds": 0.3, "on_timeout": "forfeit"},
    )
    document = finished(api, created["id"])
    for table in tables(document):
        assert table["status"] == "finished"
        if 0 in table["participants"]:
            assert by_participant(table) == {
                p: "timeout" if p == 0 else None for p in table["participants"]
            }, "end_game at two seats: the time-out resigned the seat and ended the game"
            game = api.game(table["game_id"])
            assert game["seats"][table["participants"].index(0)]["resigned"]
        else:
            assert table["left_reasons"] == [None, None], "bots stay"
    same_over_graphql(gql, document)


def test_a_participant_who_resigns_left_because_they_resigned(api, gql):
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "swiss", "rounds": 1},
    )
    game_id, token = seat_token(api, created["id"], created["participants"][0]["token"])
    playing = api.client.get(f"/v1/tournaments/{created['id']}").json()
    assert [t["left_reasons"] for t in tables(playing)] == [None], "nothing to say yet"
    read = gql.data(TABLES, {"id": created["id"]})["tournament"]
    assert [t["leftReasons"] for t in tables(read)] == [None]
    resigned = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(token))
    assert resigned.status_code == 200, resigned.text
    document = finished(api, created["id"])
    (table,) = tables(document)
    assert by_participant(table) == {0: "resigned", 1: None}
    same_over_graphql(gql, document)


def test_seats_a_bot_took_over_say_why_each_left(api, gql):
    """bot_takes_over (the default at three seats): one participant resigns, another's
    clock runs out, and bots play both seats to the end, which stay in the game."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Absent"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "swiss", "rounds": 1},
        seats_per_table=3,
        clock={"initial_seconds": 5},  # time enough for Ada to resign first
    )
    game_id, token = seat_token(api, created["id"], created["participants"][0]["token"])
    resigned = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(token))
    assert resigned.status_code == 200 and resigned.json()["abandoned"], resigned.text
    document = finished(api, created["id"])
    (table,) = tables(document)
    assert by_participant(table) == {0: "resigned", 1: "timeout", 2: None}
    seats = api.game(table["game_id"])["seats"]
    abandoned = {p: seats[seat]["abandoned"] for seat, p in enumerate(table["participants"])}
    assert abandoned == {0: True, 1: True, 2: False}
    same_over_graphql(gql, document)


def test_a_tournament_stored_before_reasons_were_kept_reads_with_none(api):
    """One recorded by the release before (no `left_reasons` beside the tournament) shows
    its finished tables with no reason, as a record from before reasons were kept does."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Absent"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "swiss", "rounds": 1},
        clock={"initial_seconds": 0.3},
    )
    finished(api, created["id"])
    store = api.client.app.state.tournaments.store
    found = api.client.portal.call(store.load, created["id"])
    stored = StoredTournament.model_validate_json(found.document)
    assert stored.left_reasons, "this release keeps them"
    before = StoredTournament.model_validate(
        {k: v for k, v in stored.model_dump(mode="json").items() if k != "left_reasons"}
    )
    (table,) = tables(tournament_document(before).model_dump(mode="json"))
    assert table["status"] == "finished" and table["left_reasons"] == [None, None]


@pytest.mark.anyio
async def test_a_result_recovered_by_the_next_step_says_why_the_seat_left(settings, games):
    """The scoring worker died before reporting the game (Ada resigned): the step that
    records its result instead keeps why Ada left too."""
    async with build_service(settings, games=games) as gameplay:
        tournament_id, ada_seat = await game_ended_unreported(gameplay)
        await gameplay.tournaments.progress(tournament_id)
        document = await gameplay.tournaments.document(tournament_id)
    (table,) = document.rounds[0].tables
    assert table.status == "finished"
    assert table.left_reasons == ["resigned" if seat == ada_seat else None for seat in (0, 1)]
