"""Leavers over REST and GraphQL: with on_leave bot_takes_over (the default with 3 or more
seats) a seat that resigns or runs out of time is abandoned and a bot plays it to the
end; with end_game (the default with 1 or 2 seats) the game ends. A seat may also step away
(autopilot) and come back."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from services.gameplay import referee as referee_module
from services.gameplay.auth import Credentials
from services.gameplay.records import load_record, replay
from tests.conftest import Crash, crash


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"clock_sweep_seconds": 0.1})


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def without(created: dict, *seats: int) -> dict:
    """The creation answer without some seats' tokens: play_out leaves those seats alone."""
    kept = [dict(s, token=None) if s["seat"] in seats else s for s in created["seats"]]
    return {**created, "seats": kept}


def resign(api, game_id: str, token: str | None, **body):
    return api.client.post(f"/v1/games/{game_id}/resign", json=body, headers=api.auth(token))


def autopilot(api, game_id: str, seat: int, token: str | None, on: object):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/autopilot", json={"on": on}, headers=api.auth(token)
    )


def finished(api, game_id: str) -> dict:
    return api.wait_until(game_id, lambda d: d["status"] in ("finished", "aborted"), timeout=60)


def test_a_seat_that_left_does_not_win_by_its_stand_ins_play(api, hidden_numbers):
    """The bot that plays an abandoned seat to the end plays for the others' sake: the
    seat that left ranks below everyone who stayed, even where its bot came out ahead
    (as a resigned seat does), in the result, the record and its replay."""
    for seed in range(40):
        created = api.create(seats=3, seed=seed)
        game_id, tokens = created["id"], tokens_of(created)
        assert resign(api, game_id, tokens[1]).json()["abandoned"] is True
        api.play_out(without(created, 1))
        result = finished(api, game_id)["result"]
        record = load_record(
            api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(tokens[0])).content
        )
        played = replay(record, hidden_numbers)
        if 1 in hidden_numbers.result(played.state).winners:
            break  # its bot won by the rules: the case to see
    else:
        pytest.fail("no game of 40 where the abandoned seat's bot won by the rules")
    ranks = {s["seat"]: s["rank"] for s in result["standings"]}
    assert ranks[1] == 3 and 1 not in result["winners"] and result["winners"]
    assert record.result is not None and record.result.winners == result["winners"]
    assert played.result == record.result


def test_a_three_player_game_goes_on_to_the_end_when_a_seat_resigns(api, hidden_numbers):
    created = api.create(seats=3)
    game_id, tokens = created["id"], tokens_of(created)
    response = resign(api, game_id, tokens[1])
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["abandoned"] is True and answer["version"] == 0 and answer["status"] == "active"
    seats = api.game(game_id)["seats"]
    assert [s["abandoned"] for s in seats] == [False, True, False]
    assert not any(s["resigned"] for s in seats)
    api.play_out(without(created, 1))
    document = finished(api, game_id)
    assert document["status"] == "finished"
    standings = {s["seat"]: s for s in document["result"]["standings"]}
    assert standings[1]["abandoned"] and not standings[1]["resigned"]
    assert not standings[0]["abandoned"] and not standings[2]["abandoned"]
    # The bot made seat 1's moves: the log holds moves of every seat.
    log_seats = {e["seat"] for e in api.events(game_id, api.platform_key)["entries"]}
    assert log_seats == {0, 1, 2}
    record = load_record(
        api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(tokens[0])).content
    )
    assert [s.left_at_version for s in record.seats] == [None, 0, None]
    replay(record, hidden_numbers)


def test_a_seat_that_left_cannot_move_or_resign_again(api):
    created = api.create(seats=3)
    game_id, tokens = created["id"], tokens_of(created)
    assert resign(api, game_id, tokens[2]).status_code == 200
    move = api.move(game_id, tokens[2], {"kind": "discard", "card": "c01"})
    assert move.status_code == 409 and move.json()["code"] == "seat_abandoned"
    again = resign(api, game_id, tokens[2])
    assert again.status_code == 409 and again.json()["code"] == "seat_abandoned"
    back = autopilot(api, game_id, 2, tokens[2], False)
    assert back.status_code == 409 and back.json()["code"] == "seat_abandoned"


