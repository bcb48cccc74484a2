"""REST: creating, reading, moving, resigning, results — whole games, with humans and bots."""

from __future__ import annotations

import uuid

import orjson
import redis as sync_redis

from services.ai.bot import levels_for
from services.engine import get_game


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def test_creating_a_game_gives_one_token_per_human_seat_only(api):
    created = api.create(seats=[{"name": "Ann"}, {"name": "Rob", "bot": "random"}, {"name": "Cy"}])
    assert created["version"] == 0 and created["status"] == "active"
    assert [bool(seat["token"]) for seat in created["seats"]] == [True, False, True]
    assert all(seat["token"].startswith("sps_") for seat in created["seats"] if seat["token"])


def test_tokens_are_stored_only_hashed(api, redis_url, settings):
    created = api.create()
    client = sync_redis.Redis.from_url(redis_url)
    stored = b"".join(
        value
        for key in client.scan_iter(match=f"{settings.key_prefix}*")
        if client.type(key) == b"hash"
        for value in client.hgetall(key).values()
    )
    client.close()
    assert stored and all(t.encode() not in stored for t in tokens_of(created).values())


def test_the_creation_answer_points_at_the_game(api):
    response = api.client.post(
        "/v1/games", json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    )
    assert response.status_code == 201
    assert response.headers["location"] == f"/v1/games/{response.json()['id']}"


def test_a_seat_sees_its_own_hand_and_a_spectator_none(api):
    created = api.create()
    game_id, tokens = created["id"], tokens_of(created)
    mine = api.game(game_id, tokens[0])
    spectator = api.game(game_id)
    assert mine["you"] == 0 and len(mine["view"]["hand"]) == 3
    assert spectator["you"] is None and spectator["view"]["hand"] is None


def test_only_the_prompted_seat_sees_its_prompt_options(api):
    created = api.create()
    document = api.game(created["id"], tokens_of(created)[0])
    assert document["turn"] == [0, 1]
    assert document["prompts"][0]["options"] == document["view"]["hand"]
    assert document["prompts"][1] == {
        "seat": 1,
        "kind": "discard",
        "text": None,
        "options": None,
        "min_picks": None,
        "max_picks": None,
    }


def test_every_legal_move_can_be_posted_back_verbatim(api):
    created = api.create()
    token = tokens_of(created)[0]
    moves = api.legal(created["id"], token)
    assert len(moves) == 3 and all(move["label"].startswith("Discard card") for move in moves)
    response = api.move(created["id"], token, moves[1])
    assert response.status_code == 200
    assert response.json()["version"] == 1
    assert response.json()["events"] == [{"kind": "discarded", "seat": 0, "card": moves[1]["card"]}]


def test_legal_moves_are_labelled_for_the_position_and_the_mover(api, hidden_numbers, monkeypatch):
    """A label may depend on the position (a Sky Lanterns Coal Trade into a full track
    says its gain is lost): the listing labels each move with `Game.label`, given the
    state and the mover's seat."""
    describe = hidden_numbers.describe
    monkeypatch.setattr(
        hidden_numbers,
        "label",
        lambda state, seat, move: f"{describe(move)} ({len(state.hands[seat])} in hand)",
    )
    created = api.create()
    moves = api.legal(created["id"], tokens_of(created)[0])
    assert moves and all(move["label"].endswith(" in hand)") for move in moves)
    assert {move["label"] for move in moves} == {
        f"Discard card {move['card']} (3 in hand)" for move in moves
    }


def test_a_seat_not_prompted_has_no_legal_moves(api):
    created = api.create()
    tokens = tokens_of(created)
    api.move(created["id"], tokens[0], api.legal(created["id"], tokens[0])[0])
    assert api.legal(created["id"], tokens[0]) == []


def test_an_illegal_move_is_422_with_the_engines_code_and_changes_nothing(api):
    created = api.create()
    token = tokens_of(created)[0]
    response = api.move(created["id"], token, {"kind": "discard", "card": "c99"})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "not_in_hand" and "not in your hand" in problem["detail"]
    assert problem["type"] == "urn:skyport:problem:not_in_hand"
    assert api.game(created["id"])["version"] == 0


def test_a_move_out_of_turn_is_refused(api):
    created = api.create()
    tokens = tokens_of(created)
    api.move(created["id"], tokens[0], api.legal(created["id"], tokens[0])[0])
    api.move(created["id"], tokens[1], api.legal(created["id"], tokens[1])[0])
    # play phase: seat 0 first
    hand = api.game(created["id"], tokens[1])["view"]["hand"]
    response = api.move(created["id"], tokens[1], {"kind": "play", "card": hand[0]})
    assert response.status_code == 422 and response.json()["code"] == "not_your_turn"


