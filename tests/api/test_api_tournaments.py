"""Tournaments through the API, finished by the in-process workers: a round robin and a
Swiss of bots whose standings add up from the games' own results, a duplicate
tournament dealing the same seed at every table of a round, people reading their seat
tokens with their participant token, the webhooks a platform is sent, and GraphQL."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import defaultdict
from itertools import combinations
from typing import Any

import pytest

from services.gameplay import tournament_runner
from services.gameplay.settings import Settings
from services.gameplay.tournaments import round_robin
from services.gameplay.webhooks import SIGNATURE_HEADER, verify

pytestmark = pytest.mark.timeout(120)

KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}
PLATFORM = KEY["Authorization"].split()[1]


def bots(count: int, level: str = "random") -> list[dict[str, Any]]:
    return [{"name": f"Bot {n}", "bot": level} for n in range(count)]


def create(api, **body: Any) -> dict[str, Any]:
    response = api.client.post("/v1/tournaments", json=body, headers=KEY)
    assert response.status_code == 201, response.text
    return response.json()


def finished(api, tournament_id: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        document = api.client.get(f"/v1/tournaments/{tournament_id}").json()
        if document["status"] == "finished":
            return document
        assert time.monotonic() < deadline, f"still running: {document['rounds'][-1]}"
        time.sleep(0.05)


def results(api, document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every table's game result, read from the games themselves."""
    out = {}
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            response = api.client.get(f"/v1/games/{table['game_id']}/result")
            assert response.status_code == 200, response.text
            out[table["game_id"]] = response.json()
    return out


def expected_tallies(document, games) -> dict[int, dict[str, float]]:
    """Points (1 a win, ½ a draw at two seats; a bye 1 at two seats, else the
    participant's average per game, ½ before any), scores and games played, from the
    games' own standings."""
    tally: dict[int, dict[str, float]] = defaultdict(
        lambda: {"points": 0, "score": 0, "played": 0, "byes": 0}
    )
    for round_ in document["rounds"]:
        for p in round_["byes"]:
            tally[p]["byes"] += 1
        for table in round_["tables"]:
            ranks = {s["seat"]: s for s in games[table["game_id"]]["standings"]}
            for seat, p in enumerate(table["participants"]):
                mine = ranks[seat]["rank"]
                others = [ranks[s]["rank"] for s in ranks if s != seat]
                share = sum(1 if mine < r else 0.5 if mine == r else 0 for r in others)
                tally[p]["points"] += share / len(others)
                tally[p]["score"] += ranks[seat]["score"]
                tally[p]["played"] += 1
    for mine in tally.values():
        if document["seats_per_table"] <= 2:
            bye = 1.0
        else:
            bye = mine["points"] / mine["played"] if mine["played"] else 0.5
        mine["points"] += mine["byes"] * bye
    return tally


def check_standings(document, games) -> None:
    tally = expected_tallies(document, games)
    rows = document["standings"]
    assert len(rows) == len(tally) or all(r["played"] == 0 for r in rows)
    for row in rows:
        mine = tally[row["participant"]]
        assert row["points"] == pytest.approx(mine["points"])
        assert row["score"] == mine["score"]
        assert row["played"] == mine["played"]
    keys = [
        (r["points"], r["score"] / r["played"] if r["played"] else 0, r["tiebreak"]) for r in rows
    ]
    assert keys == sorted(keys, reverse=True), "standings are in order"


def test_a_round_robin_of_four_bots_is_played_to_the_end_by_the_workers(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=bots(4),
        format={"kind": "round_robin"},
        seed=7,
    )
    assert created["rounds_total"] == 3
    assert [p["participant"] for p in created["participants"]] == [0, 1, 2, 3]
    assert len({p["token"] for p in created["participants"]}) == 4
    document = finished(api, created["id"])
    assert [r["number"] for r in document["rounds"]] == [1, 2, 3]
    assert all(r["done"] and len(r["tables"]) == 2 for r in document["rounds"])
    pairs = [frozenset(t["participants"]) for r in document["rounds"] for t in r["tables"]]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, combinations(range(4), 2)))
    games = results(api, document)
    assert len(games) == 6
    check_standings(document, games)
    assert document["tiebreak"] == "sonneborn_berger"
    assert document["finished_at"] is not None
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            assert table["status"] == "finished"
            game = games[table["game_id"]]
            by_seat = {s["seat"]: s for s in game["standings"]}
            assert table["ranks"] == [by_seat[s]["rank"] for s in range(2)]
            names = [by_seat[s]["name"] for s in range(2)]
            assert names == [f"Bot {p}" for p in table["participants"]]


