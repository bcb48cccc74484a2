"""Joining the lobby in one call (POST /v1/lobby/{game}/join, GraphQL joinLobby): the
first open seat of the longest waiting listed game, a seat lost to another player passed
over, and a retry under the same Idempotency-Key answered with the same seat."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from services.gameplay import lobby_join
from services.gameplay.auth import Credentials
from services.gameplay.lobby_join import JoinLobbyRequest

ANYONE = Credentials(None, "127.0.0.1")

OPEN = {"open": True}
JOIN = "/v1/lobby/hidden-numbers/join"


def listed(api, seats: int = 3) -> dict:
    return api.create(seats=[{"name": "Host"}] + [OPEN] * (seats - 1), lobby=True)


def join(api, name: str = "Ann", key: str | None = None, path: str = JOIN, **body):
    headers = {"Idempotency-Key": key} if key else {}
    return api.client.post(path, json={"name": name, **body}, headers=headers)


def joined(api, name: str = "Ann", key: str | None = None, **body) -> dict:
    answer = join(api, name, key, **body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()
    return response.json()


def in_lobby(api) -> list[str]:
    return [game["id"] for game in api.client.get("/v1/lobby/hidden-numbers").json()["games"]]


def steal_first_claims(api, monkeypatch, count: int) -> list[tuple[str, int]]:
    """Before each of the join's first `count` claims, another player takes that seat."""
    seats = api.client.app.state.service.seats
    claim = seats.claim
    stolen: list[tuple[str, int]] = []

    async def raced(game_id, seat, request, key):
        if len(stolen) < count:
            stolen.append((game_id, seat))
            await claim(game_id, seat, request.model_copy(update={"name": "Quick"}), None)
        return await claim(game_id, seat, request, key)

    monkeypatch.setattr(seats, "claim", raced)
    return stolen


def join_that_dies(api, monkeypatch, lands: bool, ask: JoinLobbyRequest, key: str) -> None:
    """One join, made in process, whose first claim dies: after it landed (`lands`: its
    answer is lost) or before it was sent, as a process or a connection dying there."""
    seats = api.client.app.state.service.seats
    claim = seats.claim

    async def dying(*args):
        if lands:
            await claim(*args)
        raise ConnectionResetError("the join died")

    monkeypatch.setattr(seats, "claim", dying)
    with pytest.raises(ConnectionResetError):
        api.client.portal.call(
            api.client.app.state.service.lobby_join.join, "hidden-numbers", ask, key, ANYONE
        )
    monkeypatch.setattr(seats, "claim", claim)


def test_a_join_takes_the_first_open_seat_of_the_longest_waiting_game(api):
    older, newer = listed(api), listed(api, seats=2)
    ann = joined(api, "Ann")
    assert (ann["id"], ann["seat"], ann["name"], ann["status"]) == (
        older["id"],
        1,
        "Ann",
        "waiting",
    )
    assert api.game(older["id"], ann["token"])["you"] == 1
    bob = joined(api, "Bob")
    assert (bob["id"], bob["seat"], bob["status"]) == (older["id"], 2, "active")
    assert in_lobby(api) == [newer["id"]]
    cy = joined(api, "Cy")
    assert (cy["id"], cy["seat"], cy["status"]) == (newer["id"], 1, "active")
    seats = api.game(older["id"])["seats"]
    assert [seat["name"] for seat in seats] == ["Host", "Ann", "Bob"]
    refused(join(api, "Dee"), 404, "no_open_seat")


def test_a_join_asked_for_a_number_of_seats_takes_only_such_a_game(api):
    listed(api, seats=3)
    two = listed(api, seats=2)
    answer = joined(api, players=2)
    assert (answer["id"], answer["seat"]) == (two["id"], 1)
    no_four = refused(join(api, players=4), 404, "no_open_seat")
    assert "of 4 seats" in no_four["detail"] and "lobby: true" in no_four["detail"]


def test_a_game_that_is_not_listed_is_never_joined(api):
    api.create(seats=[{"name": "Host"}, OPEN])
    api.create(game="sky-islands", seats=[{"name": "Host"}, OPEN], lobby=True)
    refused(join(api), 404, "no_open_seat")


