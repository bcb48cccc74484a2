"""`Prefer: return=minimal` on a move or a resignation: the answer carries everything but
the view (the cheapest answer for a client that does not show it), and says the
preference applied."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from starlette.requests import Request

from services.api.inputs import prefers_minimal


def tokens(created: dict) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


def move(api, game_id: str, token: str, chosen: dict | None = None, **headers: str):
    body = {"move": chosen or api.legal(game_id, token)[0]}
    return api.client.post(
        f"/v1/games/{game_id}/moves", json=body, headers={**api.auth(token), **headers}
    )


def test_a_minimal_answer_has_no_view_but_the_same_move(api):
    created = api.create()
    token = tokens(created)[0]
    answer = move(api, created["id"], token, Prefer="return=minimal")
    assert answer.status_code == 200
    assert answer.headers["preference-applied"] == "return=minimal"
    body = answer.json()
    assert body["view"] == {} and body["version"] == 1 and body["events"]
    assert api.game(created["id"], token)["version"] == 1


def documented_answer(api, path: str) -> Draft202012Validator:
    """A validator of the 200 answer /openapi.json documents for `path`'s POST."""
    document = api.client.get("/openapi.json").json()
    answer = document["paths"][path]["post"]["responses"]["200"]
    schema = answer["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": document["components"]})


def test_minimal_and_whole_answers_are_what_the_document_says(api):
    """The document typed every answer's view as one of the games' views, so the `{}` of
    a minimal answer (which its own Prefer header documents) failed validation."""
    created = api.create()
    game_id = created["id"]
    first, second = tokens(created)
    moved = documented_answer(api, "/v1/games/{game_id}/moves")
    resigned = documented_answer(api, "/v1/games/{game_id}/resign")
    whole = move(api, game_id, first)
    minimal = move(api, game_id, second, Prefer="return=minimal")
    assert whole.status_code == minimal.status_code == 200, minimal.text
    assert whole.json()["view"] and minimal.json()["view"] == {}
    moved.validate(whole.json())
    moved.validate(minimal.json())
    assert not moved.is_valid({**minimal.json(), "view": {"not": "a view"}})
    resignation = api.client.post(
        f"/v1/games/{game_id}/resign",
        json={},
        headers={**api.auth(first), "Prefer": "return=minimal"},
    )
    assert resignation.status_code == 200 and resignation.json()["view"] == {}
    resigned.validate(resignation.json())


def test_without_the_preference_the_answer_has_the_view(api):
    created = api.create()
    answer = move(api, created["id"], tokens(created)[0])
    assert "preference-applied" not in answer.headers
    assert answer.json()["view"]["your_discard"]  # the mover's view


def test_an_idempotent_retry_keeps_the_preference_of_each_request(api):
    created = api.create()
    token = tokens(created)[0]
    key = {"Idempotency-Key": "minimal-1"}
    chosen = api.legal(created["id"], token)[0]
    first = move(api, created["id"], token, chosen, Prefer="return=minimal", **key)
    again = move(api, created["id"], token, chosen, **key)
    assert first.json()["view"] == {} and again.json()["view"]["your_discard"]
    assert again.headers["idempotent-replayed"] == "true"
    assert first.json()["version"] == again.json()["version"] == 1


def test_a_minimal_resignation_has_no_view(api):
    created = api.create()
    token = tokens(created)[0]
    answer = api.client.post(
        f"/v1/games/{created['id']}/resign",
        json={},
        headers={**api.auth(token), "Prefer": "return=minimal"},
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["preference-applied"] == "return=minimal"
    assert answer.json()["view"] == {} and answer.json()["status"] != "active"


@pytest.mark.parametrize(
    ("header", "minimal"),
    [
        ("return=minimal", True),
        ("respond-async, Return = Minimal; x=1", True),
        ("return=representation", False),
        ("return=minimalist", False),
        ("", False),
        (",,;;==", False),
    ],
)
def test_the_prefer_header_is_read_as_rfc_7240_lists_it(header: str, minimal: bool) -> None:
    scope = {"type": "http", "headers": [(b"prefer", header.encode())]}
    assert prefers_minimal(Request(scope)) is minimal


@pytest.fixture
def views_built(games, monkeypatch) -> list[int]:
    """How many views the service builds (for the mover or anyone), counted."""
    game = games["hidden-numbers"]
    built: list[int] = []
    build = type(game).view

    def counted(state, viewer):
        built.append(viewer)
        return build(game, state, viewer)

    monkeypatch.setattr(game, "view", counted)
    return built


@pytest.mark.parametrize("on_leave", ["end_game", "bot_takes_over"])
def test_a_minimal_answer_builds_no_view_at_all(api, views_built, on_leave):
    """What the preference spares is the building, not only the sending."""
    created = api.create(seats=2, on_leave=on_leave, leave_bot="random")
    first, second = tokens(created)
    views_built.clear()
    assert move(api, created["id"], first, Prefer="return=minimal").status_code == 200
    resigned = api.client.post(
        f"/v1/games/{created['id']}/resign",
        json={},
        headers={**api.auth(second), "Prefer": "return=minimal"},
    )
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["abandoned"] is (on_leave == "bot_takes_over")
    assert views_built == []