def test_creating_a_tournament_of_many_bots_makes_only_round_1_and_the_games_play_on(
    api, monkeypatch
):
    """With bots in the API process, round 1's games end while the creating request is
    still making them. The request makes round 1 only and answers (it used to step on
    from there, round after round: 90 bots kept it open for minutes); the games' own
    ends play the rest. Here every step but the request's own waits for the answer, so
    what the request made shows."""
    answered = threading.Event()
    progress = tournament_runner.TournamentRunner.progress

    async def after_the_answer(self, tournament_id: str) -> None:
        deadline = time.monotonic() + 10
        while not answered.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await progress(self, tournament_id)

    monkeypatch.setattr(tournament_runner.TournamentRunner, "progress", after_the_answer)
    started = time.monotonic()
    try:
        created = create(
            api,
            game="hidden-numbers",
            participants=bots(12),
            format={"kind": "round_robin"},
            seed=5,
        )
        took = time.monotonic() - started
        tagged = api.client.get(
            "/v1/games", params={"tag": f"tournament:{created['id']}", "limit": 100}, headers=KEY
        ).json()["games"]
        document = api.client.get(f"/v1/tournaments/{created['id']}").json()
    finally:
        answered.set()
    assert created["rounds_total"] == 11
    assert [p["participant"] for p in created["participants"]] == list(range(12))
    assert [r["number"] for r in document["rounds"]] == [1]
    assert took < 5, f"the request took {took:.1f}s"
    round_1 = {t["game_id"] for t in document["rounds"][0]["tables"]}
    assert len(round_1) == 6 and {g["id"] for g in tagged} == round_1
    # nobody asks again: the games' ends play every round to the end
    document = finished(api, created["id"], timeout=60)
    assert [r["number"] for r in document["rounds"]] == list(range(1, 12))
    assert all(r["done"] and len(r["tables"]) == 6 for r in document["rounds"])
    pairs = {frozenset(t["participants"]) for r in document["rounds"] for t in r["tables"]}
    assert len(pairs) == 12 * 11 // 2
    check_standings(document, results(api, document))


def test_a_swiss_of_eight_bots_over_three_rounds_pairs_by_score_without_rematches(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=bots(8),
        format={"kind": "swiss", "rounds": 3},
        seed=3,
    )
    document = finished(api, created["id"])
    assert len(document["rounds"]) == 3
    met = [frozenset(t["participants"]) for r in document["rounds"] for t in r["tables"]]
    assert len(met) == 12 and len(set(met)) == 12, "nobody meets anyone twice"
    games = results(api, document)
    check_standings(document, games)
    assert document["tiebreak"] == "buchholz"
    points = {row["participant"]: row["points"] for row in document["standings"]}
    for row in document["standings"]:
        opponents = [
            q
            for r in document["rounds"]
            for t in r["tables"]
            if row["participant"] in t["participants"]
            for q in t["participants"]
            if q != row["participant"]
        ]
        assert row["tiebreak"] == pytest.approx(sum(points[q] for q in opponents))
    csv = api.client.get(f"/v1/tournaments/{created['id']}/standings.csv")
    assert csv.status_code == 200
    assert csv.headers["content-type"].startswith("text/csv")
    lines = csv.text.strip().split("\r\n")
    assert lines[0].endswith(",buchholz")
    assert [line.split(",")[1] for line in lines[1:]] == [
        str(row["participant"]) for row in document["standings"]
    ]


def test_a_swiss_with_an_odd_field_gives_one_bye_a_round(api):
    created = create(
        api, game="hidden-numbers", participants=bots(5), format={"kind": "swiss", "rounds": 2}
    )
    document = finished(api, created["id"])
    assert [len(r["byes"]) for r in document["rounds"]] == [1, 1]
    assert document["rounds"][0]["byes"] != document["rounds"][1]["byes"]
    check_standings(document, results(api, document))


def test_a_duplicate_tournament_deals_the_same_seed_at_every_table_of_a_round(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=bots(6),
        seats_per_table=2,
        format={"kind": "duplicate", "rounds": 2},
        seed=11,
    )
    document = finished(api, created["id"])
    assert document["tiebreak"] == "matchpoints"
    seeds_by_round = []
    for round_ in document["rounds"]:
        assert len(round_["tables"]) == 3
        seeds = set()
        for table in round_["tables"]:
            record = api.client.get(f"/v1/games/{table['game_id']}/record", headers=KEY)
            assert record.status_code == 200, record.text
            seeds.add(record.json()["seed"])
            assert table["seed"] == record.json()["seed"]
        assert len(seeds) == 1, "one deal for every table of the round"
        seeds_by_round.append(seeds.pop())
    assert seeds_by_round[0] != seeds_by_round[1]
    seats = defaultdict(list)
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            for seat, p in enumerate(table["participants"]):
                seats[p].append(seat)
    assert all(sorted(held) == [0, 1] for held in seats.values()), "seats rotate"


SEEDS = """
query($id: ID!) { tournament(id: $id) { rounds { tables { gameId status seed } } } }"""


