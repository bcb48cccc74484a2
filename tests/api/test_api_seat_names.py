"""Seat names are shown to other players: hidden or line-breaking characters are refused
with 422 `invalid_seat_name` (REST and GraphQL), and names are stored in NFC."""

from __future__ import annotations

import unicodedata

import pytest

REFUSED = {
    "nul": "Al\x00ice",
    "c0-control": "Al\x1bice",
    "delete": "Alice\x7f",
    "c1-control": "Al\x85ice",
    "newline": "Alice\nBob",
    "carriage-return": "Alice\r",
    "tab": "Al\tice",
    "bidi-override": "\u202eecilA",
    "bidi-isolate": "Al\u2066ice",
    "zero-width-space": "Al\u200bice",
    "zero-width-joiner": "Al\u200dice",
    "joiner-after-an-emoji-before-a-letter": "\U0001f3f3\ufe0f\u200dice",
    "joiner-at-the-end": "Ana \U0001f3f3\u200d",
    "joiner-starting-a-name": "\u200d\U0001f308 Ana",
    "byte-order-mark": "\ufeffAlice",
    "line-separator": "Alice\u2028",
    "spaces-only": "    ",
    "ideographic-space-only": "\u3000\u3000",
    "too-long": "x" * 65,
}

CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on GameCreated { seats { name } }
    ... on Rejected { code message details }
  }
}
"""


def create_body(name: str) -> dict:
    return {"game": "hidden-numbers", "seats": [{"name": name}, {"name": "Bob"}], "seed": 3}


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_rest_refuses_a_seat_name_with_hidden_characters(api, name):
    response = api.client.post("/v1/games", json=create_body(name))
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "invalid_seat_name"
    assert problem["errors"][0]["location"] == ["seats", "0", "name"]
    assert "seat name" in problem["errors"][0]["message"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_graphql_refuses_a_seat_name_with_hidden_characters(gql, name):
    result = gql.data(CREATE, {"input": create_body(name)})["createGame"]
    assert result["__typename"] == "Rejected"
    assert result["code"] == "invalid_seat_name"
    assert "seat name" in result["details"]["errors"][0]["message"]


def test_a_control_character_is_named_in_the_message(api):
    response = api.client.post("/v1/games", json=create_body("A\x00"))
    assert "U+0000" in response.json()["errors"][0]["message"]


def test_names_are_stored_in_nfc_and_trimmed(api):
    decomposed = unicodedata.normalize("NFD", "  Zoë Ångström ")
    assert decomposed != "Zoë Ångström"
    created = api.create(seats=[{"name": decomposed}, {"name": "Bob"}])
    assert created["seats"][0]["name"] == "Zoë Ångström"
    assert api.game(created["id"])["seats"][0]["name"] == "Zoë Ångström"


def test_graphql_stores_names_in_nfc(gql):
    decomposed = unicodedata.normalize("NFD", "Zoë")
    result = gql.data(CREATE, {"input": create_body(decomposed)})["createGame"]
    assert result["seats"][0]["name"] == "Zoë"


EMOJI_SEQUENCES = [
    "Ana \U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag
    "\U0001f469\U0001f3fd\u200d\U0001f680 Mae",  # astronaut, medium skin tone
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family
    "Run \U0001f3c3\u200d\u2640\ufe0f",  # woman running
]


@pytest.mark.parametrize(
    "name", ["Alice", "Zoë", "李小龍", "Ana María", "🎲 Dice", "x" * 64, *EMOJI_SEQUENCES]
)
def test_ordinary_names_are_accepted(api, name):
    assert api.create(seats=[{"name": name}, {"name": "Bob"}])["seats"][0]["name"] == name