def test_a_two_player_resignation_still_ends_the_game(api):
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    answer = resign(api, game_id, tokens[0]).json()
    assert answer["abandoned"] is False and answer["version"] == 1
    document = finished(api, game_id)
    assert document["result"]["winners"] == [1]
    assert document["seats"][0]["resigned"] and not document["seats"][0]["abandoned"]


def test_on_leave_end_game_ends_a_three_player_game(api):
    created = api.create(seats=3, on_leave="end_game")
    game_id, tokens = created["id"], tokens_of(created)
    assert resign(api, game_id, tokens[0]).json()["abandoned"] is False
    document = finished(api, game_id)
    assert document["status"] == "finished"
    assert document["result"]["standings"][-1]["seat"] == 0


def test_on_leave_bot_takes_over_in_a_two_player_game_when_asked(api):
    created = api.create(seats=2, on_leave="bot_takes_over", leave_bot="random")
    game_id, tokens = created["id"], tokens_of(created)
    assert resign(api, game_id, tokens[1]).json()["abandoned"] is True
    api.play_out(without(created, 1))
    document = finished(api, game_id)
    assert document["status"] == "finished" and document["seats"][1]["abandoned"]


def test_unknown_leave_options_are_refused_at_creation(api):
    seats = [{"name": "A"}, {"name": "B"}, {"name": "C"}]
    body = {"game": "hidden-numbers", "seats": seats}
    bad_policy = api.client.post("/v1/games", json={**body, "on_leave": "vanish"})
    assert bad_policy.status_code == 422 and bad_policy.json()["code"] == "invalid_request"
    assert bad_policy.headers["content-type"].startswith("application/problem+json")
    bad_bot = api.client.post("/v1/games", json={**body, "leave_bot": "godlike"})
    assert bad_bot.status_code == 422 and bad_bot.json()["code"] == "unknown_bot_level"
    assert "leave_bot" in bad_bot.json()["detail"]


@pytest.mark.parametrize("on", ["yes", "false", 1, 0, None])
def test_autopilot_takes_true_or_false_only(api, on):
    """The string "yes" or the number 1 turned autopilot on (pydantic's lax booleans):
    anything but a JSON boolean is refused."""
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    refused = autopilot(api, game_id, 0, tokens[0], on)
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"
    assert not api.game(game_id)["seats"][0]["autopilot"]


def test_a_seat_steps_away_on_autopilot_and_comes_back(api):
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    on = autopilot(api, game_id, 0, tokens[0], True)
    assert on.status_code == 200, on.text
    assert on.json()["autopilot"] is True and on.json()["bot"]
    # The bot discards for seat 0; the game then waits for seat 1.
    document = api.wait_until(game_id, lambda d: d["turn"] == [1])
    assert document["seats"][0]["autopilot"] and not document["seats"][0]["abandoned"]
    refused = api.move(game_id, tokens[0], {"kind": "discard", "card": "c01"})
    assert refused.status_code == 409 and refused.json()["code"] == "autopilot_on"
    off = autopilot(api, game_id, 0, tokens[0], False)
    assert off.status_code == 200 and off.json()["autopilot"] is False
    assert not api.game(game_id)["seats"][0]["autopilot"]
    api.play_out(created)  # both seats play themselves again, seat 0 included
    document = finished(api, game_id)
    assert document["status"] == "finished"
    seat0 = [e for e in api.events(game_id, api.platform_key)["entries"] if e["seat"] == 0]
    assert len(seat0) >= 2


