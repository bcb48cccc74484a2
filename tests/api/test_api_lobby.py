"""The public lobby: a creator lists a game waiting for players (lobby: true), anyone
finds it with its open seats' invite codes and claims a seat with one, and the game
leaves the lobby once it no longer waits."""

from __future__ import annotations

from dataclasses import replace

from services.gameplay.idempotency import fingerprint
from services.gameplay.invites import code_hash
from services.store import GameStatus

OPEN = {"open": True}
LOBBY = "/v1/lobby/hidden-numbers"


def lobby(api, path: str = LOBBY, **params) -> dict:
    answer = api.client.get(path, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def listed(api, seed: int | None = None, **extra) -> dict:
    return api.create(seats=[{"name": "Host"}, OPEN, OPEN], lobby=True, seed=seed, **extra)


def claim(api, game_id: str, seat: int, code: str, name: str = "Guest"):
    return api.client.post(
        f"/v1/games/{game_id}/seats/{seat}/claim", json={"code": code, "name": name}
    )


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()


def test_anyone_finds_a_listed_game_and_claims_its_seats_until_it_starts(api):
    created = listed(api, options={}, tags=["casual"], clock={"initial_seconds": 600})
    page = lobby(api)
    assert page["next_cursor"] is None
    [game] = page["games"]
    assert (game["id"], game["game"], game["tags"], game["open_seats"]) == (
        created["id"],
        "hidden-numbers",
        ["casual"],
        2,
    )
    assert game["clock"] == {
        "initial_seconds": 600,
        "increment_seconds": 0,
        "on_timeout": "forfeit",
    }
    assert game["created_at"] == api.game(created["id"])["created_at"]
    host, first, second = game["seats"]
    assert (host["name"], host["open"], host["invite_code"]) == ("Host", False, None)
    # The creator was given the same codes the lobby shows.
    codes = [seat["invite_code"] for seat in created["seats"]]
    assert [first["invite_code"], second["invite_code"]] == codes[1:]
    assert first["open"] and first["invite_expires_at"]

    taken = claim(api, created["id"], 1, first["invite_code"], "Ann")
    assert taken.status_code == 200, taken.text
    assert taken.json()["status"] == "waiting"
    [game] = lobby(api)["games"]
    assert game["open_seats"] == 1
    assert (game["seats"][1]["name"], game["seats"][1]["open"]) == ("Ann", False)
    assert game["seats"][1]["invite_code"] is None

    refused(claim(api, created["id"], 1, first["invite_code"], "Late"), 409, "seat_taken")
    last = claim(api, created["id"], 2, second["invite_code"], "Bob")
    assert last.json()["status"] == "active"
    assert lobby(api)["games"] == []
    assert api.game(created["id"], last.json()["token"])["you"] == 2


def test_a_poll_of_an_unchanged_lobby_page_is_answered_304(api):
    created = listed(api)
    first = api.client.get(LOBBY)
    tag = first.headers["etag"]
    assert tag.startswith('W/"l-')
    unchanged = api.client.get(LOBBY, headers={"If-None-Match": tag})
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert unchanged.headers["etag"] == tag
    # Another page of the same lobby is another representation.
    assert api.client.get(LOBBY, params={"players": 2}).headers["etag"] != tag
    code = first.json()["games"][0]["seats"][1]["invite_code"]
    assert claim(api, created["id"], 1, code).status_code == 200
    changed = api.client.get(LOBBY, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag
    assert changed.json()["games"][0]["open_seats"] == 1


def test_only_games_their_creator_listed_are_in_the_lobby_of_their_own_game(api, gql):
    unlisted = api.create(seats=[{"name": "Host"}, OPEN])  # open seats, not listed
    other = api.create(game="sky-islands", seats=[{"name": "Host"}, OPEN], lobby=True)
    assert lobby(api)["games"] == []
    assert [game["id"] for game in lobby(api, "/v1/lobby/sky-islands")["games"]] == [other["id"]]
    # The game itself says whether it is listed, before and after it starts.
    assert (api.game(unlisted["id"])["lobby"], api.game(other["id"])["lobby"]) == (False, True)
    query = "query($id: ID!) { game(id: $id) { lobby } }"
    assert gql.data(query, {"id": other["id"]})["game"] == {"lobby": True}
    assert gql.data(query, {"id": unlisted["id"]})["game"] == {"lobby": False}
    code = lobby(api, "/v1/lobby/sky-islands")["games"][0]["seats"][1]["invite_code"]
    assert claim(api, other["id"], 1, code).json()["status"] == "active"
    assert api.game(other["id"])["lobby"] is True


def test_a_listed_game_needs_an_open_seat(api):
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "lobby": True}
    answer = api.client.post("/v1/games", json=body)
    refused(answer, 422, "invalid_request")
    assert "open seat" in answer.text
    refused(api.client.post("/v1/games", json={**body, "lobby": "yes"}), 422, "invalid_request")


def test_a_cancelled_game_leaves_the_lobby(api):
    created = listed(api)
    cancelled = api.client.post(
        f"/v1/games/{created['id']}/cancel", headers=api.auth(created["creator_token"])
    )
    assert cancelled.status_code == 200, cancelled.text
    assert lobby(api)["games"] == []


def test_a_seat_the_creator_gave_a_new_invite_is_no_longer_offered(api):
    created = listed(api)
    reissued = api.client.post(
        f"/v1/games/{created['id']}/seats/1/invite",
        json={},
        headers=api.auth(created["creator_token"]),
    )
    assert reissued.status_code == 200, reissued.text
    [game] = lobby(api)["games"]
    assert game["open_seats"] == 1
    assert game["seats"][1]["open"] and game["seats"][1]["invite_code"] is None
    assert game["seats"][2]["invite_code"] == created["seats"][2]["invite_code"]
    old_code = created["seats"][1]["invite_code"]
    refused(claim(api, created["id"], 1, old_code), 403, "wrong_invite_code")
    # The creator's new code still works: the seat is theirs to give.
    assert claim(api, created["id"], 1, reissued.json()["invite_code"]).status_code == 200


def test_the_lobby_pages_oldest_first_and_each_game_once(api):
    ids = [listed(api)["id"] for _ in range(5)]
    seen: list[dict] = []
    cursor = None
    for _ in range(5):
        page = lobby(api, limit=2, **({"cursor": cursor} if cursor else {}))
        assert len(page["games"]) <= 2
        seen += page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [game["id"] for game in seen] == ids
    assert [game["created_at"] for game in seen] == sorted(game["created_at"] for game in seen)
    assert len(lobby(api, limit=5)["games"]) == 5 and lobby(api, limit=5)["next_cursor"] is None


def test_lobby_requests_it_cannot_answer_are_clear_4xx(api):
    refused(api.client.get("/v1/lobby/no-such-game"), 404, "not_found")
    refused(api.client.get("/v1/lobby/Not A Game"), 404, "not_found")
    refused(api.client.get(LOBBY, params={"limit": 0}), 400, "invalid_query")
    refused(api.client.get(LOBBY, params={"limit": 101}), 400, "invalid_query")
    refused(api.client.get(LOBBY, params={"cursor": "x" * 300}), 400, "invalid_query")
    refused(api.client.get(LOBBY, params={"tag": "a"}), 400, "unknown_query_parameter")


def test_the_lobby_shows_no_token_hash_or_hidden_state(api):
    created = listed(api, seed=5)
    text = api.client.get(LOBBY).text
    tokens = [seat["token"] for seat in created["seats"] if seat["token"]]
    assert tokens and not any(token in text for token in tokens)
    assert created["creator_token"] not in text
    for seat in created["seats"][1:]:
        assert code_hash(seat["invite_code"]) not in text
    [game] = lobby(api)["games"]
    assert set(game) == {
        "id",
        "game",
        "options",
        "clock",
        "tags",
        "open_seats",
        "seats",
        "created_at",
    }
    assert "seed" not in text and "state" not in text


def test_a_retried_creation_keeps_its_key_whether_lobby_false_is_sent_or_not(api):
    body = {"game": "hidden-numbers", "seats": [{"name": "Host"}, OPEN]}
    key = {"Idempotency-Key": "lobby-retry-1"}
    first = api.client.post("/v1/games", json=body, headers=key)
    again = api.client.post("/v1/games", json={**body, "lobby": False}, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json()["id"] == first.json()["id"]
    refused(
        api.client.post("/v1/games", json={**body, "lobby": True}, headers=key),
        422,
        "idempotency_key_reused",
    )
    listed_key = {"Idempotency-Key": "lobby-retry-2"}
    one = api.client.post("/v1/games", json={**body, "lobby": True}, headers=listed_key).json()
    two = api.client.post("/v1/games", json={**body, "lobby": True}, headers=listed_key).json()
    assert one["seats"][1]["invite_code"] == two["seats"][1]["invite_code"]
    assert [game["id"] for game in lobby(api)["games"]] == [one["id"]]


def test_a_platforms_listed_games_are_in_the_lobby_and_in_its_own_listing(api, gql):
    key = api.auth(api.platform_key)
    created = api.create(seats=[{"name": "Host"}, OPEN], lobby=True, headers=key)
    bulk = api.client.post(
        "/v1/games/bulk",
        json={"games": [{"game": "hidden-numbers", "seats": [OPEN, OPEN], "lobby": True}]},
        headers=key,
    )
    assert bulk.status_code == 201, bulk.text
    in_lobby = [game["id"] for game in lobby(api)["games"]]
    assert in_lobby == [created["id"], bulk.json()["games"][0]["id"]]
    bulk_codes = [seat["invite_code"] for seat in bulk.json()["games"][0]["seats"]]
    assert [s["invite_code"] for s in lobby(api)["games"][1]["seats"]] == bulk_codes
    unlisted = api.create(seats=[{"name": "Host"}, OPEN], headers=key)
    mine = api.client.get("/v1/games", headers=key).json()["games"]
    assert {game["id"]: game["lobby"] for game in mine} == {
        **{listed_id: True for listed_id in in_lobby},
        unlisted["id"]: False,
    }
    query = "{ games(first: 10) { edges { node { id lobby } } } }"
    edges = gql.data(query, token=api.platform_key)["games"]["edges"]
    assert {edge["node"]["id"]: edge["node"]["lobby"] for edge in edges} == {
        game["id"]: game["lobby"] for game in mine
    }


LOBBY_QUERY = """query($game: String!, $first: Int, $after: String) {
  lobby(game: $game, first: $first, after: $after) {
    edges { cursor node { id game openSeats tags options clock { initialSeconds }
      seats { seat name open inviteCode } } }
    pageInfo { hasNextPage endCursor } } }"""
CREATE = """mutation($input: CreateGameInput!) { createGame(input: $input) {
  __typename ... on GameCreated { id seats { seat inviteCode } }
  ... on Rejected { code message details } } }"""
CLAIM = """mutation($id: ID!, $seat: Int!, $code: String!) {
  claimSeat(gameId: $id, seat: $seat, code: $code, name: "Gil") {
    __typename ... on SeatTaken { status token } ... on Rejected { code } } }"""


def test_graphql_lists_the_lobby_and_claims_a_seat_from_it(gql):
    made = gql.data(
        CREATE,
        {
            "input": {
                "game": "hidden-numbers",
                "seats": [{"name": "Host"}, {"open": True}],
                "lobby": True,
            }
        },
    )["createGame"]
    assert made["__typename"] == "GameCreated", made
    page = gql.data(LOBBY_QUERY, {"game": "hidden-numbers", "first": 1})["lobby"]
    assert page["pageInfo"]["hasNextPage"] is False
    [edge] = page["edges"]
    node = edge["node"]
    assert (node["id"], node["openSeats"], node["clock"]) == (made["id"], 1, None)
    code = node["seats"][1]["inviteCode"]
    assert code == made["seats"][1]["inviteCode"] and node["seats"][0]["inviteCode"] is None
    taken = gql.data(CLAIM, {"id": made["id"], "seat": 1, "code": code})["claimSeat"]
    assert taken["status"] == "ACTIVE" and taken["token"]
    assert gql.data(LOBBY_QUERY, {"game": "hidden-numbers"})["lobby"]["edges"] == []
    not_listed = gql.data(
        CREATE, {"input": {"game": "hidden-numbers", "seats": [{"name": "A"}], "lobby": True}}
    )["createGame"]
    assert not_listed["__typename"] == "Rejected" and not_listed["code"] == "invalid_request"
    assert "open seat" in str(not_listed["details"])
    unknown = gql(LOBBY_QUERY, {"game": "no-such-game"})
    assert unknown["errors"][0]["extensions"]["code"] == "not_found"
    bad = gql(LOBBY_QUERY, {"game": "hidden-numbers", "after": "not-a-cursor"})
    assert bad["errors"][0]["extensions"]["code"] == "invalid_cursor"


def test_a_game_whose_invites_expired_leaves_the_lobby_for_good(api, monkeypatch):
    from services.gameplay import lobby as lobby_module

    created = listed(api, invite_ttl_seconds=60)
    fresh = listed(api)
    real_now = lobby_module.now_ms
    monkeypatch.setattr(lobby_module, "now_ms", lambda: real_now() + 61_000)
    assert [game["id"] for game in lobby(api)["games"]] == [fresh["id"]]
    monkeypatch.setattr(lobby_module, "now_ms", real_now)
    # Its codes no longer work, and only the creator's new invites could fill it.
    assert [game["id"] for game in lobby(api)["games"]] == [fresh["id"]]
    assert api.game(created["id"])["status"] == "waiting"


def test_a_page_that_passed_over_many_games_without_seats_says_where_to_go_on(api, monkeypatch):
    from services.gameplay import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "SCAN_LIMIT", 2)
    monkeypatch.setattr(lobby_module, "CHUNK", 1)
    gone = [listed(api) for _ in range(2)]
    kept = listed(api)
    for created in gone:
        cancelled = api.client.post(
            f"/v1/games/{created['id']}/cancel", headers=api.auth(created["creator_token"])
        )
        assert cancelled.status_code == 200
    # Cancelling takes a game out at once; put them back to see the lobby pass over them.
    store = api.client.app.state.service.store
    for created in gone:
        record = api.client.portal.call(store.load, created["id"])
        api.client.portal.call(store.add_to_indexes, replace(record, status=GameStatus.WAITING))
    first = lobby(api, limit=1)
    assert first["games"] == [] and first["next_cursor"]
    second = lobby(api, limit=1, cursor=first["next_cursor"])
    assert [game["id"] for game in second["games"]] == [kept["id"]]
    assert lobby(api)["games"][0]["id"] == kept["id"]  # the passed-over games were taken out


def test_the_rematch_of_a_listed_game_is_not_listed(api):
    created = api.create(seats=[{"name": "Host"}, OPEN], lobby=True, on_leave="end_game")
    code = lobby(api)["games"][0]["seats"][1]["invite_code"]
    guest = claim(api, created["id"], 1, code).json()["token"]
    host = created["seats"][0]["token"]
    resigned = api.client.post(f"/v1/games/{created['id']}/resign", headers=api.auth(host))
    assert resigned.status_code == 200, resigned.text
    api.wait_until(created["id"], lambda document: document["status"] == "finished")
    statuses = []
    for token in (host, guest):
        asked = api.client.post(f"/v1/games/{created['id']}/rematch", headers=api.auth(token))
        assert asked.status_code == 200, asked.text
        statuses.append(asked.json()["status"])
        # Its open seat is the other player's: never offered to anyone else.
        assert lobby(api)["games"] == []
    assert statuses == ["waiting", "active"]


def test_a_creation_stored_before_the_lobby_existed_is_still_replayed(api):
    """A retry that reaches a newer release (a rolling update) must match the fingerprint
    the older one stored, which had no lobby field."""
    body = {"game": "hidden-numbers", "seats": [{"name": "Host"}, OPEN], "seed": 3}
    key = {"Idempotency-Key": "before-the-lobby"}
    created = api.client.post("/v1/games", json=body, headers=key).json()
    store = api.client.app.state.service.store
    record = api.client.portal.call(store.load, created["id"])
    older = {  # the body as the release before the lobby dumped it
        "seed": 3,
        "game": "hidden-numbers",
        "seats": [
            {"name": "Host", "bot": None, "open": False},
            {"name": None, "bot": None, "open": True},
        ],
        "options": {},
        "tags": [],
        "webhook_url": None,
        "clock": None,
        "webhook_events": ["game.finished"],
        "on_leave": None,
        "leave_bot": None,
        "invite_ttl_seconds": None,
    }
    assert record.create_fingerprint == fingerprint(older)


def test_the_lobby_filters_by_the_number_of_seats(api, gql):
    three = listed(api)
    two = api.create(seats=[{"name": "Host"}, OPEN], lobby=True)
    assert [game["id"] for game in lobby(api, players=3)["games"]] == [three["id"]]
    assert [game["id"] for game in lobby(api, players=2)["games"]] == [two["id"]]
    assert lobby(api, players=4)["games"] == []
    assert [game["id"] for game in lobby(api)["games"]] == [three["id"], two["id"]]
    refused(api.client.get(LOBBY, params={"players": 0}), 400, "invalid_query")
    refused(api.client.get(LOBBY, params={"players": 9}), 400, "invalid_query")
    query = """query($players: Int) { lobby(game: "hidden-numbers", players: $players) {
      edges { node { id } } } }"""
    edges = gql.data(query, {"players": 2})["lobby"]["edges"]
    assert [edge["node"]["id"] for edge in edges] == [two["id"]]
    wrong = gql(query, {"players": 99})
    assert wrong["errors"][0]["extensions"]["code"] == "invalid_query"
