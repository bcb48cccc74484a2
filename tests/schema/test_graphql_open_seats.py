"""Open seats over GraphQL: the same flow as REST, through the same service."""

from __future__ import annotations

import time

import pytest

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on GameCreated {
      id status creatorToken seats { seat name bot token open inviteCode inviteExpiresAt }
    }
    ... on Rejected { code message details }
  }
}"""

CLAIM = """
mutation Claim($id: ID!, $seat: Int!, $code: String!, $name: String!, $key: String) {
  claimSeat(gameId: $id, seat: $seat, code: $code, name: $name, idempotencyKey: $key) {
    __typename
    ... on SeatTaken { gameId seat name bot token status replayed }
    ... on Rejected { code message }
  }
}"""

FILL = """
mutation Fill($id: ID!, $seat: Int!, $bot: String!) {
  fillSeatWithBot(gameId: $id, seat: $seat, bot: $bot) {
    __typename
    ... on SeatTaken { seat name bot token status }
    ... on Rejected { code message details }
  }
}"""

CANCEL = """
mutation Cancel($id: ID!) {
  cancelGame(gameId: $id) {
    __typename
    ... on GameCancelled { gameId status reason }
    ... on Rejected { code message }
  }
}"""

GAME = """
query Game($id: ID!) {
  game(id: $id) { status turn seats { seat name bot open abandoned autopilot } }
}"""


def nodes(connection: dict) -> list[dict]:
    return [edge["node"] for edge in connection["edges"]]


GAMES = """
query Games($tag: String, $status: GameStatus) {
  games(tag: $tag, status: $status) {
    edges { node { id status seats { name open abandoned autopilot } } }
  }
}"""

MOVE = """
mutation Move($id: ID!, $move: JSON!) {
  makeMove(gameId: $id, move: $move) { __typename ... on Rejected { code } }
}"""


def create(gql, seats, token=None, **extra):
    data = gql.data(CREATE, {"input": {"game": "hidden-numbers", "seats": seats, **extra}}, token)
    assert data["createGame"]["__typename"] == "GameCreated", data
    return data["createGame"]


def test_open_seats_are_created_claimed_and_the_game_starts(gql):
    created = create(gql, [{"name": "Host"}, {"open": True}, {"open": True}])
    game_id = created["id"]
    assert created["status"] == "WAITING" and created["creatorToken"]
    host, first, second = created["seats"]
    assert not host["open"] and first["open"] and first["inviteCode"] and first["inviteExpiresAt"]
    waiting = gql.data(GAME, {"id": game_id})["game"]
    assert waiting["status"] == "WAITING" and waiting["turn"] == []
    refused = gql.data(
        MOVE, {"id": game_id, "move": {"kind": "discard", "card": "c01"}}, host["token"]
    )
    assert refused["makeMove"] == {"__typename": "Rejected", "code": "game_not_started"}

    claimed = gql.data(
        CLAIM, {"id": game_id, "seat": 1, "code": first["inviteCode"], "name": "Ana"}
    )["claimSeat"]
    assert claimed["__typename"] == "SeatTaken" and claimed["status"] == "WAITING"
    assert claimed["token"] and claimed["name"] == "Ana" and not claimed["replayed"]
    taken = gql.data(CLAIM, {"id": game_id, "seat": 1, "code": first["inviteCode"], "name": "Eve"})[
        "claimSeat"
    ]
    assert taken["__typename"] == "Rejected" and taken["code"] == "seat_taken"
    wrong = gql(CLAIM, {"id": game_id, "seat": 2, "code": "AAAAA-AAAAA", "name": "Eve"})
    assert wrong["errors"][0]["extensions"]["code"] == "wrong_invite_code"
    last = gql.data(
        CLAIM, {"id": game_id, "seat": 2, "code": second["inviteCode"], "name": "Bruno"}
    )["claimSeat"]
    assert last["status"] == "ACTIVE"
    started = gql.data(GAME, {"id": game_id})["game"]
    assert started["status"] == "ACTIVE" and started["turn"] == [0, 1, 2]
    assert [s["name"] for s in started["seats"]] == ["Host", "Ana", "Bruno"]


def test_a_bad_claim_name_is_a_rejected_result(gql):
    created = create(gql, [{"name": "Host"}, {"open": True}])
    answer = gql.data(
        CLAIM,
        {"id": created["id"], "seat": 1, "code": created["seats"][1]["inviteCode"], "name": " "},
    )["claimSeat"]
    assert answer["__typename"] == "Rejected" and answer["code"] == "invalid_seat_name"


@pytest.mark.timeout(60)
def test_the_creator_fills_a_seat_with_a_bot_or_cancels(gql):
    created = create(gql, [{"name": "Bot", "bot": "random"}, {"open": True}])
    creator = created["creatorToken"]
    unknown = gql.data(FILL, {"id": created["id"], "seat": 1, "bot": "godlike"}, creator)
    assert unknown["fillSeatWithBot"]["code"] == "unknown_bot_level"
    not_creator = gql(FILL, {"id": created["id"], "seat": 1, "bot": "random"})
    assert not_creator["errors"][0]["extensions"]["code"] == "creator_token_required"
    filled = gql.data(FILL, {"id": created["id"], "seat": 1, "bot": "random"}, creator)
    assert filled["fillSeatWithBot"]["status"] == "ACTIVE"
    deadline = time.monotonic() + 30
    while gql.data(GAME, {"id": created["id"]})["game"]["status"] != "FINISHED":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)

    other = create(gql, [{"name": "Host"}, {"open": True}])
    cancelled = gql.data(CANCEL, {"id": other["id"]}, other["creatorToken"])["cancelGame"]
    assert cancelled == {
        "__typename": "GameCancelled",
        "gameId": other["id"],
        "status": "ABORTED",
        "reason": "cancelled by its creator",
    }
    ended = gql.data(
        "query($id: ID!) { game(id: $id) { status abortReason } }", {"id": other["id"]}
    )
    assert ended["game"] == {"status": "ABORTED", "abortReason": "cancelled by its creator"}
    again = gql.data(CANCEL, {"id": other["id"]}, other["creatorToken"])["cancelGame"]
    assert again["code"] == "game_not_waiting"


FILL_ONCE = """
mutation Fill($id: ID!, $seat: Int!, $bot: String!, $key: String) {
  fillSeatWithBot(gameId: $id, seat: $seat, bot: $bot, idempotencyKey: $key) {
    __typename
    ... on SeatTaken { seat name bot status replayed }
    ... on Rejected { code }
  }
}"""

CANCEL_ONCE = """
mutation Cancel($id: ID!, $key: String) {
  cancelGame(gameId: $id, idempotencyKey: $key) {
    __typename
    ... on GameCancelled { gameId status reason replayed }
    ... on Rejected { code }
  }
}"""


def test_fills_and_cancels_retried_with_their_idempotency_key_get_the_first_answer(gql):
    created = create(gql, [{"name": "Host"}, {"open": True}, {"open": True}])
    game_id, creator = created["id"], created["creatorToken"]
    asked = {"id": game_id, "seat": 1, "bot": "random", "key": "gql-fill-key-1"}
    first = gql.data(FILL_ONCE, asked, creator)["fillSeatWithBot"]
    again = gql.data(FILL_ONCE, asked, creator)["fillSeatWithBot"]
    assert first["status"] == "WAITING" and first["replayed"] is False
    assert again == {**first, "replayed": True}
    other = gql.data(FILL_ONCE, {**asked, "seat": 2}, creator)["fillSeatWithBot"]
    assert other == {"__typename": "Rejected", "code": "idempotency_key_reused"}
    cancel_under_it = gql.data(CANCEL_ONCE, {"id": game_id, "key": "gql-fill-key-1"}, creator)
    assert cancel_under_it["cancelGame"]["code"] == "idempotency_key_reused"

    cancelled = gql.data(CANCEL_ONCE, {"id": game_id, "key": "gql-cancel-key"}, creator)
    retried = gql.data(CANCEL_ONCE, {"id": game_id, "key": "gql-cancel-key"}, creator)
    assert cancelled["cancelGame"]["status"] == "ABORTED"
    assert cancelled["cancelGame"]["replayed"] is False
    assert retried["cancelGame"] == {**cancelled["cancelGame"], "replayed": True}
    bare = gql.data(CANCEL_ONCE, {"id": game_id}, creator)["cancelGame"]
    assert bare["code"] == "game_not_waiting"


def test_a_claim_key_replays_only_the_same_claim_and_never_without_the_code(gql):
    """The REST bug through GraphQL: the guest's idempotencyKey with a wrong code gave the
    seat's token. Now only the same claim is answered again."""
    created = create(gql, [{"name": "Host"}, {"open": True}, {"open": True}])
    game_id, code = created["id"], created["seats"][1]["inviteCode"]
    asked = {"id": game_id, "seat": 1, "code": code, "name": "Guest", "key": "gql-claim-key-1"}
    first = gql.data(CLAIM, asked)["claimSeat"]
    assert first["__typename"] == "SeatTaken" and first["replayed"] is False
    last = {"id": game_id, "seat": 2, "code": created["seats"][2]["inviteCode"], "name": "Bo"}
    for started in (False, True):
        answer = gql.data(CLAIM, {**asked, "name": "Mallory"})["claimSeat"]
        assert answer["__typename"] == "Rejected", answer  # no token
        assert answer["code"] == "idempotency_key_reused"
        for other in ({"code": "AAAAA-BBBBB", "name": "Mallory"}, {"code": "AAAAA-BBBBB"}):
            # Without the code the key is not the guest's: a claim of its own, refused.
            refused = gql(CLAIM, {**asked, **other})
            assert first["token"] not in str(refused), refused
            assert refused["data"]["claimSeat"]["code"] == "seat_taken"  # the guest has it
        again = gql.data(CLAIM, asked)["claimSeat"]
        assert again == {**first, "replayed": True}
        if not started:
            assert gql.data(CLAIM, last)["claimSeat"]["status"] == "ACTIVE"


def test_listings_filter_by_waiting_and_show_seats_a_bot_plays(gql, api):
    tag = f"gql-seats-{time.time_ns()}"
    platform = api.platform_key
    waiting = create(gql, [{"name": "Host"}, {"open": True}], platform, tags=[tag])
    three = api.create(seats=3, tags=[tag], headers=api.auth(platform))
    api.client.post(f"/v1/games/{three['id']}/resign", headers=api.auth(three["seats"][2]["token"]))
    games = nodes(gql.data(GAMES, {"tag": tag, "status": "WAITING"}, platform)["games"])
    assert [g["id"] for g in games] == [waiting["id"]]
    assert [s["open"] for s in games[0]["seats"]] == [False, True]
    every = nodes(gql.data(GAMES, {"tag": tag}, platform)["games"])
    resigned = next(g for g in every if g["id"] == three["id"])
    assert [s["abandoned"] for s in resigned["seats"]] == [False, False, True]