def test_a_stale_expected_version_is_409_with_the_current_version(api):
    created = api.create()
    tokens = tokens_of(created)
    api.move(created["id"], tokens[0], api.legal(created["id"], tokens[0])[0])
    response = api.move(
        created["id"], tokens[1], api.legal(created["id"], tokens[1])[0], expected_version=0
    )
    assert response.status_code == 409
    assert response.json()["code"] == "version_conflict"
    assert response.json()["current_version"] == 1
    assert api.game(created["id"])["version"] == 1


def test_a_whole_game_between_two_humans_ends_finished_with_a_result(api):
    created = api.create(options={"rounds": 3})
    made = api.play_out(created)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert made == final["version"] == 2 + 2 * 3
    result = api.client.get(f"/v1/games/{created['id']}/result").json()
    assert sorted(s["seat"] for s in result["standings"]) == [0, 1]
    assert all("played" in s["breakdown"] for s in result["standings"])
    assert result["standings"][0]["rank"] == 1 and result["winners"]
    assert final["result"] == result


def test_the_log_replays_to_the_stored_state(api, redis_url, settings, hidden_numbers):
    created = api.create(options={"rounds": 2}, seed=99, headers=api.auth(api.platform_key))
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    audit = api.client.get(
        f"/v1/games/{created['id']}/events", headers=api.auth(api.platform_key)
    ).json()
    state = hidden_numbers.setup({"rounds": 2}, 2, 99)
    for entry in audit["entries"]:
        state = hidden_numbers.apply(state, entry["seat"], entry["move"]).state
    client = sync_redis.Redis.from_url(redis_url)
    stored = client.hget(f"{settings.key_prefix}:{{{created['id']}}}:game", "state")
    client.close()
    assert orjson.loads(stored) == orjson.loads(hidden_numbers.dump_state(state))


def test_bots_take_their_turns_and_the_game_finishes(api):
    created = api.create(
        seats=[
            {"name": "Ann"},
            {"name": "Bot 1", "bot": "random"},
            {"name": "Bot 2", "bot": "random"},
        ]
    )
    api.play_out(created)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    entries = api.events(created["id"])["entries"]
    assert {entry["seat"] for entry in entries} == {0, 1, 2}
    assert [entry["version"] for entry in entries] == list(range(1, final["version"] + 1))


def test_a_game_of_bots_plays_itself_to_the_end(api):
    created = api.create(seats=[{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}])
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert final["result"]["winners"]


def test_an_unknown_bot_level_is_refused_at_creation(api):
    response = api.client.post(
        "/v1/games",
        json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B", "bot": "genius"}]},
    )
    assert response.status_code == 422 and response.json()["code"] == "unknown_bot_level"


def test_resigning_under_end_game_ends_the_game_and_ranks_the_resigner_last(api):
    created = api.create(seats=3, on_leave="end_game")
    tokens = tokens_of(created)
    response = api.client.post(f"/v1/games/{created['id']}/resign", headers=api.auth(tokens[1]))
    assert response.status_code == 200 and response.json()["status"] == "scoring"
    assert response.json()["events"] == [{"kind": "resigned", "seat": 1}]
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert final["result"]["standings"][-1]["seat"] == 1
    assert final["result"]["standings"][-1]["resigned"] is True
    assert 1 not in final["result"]["winners"]
    assert final["seats"][1]["resigned"] is True


def test_no_move_is_accepted_once_the_game_is_over(api):
    created = api.create()
    tokens = tokens_of(created)
    api.client.post(f"/v1/games/{created['id']}/resign", headers=api.auth(tokens[0]))
    response = api.move(created["id"], tokens[1], {"kind": "discard", "card": "c01"})
    assert response.status_code == 422 and response.json()["code"] == "game_over"
    again = api.client.post(f"/v1/games/{created['id']}/resign", headers=api.auth(tokens[1]))
    assert again.status_code == 422 and again.json()["code"] == "game_over"


def test_the_result_of_an_unfinished_game_is_409(api):
    created = api.create()
    response = api.client.get(f"/v1/games/{created['id']}/result")
    assert response.status_code == 409 and response.json()["code"] == "not_finished"


