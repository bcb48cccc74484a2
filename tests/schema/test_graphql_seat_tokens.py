"""A seat's token replaced over GraphQL (`replaceSeatToken`): the same facts as REST,
through the same service. Refusals of what was asked (a bot's or an open seat, an aborted
game, a replay of a token replaced since) are results; callers who may not ask are
errors with REST's codes."""

from __future__ import annotations

PLATFORM_KEY = "platform-key-for-tests-0001"  # the test apps' keys (tests/conftest.py)
OTHER_PLATFORM_KEY = "platform-key-for-tests-0002"

REPLACE = """
mutation Replace($id: ID!, $seat: Int!, $key: String) {
  replaceSeatToken(gameId: $id, seat: $seat, idempotencyKey: $key) {
    __typename
    ... on SeatTokenReplaced { gameId game seat token issuedAt replayed }
    ... on Error { code message }
    ... on Rejected { details }
  }
}"""

VIEW = """
query View($id: ID!) {
  game(id: $id) { you view { ... on HiddenNumbersView { cards: hand } } }
}"""

LEGAL = "query Legal($id: ID!) { legalMoves(gameId: $id) { seat moves { move } } }"

MOVE = """
mutation Move($id: ID!, $move: JSON!) {
  makeMove(gameId: $id, move: $move) { __typename ... on MoveApplied { version seat } }
}"""


def create(api, seats=None, key: str | None = None) -> dict:
    seats = seats or [{"name": "Ann"}, {"name": "Bo"}]
    return api.create(seats=seats, headers=api.auth(key) if key else None)


def replace(gql, game_id: str, seat: int, token: str | None, key: str | None = None) -> dict:
    answer = gql(REPLACE, {"id": game_id, "seat": seat, "key": key}, token)
    return answer


def error_code(answer: dict) -> str:
    assert answer["data"] is None or answer["data"].get("replaceSeatToken") is None, answer
    return answer["errors"][0]["extensions"]["code"]


def test_a_seat_replaces_its_token_and_the_old_one_reads_and_moves_no_more(api, gql):
    created = create(api)
    game_id, old = created["id"], created["seats"][0]["token"]
    hand = gql.data(VIEW, {"id": game_id}, old)["game"]["view"]["cards"]

    replaced = gql.data(REPLACE, {"id": game_id, "seat": 0}, old)["replaceSeatToken"]
    assert replaced["__typename"] == "SeatTokenReplaced"
    assert replaced["gameId"] == game_id and replaced["game"] == "hidden-numbers"
    assert replaced["seat"] == 0 and replaced["replayed"] is False and replaced["issuedAt"]
    new = replaced["token"]
    assert new != old

    for query, variables in ((VIEW, {"id": game_id}), (LEGAL, {"id": game_id})):
        assert error_code(gql(query, variables, old)) == "invalid_token"
    move = gql.data(LEGAL, {"id": game_id}, new)["legalMoves"]["moves"][0]["move"]
    assert error_code(gql(MOVE, {"id": game_id, "move": move}, old)) == "invalid_token"

    mine = gql.data(VIEW, {"id": game_id}, new)["game"]
    assert mine["you"] == 0 and mine["view"]["cards"] == hand
    made = gql.data(MOVE, {"id": game_id, "move": move}, new)["makeMove"]
    assert made["__typename"] == "MoveApplied" and made["seat"] == 0


def test_the_api_key_that_created_the_game_replaces_a_lost_token(api, gql):
    created = create(api, key=PLATFORM_KEY)
    game_id, lost = created["id"], created["seats"][1]["token"]
    new = gql.data(REPLACE, {"id": game_id, "seat": 1}, PLATFORM_KEY)["replaceSeatToken"]["token"]
    assert gql.data(VIEW, {"id": game_id}, new)["game"]["you"] == 1
    assert error_code(gql(VIEW, {"id": game_id}, lost)) == "invalid_token"


def test_callers_who_may_not_ask_get_errors_with_the_rest_codes(api, gql):
    created = create(api, [{"name": "Ann"}, {"open": True}, {"name": "Cy"}], key=PLATFORM_KEY)
    game_id, cy = created["id"], created["seats"][2]["token"]
    assert error_code(replace(gql, game_id, 0, None)) == "seat_token_required"
    assert error_code(replace(gql, game_id, 0, "sps_stranger")) == "invalid_token"
    assert error_code(replace(gql, game_id, 0, cy)) == "not_your_seat"
    assert error_code(replace(gql, game_id, 0, created["creator_token"])) == "not_your_seat"
    assert error_code(replace(gql, game_id, 0, OTHER_PLATFORM_KEY)) == "not_the_creator"
    assert error_code(replace(gql, game_id, 5, PLATFORM_KEY)) == "seat_not_found"


def test_refusals_of_what_was_asked_are_results(api, gql):
    created = create(api, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}, {"open": True}])
    game_id, ann = created["id"], created["seats"][0]["token"]
    creator = created["creator_token"]
    bot = replace(gql, game_id, 1, PLATFORM_KEY)
    assert error_code(bot) == "not_the_creator", "an anonymous game has no creating key"
    cancelled = gql(
        "mutation($id: ID!) { cancelGame(gameId: $id) { __typename } }", {"id": game_id}, creator
    )
    assert cancelled["data"]["cancelGame"]["__typename"] == "GameCancelled"
    aborted = gql.data(REPLACE, {"id": game_id, "seat": 0}, ann)["replaceSeatToken"]
    assert aborted["__typename"] == "Rejected" and aborted["code"] == "game_aborted"
    assert aborted["details"]["status_now"] == "aborted"

    keyed = create(
        api, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}, {"open": True}], PLATFORM_KEY
    )
    for seat, kind in ((1, "bot"), (2, "open")):
        refused = gql.data(REPLACE, {"id": keyed["id"], "seat": seat}, PLATFORM_KEY)
        assert refused["replaceSeatToken"]["code"] == "seat_has_no_token"
        assert refused["replaceSeatToken"]["details"]["seat_kind"] == kind


def test_a_retry_with_the_same_key_gets_the_same_token_until_it_is_replaced(api, gql):
    created = create(api, key=PLATFORM_KEY)
    game_id, old = created["id"], created["seats"][0]["token"]
    variables = {"id": game_id, "seat": 0, "key": "gql-rotate-0001"}
    first = gql.data(REPLACE, variables, old)["replaceSeatToken"]
    again = gql.data(REPLACE, variables, old)["replaceSeatToken"]
    assert again["token"] == first["token"] and again["replayed"] is True
    other = gql.data(REPLACE, {**variables, "seat": 1}, old)["replaceSeatToken"]
    assert other["code"] == "idempotency_key_reused"

    gql.data(REPLACE, {"id": game_id, "seat": 0}, PLATFORM_KEY)  # replaced again
    late = gql.data(REPLACE, variables, old)["replaceSeatToken"]
    assert late["__typename"] == "Rejected" and late["code"] == "token_replaced"
