"""64-bit seeds survive JavaScript. A seed runs up to 2^63 - 1, but JavaScript's JSON.parse
reads every number as a double, exact only to 2^53. So records and tournament tables give
each seed as `seed_text` (decimal digits) beside `seed`; a record that went through
JSON.parse and JSON.stringify still replays, its `seed_text` being the seed. REST takes
`seed_text` on creation too, as GraphQL takes `seedText`."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from typing import Any

import pytest

from services.gameplay.payloads import MAX_SEED
from services.gameplay.records import ReplayMismatch, load_record, replay

BIG_SEED = MAX_SEED - 2**40 + 977
"""Past 2^53: a double holds another number."""
SEATS = [{"name": "Ada"}, {"name": "Grace"}]
KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}


def as_javascript_writes(number: int) -> str:
    """`number` as JSON.stringify(JSON.parse(number)) gives it: rounded to a double and
    written with the shortest digits that read back as that double."""
    return format(Decimal(repr(float(number))), "f")


def through_javascript(record_json: str) -> str:
    """A record's JSON after a JavaScript client parsed and wrote it again: its integers
    past 2^53 rounded (only the seed is one here)."""
    record = json.loads(record_json)
    assert record["seed"] > 2**53
    record["seed"] = int(as_javascript_writes(record["seed"]))
    return json.dumps(record)


def finished_record(api, seed: int | None = None, **text: Any) -> tuple[dict[str, Any], str]:
    created = api.create(seats=SEATS, seed=seed, **text)
    api.play_out(created)
    api.wait_until(created["id"], lambda d: d["status"] == "finished")
    token = created["seats"][0]["token"]
    response = api.client.get(f"/v1/games/{created['id']}/record", headers=api.auth(token))
    assert response.status_code == 200, response.text
    return created, response.text


def finished_tournament(api, tournament_id: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (document := api.client.get(f"/v1/tournaments/{tournament_id}").json())[
        "status"
    ] != "finished":
        assert time.monotonic() < deadline, document
        time.sleep(0.05)
    return document


def test_the_javascript_rounding_this_guards_against_is_real():
    assert float(as_javascript_writes(BIG_SEED)) == float(BIG_SEED)
    assert int(as_javascript_writes(BIG_SEED)) != BIG_SEED


def test_a_record_gives_its_seed_as_text_and_replays_after_a_javascript_round_trip(
    api, hidden_numbers
):
    _, record_json = finished_record(api, seed_text=str(BIG_SEED))
    record = json.loads(record_json)
    assert record["seed"] == BIG_SEED and record["seed_text"] == str(BIG_SEED)

    mangled = through_javascript(record_json)
    assert json.loads(mangled)["seed"] != BIG_SEED, "the numeric seed was rounded"
    replayed = replay(load_record(mangled), hidden_numbers)
    assert replayed.record.seed == BIG_SEED
    assert replayed.result == replay(load_record(record_json), hidden_numbers).result

    without_text = json.loads(mangled)
    del without_text["seed_text"]
    with pytest.raises(ReplayMismatch):
        replay(load_record(without_text), hidden_numbers)


def test_a_record_whose_seed_and_seed_text_are_different_seeds_is_refused(api):
    _, record_json = finished_record(api, seed=BIG_SEED)
    record = json.loads(record_json)
    record["seed_text"] = str(BIG_SEED + 2**20)
    with pytest.raises(ReplayMismatch) as refused:
        load_record(record)
    assert refused.value.code == "malformed_record"
    assert "different seeds" in str(refused.value)


def test_rest_creates_a_game_from_seed_text_as_from_the_same_seed(api):
    by_text = api.create(seats=SEATS, seed=None, seed_text=str(BIG_SEED))
    by_number = api.create(seats=SEATS, seed=BIG_SEED)
    other = api.create(seats=SEATS, seed=BIG_SEED + 1)

    def hand(created: dict[str, Any]) -> Any:
        return api.game(created["id"], created["seats"][0]["token"])["view"]

    assert hand(by_text) == hand(by_number)
    assert hand(other) != hand(by_number), "seeds deal differently"


@pytest.mark.parametrize(
    ("body", "location", "words"),
    [
        ({"seed": str(BIG_SEED)}, ["seed"], "seed_text"),
        ({"seed": 7, "seed_text": "7"}, ["seed_text"], "not both"),
        ({"seed_text": str(MAX_SEED + 1)}, ["seed_text"], str(MAX_SEED)),
        ({"seed_text": "-7"}, ["seed_text"], "pattern"),
        ({"seed_text": "7 "}, ["seed_text"], "pattern"),
        ({"seed_text": 7}, ["seed_text"], "string"),
    ],
)
def test_a_bad_seed_is_refused_where_it_is_and_nothing_is_created(api, body, location, words):
    before = api.client.get("/v1/games", headers=KEY).json()
    response = api.client.post(
        "/v1/games", json={"game": "hidden-numbers", "seats": SEATS, **body}, headers=KEY
    )
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "invalid_request"
    [error] = problem["errors"]
    assert error["location"] == location and words in error["message"], error
    assert api.client.get("/v1/games", headers=KEY).json() == before


def test_a_tournament_takes_seed_text_and_its_tables_show_their_seeds_as_text(api):
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Bot 0", "bot": "random"}, {"name": "Bot 1", "bot": "random"}],
        "format": {"kind": "round_robin"},
    }
    headers = {**KEY, "Idempotency-Key": "seed-text-rest-0001"}
    created = api.client.post(
        "/v1/tournaments", json={**body, "seed_text": str(BIG_SEED)}, headers=headers
    )
    assert created.status_code == 201, created.text
    same = api.client.post("/v1/tournaments", json={**body, "seed": BIG_SEED}, headers=headers)
    assert same.status_code == 201 and same.headers["Idempotent-Replayed"] == "true"
    assert same.json()["id"] == created.json()["id"], "seed_text is that seed"

    document = finished_tournament(api, created.json()["id"])
    [round_] = document["rounds"]
    [table] = round_["tables"]
    assert table["seed"] is not None and table["seed_text"] == str(table["seed"])
    record = api.client.get(f"/v1/games/{table['game_id']}/record", headers=KEY)
    assert record.status_code == 200, record.text
    assert record.json()["seed_text"] == table["seed_text"]


def test_a_request_reads_the_same_as_before_seed_text_existed():
    """Idempotency-Key fingerprints dump the request: one made before seed_text existed
    still matches its retry."""
    from services.gameplay.payloads import CreateGameRequest

    request = CreateGameRequest.model_validate(
        {"game": "hidden-numbers", "seats": SEATS, "seed_text": str(BIG_SEED)}
    )
    dumped = request.model_dump(mode="json")
    assert "seed_text" not in dumped and dumped["seed"] == BIG_SEED