def test_a_duplicate_table_that_is_done_keeps_its_seed_while_another_table_plays_it(api, gql):
    """Table 1 (two bots) finishes while table 2 (two people) still plays the same deal:
    table 1's seed, and its game's record (seed and unredacted events), would give
    table 2's hidden hands away, so neither is shown until table 2 is done too."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[*bots(2), {"name": "Ada"}, {"name": "Grace"}],
        seats_per_table=2,
        format={"kind": "duplicate", "rounds": 2},
    )
    tid = created["id"]
    deadline = time.monotonic() + 60
    while True:
        tables = api.client.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"]
        if tables[0]["status"] == "finished":
            break
        assert time.monotonic() < deadline, tables
        time.sleep(0.05)
    bots_table, people_table = tables
    assert bots_table["participants"] == [0, 1] and people_table["status"] == "playing"
    assert bots_table["seed"] is None, "the deal is still being played at table 2"
    graphql = gql.data(SEEDS, {"id": tid})["tournament"]["rounds"][0]["tables"]
    assert [t["seed"] for t in graphql] == [None, None]
    record = api.client.get(f"/v1/games/{bots_table['game_id']}/record", headers=KEY)
    assert record.status_code == 409, record.text
    assert record.json()["code"] == "deal_in_play"
    answer = gql(
        "query($id: ID!) { record(gameId: $id) }", {"id": bots_table["game_id"]}, token=PLATFORM
    )
    assert answer["data"] is None or answer["data"]["record"] is None
    assert answer["errors"][0]["extensions"]["code"] == "deal_in_play"
    # Nor may the platform or a spectator watch the finished table: its moves and draws
    # would tell the deal.
    bots_game = bots_table["game_id"]
    assert_not_watchable(api, gql, bots_game, finished=True)
    # Nor read its scores: they tell table 2 what the deal yields. The standings count
    # the deal once both tables are done.
    assert_result_withheld(api, gql, tid, bots_game)
    # table 2's people finish their game: the deal is over, and its seed is shown
    seats = []
    for index in (2, 3):
        token = created["participants"][index]["token"]
        mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(token)).json()
        seats.append({"seat": mine["rounds"][0]["seat"], "token": mine["rounds"][0]["seat_token"]})
    api.play_out({"id": people_table["game_id"], "seats": seats})
    deadline = time.monotonic() + 60
    while True:
        first = api.client.get(f"/v1/tournaments/{tid}").json()["rounds"][0]
        if first["done"]:
            break
        assert time.monotonic() < deadline, first
        time.sleep(0.05)
    seeds = {table["seed"] for table in first["tables"]}
    assert len(seeds) == 1 and None not in seeds
    record = api.client.get(f"/v1/games/{bots_table['game_id']}/record", headers=KEY)
    assert record.status_code == 200, record.text
    assert record.json()["seed"] in seeds
    assert api.client.get(f"/v1/games/{bots_game}", headers=KEY).json()["seat_views"]
    log = api.client.get(f"/v1/games/{bots_game}/events", headers=KEY).json()["entries"]
    assert all(entry["move"] is not None for entry in log)
    graphql = gql.data(SEEDS, {"id": tid})["tournament"]["rounds"][0]["tables"]
    assert {t["seed"] for t in graphql} == {str(seed) for seed in seeds}
    assert all(table["scores"] is not None for table in first["tables"])
    assert api.client.get(f"/v1/games/{bots_game}/result").status_code == 200
    played = api.client.get(f"/v1/tournaments/{tid}").json()["standings"]
    assert [row["played"] for row in played] == [1, 1, 1, 1]


def assert_result_withheld(api, gql, tid: str, game_id: str) -> None:
    """A finished table whose deal another table plays shows no ranks, scores or result
    to anyone but its own seats, and the standings do not count it yet."""
    document = api.client.get(f"/v1/tournaments/{tid}").json()
    [table] = [t for r in document["rounds"] for t in r["tables"] if t["game_id"] == game_id]
    assert table["status"] == "finished"
    assert table["ranks"] is None and table["scores"] is None, table
    assert all(row["played"] == 0 and row["points"] == 0 for row in document["standings"])
    csv_rows = api.client.get(f"/v1/tournaments/{tid}/standings.csv").text.splitlines()[1:]
    assert all(row.split(",")[4] == "0" for row in csv_rows), csv_rows
    for headers in (KEY, {}):
        answer = api.client.get(f"/v1/games/{game_id}/result", headers=headers)
        assert answer.status_code == 409 and answer.json()["code"] == "deal_in_play", answer.text
    errors = gql("query($id: ID!) { result(gameId: $id) { winners } }", {"id": game_id})["errors"]
    assert errors[0]["extensions"]["code"] == "deal_in_play"
    query = "query($id: ID!) { tournament(id: $id) { standings { played } } }"
    standings = gql.data(query, {"id": tid})["tournament"]["standings"]
    assert all(row["played"] == 0 for row in standings)


WATCH = """query($id: ID!) {
  game(id: $id) { version } gameAtVersion(gameId: $id, version: 0) { version } }"""


def assert_not_watchable(api, gql, game_id: str, finished: bool) -> None:
    """Nobody but the table's own seats reads the game while its deal is played elsewhere:
    spectators and API keys alike, through every door (past states are for finished
    games: one still playing answers not_finished first)."""
    states_code = "deal_in_play" if finished else "not_finished"
    documented = api.client.get("/openapi.json").json()["paths"]
    for path in ("", "/events", "/board.svg", "/states/{version}"):
        assert "409" in documented[f"/v1/games/{{game_id}}{path}"]["get"]["responses"], path
    for headers in (KEY, {}):
        for path in ("", "/events", "/board.svg", "/states/0"):
            answer = api.client.get(f"/v1/games/{game_id}{path}", headers=headers)
            code = states_code if path == "/states/0" else "deal_in_play"
            assert answer.status_code == 409, (path, answer.text)
            assert answer.json()["code"] == code, (path, answer.text)
        stream = api.client.get(
            f"/v1/games/{game_id}/events", headers={**headers, "Accept": "text/event-stream"}
        )
        assert stream.status_code == 409 and stream.json()["code"] == "deal_in_play"
        token = headers["Authorization"].split()[1] if headers else None
        answer = gql(WATCH, {"id": game_id}, token=token)
        codes = sorted(error["extensions"]["code"] for error in answer["errors"])
        assert codes == sorted(["deal_in_play", states_code]), answer


def test_nobody_but_its_seats_watches_a_duplicate_table_while_another_plays_its_deal(api, gql):
    """Two tables of people play one deal: what table 1 shows (the cards played) is table
    2's hidden information, so each is watched by its own seats only until both are done."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": name} for name in ("Ada", "Grace", "Alan", "Edsger")],
        seats_per_table=2,
        format={"kind": "duplicate", "rounds": 2},
    )
    tid = created["id"]
    tables = api.client.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"]
    assert [table["status"] for table in tables] == ["playing", "playing"]
    for table in tables:
        assert_not_watchable(api, gql, table["game_id"], finished=False)
    token = created["participants"][0]["token"]
    mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(token)).json()
    own_game, seat_token = mine["rounds"][0]["game_id"], mine["rounds"][0]["seat_token"]
    own = api.client.get(f"/v1/games/{own_game}", headers=api.auth(seat_token))
    assert own.status_code == 200 and own.json()["you"] == mine["rounds"][0]["seat"]
    assert api.client.get(f"/v1/games/{own_game}/events", headers=api.auth(seat_token)).is_success
    other = next(table["game_id"] for table in tables if table["game_id"] != own_game)
    assert api.client.get(f"/v1/games/{other}", headers=api.auth(seat_token)).status_code == 401
    # Table 1 finishes first: its own seats read their result, nobody else yet.
    tokens = {}
    for participant in created["participants"]:
        rounds = api.client.get(
            f"/v1/tournaments/{tid}/me", headers=api.auth(participant["token"])
        ).json()["rounds"]
        if rounds[0]["game_id"] == own_game:
            tokens[rounds[0]["seat"]] = rounds[0]["seat_token"]
    while (game := api.game(own_game, seat_token))["status"] == "active":
        mover = tokens[game["turn"][0]]
        assert api.move(own_game, mover, api.legal(own_game, mover)[0]).status_code == 200
    deadline = time.monotonic() + 60
    while True:  # scored, and recorded by the tournament
        tables = api.client.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"]
        if any(t["game_id"] == own_game and t["status"] == "finished" for t in tables):
            break
        assert time.monotonic() < deadline, tables
        time.sleep(0.05)
    own_result = api.client.get(f"/v1/games/{own_game}/result", headers=api.auth(seat_token))
    assert own_result.status_code == 200, own_result.text
    assert_result_withheld(api, gql, tid, own_game)