@pytest.mark.parametrize("on_leave", ["end_game", "bot_takes_over"])
def test_a_seat_on_autopilot_can_still_resign(api, on_leave):
    """Autopilot keeps a seat's own moves out, not its leaving: it need not come back
    first to go."""
    created = api.create(seats=2, on_leave=on_leave)
    game_id, tokens = created["id"], tokens_of(created)
    assert autopilot(api, game_id, 0, tokens[0], True).status_code == 200
    left = resign(api, game_id, tokens[0])
    assert left.status_code == 200, left.text
    if on_leave == "end_game":
        assert left.json()["abandoned"] is False
        document = finished(api, game_id)
        assert document["result"]["winners"] == [1]
        assert document["seats"][0]["resigned"]
    else:
        assert left.json()["abandoned"] is True
        seat = api.game(game_id)["seats"][0]
        assert seat["abandoned"] and not seat["autopilot"]
        again = resign(api, game_id, tokens[0])
        assert again.status_code == 409 and again.json()["code"] == "seat_abandoned"


def test_autopilot_is_refused_with_another_seats_token_or_none(api):
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    other = autopilot(api, game_id, 0, tokens[1], True)
    assert other.status_code == 403 and other.json()["code"] == "not_your_seat"
    platform = autopilot(api, game_id, 0, api.platform_key, True)
    assert platform.status_code == 403 and platform.json()["code"] == "seat_token_required"
    nobody = autopilot(api, game_id, 0, None, True)
    assert nobody.status_code == 401 and nobody.json()["code"] == "seat_token_required"
    no_seat = autopilot(api, game_id, 7, tokens[0], True)
    assert no_seat.status_code == 404 and no_seat.json()["code"] == "seat_not_found"
    not_a_flag = autopilot(api, game_id, 0, tokens[0], "yes please")
    assert not_a_flag.status_code == 422 and not_a_flag.json()["code"] == "invalid_request"
    assert not api.game(game_id)["seats"][0]["autopilot"]


def test_a_clock_running_out_under_bot_takes_over_abandons_the_seat(api):
    seats = [
        {"name": "Ada"},
        {"name": "Bot 1", "bot": "random"},
        {"name": "Bot 2", "bot": "random"},
    ]
    created = api.create(seats=seats, clock={"initial_seconds": 0.3})
    document = finished(api, created["id"])
    assert document["status"] == "finished"
    assert document["seats"][0]["abandoned"] and not document["seats"][0]["resigned"]
    assert {e["seat"] for e in api.events(created["id"], api.platform_key)["entries"]} == {0, 1, 2}


def test_a_clock_running_out_under_end_game_forfeits(api):
    seats = [{"name": "Ada"}, {"name": "Bot", "bot": "random"}]
    created = api.create(seats=seats, clock={"initial_seconds": 0.3})
    document = finished(api, created["id"])
    assert document["seats"][0]["resigned"] and not document["seats"][0]["abandoned"]
    assert document["result"]["winners"] == [1]


@pytest.mark.parametrize("players", [2, 3], ids=["end_game", "bot_takes_over"])
def test_a_seat_that_ran_out_of_time_shows_none_left_to_the_end(api, players):
    """A forfeit earns no increment, and the bot that plays an abandoned seat on runs no
    clock for it: the seat shows 0 left, not its increment (or the bot's increments)."""
    bots = [{"name": f"Bot {n}", "bot": "random"} for n in range(1, players)]
    clock = {"initial_seconds": 0.3, "increment_seconds": 0.5}
    created = api.create(seats=[{"name": "Ada"}, *bots], clock=clock)
    document = finished(api, created["id"])
    assert document["status"] == "finished"
    left = document["seats"][0]["resigned"] if players == 2 else document["seats"][0]["abandoned"]
    assert left, document["seats"][0]
    assert document["clock"]["remaining"] == [0, *[None] * len(bots)]
    assert document["clock"]["running"] == []


