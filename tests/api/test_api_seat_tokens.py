"""A seat's token is replaced when it was lost or leaked: the seat's own token or the API
key that created the game asks for a new one, and the old one stops working at once -
for moves, legal moves, the game's view with the hand, the events and the record."""

from __future__ import annotations

import time

import pytest

from services.gameplay.archive import archived_from_store, full_log
from services.gameplay.auth import Credentials
from services.gameplay.seat_tokens import replaced_token
from services.store import GameKeys

OPEN = {"open": True}


def replace_token(api, game_id: str, seat: int, token: str | None, key: str | None = None):
    headers = api.auth(token) | ({"Idempotency-Key": key} if key else {})
    return api.client.post(f"/v1/games/{game_id}/seats/{seat}/token", headers=headers)


def new_token(api, game_id: str, seat: int, token: str | None, key: str | None = None) -> str:
    answer = replace_token(api, game_id, seat, token, key)
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()


def first_discard(api, game_id: str, token: str) -> dict:
    return api.legal(game_id, token)[0]


def test_a_seat_replaces_its_leaked_token_and_the_old_one_stops_working(api):
    created = api.create()
    game_id, old = created["id"], created["seats"][0]["token"]
    hand = api.game(game_id, old)["view"]["hand"]

    answer = replace_token(api, game_id, 0, old)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["id"] == game_id and body["game"] == "hidden-numbers" and body["seat"] == 0
    new = body["token"]
    assert new.startswith("sps_") and new != old and body["issued_at"]
    assert "Idempotent-Replayed" not in answer.headers

    auth = api.auth(old)
    refused(api.client.get(f"/v1/games/{game_id}", headers=auth), 401, "invalid_token")
    refused(api.client.get(f"/v1/games/{game_id}/legal-moves", headers=auth), 401, "invalid_token")
    refused(api.client.get(f"/v1/games/{game_id}/events", headers=auth), 401, "invalid_token")
    refused(api.move(game_id, old, {"kind": "discard", "card": hand[0]}), 401, "invalid_token")
    refused(replace_token(api, game_id, 0, old), 401, "invalid_token")

    mine = api.game(game_id, new)
    assert mine["you"] == 0 and mine["view"]["hand"] == hand
    assert api.move(game_id, new, first_discard(api, game_id, new)).status_code == 200
    assert api.events(game_id, new)["entries"][0]["seat"] == 0


def test_the_api_key_that_created_the_game_gives_a_player_who_lost_theirs_a_new_one(api):
    created = api.create(headers=api.auth(api.platform_key))
    game_id, lost = created["id"], created["seats"][1]["token"]
    new = new_token(api, game_id, 1, api.platform_key)
    refused(api.client.get(f"/v1/games/{game_id}", headers=api.auth(lost)), 401, "invalid_token")
    assert api.game(game_id, new)["you"] == 1
    assert api.game(game_id, created["seats"][0]["token"])["you"] == 0, "other seats keep theirs"


def test_only_the_seat_itself_or_the_creating_api_key_may_replace_its_token(api):
    created = api.create(
        seats=[{"name": "Host"}, OPEN, {"name": "Ann"}], headers=api.auth(api.platform_key)
    )
    game_id = created["id"]
    host, ann = created["seats"][0]["token"], created["seats"][2]["token"]
    refused(replace_token(api, game_id, 0, None), 401, "seat_token_required")
    refused(replace_token(api, game_id, 0, "sps_not-a-seat-of-this-game"), 401, "invalid_token")
    refused(replace_token(api, game_id, 0, ann), 403, "not_your_seat")
    refused(replace_token(api, game_id, 0, created["creator_token"]), 403, "not_your_seat")
    refused(replace_token(api, game_id, 0, api.other_platform_key), 403, "not_the_creator")
    refused(replace_token(api, game_id, 9, host), 404, "seat_not_found")
    assert api.game(game_id, host)["you"] == 0, "nothing was replaced"


def test_a_bot_seat_and_an_open_seat_have_no_token_to_replace(api):
    key = api.auth(api.platform_key)
    created = api.create(
        seats=[{"name": "Ann"}, {"name": "Bot", "bot": "random"}, OPEN], headers=key
    )
    bot = replace_token(api, created["id"], 1, api.platform_key)
    refused(bot, 409, "seat_has_no_token")
    assert bot.json()["seat_kind"] == "bot"
    unclaimed = replace_token(api, created["id"], 2, api.platform_key)
    refused(unclaimed, 409, "seat_has_no_token")
    assert unclaimed.json()["seat_kind"] == "open"


