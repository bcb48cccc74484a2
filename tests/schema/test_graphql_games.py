"""GraphQL: the same capabilities as REST, through the same service."""

from __future__ import annotations

import random
import uuid

CREATE = """
mutation Create($input: CreateGameInput!, $key: String) {
  createGame(input: $input, idempotencyKey: $key) {
    __typename
    ... on GameCreated { id version status replayed seats { seat name bot token } }
    ... on Rejected { code message details }
  }
}"""

GAME = """
query Game($id: ID!) {
  game(id: $id) {
    id game status version you turn
    seats { seat name bot resigned }
    prompts { seat kind text options }
    view {
      __typename
      ... on SkyIslandsView { viewer tiles: hand { id shape } drawPile board { x y tile } }
      ... on HiddenNumbersView { you cards: hand phase seats { seat handSize played } }
    }
    result { winners standings { seat rank score breakdown { category points } } }
  }
}"""

LEGAL = """
query Legal($id: ID!) { legalMoves(gameId: $id) { version seat moves { kind label move } } }"""

MOVE = """
mutation Move($id: ID!, $move: JSON!, $expected: Int, $key: String) {
  makeMove(gameId: $id, move: $move, expectedVersion: $expected, idempotencyKey: $key) {
    __typename
    ... on MoveApplied { version status seat replayed events { kind seat data } turn }
    ... on Rejected { code message details }
    ... on VersionConflict { code currentVersion }
  }
}"""

EVENTS = """
query Events($id: ID!, $since: Int!) {
  events(gameId: $id, sinceVersion: $since) {
    version status pageInfo { hasNextPage endCursor }
    edges { cursor node { version seat action move events { kind seat data } } }
  }
}"""


def nodes(connection):
    return [edge["node"] for edge in connection["edges"]]


def create(gql, game="sky-islands", seats=None, token=None, key=None, **extra):
    seats = seats or [{"name": "Ann"}, {"name": "Bo"}]
    payload = {"game": game, "seats": seats, **extra}
    data = gql.data(CREATE, {"input": payload, "key": key}, token)
    assert data["createGame"]["__typename"] == "GameCreated", data
    return data["createGame"]


def play_to_the_end(gql, created, seed=1):
    chooser = random.Random(seed)
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    moves = 0
    for _ in range(2000):
        game = gql.data(GAME, {"id": created["id"]})["game"]
        if game["status"] != "ACTIVE":
            return game, moves
        seat = next((s for s in game["turn"] if s in tokens), None)
        if seat is None:
            continue  # a bot is thinking
        legal = gql.data(LEGAL, {"id": created["id"]}, tokens[seat])["legalMoves"]
        move = chooser.choice(legal["moves"])["move"]
        answer = gql.data(
            MOVE, {"id": created["id"], "move": move, "expected": legal["version"]}, tokens[seat]
        )["makeMove"]
        assert answer["__typename"] in ("MoveApplied", "VersionConflict"), answer
        moves += answer["__typename"] == "MoveApplied"
    raise AssertionError("the game did not end")


def wait_finished(gql, game_id):
    for _ in range(2000):
        game = gql.data(GAME, {"id": game_id})["game"]
        if game["status"] == "FINISHED":
            return game
    raise AssertionError("never finished")


def test_a_whole_sky_islands_game_through_graphql(gql):
    created = create(
        gql, seats=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy", "bot": "random"}], seed=12
    )
    _, moves = play_to_the_end(gql, created)
    final = wait_finished(gql, created["id"])
    assert moves > 10
    assert sorted(s["seat"] for s in final["result"]["standings"]) == [0, 1, 2]
    assert all(s["breakdown"] for s in final["result"]["standings"])
    result = gql.data(
        "query($id: ID!) { result(gameId: $id) { winners version } }", {"id": created["id"]}
    )["result"]
    assert result["winners"] == final["result"]["winners"]
    assert result["version"] == final["version"]