def test_graphql_leaves_and_switches_autopilot(api, gql):
    created = gql.data(
        """mutation { createGame(input: {game: "hidden-numbers", seed: 3,
            seats: [{name: "A"}, {name: "B"}, {name: "C"}], leaveBot: "random"}) {
            ... on GameCreated { id seats { seat token } } } }"""
    )["createGame"]
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    switched = gql.data(
        """mutation($id: ID!) { setAutopilot(gameId: $id, seat: 2, on: true) {
            ... on Autopilot { seat autopilot bot } } }""",
        {"id": game_id},
        token=tokens[2],
    )["setAutopilot"]
    assert switched == {"seat": 2, "autopilot": True, "bot": "random"}
    left = gql.data(
        """mutation($id: ID!) { resign(gameId: $id) {
            ... on MoveApplied { abandoned version } } }""",
        {"id": game_id},
        token=tokens[1],
    )["resign"]
    assert left["abandoned"] is True  # nothing committed (the autopilot may have moved)
    seats = gql.data(
        "query($id: ID!) { game(id: $id) { seats { seat abandoned autopilot } } }",
        {"id": game_id},
    )["game"]["seats"]
    assert seats == [
        {"seat": 0, "abandoned": False, "autopilot": False},
        {"seat": 1, "abandoned": True, "autopilot": False},
        {"seat": 2, "abandoned": False, "autopilot": True},
    ]
    refused = gql(
        """mutation($id: ID!) { setAutopilot(gameId: $id, seat: 0, on: true) {
            ... on Autopilot { seat } } }""",
        {"id": game_id},
        token=tokens[2],
    )
    assert refused["errors"][0]["extensions"]["code"] == "not_your_seat"
    bad = gql(
        """mutation { createGame(input: {game: "hidden-numbers",
            seats: [{name: "A"}, {name: "B"}], onLeave: "vanish"}) {
            ... on Rejected { code } } }"""
    )
    assert bad["data"]["createGame"]["code"] == "invalid_request"


def test_a_retried_leave_with_its_idempotency_key_gets_the_first_answer(api):
    created = api.create(seats=3)
    game_id, token = created["id"], tokens_of(created)[0]
    headers = {**api.auth(token), "Idempotency-Key": "leave-0001-abcdef"}
    first = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=headers)
    again = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json() and first.json()["abandoned"] is True


def test_a_leave_retried_after_its_replica_died_gets_the_answer_it_never_sent(api, monkeypatch):
    """The script that marks the seat abandoned keeps the answer with it: the retry is
    answered, not told that its own leave left the seat."""
    created = api.create(seats=3)
    game_id, token = created["id"], tokens_of(created)[0]
    headers = {**api.auth(token), "Idempotency-Key": "died-leaving-0001"}
    with monkeypatch.context() as dying:
        dying.setattr(referee_module, "log", SimpleNamespace(info=crash))  # after the change
        with pytest.raises(Crash):
            api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=headers)
    assert api.game(game_id)["seats"][0]["abandoned"] is True
    retried = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=headers)
    assert retried.status_code == 200, retried.text
    assert retried.headers["idempotent-replayed"] == "true"
    answer = retried.json()
    assert answer["abandoned"] is True and answer["seat"] == 0 and answer["version"] == 0
    assert answer["view"]["you"] == 0 and answer["view"]["hand"]  # whole, as kept answers are
    bare = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(token))
    assert bare.status_code == 409 and bare.json()["code"] == "seat_abandoned"


