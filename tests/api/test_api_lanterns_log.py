"""Valley of Sky Lanterns' log over REST: a `move_made` event holds the move itself as the
legal-moves listing gave it, for every reader of a public move, and for nobody but its
maker when it names a card the others may not see (a Starting card kept in the draft)."""

from __future__ import annotations

from typing import Any


def made_at(api, game_id: str, version: int, token: str | None) -> dict[str, Any]:
    """The `move_made` event of `version`, as the reader of `token` (None: a spectator)
    reads the log."""
    [entry] = [e for e in api.events(game_id, token)["entries"] if e["version"] == version]
    [event] = [e for e in entry["events"] if e["kind"] == "move_made"]
    return event


def without_label(move: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in move.items() if key != "label"}


def test_a_public_move_is_in_every_readers_log_as_the_listing_gave_it(api):
    created = api.create("sky-lanterns", 2, options={"first_player": 0}, seed=5)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    [listed] = [m for m in api.legal(game_id, tokens[0]) if m["kind"] == "decline"]
    assert api.move(game_id, tokens[0], listed).status_code == 200
    take = next(m for m in api.legal(game_id, tokens[0]) if m["kind"] == "take_die")
    sent = {"kind": "take_die", "space": take["space"]}  # `forfeit` left to its default
    answer = api.move(game_id, tokens[0], sent)
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"][0]["move"] == {**sent, "forfeit": False}
    for version, move in ((1, without_label(listed)), (2, {**sent, "forfeit": False})):
        for reader in (tokens[0], tokens[1], None):
            event = made_at(api, game_id, version, reader)
            assert event["move"] == move and event["seat"] == 0 and event["text"]


def test_a_draft_pick_is_in_the_drafters_log_only(api):
    options = {"starting_card_draft": True, "teapot_market": True}
    created = api.create("sky-lanterns", 3, options=options, seed=8)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    pick = api.legal(game_id, tokens[1])[0]
    assert pick["kind"] == "draft_card"
    answer = api.move(game_id, tokens[1], pick)
    assert answer.status_code == 200, answer.text
    mine = made_at(api, game_id, 1, tokens[1])
    assert mine["move"] == without_label(pick) == {"kind": "draft_card", "card": pick["card"]}
    assert mine["card"] == pick["card"]
    for reader in (tokens[0], tokens[2], None):
        event = made_at(api, game_id, 1, reader)
        assert event == {"kind": "move_made", "seat": 1, "text": "Keep a Starting card"}
        log = api.client.get(f"/v1/games/{game_id}/events", headers=api.auth(reader))
        assert pick["card"] not in log.text
        game = api.client.get(f"/v1/games/{game_id}", headers=api.auth(reader))
        assert pick["card"] not in game.text