def test_people_read_their_seat_token_of_each_round_with_their_participant_token(api):
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Grace"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "round_robin"},
        seed=2,
    )
    ada = created["participants"][0]["token"]
    tid = created["id"]
    for _ in range(3):
        deadline = time.monotonic() + 20
        while True:  # a round is shown a moment before its games are made
            mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada)).json()
            current = mine["rounds"][-1]
            if current["bye"] or current["seat_token"] is not None:
                break
            assert time.monotonic() < deadline, mine
            time.sleep(0.05)
        assert mine["participant"] == 0 and mine["name"] == "Ada"
        if current["bye"]:
            assert current["seat_token"] is None
        else:
            # the seat token is the seat's own: it reads that seat's view and moves there
            game = api.game(current["game_id"], current["seat_token"])
            assert game["you"] == current["seat"]
            assert game["seats"][current["seat"]]["name"] == "Ada"
        document = api.client.get(f"/v1/tournaments/{tid}").json()
        for table in document["rounds"][-1]["tables"]:
            tokens = {}
            for index, participant in enumerate(created["participants"]):
                if index not in table["participants"] or participant["bot"]:
                    continue
                rounds = api.client.get(
                    f"/v1/tournaments/{tid}/me", headers=api.auth(participant["token"])
                ).json()["rounds"]
                tokens[table["participants"].index(index)] = rounds[-1]["seat_token"]
            seats = [{"seat": s, "token": tokens.get(s)} for s in range(len(table["participants"]))]
            api.play_out({"id": table["game_id"], "seats": seats})
        if document["status"] == "finished":
            break
        deadline = time.monotonic() + 20
        while api.client.get(f"/v1/tournaments/{tid}").json()["rounds"] == document["rounds"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert finished(api, tid)["status"] == "finished"
    mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada)).json()
    assert len(mine["rounds"]) == 3 and sum(r["bye"] for r in mine["rounds"]) == 1
    bot = api.client.get(
        f"/v1/tournaments/{tid}/me", headers=api.auth(created["participants"][2]["token"])
    ).json()
    assert all(r["seat_token"] is None for r in bot["rounds"])
    wrong = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth("sps_not-a-token"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_token"
    anonymous = api.client.get(f"/v1/tournaments/{tid}/me")
    assert anonymous.status_code == 401


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (
            {"participants": [{"name": "A", "bot": "godlike"}, {"name": "B"}]},
            422,
            "unknown_bot_level",
        ),
        ({"participants": [{"name": f"P{n}"} for n in range(257)]}, 422, "invalid_request"),
        ({"participants": [{"name": "A"}]}, 422, "too_few_participants"),
        ({"game": "chess"}, 422, "unknown_game"),
        ({"format": {"kind": "swiss", "rounds": 0}}, 422, "invalid_request"),
        ({"format": {"kind": "knockout"}}, 422, "invalid_request"),
        ({"format": {"kind": "duplicate"}, "participants": bots(3)}, 422, "participant_count"),
        ({"seats_per_table": 5}, 422, "seats_per_table"),
        (
            {"participants": [{"name": f"P{n}"} for n in range(200)]},
            422,
            "tournament_too_large",
        ),
    ],
)
def test_a_tournament_that_cannot_be_made_is_refused_before_anything_starts(
    api, body, status, code
):
    full = {
        "game": "hidden-numbers",
        "participants": bots(4),
        "format": {"kind": "round_robin"},
        **body,
    }
    response = api.client.post("/v1/tournaments", json=full, headers=KEY)
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