def test_a_claimed_seat_replaces_its_token_while_the_game_waits(api):
    created = api.create(seats=[{"name": "Host"}, OPEN, OPEN])
    game_id = created["id"]
    code = created["seats"][1]["invite_code"]
    claimed = api.client.post(
        f"/v1/games/{game_id}/seats/1/claim", json={"code": code, "name": "Guest"}
    ).json()["token"]
    new = new_token(api, game_id, 1, claimed)
    assert api.game(game_id, new)["you"] == 1 and api.game(game_id)["status"] == "waiting"
    refused(api.client.get(f"/v1/games/{game_id}", headers=api.auth(claimed)), 401, "invalid_token")
    # the host, named at creation, may too
    assert new_token(api, game_id, 0, created["seats"][0]["token"])


def test_an_aborted_game_refuses_it_its_tokens_guard_nothing(api):
    created = api.create(seats=[{"name": "Host"}, OPEN])
    game_id = created["id"]
    cancel = api.client.post(
        f"/v1/games/{game_id}/cancel", headers=api.auth(created["creator_token"])
    )
    assert cancel.status_code == 200
    aborted = replace_token(api, game_id, 0, created["seats"][0]["token"])
    refused(aborted, 409, "game_aborted")
    assert aborted.json()["status_now"] == "aborted"
    assert aborted.headers["content-type"] == "application/problem+json"


def test_after_the_end_the_record_is_read_with_the_new_token_only(api):
    created = api.create(options={"rounds": 1})
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    api.play_out(created)
    api.wait_until(game_id, lambda game: game["status"] == "finished")
    assert (
        api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(tokens[0])).status_code
        == 200
    )

    new = new_token(api, game_id, 0, tokens[0])  # the record is archived already: replaced there
    old_read = api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(tokens[0]))
    refused(old_read, 401, "invalid_token")
    assert api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(new)).status_code == 200
    assert api.game(game_id, new)["you"] == 0


def test_a_record_archived_from_the_game_read_before_the_swap_takes_the_new_token(api):
    """Whoever archives a finished game's record read the game first: a replacement landing
    in between must still be the token the archived record answers to."""
    created = api.create(options={"rounds": 1}, headers=api.auth(api.platform_key))
    game_id, lost = created["id"], created["seats"][1]["token"]
    api.play_out(created)
    api.wait_until(game_id, lambda game: game["status"] == "finished")
    service = api.client.app.state.service
    call = api.client.portal.call
    read_before = call(service.store.load, game_id)
    call(service.store.redis.delete, GameKeys(service.store.prefix, game_id).archived)

    new = new_token(api, game_id, 1, api.platform_key)
    entries = call(full_log, service.store, game_id, read_before.version)
    stale = call(archived_from_store, read_before, entries, service.games["hidden-numbers"])
    call(service.archive.keep, stale)

    record = api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(new))
    assert record.status_code == 200, record.text
    old_read = api.client.get(f"/v1/games/{game_id}/record", headers=api.auth(lost))
    refused(old_read, 401, "invalid_token")


def test_a_retry_with_the_same_key_gets_the_same_new_token(api):
    created = api.create()
    game_id, old = created["id"], created["seats"][0]["token"]
    first = replace_token(api, game_id, 0, old, key="rotate-0001")
    again = replace_token(api, game_id, 0, old, key="rotate-0001")
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api.game(game_id, again.json()["token"])["you"] == 0

    other_seat = replace_token(api, game_id, 1, old, key="rotate-0001")
    refused(other_seat, 422, "idempotency_key_reused")


def test_a_replay_never_hands_out_a_token_replaced_since(api):
    created = api.create(headers=api.auth(api.platform_key))
    game_id = created["id"]
    first = new_token(api, game_id, 0, api.platform_key, key="platform-rotate-1")
    assert new_token(api, game_id, 0, first) != first  # the player replaces it again
    late = replace_token(api, game_id, 0, api.platform_key, key="platform-rotate-1")
    refused(late, 409, "token_replaced")
    assert first not in late.text


def test_the_derived_token_depends_on_the_key_and_the_moment(api):
    salt = "00" * 32
    one = replaced_token(salt, "digest", 0, "2026-12-01T00:00:00.000+00:00")
    assert one != replaced_token(salt, "digest", 0, "2026-12-01T00:00:00.001+00:00")
    assert one != replaced_token(salt, "other", 0, "2026-12-01T00:00:00.000+00:00")
    assert one.startswith("sps_")