def test_events_are_redacted_for_each_reader(api):
    created = api.create(options={"rounds": 1})
    tokens = tokens_of(created)
    api.play_out(created)
    own = api.events(created["id"], tokens[0])["entries"]
    other = api.events(created["id"], tokens[1])["entries"]
    spectator = api.events(created["id"])["entries"]
    discard = own[0] if own[0]["seat"] == 0 else own[1]
    assert discard["events"][0]["card"] and discard["move"] is not None
    theirs = next(e for e in other if e["version"] == discard["version"])
    assert "card" not in theirs["events"][0] and theirs["move"] is None
    assert all(e["move"] is None for e in spectator)
    drew = [ev for e in spectator for ev in e["events"] if ev["kind"] == "drew"]
    assert drew and all("card" not in ev for ev in drew)


def test_events_since_a_version_start_after_it(api):
    created = api.create(options={"rounds": 2})
    api.play_out(created)
    page = api.events(created["id"], since=3)
    assert [e["version"] for e in page["entries"]] == [4, 5, 6]
    assert page["more"] is False and page["version"] == 6


def test_a_platform_reads_a_finished_game_in_full(api):
    created = api.create(options={"rounds": 1}, headers=api.auth(api.platform_key))
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    full = api.game(created["id"], api.platform_key)
    assert len(full["seat_views"]) == 2 and all(v["hand"] is not None for v in full["seat_views"])
    events = api.events(created["id"], api.platform_key)["entries"]
    assert all(e["move"] is not None for e in events)
    assert all("card" in ev for e in events for ev in e["events"] if ev["kind"] == "drew")


def test_a_platform_sees_only_the_spectator_view_of_a_live_game(api):
    created = api.create()
    live = api.game(created["id"], api.platform_key)
    assert live["seat_views"] is None and live["view"]["hand"] is None
    moves = api.client.get(
        f"/v1/games/{created['id']}/legal-moves", headers=api.auth(api.platform_key)
    )
    assert moves.status_code == 403


def test_the_catalog_lists_games_with_options_and_components(api):
    catalog = api.client.get("/v1/catalog").json()
    by_id = {game["id"]: game for game in catalog["games"]}
    assert by_id["hidden-numbers"]["components"]["cards"][0] == {"id": "c01", "value": 1}
    assert "rounds" in by_id["hidden-numbers"]["options_schema"]["properties"]
    assert by_id["hidden-numbers"]["bot_levels"] == ["random"]
    sky = by_id.get("sky-islands")
    if sky is not None:
        assert sky["components"] == orjson.loads(orjson.dumps(get_game("sky-islands").catalog()))
        assert sky["bot_levels"] == levels_for(get_game("sky-islands"))


def test_platforms_list_games_by_tag_game_and_status(api):
    platform = api.auth(api.platform_key)
    first = api.create(tags=["cup-1"], headers=platform)
    second = api.create(tags=["cup-1", "final"], headers=platform)
    api.client.post(
        f"/v1/games/{second['id']}/resign", headers=api.auth(second["seats"][0]["token"])
    )
    api.wait_until(second["id"], lambda d: d["status"] == "finished")
    listed = api.client.get("/v1/games", params={"tag": "cup-1"}, headers=platform).json()
    assert [g["id"] for g in listed["games"]] == [second["id"], first["id"]]
    finished = api.client.get(
        "/v1/games", params={"tag": "cup-1", "status": "finished"}, headers=platform
    ).json()
    assert [g["id"] for g in finished["games"]] == [second["id"]]
    paged = api.client.get(
        "/v1/games", params={"tag": "cup-1", "limit": 1}, headers=platform
    ).json()
    rest = api.client.get(
        "/v1/games", params={"tag": "cup-1", "cursor": paged["next_cursor"]}, headers=platform
    ).json()
    assert [g["id"] for g in paged["games"] + rest["games"]] == [second["id"], first["id"]]
    assert rest["next_cursor"] is None
    exact = api.client.get(
        "/v1/games", params={"tag": "cup-1", "limit": 2}, headers=platform
    ).json()
    assert len(exact["games"]) == 2 and exact["next_cursor"] is None  # no empty last page