def test_a_seat_another_player_takes_first_is_passed_over(api, monkeypatch):
    first = listed(api, seats=2)
    second = listed(api, seats=2)
    stolen = steal_first_claims(api, monkeypatch, 1)
    answer = joined(api, "Ann")
    assert stolen == [(first["id"], 1)]
    assert (answer["id"], answer["seat"]) == (second["id"], 1)
    assert [seat["name"] for seat in api.game(first["id"])["seats"]] == ["Host", "Quick"]


def test_a_join_gives_up_after_a_run_of_lost_seats(api, monkeypatch):
    monkeypatch.setattr(lobby_join, "MAX_TRIES", 2)
    listed(api, seats=2)
    listed(api, seats=2)
    kept = listed(api, seats=2)
    steal_first_claims(api, monkeypatch, 2)
    busy = refused(join(api), 409, "seat_taken")
    assert "try again" in busy["detail"]
    assert in_lobby(api) == [kept["id"]]  # the lost games started, and left the lobby


def test_join_requests_it_cannot_answer_are_clear_4xx(api):
    listed(api)
    refused(join(api, path="/v1/lobby/no-such-game/join"), 404, "not_found")
    refused(api.client.post(JOIN, json={}), 422, "invalid_request")
    for bad in ({"players": 0}, {"players": 9}, {"players": "2"}, {"seat": 1}):
        refused(join(api, **bad), 422, "invalid_request")
    refused(join(api, name="\u202eevil"), 422, "invalid_seat_name")
    refused(join(api, key="not a key!"), 400, "invalid_idempotency_key")
    assert in_lobby(api) and api.game(in_lobby(api)[0])["status"] == "waiting"


def test_a_retried_join_answers_the_same_seat_and_token(api):
    created = listed(api)
    first = join(api, "Ann", key="join-retry-1")
    again = join(api, "Ann", key="join-retry-1")
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert [seat["name"] for seat in api.game(created["id"])["seats"]][:2] == ["Host", "Ann"]
    assert api.game(created["id"])["seats"][2]["open"]
    refused(join(api, "Bea", key="join-retry-1"), 422, "idempotency_key_reused")
    refused(join(api, "Ann", key="join-retry-1", players=3), 422, "idempotency_key_reused")
    # Another key is another join: the next seat.
    assert joined(api, "Ann", key="join-retry-2")["seat"] == 2


def test_a_join_whose_answer_was_lost_gets_its_seat_after_the_game_left_the_lobby(api, monkeypatch):
    """The first try took the seat but its answer never reached the player; the game then
    started, so it is no longer in the lobby, and another listed game waits there. The
    retry must answer the seat taken, not take a second one."""
    first = listed(api, seats=2)
    other = listed(api, seats=2)
    join_that_dies(api, monkeypatch, True, JoinLobbyRequest(name="Ann"), "lost-join-1")
    assert api.game(first["id"])["status"] == "active"
    assert in_lobby(api) == [other["id"]]

    retried = join(api, "Ann", key="lost-join-1")
    assert retried.status_code == 200, retried.text
    answer = retried.json()
    assert (answer["id"], answer["seat"], answer["status"]) == (first["id"], 1, "active")
    assert retried.headers.get("Idempotent-Replayed") == "true"
    assert api.game(first["id"], answer["token"])["you"] == 1
    assert in_lobby(api) == [other["id"]]


def test_a_retry_whose_first_try_never_claimed_walks_the_lobby_again(api, monkeypatch):
    created = listed(api, seats=2)
    join_that_dies(api, monkeypatch, False, JoinLobbyRequest(name="Ann"), "died-join-1")
    answer = joined(api, "Ann", key="died-join-1")
    assert (answer["id"], answer["seat"]) == (created["id"], 1)


JOIN_LOBBY = """mutation($game: String!, $name: String!, $players: Int, $key: String) {
  joinLobby(game: $game, name: $name, players: $players, idempotencyKey: $key) {
    __typename ... on LobbyJoined { gameId seat name token status replayed created }
    ... on Rejected { code message } } }"""