def test_a_move_judged_with_the_old_token_before_the_swap_is_refused_after_it(api):
    """The replica keeps the record a reader just read for the move it makes next; a
    replacement landing in between changes the record's revision, so the move's
    compare-and-set fails and the move is judged again, on a record where that token is
    no longer the seat's."""
    created = api.create()
    game_id, old = created["id"], created["seats"][0]["token"]
    move = first_discard(api, game_id, old)  # reads (and keeps) the record
    api.game(game_id, old)
    new = new_token(api, game_id, 0, old)
    refused(api.move(game_id, old, move), 401, "invalid_token")
    assert api.game(game_id)["version"] == 0
    assert api.move(game_id, new, move).status_code == 200


@pytest.mark.parametrize("status", ["active", "finished"])
def test_the_graphql_and_rest_doors_refuse_the_old_token_alike(api, gql, status):
    created = api.create(options={"rounds": 1})
    game_id, old = created["id"], created["seats"][0]["token"]
    if status == "finished":
        api.play_out(created)
        api.wait_until(game_id, lambda game: game["status"] == "finished")
    new_token(api, game_id, 0, old)
    answer = gql("query($id: ID!) { game(id: $id) { you } }", {"id": game_id}, token=old)
    assert answer["errors"][0]["extensions"]["code"] == "invalid_token"


def swap_first(api, monkeypatch, name: str, game_id: str, seat: int, old: str) -> list:
    """Has the referee's `name` (take_over, autopilot) replace the seat's token first, once:
    the change it was asked for was judged on the record read before the swap."""
    service = api.client.app.state.service
    original = getattr(service.referee, name)
    swapped: list = []

    async def swapping(*args, **kwargs):
        if not swapped:
            who = Credentials(bearer=old, client_ip="127.0.0.1")
            swapped.append(await service.seat_tokens.replace(game_id, who, seat, None))
        return await original(*args, **kwargs)

    monkeypatch.setattr(service.referee, name, swapping)
    return swapped


def test_a_resignation_judged_with_the_old_token_before_the_swap_is_refused_after_it(
    api, monkeypatch
):
    created = api.create(seats=3)  # three seats: a seat that resigns leaves, a bot plays on
    game_id, old = created["id"], created["seats"][0]["token"]
    swapped = swap_first(api, monkeypatch, "take_over", game_id, 0, old)
    resigned = api.client.post(f"/v1/games/{game_id}/resign", json={}, headers=api.auth(old))
    refused(resigned, 401, "invalid_token")
    assert swapped and not api.game(game_id)["seats"][0]["abandoned"]


def test_autopilot_asked_with_the_old_token_before_the_swap_is_refused_after_it(api, monkeypatch):
    created = api.create(seats=3)
    game_id, old = created["id"], created["seats"][0]["token"]
    swapped = swap_first(api, monkeypatch, "autopilot", game_id, 0, old)
    asked = api.client.post(
        f"/v1/games/{game_id}/seats/0/autopilot", json={"on": True}, headers=api.auth(old)
    )
    refused(asked, 401, "invalid_token")
    assert swapped and not api.game(game_id)["seats"][0]["autopilot"]


def test_a_tournament_participant_learns_their_table_token_was_replaced(api, gql):
    """`/me` derives each table's seat token from the tournament: once replaced, that
    token no longer works, so it is not handed out; `token_replaced` says why it is null
    (null alone means "ask again in a moment")."""
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Grace"}],
        "seats_per_table": 2,
        "format": {"kind": "round_robin"},
    }
    created = api.client.post("/v1/tournaments", json=body, headers=api.auth(api.platform_key))
    assert created.status_code == 201, created.text
    tid, ada = created.json()["id"], created.json()["participants"][0]["token"]
    deadline = time.monotonic() + 20
    while True:  # a round is shown a moment before its games are made
        [mine] = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada)).json()["rounds"]
        if mine["seat_token"] is not None:
            break
        assert time.monotonic() < deadline, mine
        time.sleep(0.05)
    assert mine["token_replaced"] is False
    new_token(api, mine["game_id"], mine["seat"], mine["seat_token"])
    [after] = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada)).json()["rounds"]
    assert after["seat_token"] is None and after["token_replaced"] is True
    query = "query($id: ID!) { myTournament(id: $id) { rounds { seatToken tokenReplaced } } }"
    answer = gql.data(query, {"id": tid}, ada)["myTournament"]
    assert answer["rounds"] == [{"seatToken": None, "tokenReplaced": True}]