def test_a_round_robin_whose_schedule_plays_too_many_games_is_refused(api):
    """150 at tables of 3 pass the first count (at least 3,725 games), but the greedy
    schedule plays 4,700: refused before any game is made."""
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": f"P{n}"} for n in range(150)],
        "seats_per_table": 3,
        "format": {"kind": "round_robin"},
    }
    response = api.client.post("/v1/tournaments", json=body, headers=KEY)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "tournament_too_large" and problem["limit"] == 4096
    assert "schedule plays 4700 games" in problem["detail"]
    listed = api.client.get("/v1/games", params={"limit": 100}, headers=KEY).json()
    assert listed["games"] == []


def test_reading_and_playing_a_round_robin_never_makes_its_schedule_again(api, gql, monkeypatch):
    """The schedule is made at creation and kept: GET /v1/tournaments/{id} (which
    anyone may send, on any replica, after any restart) and the rounds that follow
    read it, however long making it again would take."""
    created = create(
        api,
        game="hidden-numbers",
        participants=bots(5),
        seats_per_table=3,
        format={"kind": "round_robin"},
        seed=5,
    )

    def make_again(*args):
        raise AssertionError("the schedule was made again")

    monkeypatch.setattr(round_robin, "_covering", make_again)
    round_robin._pairings.cache_clear()
    document = finished(api, created["id"])
    assert document["rounds_total"] == created["rounds_total"] == len(document["rounds"])
    tournament = gql.data(READ, {"id": created["id"]})["tournament"]
    assert tournament["status"] == "finished"