def test_views_are_typed_per_game_and_redacted_per_token(gql):
    created = create(gql, seed=3)
    token = created["seats"][0]["token"]
    mine = gql.data(GAME, {"id": created["id"]}, token)["game"]
    spectator = gql.data(GAME, {"id": created["id"]})["game"]
    assert mine["view"]["__typename"] == "SkyIslandsView"
    assert mine["you"] == 0 and len(mine["view"]["tiles"]) == 2
    assert spectator["you"] is None and spectator["view"]["tiles"] is None


LANTERNS_VIEW = """
query Game($id: ID!) {
  game(id: $id) {
    you
    view {
      __typename
      ... on SkyLanternsView {
        round currentEra firstPlayer diceSpaces { space die } deckSize
        players { seat board coins camphor handSize hand upgradeSpaces { faceDown tile } }
      }
    }
  }
}"""


def test_sky_lanterns_has_its_typed_view_redacted_per_token(gql):
    seats = [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
    created = create(gql, game="sky-lanterns", seats=seats, options={"first_player": 1}, seed=4)
    token = created["seats"][0]["token"]
    mine = gql.data(LANTERNS_VIEW, {"id": created["id"]}, token)["game"]
    spectator = gql.data(LANTERNS_VIEW, {"id": created["id"]})["game"]["view"]
    view = mine["view"]
    assert view["__typename"] == "SkyLanternsView" and mine["you"] == 0
    assert view["round"] == 1 and view["firstPlayer"] == 1
    assert sum(space["die"] is not None for space in view["diceSpaces"]) == 8  # 3 players
    # $5, $6, $7 clockwise from the first player
    assert [p["coins"] for p in view["players"]] == [7, 5, 6]
    assert [p["handSize"] for p in view["players"]] == [3, 3, 3]
    assert len(view["players"][0]["hand"]) == 3
    assert [p["hand"] for p in view["players"][1:]] == [None, None]
    assert all(p["hand"] is None for p in spectator["players"])
    for player in (*view["players"], *spectator["players"]):
        spaces = player["upgradeSpaces"]
        assert [s["faceDown"] for s in spaces] == [True] * 4
        assert all(s["tile"] is None for s in spaces)  # even their owner cannot peek


def test_an_illegal_move_is_a_rejected_result_and_changes_nothing(gql):
    created = create(gql, game="hidden-numbers", options={"rounds": 1}, seed=5)
    token = created["seats"][0]["token"]
    answer = gql.data(
        MOVE, {"id": created["id"], "move": {"kind": "discard", "card": "c99"}}, token
    )["makeMove"]
    assert answer == {
        "__typename": "Rejected",
        "code": "not_in_hand",
        "message": "That card is not in your hand.",
        "details": {"card": "c99"},
    }
    malformed = gql.data(MOVE, {"id": created["id"], "move": {"kind": "fly"}}, token)["makeMove"]
    assert malformed["code"] == "malformed_move"
    not_object = gql.data(MOVE, {"id": created["id"], "move": [1, 2]}, token)["makeMove"]
    assert not_object["code"] == "invalid_request"
    assert gql.data(GAME, {"id": created["id"]})["game"]["version"] == 0


def test_a_stale_expected_version_is_a_version_conflict(gql):
    created = create(gql, game="hidden-numbers", seed=5)
    tokens = [s["token"] for s in created["seats"]]
    for token in tokens:
        move = gql.data(LEGAL, {"id": created["id"]}, token)["legalMoves"]["moves"][0]["move"]
        gql.data(MOVE, {"id": created["id"], "move": move}, token)
    answer = gql.data(
        MOVE,
        {"id": created["id"], "move": {"kind": "play", "card": "c01"}, "expected": 0},
        tokens[0],
    )["makeMove"]
    assert answer == {
        "__typename": "VersionConflict",
        "code": "version_conflict",
        "currentVersion": 2,
    }


def test_an_idempotency_key_replays_the_first_answer(gql):
    created = create(gql, game="hidden-numbers", seed=5)
    token = created["seats"][0]["token"]
    move = gql.data(LEGAL, {"id": created["id"]}, token)["legalMoves"]["moves"][0]["move"]
    key = str(uuid.uuid4())
    first = gql.data(MOVE, {"id": created["id"], "move": move, "key": key}, token)["makeMove"]
    again = gql.data(MOVE, {"id": created["id"], "move": move, "key": key}, token)["makeMove"]
    assert first["replayed"] is False and again["replayed"] is True
    assert {**again, "replayed": False} == first
    assert gql.data(GAME, {"id": created["id"]})["game"]["version"] == 1


MOVE_WITH_VIEW = """
mutation Move($id: ID!, $move: JSON!) {
  makeMove(gameId: $id, move: $move) { ...Applied }
}
fragment Applied on MoveApplied {
  version view { ... on HiddenNumbersView { you cards: hand phase } }
}"""


def test_a_move_answers_with_the_movers_view_when_asked_for_it(gql):
    created = create(gql, game="hidden-numbers", seed=6)
    token = created["seats"][0]["token"]
    move = gql.data(LEGAL, {"id": created["id"]}, token)["legalMoves"]["moves"][0]["move"]
    applied = gql.data(MOVE_WITH_VIEW, {"id": created["id"], "move": move}, token)["makeMove"]
    seen = gql.data(GAME, {"id": created["id"]}, token)["game"]["view"]
    assert applied["version"] == 1
    assert applied["view"] == {"you": 0, "cards": seen["cards"], "phase": seen["phase"]}


def test_a_move_made_without_its_view_is_replayed_whole_over_rest(gql):
    created = create(gql, game="hidden-numbers", seed=7)
    token = created["seats"][0]["token"]
    move = gql.data(LEGAL, {"id": created["id"]}, token)["legalMoves"]["moves"][0]["move"]
    key = str(uuid.uuid4())
    gql.data(MOVE, {"id": created["id"], "move": move, "key": key}, token)
    again = gql.client.post(
        f"/v1/games/{created['id']}/moves",
        json={"move": move},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
    )
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    seen = gql.data(GAME, {"id": created["id"]}, token)["game"]["view"]
    assert again.json()["view"]["hand"] == seen["cards"]


def test_an_idempotent_creation_returns_the_same_game(gql):
    key = str(uuid.uuid4())
    first = create(gql, game="hidden-numbers", key=key)
    again = create(gql, game="hidden-numbers", key=key)
    assert again["id"] == first["id"] and again["seats"] == first["seats"]
    assert again["replayed"] is True


def test_creating_with_bad_input_is_rejected_with_a_code(gql):
    for payload, code in [
        ({"game": "hidden-numbers", "seats": [{"name": "A"}]}, "player_count"),
        ({"game": "nope", "seats": [{"name": "A"}, {"name": "B"}]}, "unknown_game"),
        ({"game": "hidden-numbers", "seats": [{"name": ""}, {"name": "B"}]}, "invalid_request"),
        (
            {
                "game": "hidden-numbers",
                "seats": [{"name": "A"}, {"name": "B"}],
                "options": {"rounds": 0},
            },
            "invalid_options",
        ),
        (
            {"game": "hidden-numbers", "seats": [{"name": "A", "bot": "x"}, {"name": "B"}]},
            "unknown_bot_level",
        ),
    ]:
        answer = gql.data(CREATE, {"input": payload})["createGame"]
        assert answer["__typename"] == "Rejected" and answer["code"] == code, answer


def test_resigning_under_end_game_ends_the_game(gql):
    created = create(
        gql,
        game="hidden-numbers",
        seats=[{"name": "A"}, {"name": "B"}, {"name": "C"}],
        onLeave="end_game",
    )
    answer = gql.data(
        """mutation($id: ID!) { resign(gameId: $id) {
        __typename ... on MoveApplied { status events { kind seat } } } }""",
        {"id": created["id"]},
        created["seats"][2]["token"],
    )["resign"]
    assert answer == {
        "__typename": "MoveApplied",
        "status": "SCORING",
        "events": [{"kind": "resigned", "seat": 2}],
    }
    final = wait_finished(gql, created["id"])
    assert final["result"]["standings"][-1]["seat"] == 2


def test_events_are_redacted_for_the_reader(gql):
    created = create(gql, game="hidden-numbers", seed=8)
    tokens = [s["token"] for s in created["seats"]]
    move = gql.data(LEGAL, {"id": created["id"]}, tokens[0])["legalMoves"]["moves"][0]["move"]
    gql.data(MOVE, {"id": created["id"], "move": move}, tokens[0])
    own = nodes(gql.data(EVENTS, {"id": created["id"], "since": 0}, tokens[0])["events"])
    other = nodes(gql.data(EVENTS, {"id": created["id"], "since": 0}, tokens[1])["events"])
    assert own[0]["events"][0]["data"]["card"] == move["card"] and own[0]["move"]
    assert "card" not in other[0]["events"][0]["data"] and other[0]["move"] is None


def test_an_unknown_game_nulls_only_its_own_field(gql):
    """`game(id)` is nullable: the rest of the query's data survives an unknown id."""
    answer = gql('{ game(id: "aaaaaaaaaaaaaaaaaaaaaaaa") { id } catalog { id } }')
    assert answer["data"]["game"] is None
    assert {entry["id"] for entry in answer["data"]["catalog"]} >= {"sky-islands", "dominion"}
    assert answer["errors"][0]["path"] == ["game"]
    assert answer["errors"][0]["extensions"]["code"] == "game_not_found"


def test_errors_carry_the_same_codes_as_rest(gql):
    missing = gql('{ game(id: "aaaaaaaaaaaaaaaaaaaaaaaa") { id } }')
    assert missing["errors"][0]["extensions"] == {"code": "game_not_found", "status": 404}
    assert missing["data"] == {"game": None}
    listing = gql("{ games { edges { node { id } } } }")
    assert listing["errors"][0]["extensions"]["code"] == "api_key_required"
    created = create(gql, game="hidden-numbers")
    wrong = gql(GAME, {"id": created["id"]}, "sps_wrong")
    assert wrong["errors"][0]["extensions"]["code"] == "invalid_token"
    bad_key = gql(
        MOVE,
        {"id": created["id"], "move": {"kind": "x"}, "key": "no"},
        created["seats"][0]["token"],
    )
    assert bad_key["errors"][0]["extensions"]["code"] == "invalid_idempotency_key"
    syntax = gql("{ game(id: ")
    assert syntax["errors"][0]["extensions"]["code"] == "invalid_query"


def finished_with_tag(gql, api, tag: str) -> dict:
    """A hidden-numbers game the platform created with `tag`, ended by a resignation."""
    created = create(gql, game="hidden-numbers", tags=[tag], token=api.platform_key)
    gql.data(
        "mutation($id: ID!) { resign(gameId: $id) { __typename } }",
        {"id": created["id"]},
        created["seats"][0]["token"],
    )
    wait_finished(gql, created["id"])
    return created


def test_platforms_list_games_and_read_finished_ones_in_full(gql, api):
    tag = f"gql-{uuid.uuid4().hex[:6]}"
    created = finished_with_tag(gql, api, tag)
    page = gql.data(
        """query($tag: String!) { games(tag: $tag, status: FINISHED) {
        edges { node { id status seats { name } } } pageInfo { hasNextPage } } }""",
        {"tag": tag},
        api.platform_key,
    )["games"]
    assert [g["id"] for g in nodes(page)] == [created["id"]]
    assert page["pageInfo"] == {"hasNextPage": False}
    full = gql.data(
        """query($id: ID!) { game(id: $id) { seatViews {
        ... on HiddenNumbersView { hand } } } }""",
        {"id": created["id"]},
        api.platform_key,
    )
    assert all(view["hand"] is not None for view in full["game"]["seatViews"])


def test_a_short_filtered_page_gives_an_end_cursor_to_go_on_from(gql, api, monkeypatch):
    monkeypatch.setattr("services.store.store.SCAN_LIMIT", 2)
    tag = f"gql-scan-{uuid.uuid4().hex[:6]}"
    created = finished_with_tag(gql, api, tag)
    for _ in range(4):
        create(gql, game="hidden-numbers", tags=[tag], token=api.platform_key)
    query = """query($tag: String!, $after: String) {
        games(tag: $tag, status: FINISHED, first: 5, after: $after) {
        edges { node { id } } pageInfo { hasNextPage endCursor } } }"""
    found, after, pages = [], None, 0
    while True:
        page = gql.data(query, {"tag": tag, "after": after}, api.platform_key)["games"]
        found += [g["id"] for g in nodes(page)]
        pages += 1
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
        assert after is not None
    assert found == [created["id"]] and pages >= 2


def test_the_catalog_has_games_options_and_components(gql):
    catalog = gql.data("{ catalog { id title minPlayers optionsSchema components botLevels } }")
    ids = [game["id"] for game in catalog["catalog"]]
    assert "sky-islands" in ids and "hidden-numbers" in ids


def test_too_costly_a_query_is_refused(gql):
    costly = """query { events(gameId: "aaaaaaaaaaaaaaaaaaaaaaaa", first: 1000) {
      edges { node { version seat events { kind seat data } } } } }"""
    answer = gql(costly)
    assert answer["errors"][0]["extensions"]["code"] == "query_too_costly"
    assert answer.get("data") is None


def test_a_typical_full_game_query_is_within_the_limits(gql):
    created = create(gql, seed=4)
    everything = """query($id: ID!) { game(id: $id) { id status version turn
      seats { seat name bot resigned } prompts { seat kind text options minPicks maxPicks }
      view { ... on SkyIslandsView { viewer hand { id shape ship edges islands }
        players { seat cubes { red white blue } victoryPoints handCount
          victoryPointsByKind { income ships towers } tradingHousesLeft turnsTaken }
        supply { red white blue towers harbours } drawPile returnedToBox discarded
        startingPlayer currentPlayer phase turnNumber placedThisTurn { x y }
        board { x y rotation tile shape ship initial edges
          islands { index edges connectedIsland tradingHouse { owner tower harbour } } }
        connectedIslands { id nodes { x y island } tileCount closed influence hasTower }
        over finalScores } } } }"""
    assert gql.data(everything, {"id": created["id"]})["game"]["id"] == created["id"]


def test_a_document_sent_again_is_parsed_and_validated_once(gql, monkeypatch):
    from schema import document_cache

    calls = {"parse": 0, "validate": 0}
    parse, validate = document_cache.parse, document_cache.validate_document

    def counted_parse(*args, **kwargs):
        calls["parse"] += 1
        return parse(*args, **kwargs)

    def counted_validate(*args, **kwargs):
        calls["validate"] += 1
        return validate(*args, **kwargs)

    monkeypatch.setattr(document_cache, "parse", counted_parse)
    monkeypatch.setattr(document_cache, "validate_document", counted_validate)
    document = "query Again { catalog { id } }"
    for _ in range(3):
        assert gql.data(document)["catalog"]
    assert calls == {"parse": 1, "validate": 2}  # the limits first, then the other rules


def test_a_document_over_the_limits_is_refused_every_time(gql):
    costly = """query { events(gameId: "aaaaaaaaaaaaaaaaaaaaaaaa", first: 1000) {
      edges { node { version seat events { kind seat data } } } } }"""
    for _ in range(2):
        answer = gql(costly)
        assert answer["errors"][0]["extensions"]["code"] == "query_too_costly"
        assert answer.get("data") is None


CLOCKED = """
query Clocked($id: ID!) {
  game(id: $id) { clock { initialSeconds incrementSeconds onTimeout remaining running } }
}"""


def test_a_game_with_a_clock_and_a_webhook_can_be_created_and_read(gql):
    created = create(
        gql,
        webhookUrl="http://93.184.215.14:9/hook",
        webhookEvents=["game.finished", "move"],
        clock={"initialSeconds": 300, "incrementSeconds": 5, "onTimeout": "bot"},
    )
    clock = gql.data(CLOCKED, {"id": created["id"]})["game"]["clock"]
    assert clock["initialSeconds"] == 300 and clock["incrementSeconds"] == 5
    assert clock["onTimeout"] == "bot"
    assert len(clock["remaining"]) == 2 and all(0 < r <= 300 for r in clock["remaining"])
    assert len(clock["running"]) == 1


def test_a_bad_clock_is_rejected_with_its_field(gql):
    data = gql.data(
        CREATE,
        {
            "input": {
                "game": "sky-islands",
                "seats": [{"name": "A"}, {"name": "B"}],
                "clock": {"initialSeconds": -1, "onTimeout": "nap"},
            }
        },
    )
    rejected = data["createGame"]
    assert rejected["__typename"] == "Rejected"
    assert "clock" in str(rejected["details"]) or "clock" in rejected["message"]


LEGAL_WITHOUT_LABELS = """
query Legal($id: ID!) { legalMoves(gameId: $id) { version moves { kind move } } }"""

LEGAL_LABELS_BY_FRAGMENT = """
query Legal($id: ID!) { legalMoves(gameId: $id) { moves { ...Listed } } }
fragment Listed on LegalMove { ... on LegalMove { label move } }"""


def mover_token(gql, created) -> str:
    seat = gql.data(GAME, {"id": created["id"]})["game"]["turn"][0]
    return created["seats"][seat]["token"]


def test_legal_moves_are_the_moves_alone_with_labels_beside_them(gql, client, games):
    created = create(gql)
    token = mover_token(gql, created)
    rest = client.get(
        f"/v1/games/{created['id']}/legal-moves", headers={"Authorization": f"Bearer {token}"}
    ).json()["moves"]
    for query in (LEGAL, LEGAL_LABELS_BY_FRAGMENT):
        listed = gql.data(query, {"id": created["id"]}, token)["legalMoves"]["moves"]
        assert listed
        assert [m["label"] for m in listed] == [m["label"] for m in rest]
        assert [m["move"] for m in listed] == [
            {k: v for k, v in m.items() if k != "label"} for m in rest
        ]
        assert all(m["label"] for m in listed)


def test_legal_moves_without_labels_are_listed_without_making_them(gql, games, monkeypatch):
    created = create(gql)
    token = mover_token(gql, created)
    game = games["sky-islands"]
    labelled = []
    describe = game.describe
    monkeypatch.setattr(game, "describe", lambda move: labelled.append(move) or describe(move))
    listed = gql.data(LEGAL_WITHOUT_LABELS, {"id": created["id"]}, token)["legalMoves"]
    assert listed["moves"] and labelled == []
    assert all("label" not in m["move"] and m["move"]["kind"] == m["kind"] for m in listed["moves"])
    gql.data(LEGAL, {"id": created["id"]}, token)
    assert len(labelled) == len(listed["moves"])
    move = listed["moves"][0]["move"]
    answer = gql.data(MOVE, {"id": created["id"], "move": move, "expected": 0}, token)["makeMove"]
    assert answer["__typename"] == "MoveApplied"


def test_a_failing_top_level_field_nulls_only_itself(gql):
    """`result` on a game still being played is an error for `result` alone: the game
    asked for beside it still comes back (both fields were in one non-null chain)."""
    created = create(gql)
    answer = gql(
        """query($id: ID!) { game(id: $id) { status } result(gameId: $id) { winners }
        legalMoves(gameId: $id) { version } }""",
        {"id": created["id"]},
    )
    assert answer["data"]["game"] == {"status": "ACTIVE"}
    assert answer["data"]["result"] is None and answer["data"]["legalMoves"] is None
    codes = {tuple(error["path"]): error["extensions"]["code"] for error in answer["errors"]}
    assert codes[("result",)] == "not_finished"
    assert ("legalMoves",) in codes  # a spectator has no moves to send
