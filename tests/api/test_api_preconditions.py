"""HTTP caching and preconditions: a weak ETag per game representation, 304 for an
unchanged game under If-None-Match, and 412 for a move or resignation whose If-Match
names another version."""

from __future__ import annotations

import re

from services.api.preconditions import entity_tag
from services.gameplay.payloads import GameDocument
from services.store import GameStatus


def tokens(created: dict) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def get(api, game_id: str, token: str | None = None, **headers: str):
    return api.client.get(f"/v1/games/{game_id}", headers={**api.auth(token), **headers})


def post(api, game_id: str, path: str, token: str, body: dict, **headers: str):
    return api.client.post(
        f"/v1/games/{game_id}/{path}", json=body, headers={**api.auth(token), **headers}
    )


def test_a_game_has_a_weak_etag_that_varies_by_token(api):
    created = api.create()
    answer = get(api, created["id"], tokens(created)[0])
    assert answer.headers["etag"].startswith('W/"v0-')
    assert "Authorization" in answer.headers["vary"]


def test_an_unchanged_game_answers_304_without_a_body_until_a_move(api):
    created = api.create()
    first = get(api, created["id"], tokens(created)[0])
    tag = first.headers["etag"]
    again = get(api, created["id"], tokens(created)[0], **{"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == tag
    assert get(api, created["id"], **{"If-None-Match": "*"}).status_code == 304
    moved = api.move(
        created["id"], tokens(created)[0], api.legal(created["id"], tokens(created)[0])[0]
    )
    assert moved.status_code == 200
    after = get(api, created["id"], tokens(created)[0], **{"If-None-Match": tag})
    assert after.status_code == 200 and after.json()["version"] == 1
    assert after.headers["etag"].startswith('W/"v1-')
    listed = get(
        api, created["id"], tokens(created)[0], **{"If-None-Match": f'"x", {after.headers["etag"]}'}
    )
    assert listed.status_code == 304


def test_another_reader_of_the_same_version_gets_its_own_view_not_a_304(api):
    """A client that switches tokens and sends the tag it holds must get the other
    reader's body: a seat, another seat and a spectator see different things."""
    created = api.create()
    game_id, (first, second) = created["id"], tokens(created)
    mine = get(api, game_id, first)
    tag = mine.headers["etag"]
    assert mine.json()["you"] == 0 and mine.json()["view"]["hand"]
    theirs = get(api, game_id, second, **{"If-None-Match": tag})
    assert theirs.status_code == 200 and theirs.json()["you"] == 1
    watching = get(api, game_id, **{"If-None-Match": tag})
    assert watching.status_code == 200 and watching.json()["view"]["hand"] is None
    tags = {tag, theirs.headers["etag"], watching.headers["etag"]}
    assert len(tags) == 3 and all(t.startswith('W/"v0-') for t in tags)
    for token, held in (
        (first, tag),
        (second, theirs.headers["etag"]),
        (None, watching.headers["etag"]),
    ):
        again = get(api, game_id, token, **{"If-None-Match": held})
        assert again.status_code == 304 and again.headers["etag"] == held


def test_a_platform_reading_an_ended_game_in_full_is_not_sent_the_spectators_304(api):
    created = api.create(headers=api.auth(api.platform_key))
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    watching = get(api, created["id"])
    assert watching.json()["seat_views"] is None
    full = get(api, created["id"], api.platform_key, **{"If-None-Match": watching.headers["etag"]})
    assert full.status_code == 200 and len(full.json()["seat_views"]) == 2
    again = get(api, created["id"], api.platform_key, **{"If-None-Match": full.headers["etag"]})
    assert again.status_code == 304


def test_the_etag_changes_with_what_changes_without_a_new_version(api):
    """Scoring a game and a seat stepping away keep the version: the tag still moves."""
    document = GameDocument.model_validate(api.game(api.create(seats=3)["id"]))
    tag = entity_tag(document)
    finished = document.model_copy(update={"status": GameStatus.FINISHED})
    seats = [document.seats[0].model_copy(update={"autopilot": True}), *document.seats[1:]]
    away = document.model_copy(update={"seats": seats})
    left = [document.seats[0].model_copy(update={"abandoned": True}), *document.seats[1:]]
    abandoned = document.model_copy(update={"seats": left})
    tags = {tag, entity_tag(finished), entity_tag(away), entity_tag(abandoned)}
    assert len(tags) == 4
    assert all(t.startswith(f'W/"v{document.version}-') for t in tags)


def test_a_move_with_the_current_etag_in_if_match_is_applied(api):
    created = api.create()
    token = tokens(created)[0]
    tag = get(api, created["id"], token).headers["etag"]
    move = api.legal(created["id"], token)[0]
    answer = post(api, created["id"], "moves", token, {"move": move}, **{"If-Match": tag})
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 1


def test_a_move_or_resignation_with_a_stale_if_match_is_412_and_changes_nothing(api):
    created = api.create()
    first, second = tokens(created)
    stale = get(api, created["id"], first).headers["etag"]
    assert api.move(created["id"], first, api.legal(created["id"], first)[0]).status_code == 200
    move = api.legal(created["id"], second)[0]
    refused = post(api, created["id"], "moves", second, {"move": move}, **{"If-Match": stale})
    assert refused.status_code == 412
    assert refused.json()["code"] == "precondition_failed"
    assert refused.json()["current_version"] == 1
    resign = post(api, created["id"], "resign", second, {}, **{"If-Match": stale})
    assert resign.status_code == 412 and resign.json()["code"] == "precondition_failed"
    game = api.game(created["id"])
    assert game["version"] == 1 and game["status"] == "active"


def test_if_match_star_matches_the_game_at_any_version(api):
    """RFC 9110: `If-Match: *` matches any current representation. It was refused as
    invalid_if_match."""
    created = api.create(seats=3)
    game_id = created["id"]
    first, second, third = tokens(created)
    star = {"If-Match": "*"}
    moved = post(api, game_id, "moves", first, {"move": api.legal(game_id, first)[0]}, **star)
    assert moved.status_code == 200, moved.text
    assert moved.json()["version"] == 1
    # The body's expected_version still counts, and a stale one is the usual 409.
    move = api.legal(game_id, second)[0]
    stale = post(api, game_id, "moves", second, {"move": move, "expected_version": 0}, **star)
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    assert stale.json()["current_version"] == 1
    agreed = post(api, game_id, "moves", second, {"move": move, "expected_version": 1}, **star)
    assert agreed.status_code == 200 and agreed.json()["version"] == 2
    resigned = post(api, game_id, "resign", third, {}, **{"If-Match": " * "})
    assert resigned.status_code == 200, resigned.text
    # No game, no current representation: what it would be without the header, a 404.
    missing = post(api, "a" * 24, "moves", first, {"move": move}, **star)
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
    document = api.client.get("/openapi.json").json()
    moves = document["paths"]["/v1/games/{game_id}/moves"]["post"]["parameters"]
    documented = next(p for p in moves if p["name"] == "If-Match")
    assert re.match(documented["schema"]["pattern"], "*")
    assert re.match(documented["schema"]["pattern"], 'W/"v1-0a1b2c3d"')


def test_a_malformed_or_contradicted_if_match_is_400(api):
    created = api.create()
    token = tokens(created)[0]
    move = api.legal(created["id"], token)[0]
    garbled = post(api, created["id"], "moves", token, {"move": move}, **{"If-Match": "v0"})
    assert garbled.status_code == 400 and garbled.json()["code"] == "invalid_if_match"
    tag = get(api, created["id"], token).headers["etag"]
    both = post(
        api,
        created["id"],
        "moves",
        token,
        {"move": move, "expected_version": 3},
        **{"If-Match": tag},
    )
    assert both.status_code == 400 and both.json()["code"] == "conflicting_preconditions"
    assert api.game(created["id"])["version"] == 0


def test_an_if_match_naming_a_version_no_game_reaches_is_412(api):
    """A version past any a game can have (over 10^12) is a well-formed tag that does
    not match: 412, as for any other version the game is not at, and nothing changes."""
    created = api.create()
    token = tokens(created)[0]
    move = api.legal(created["id"], token)[0]
    far = {"If-Match": 'W/"v999999999999999999"'}
    refused = post(api, created["id"], "moves", token, {"move": move}, **far)
    assert refused.status_code == 412, refused.text
    assert refused.json()["code"] == "precondition_failed"
    assert refused.json()["current_version"] == 0
    resign = post(api, created["id"], "resign", token, {}, **far)
    assert resign.status_code == 412 and resign.json()["current_version"] == 0
    assert api.game(created["id"])["version"] == 0