def test_many_reads_of_a_tournament_at_once_make_it_once_and_bots_play_on(api, monkeypatch):
    """Anyone may read a tournament, and a big one's document takes a while to make.
    Twelve readers at once while it is being made: it is made once, for all of them,
    and meanwhile a bot still answers a move (reads used to fill the thread pool that
    bot turns use, one thread each: a bot's move took 168 s)."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Grace"}],
        format={"kind": "round_robin"},
    )
    release = threading.Event()
    made = []
    make = tournament_runner.tournament_document

    def slow_document(stored):
        made.append(stored.id)
        release.wait(30)
        return make(stored)

    monkeypatch.setattr(tournament_runner, "tournament_document", slow_document)
    answers: list[int] = []

    def read() -> None:
        answers.append(api.client.get(f"/v1/tournaments/{created['id']}").status_code)

    readers = [threading.Thread(target=read) for _ in range(12)]
    try:
        for reader in readers:
            reader.start()
        deadline = time.monotonic() + 10
        while not made:
            assert time.monotonic() < deadline, "nobody made the document"
            time.sleep(0.01)
        # a game against a bot: my third move waits for the bot to have played twice
        game = api.create(seats=[{"name": "Me"}, {"name": "Bot", "bot": "random"}])
        token = game["seats"][0]["token"]
        for _ in range(3):
            mine = api.wait_until(
                game["id"], lambda d: d["status"] != "active" or 0 in d["turn"], timeout=10
            )
            assert mine["status"] == "active"
            moved = api.move(game["id"], token, api.legal(game["id"], token)[0])
            assert moved.status_code == 200, moved.text
        assert api.game(game["id"])["version"] >= 3
        assert not made[1:] and not release.is_set(), "all the while, the readers waited"
    finally:
        release.set()
        for reader in readers:
            reader.join(30)
    assert answers == [200] * 12
    assert len(made) == 1, "made once for all the readers"


def test_only_a_platform_api_key_creates_tournaments(api):
    body = {"game": "hidden-numbers", "participants": bots(2), "format": {"kind": "round_robin"}}
    assert api.client.post("/v1/tournaments", json=body).status_code == 401
    seat = api.create()["seats"][0]["token"]
    refused = api.client.post("/v1/tournaments", json=body, headers=api.auth(seat))
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_api_key"


def test_an_unknown_tournament_is_404(api):
    for path in ("", "/standings.csv", "/me"):
        response = api.client.get(f"/v1/tournaments/{'a' * 24}{path}", headers=KEY)
        assert response.status_code == 404 and response.json()["code"] == "tournament_not_found"


# --- webhooks -------------------------------------------------------------------------


@pytest.fixture
def settings(redis_url: str, key_prefix: str) -> Settings:
    return Settings(
        redis_url=redis_url,
        key_prefix=key_prefix,
        api_keys="platform-key-for-tests-0001",
        rate_limit_per_ip=0,
        create_limit_per_ip=0,
        rate_limit_per_token=0,
        log_level="warning",
        tasks="inprocess",
        webhook_secret="tournament-hooks",
        webhook_allow_private=True,
    )


def test_a_platform_is_told_when_each_round_starts_and_when_the_tournament_ends(api, receiver):
    created = create(
        api,
        game="hidden-numbers",
        participants=bots(4),
        format={"kind": "swiss", "rounds": 2},
        webhook_url=receiver.url,
    )
    document = finished(api, created["id"])
    # Each webhook is delivered on its own, so they may arrive in any order: wait for all.
    wanted = {"round:1:tournament.round_started", "round:2:tournament.round_started"}
    wanted |= {"tournament.finished"}
    deadline = time.monotonic() + 20
    while not wanted <= {h["skyport-event-id"].split(":", 1)[1] for h, _ in receiver.received}:
        assert time.monotonic() < deadline, receiver.received
        time.sleep(0.05)
    events = {}
    for headers, body in receiver.received:
        assert verify("tournament-hooks", body, headers[SIGNATURE_HEADER.lower()])
        payload = json.loads(body)
        assert payload["id"] == headers["skyport-event-id"]
        events.setdefault(payload["id"], payload)
    started = sorted(
        (p for p in events.values() if p["type"] == "tournament.round_started"),
        key=lambda p: p["round"],
    )
    assert [p["round"] for p in started] == [1, 2]
    for payload, round_ in zip(started, document["rounds"], strict=True):
        assert payload["tournament_id"] == created["id"]
        assert [t["game_id"] for t in payload["tables"]] == [t["game_id"] for t in round_["tables"]]
    (end,) = [p for p in events.values() if p["type"] == "tournament.finished"]
    assert [row["participant"] for row in end["standings"]] == [
        row["participant"] for row in document["standings"]
    ]


# --- GraphQL --------------------------------------------------------------------------

CREATE = """
mutation($input: CreateTournamentInput!) {
  createTournament(input: $input) {
    __typename
    ... on TournamentCreated { id roundsTotal participants { participant name token } }
    ... on Error { code message }
  }
}"""

READ = """
query($id: ID!) {
  tournament(id: $id) {
    id status tiebreak
    standings { rank participant name points score tiebreak }
    rounds { number done tables { number participants gameId status ranks } }
  }
}"""


def test_graphql_creates_a_tournament_and_reads_its_standings(gql, api):
    answer = gql.data(
        CREATE,
        {
            "input": {
                "game": "hidden-numbers",
                "participants": bots(4),
                "format": {"kind": "round_robin"},
                "seed": 4,
            }
        },
        token=KEY["Authorization"].split()[1],
    )["createTournament"]
    assert answer["__typename"] == "TournamentCreated", answer
    assert answer["roundsTotal"] == 3
    finished(api, answer["id"])
    tournament = gql.data(READ, {"id": answer["id"]})["tournament"]
    rest = api.client.get(f"/v1/tournaments/{answer['id']}").json()
    assert tournament["status"] == "finished"
    assert [r["participant"] for r in tournament["standings"]] == [
        r["participant"] for r in rest["standings"]
    ]
    assert [t["gameId"] for r in tournament["rounds"] for t in r["tables"]] == [
        t["game_id"] for r in rest["rounds"] for t in r["tables"]
    ]
    assert gql.data(READ, {"id": "b" * 24})["tournament"] is None


def test_graphql_refuses_an_unknown_bot_level_as_an_error_result(gql):
    answer = gql.data(
        CREATE,
        {
            "input": {
                "game": "hidden-numbers",
                "participants": [{"name": "A", "bot": "godlike"}, {"name": "B"}],
                "format": {"kind": "round_robin"},
            }
        },
        token=KEY["Authorization"].split()[1],
    )["createTournament"]
    assert answer["__typename"] == "Rejected"
    assert answer["code"] == "unknown_bot_level"


MINE = """
query($id: ID!) {
  myTournament(id: $id) {
    id participant name bot
    rounds { number bye table seat gameId seatToken }
  }
}"""


def test_graphql_my_tournament_gives_the_same_seat_tokens_as_rest_and_refuses_as_rest(gql, api):
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Grace"}, {"name": "Bot", "bot": "random"}],
        format={"kind": "round_robin"},
        seed=3,
    )
    tid = created["id"]
    for participant in created["participants"]:
        rest = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(participant["token"]))
        assert rest.status_code == 200, rest.text
        mine = gql.data(MINE, {"id": tid}, token=participant["token"])["myTournament"]
        assert (mine["id"], mine["participant"], mine["name"]) == (
            tid,
            participant["participant"],
            participant["name"],
        )
        assert [
            (r["number"], r["bye"], r["table"], r["seat"], r["gameId"], r["seatToken"])
            for r in mine["rounds"]
        ] == [
            (r["number"], r["bye"], r["table"], r["seat"], r["game_id"], r["seat_token"])
            for r in rest.json()["rounds"]
        ]
    # a person's seat token is there (and is the seat's own), a bot's is not
    ada = gql.data(MINE, {"id": tid}, token=created["participants"][0]["token"])["myTournament"]
    bot = gql.data(MINE, {"id": tid}, token=created["participants"][2]["token"])["myTournament"]
    assert all(r["seatToken"] is None for r in bot["rounds"])
    (first,) = ada["rounds"]
    if not first["bye"]:
        assert api.game(first["gameId"], first["seatToken"])["you"] == first["seat"]
    # refusals: the same codes and statuses as REST, as errors
    refusals = [
        ("sps_not-a-token", tid, "invalid_token", 401),
        (None, tid, "participant_token_required", 401),
        (created["participants"][0]["token"], "a" * 24, "tournament_not_found", 404),
    ]
    for token, tournament_id, code, status in refusals:
        answer = gql(MINE, {"id": tournament_id}, token=token)
        assert answer["data"] == {"myTournament": None}
        (error,) = answer["errors"]
        assert error["path"] == ["myTournament"]
        assert error["extensions"] == {"code": code, "status": status}
        rest = api.client.get(f"/v1/tournaments/{tournament_id}/me", headers=api.auth(token))
        assert (rest.status_code, rest.json()["code"]) == (status, code)


# --- idempotent creation --------------------------------------------------------------

PEOPLE = {
    "game": "hidden-numbers",
    "participants": [{"name": f"P{n}"} for n in range(4)],
    "format": {"kind": "round_robin"},
}


def tournament_games(api) -> list[dict[str, Any]]:
    """Every game this test's API key has (its key prefix is the test's own)."""
    response = api.client.get("/v1/games", params={"limit": 100}, headers=KEY)
    assert response.status_code == 200, response.text
    return response.json()["games"]


def test_a_retried_creation_with_its_idempotency_key_answers_the_same_and_creates_nothing(api):
    headers = {**KEY, "Idempotency-Key": "tournament-retry-0001"}
    first = api.client.post("/v1/tournaments", json=PEOPLE, headers=headers)
    assert first.status_code == 201, first.text
    assert "Idempotent-Replayed" not in first.headers
    again = api.client.post("/v1/tournaments", json=PEOPLE, headers=headers)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert again.headers["Location"] == f"/v1/tournaments/{first.json()['id']}"
    tid = first.json()["id"]
    # only one tournament's round 1 exists: two tables of people, waiting for moves
    games = tournament_games(api)
    assert len(games) == 2
    assert {g["id"] for g in games} == {
        t["game_id"] for t in api.client.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"]
    }
    tagged = api.client.get("/v1/games", params={"tag": f"tournament:{tid}"}, headers=KEY)
    assert len(tagged.json()["games"]) == 2
    # the replayed tokens are the participants' tokens
    for participant in again.json()["participants"]:
        mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(participant["token"]))
        assert mine.status_code == 200 and mine.json()["participant"] == participant["participant"]
    # another body with the same key is refused, and creates nothing either
    other = api.client.post(
        "/v1/tournaments", json={**PEOPLE, "seats_per_table": 4}, headers=headers
    )
    assert other.status_code == 422, other.text
    assert other.json()["code"] == "idempotency_key_reused"
    assert len(tournament_games(api)) == 2
    # without a key (or with another key) the same body is a new tournament
    fresh = api.client.post(
        "/v1/tournaments", json=PEOPLE, headers={**KEY, "Idempotency-Key": "tournament-retry-0002"}
    )
    assert fresh.status_code == 201 and fresh.json()["id"] != tid
    assert "Idempotent-Replayed" not in fresh.headers
    bad = api.client.post("/v1/tournaments", json=PEOPLE, headers={**KEY, "Idempotency-Key": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_idempotency_key"


CREATE_WITH_KEY = """
mutation($input: CreateTournamentInput!, $key: String) {
  createTournament(input: $input, idempotencyKey: $key) {
    __typename
    ... on TournamentCreated { id replayed participants { participant token } }
    ... on Error { code message }
  }
}"""


def test_graphql_create_tournament_takes_an_idempotency_key(gql, api):
    token = KEY["Authorization"].split()[1]
    variables = {"input": PEOPLE, "key": "tournament-graphql-0001"}
    first = gql.data(CREATE_WITH_KEY, variables, token=token)["createTournament"]
    again = gql.data(CREATE_WITH_KEY, variables, token=token)["createTournament"]
    assert first["__typename"] == again["__typename"] == "TournamentCreated", (first, again)
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert (again["id"], again["participants"]) == (first["id"], first["participants"])
    assert len(tournament_games(api)) == 2
    # the same key over REST is the same tournament (the key belongs to the API key)
    rest = api.client.post(
        "/v1/tournaments", json=PEOPLE, headers={**KEY, "Idempotency-Key": variables["key"]}
    )
    assert rest.status_code == 201 and rest.json()["id"] == first["id"]
    other = gql.data(
        CREATE_WITH_KEY,
        {"input": {**PEOPLE, "seed": 5}, "key": variables["key"]},
        token=token,
    )["createTournament"]
    assert other["__typename"] == "Rejected" and other["code"] == "idempotency_key_reused"
    bad = gql(CREATE_WITH_KEY, {"input": PEOPLE, "key": "short"}, token=token)
    assert bad["errors"][0]["extensions"]["code"] == "invalid_idempotency_key"


def first_seats(api, created: dict[str, Any]) -> list[tuple[str, int, str]]:
    """Each participant's (game id, seat, seat token) of round 1."""
    seats = []
    for participant in created["participants"]:
        mine = api.client.get(
            f"/v1/tournaments/{created['id']}/me", headers=api.auth(participant["token"])
        ).json()
        first = mine["rounds"][0]
        seats.append((first["game_id"], first["seat"], first["seat_token"]))
    return seats