def test_graphql_joins_the_lobby(api, gql):
    created = listed(api, seats=2)
    variables = {"game": "hidden-numbers", "name": "Gil", "key": "gql-join-1"}
    taken = gql.data(JOIN_LOBBY, variables)["joinLobby"]
    assert taken["__typename"] == "LobbyJoined", taken
    assert taken["created"] is False
    assert (taken["gameId"], taken["seat"], taken["status"]) == (created["id"], 1, "ACTIVE")
    assert taken["replayed"] is False and taken["token"]
    again = gql.data(JOIN_LOBBY, variables)["joinLobby"]
    assert again == {**taken, "replayed": True}
    empty = gql.data(JOIN_LOBBY, {"game": "hidden-numbers", "name": "Hal"})["joinLobby"]
    assert (empty["__typename"], empty["code"]) == ("Rejected", "no_open_seat")
    create = """mutation { joinLobby(game: "hidden-numbers", name: "Hal", players: 2,
      create: true) { __typename ... on LobbyJoined { seat created status } } }"""
    made = gql.data(create)["joinLobby"]
    assert made == {"__typename": "LobbyJoined", "seat": 0, "created": True, "status": "WAITING"}
    bad = gql.data(JOIN_LOBBY, {"game": "hidden-numbers", "name": "Hal", "players": 0})
    assert bad["joinLobby"]["code"] == "invalid_request"
    unknown = gql(JOIN_LOBBY, {"game": "no-such-game", "name": "Hal"})
    assert unknown["errors"][0]["extensions"]["code"] == "not_found"


def test_a_graphql_document_holds_few_lobby_pages_or_joins(api, gql):
    """Each lobby page reads up to 500 games and each join up to 1,000 and 8 claims,
    whatever they select: aliases must not make one request do dozens of them."""
    listed(api, seats=3)
    pages = " ".join(
        f'p{n}: lobby(game: "hidden-numbers", first: 1) {{ __typename }}' for n in range(10)
    )
    answer = gql("query { " + pages + " }")
    assert answer["errors"][0]["extensions"]["code"] == "query_too_costly", answer
    few = " ".join(
        f'p{n}: lobby(game: "hidden-numbers", first: 1) {{ __typename }}' for n in range(8)
    )
    assert "errors" not in gql("query { " + few + " }")
    joins = " ".join(
        f'j{n}: joinLobby(game: "hidden-numbers", name: "J{n}") {{ __typename }}' for n in range(5)
    )
    refused_joins = gql("mutation { " + joins + " }")
    assert refused_joins["errors"][0]["extensions"]["code"] == "query_too_costly"
    assert [seat["open"] for seat in api.game(in_lobby(api)[0])["seats"]] == [False, True, True]
    two = " ".join(
        f'j{n}: joinLobby(game: "hidden-numbers", name: "J{n}") {{ __typename }}' for n in range(2)
    )
    assert gql.data("mutation { " + two + " }") == {
        "j0": {"__typename": "LobbyJoined"},
        "j1": {"__typename": "LobbyJoined"},
    }


def test_a_join_that_finds_no_seat_creates_a_listed_game_when_asked(api):
    made = joined(api, "Ann", players=3, create=True)
    assert (made["seat"], made["name"], made["status"], made["created"]) == (
        0,
        "Ann",
        "waiting",
        True,
    )
    document = api.game(made["id"], made["token"])
    assert (document["you"], document["lobby"], len(document["seats"])) == (0, True, 3)
    assert in_lobby(api) == [made["id"]]
    bob = joined(api, "Bob", players=3, create=True)  # a seat is open: no second game
    assert (bob["id"], bob["seat"], bob["created"]) == (made["id"], 1, False)
    cy = joined(api, "Cy")
    assert (cy["id"], cy["seat"], cy["status"]) == (made["id"], 2, "active")
    assert in_lobby(api) == []
    # Without create, an empty lobby is still a 404; create needs the number of seats.
    refused(join(api, "Dee"), 404, "no_open_seat")
    needs = refused(join(api, "Dee", create=True), 422, "invalid_request")
    assert "create needs players" in str(needs["errors"])
    refused(join(api, "Dee", players=9, create=True), 422, "invalid_request")
    refused(join(api, "Dee", players=5, create=True), 422, "player_count")
    assert in_lobby(api) == []


def test_two_joins_that_find_no_seat_at_once_make_one_game(api):
    service = api.client.app.state.service

    async def both() -> list:
        asks = [JoinLobbyRequest(name=name, players=2, create=True) for name in ("Ann", "Bob")]
        return await asyncio.gather(
            *(service.lobby_join.join("hidden-numbers", ask, None, ANYONE) for ask in asks)
        )

    answers = [joined for joined, _ in api.client.portal.call(both)]
    assert answers[0].id == answers[1].id
    assert sorted((a.seat, a.created) for a in answers) == [(0, True), (1, False)]
    assert api.game(answers[0].id)["status"] == "active"