def test_a_status_few_games_have_pages_on_with_a_cursor_instead_of_reading_them_all(
    api, monkeypatch
):
    """A page looks at a bounded number of games (here 2): a filter they do not match
    answers a short page with a next_cursor, and following it finds the match."""
    monkeypatch.setattr("services.store.store.SCAN_LIMIT", 2)
    platform = api.auth(api.platform_key)
    tag = f"scan-{uuid.uuid4().hex[:6]}"
    finished = api.create(tags=[tag], headers=platform)
    api.client.post(
        f"/v1/games/{finished['id']}/resign", headers=api.auth(finished["seats"][0]["token"])
    )
    api.wait_until(finished["id"], lambda d: d["status"] == "finished")
    for _ in range(4):
        api.create(tags=[tag], headers=platform)
    found, pages, cursor = [], 0, None
    while True:
        params = {"tag": tag, "status": "finished", "limit": 5}
        if cursor:
            params["cursor"] = cursor
        page = api.client.get("/v1/games", params=params, headers=platform)
        assert page.status_code == 200
        found += [g["id"] for g in page.json()["games"]]
        pages += 1
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    assert found == [finished["id"]] and pages >= 2


def test_listing_games_needs_an_api_key(api):
    created = api.create()
    assert api.client.get("/v1/games").status_code == 401
    seat = api.auth(created["seats"][0]["token"])
    refused = api.client.get("/v1/games", headers=seat)
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_api_key"


def test_a_wrong_token_is_401_and_a_missing_one_for_moving_too(api):
    created = api.create()
    wrong = api.client.get(f"/v1/games/{created['id']}", headers=api.auth("sps_nope"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_token"
    assert wrong.headers["www-authenticate"].startswith("Bearer")
    anonymous = api.move(created["id"], None, {"kind": "discard", "card": "c01"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "seat_token_required"
    other_game = api.create()
    foreign = api.move(
        created["id"], other_game["seats"][0]["token"], {"kind": "discard", "card": "c01"}
    )
    assert foreign.status_code == 401


def test_a_platform_cannot_move_for_a_seat(api):
    created = api.create()
    response = api.move(created["id"], api.platform_key, {"kind": "discard", "card": "c01"})
    assert response.status_code == 403 and response.json()["code"] == "seat_token_required"


def test_an_unknown_game_is_404(api):
    response = api.client.get("/v1/games/aaaaaaaaaaaaaaaaaaaaaaaa")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


LISTED_SEATS = """
query($tag: String) { games(tag: $tag) { edges { node { id seats { seat resigned } } } } }
"""


def test_listings_show_the_seat_that_resigned_over_rest_and_graphql(api, gql):
    created = api.create(
        seats=3,
        tags=["resign-listing"],
        on_leave="end_game",
        headers=api.auth(api.platform_key),
    )
    tokens = tokens_of(created)
    response = api.client.post(f"/v1/games/{created['id']}/resign", headers=api.auth(tokens[1]))
    assert response.status_code == 200
    assert [s["resigned"] for s in api.game(created["id"])["seats"]] == [False, True, False]
    listed = api.client.get(
        "/v1/games", params={"tag": "resign-listing"}, headers=api.auth(api.platform_key)
    ).json()["games"]
    assert [game["id"] for game in listed] == [created["id"]]
    assert [s["resigned"] for s in listed[0]["seats"]] == [False, True, False]
    page = gql.data(LISTED_SEATS, {"tag": "resign-listing"}, token=api.platform_key)["games"]
    assert [s["resigned"] for s in page["edges"][0]["node"]["seats"]] == [False, True, False]


def test_a_clock_whose_bot_plays_timed_out_seats_needs_an_increment(api, gql):
    """With on_timeout bot a seat whose bank ran out plays on with only its increment: with
    none it was offered moves it could never make, for the rest of the game."""
    seats = [{"name": "A"}, {"name": "B"}]
    for clock in (
        {"initial_seconds": 60, "on_timeout": "bot"},
        {"initial_seconds": 60, "increment_seconds": 0, "on_timeout": "bot"},
    ):
        refused = api.client.post(
            "/v1/games", json={"game": "hidden-numbers", "seats": seats, "clock": clock}
        )
        assert refused.status_code == 422, refused.text
        assert "increment_seconds above 0" in refused.text
    clock = {"initial_seconds": 60, "increment_seconds": 1, "on_timeout": "bot"}
    made = api.client.post(
        "/v1/games", json={"game": "hidden-numbers", "seats": seats, "clock": clock}
    )
    assert made.status_code == 201, made.text
    answer = gql.data(
        """mutation { createGame(input: {game: "hidden-numbers",
            seats: [{name: "A"}, {name: "B"}],
            clock: {initialSeconds: 60, onTimeout: "bot"}}) {
            __typename ... on Rejected { code details } } }"""
    )["createGame"]
    assert answer["__typename"] == "Rejected" and "increment" in str(answer["details"])