def test_graphql_refusals_share_the_error_interface_whatever_their_http_status(api, gql):
    """A seat that left (409 over REST), an illegal move (422) and a stale version (409)
    are all mutation results implementing `Error`; a wrong token stays a GraphQL error."""
    created = gql.data(
        """mutation { createGame(input: {game: "hidden-numbers", seed: 3,
            seats: [{name: "A"}, {name: "B"}, {name: "C"}], leaveBot: "random"}) {
            ... on GameCreated { id seats { seat token } } } }"""
    )["createGame"]
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    gql.data(
        "mutation($id: ID!) { resign(gameId: $id) { __typename } }", {"id": game_id}, tokens[1]
    )
    as_error = """mutation($id: ID!, $move: JSON!, $expected: Int) {
        makeMove(gameId: $id, move: $move, expectedVersion: $expected) {
            __typename ... on Error { code message } } }"""
    left = gql(as_error, {"id": game_id, "move": {"kind": "x"}}, tokens[1])
    assert "errors" not in left
    assert left["data"]["makeMove"]["__typename"] == "Rejected"
    assert left["data"]["makeMove"]["code"] == "seat_abandoned"
    illegal = gql.data(as_error, {"id": game_id, "move": {"kind": "no-such-move"}}, tokens[0])
    assert illegal["makeMove"]["__typename"] == "Rejected" and illegal["makeMove"]["message"]
    stale = gql.data(as_error, {"id": game_id, "move": {"kind": "x"}, "expected": 99}, tokens[0])
    assert stale["makeMove"] == {
        "__typename": "VersionConflict",
        "code": "version_conflict",
        "message": stale["makeMove"]["message"],
    }
    wrong = gql(as_error, {"id": game_id, "move": {"kind": "x"}}, "sps_wrong")
    assert wrong["errors"][0]["extensions"]["code"] == "invalid_token"


def move_lands_during_the_next_leave(
    api, monkeypatch, game_id: str, tokens: dict[int, str], other_than: int
) -> list:
    """Another seat's move at version 0 lands just before the next resignation changes
    the seat (within the referee's take-over); the list holds its answer once made."""
    mover = next(s for s in api.game(game_id)["turn"] if s != other_than)
    move = api.legal(game_id, tokens[mover])[0]
    service = api.client.app.state.service
    note_due = type(service.referee).note_due
    landed: list = []

    async def move_lands_first(referee, noted_game_id: str, **notes: Any) -> None:
        if not landed:
            mover_credentials = Credentials(tokens[mover], "127.0.0.1")
            landed.append(await service.make_move(game_id, mover_credentials, move, 0, None))
        await note_due(referee, noted_game_id, **notes)

    monkeypatch.setattr(type(service.referee), "note_due", move_lands_first)
    return landed


@pytest.mark.parametrize("precondition", ["expected_version", "If-Match"])
def test_a_resignation_decided_on_a_version_is_refused_once_a_move_landed_first(
    api, monkeypatch, precondition
):
    """A seat resigns on version 0 while another seat's move lands between the read and
    the change: the resignation must not land on version 1 as if it had been asked there
    (409 version_conflict, or 412 under If-Match), and the seat stays in the game."""
    created = api.create(seats=3)
    game_id, tokens = created["id"], tokens_of(created)
    landed = move_lands_during_the_next_leave(api, monkeypatch, game_id, tokens, other_than=1)
    if precondition == "If-Match":
        response = api.client.post(
            f"/v1/games/{game_id}/resign",
            json={},
            headers={**api.auth(tokens[1]), "If-Match": 'W/"v0"'},
        )
        assert response.status_code == 412, response.text
    else:
        response = resign(api, game_id, tokens[1], expected_version=0)
        assert response.status_code == 409, response.text
        assert response.json()["code"] == "version_conflict"
        assert response.json()["current_version"] == 1
    assert landed, "the move was made while the resignation was under way"
    seats = api.game(game_id)["seats"]
    assert not seats[1]["abandoned"], "the refused resignation changed nothing"


def test_a_resignation_without_a_precondition_is_answered_at_the_version_it_landed_on(
    api, monkeypatch
):
    created = api.create(seats=3)
    game_id, tokens = created["id"], tokens_of(created)
    landed = move_lands_during_the_next_leave(api, monkeypatch, game_id, tokens, other_than=1)
    response = resign(api, game_id, tokens[1])
    assert response.status_code == 200, response.text
    assert response.json()["abandoned"] is True
    assert landed and response.json()["version"] == 1, "answered at the version it left at"
    assert api.game(game_id)["seats"][1]["abandoned"]