def test_a_creating_join_whose_answer_was_lost_gets_the_same_game(api, monkeypatch):
    ask = JoinLobbyRequest(name="Ann", players=2, create=True)
    join_that_dies(api, monkeypatch, True, ask, "made-join-1")
    [made_id] = in_lobby(api)
    first = join(api, "Ann", key="made-join-1", players=2, create=True)
    again = join(api, "Ann", key="made-join-1", players=2, create=True)
    for answer in (first, again):
        assert answer.status_code == 200, answer.text
        assert answer.headers.get("Idempotent-Replayed") == "true"
        assert (answer.json()["id"], answer.json()["seat"]) == (made_id, 0)
        assert answer.json()["created"] is True
    assert first.json()["token"] == again.json()["token"]
    assert in_lobby(api) == [made_id]  # no second game


def test_a_created_game_counts_against_the_hourly_quota_once(limited):
    with limited(create_limit_per_ip=1) as client:
        key = {"Idempotency-Key": "quota-join-1"}
        body = {"name": "Ann", "players": 2, "create": True}
        first = client.post(JOIN, json=body, headers=key)
        assert first.status_code == 200 and first.json()["created"], first.text
        again = client.post(JOIN, json=body, headers=key)
        assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
        five = client.post(JOIN, json={**body, "players": 5})  # refused: not counted
        assert five.json()["code"] == "player_count", five.text
        four = client.post(JOIN, json={**body, "players": 4})
        assert four.status_code == 429, four.text
        assert four.json()["code"] == "too_many_games_created"


def test_where_anonymous_creation_is_off_only_an_api_key_creates_by_joining(limited):
    with limited(anonymous_create=False) as client:
        body = {"name": "Ann", "players": 2, "create": True}
        anonymous = client.post(JOIN, json=body)
        assert anonymous.status_code == 401, anonymous.text
        assert anonymous.json()["code"] == "api_key_required"
        key = {"Authorization": "Bearer platform-key-for-tests-0001"}  # tests/conftest.py
        made = client.post(JOIN, json=body, headers=key)
        assert made.status_code == 200 and made.json()["created"], made.text
        # Joining without creating needs no key there either.
        assert client.post(JOIN, json={"name": "Bob"}).json()["seat"] == 1


def test_a_created_games_seat_0_taken_first_by_another_player_leaves_the_next_one(api, monkeypatch):
    """The game is in the lobby once it exists, before its maker claims a seat in it."""
    joins = api.client.app.state.service.lobby_join
    create = joins.tables.create

    async def overtaken(*args):
        made = await create(*args)
        await joins.join("hidden-numbers", JoinLobbyRequest(name="Quick"), None, ANYONE)
        return made

    monkeypatch.setattr(joins.tables, "create", overtaken)
    made = joined(api, "Ann", players=3, create=True)
    assert (made["seat"], made["created"], made["status"]) == (1, True, "waiting")
    assert [seat["name"] for seat in api.game(made["id"])["seats"][:2]] == ["Quick", "Ann"]


def test_a_created_game_leaves_the_lobby_after_a_quarter_of_an_hour(api):
    made = joined(api, "Ann", players=2, create=True)
    document = api.game(made["id"])
    created = datetime.fromisoformat(document["created_at"])
    expires = datetime.fromisoformat(document["seats"][1]["invite_expires_at"])
    assert timedelta(minutes=14) < expires - created <= timedelta(minutes=15, seconds=5)


@pytest.mark.parametrize("game", ["dominion", "sky-islands", "sky-lanterns"])
def test_every_game_can_be_made_by_a_join_with_its_default_options(api, game):
    path = f"/v1/lobby/{game}/join"
    made = joined(api, "Ann", path=path, players=2, create=True)
    other = joined(api, "Bob", path=path, players=2, create=True)
    assert (made["created"], other["created"], other["id"]) == (True, False, made["id"])
    document = api.game(made["id"], other["token"])
    assert (document["status"], document["you"], document["game"]) == ("active", 1, game)
    assert document["turn"], "someone is to move"