def test_autopilot_is_refused_at_a_tournament_table_over_rest_and_graphql(api, gql):
    """The service's bot would play a participant's whole game, and the tournament would
    credit them with its result: at a tournament table a seat plays, or resigns."""
    created = create(
        api,
        game="hidden-numbers",
        participants=[{"name": "Ada"}, {"name": "Grace"}],
        format={"kind": "swiss", "rounds": 1},
    )
    (game_id, seat, token), _ = first_seats(api, created)
    refused = api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/autopilot", json={"on": True}, headers=api.auth(token)
    )
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "autopilot_not_allowed"
    assert "tournament" in refused.json()["detail"]
    answer = gql.data(
        """mutation($id: ID!, $seat: Int!) { setAutopilot(gameId: $id, seat: $seat, on: true) {
            __typename ... on Error { code message } } }""",
        {"id": game_id, "seat": seat},
        token=token,
    )["setAutopilot"]
    assert answer["__typename"] == "Rejected"
    assert answer["code"] == "autopilot_not_allowed"
    assert not api.game(game_id)["seats"][seat]["autopilot"]
    # switching it off (it may have been on before autopilot was refused here) still works
    off = api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/autopilot", json={"on": False}, headers=api.auth(token)
    )
    assert off.status_code == 200 and off.json()["autopilot"] is False
    # a game merely labelled by its platform (not a tournament id) keeps autopilot
    labelled = api.client.post(
        "/v1/games",
        json={
            "game": "hidden-numbers",
            "seats": [{"name": "A"}, {"name": "B"}],
            "tags": ["tournament:spring-cup"],
        },
        headers=KEY,
    ).json()
    on = api.client.post(
        f"/v1/games/{labelled['id']}/seats/0/autopilot",
        json={"on": True},
        headers=api.auth(labelled["seats"][0]["token"]),
    )
    assert on.status_code == 200, on.text
