"""A tournament participant's token can be replaced when it was lost or leaked. It is the
root of every seat token the participant gets (`/me` hands them out), so replacing only
a table's seat token left whoever held the participant token reading the next round's
seat token, and the player's hand."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from pydantic import SecretStr

from services.gameplay.settings import Settings

KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}
OTHER_KEY = {"Authorization": "Bearer platform-key-for-tests-0002"}

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Signed webhooks to the test receiver on 127.0.0.1."""
    return settings.model_copy(
        update={"webhook_secret": SecretStr("tournament-hooks"), "webhook_allow_private": True}
    )


def swiss_of_two(api, rounds: int = 2) -> dict[str, Any]:
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Bob"}],
        "format": {"kind": "swiss", "rounds": rounds},
        "seed": 5,
    }
    created = api.client.post("/v1/tournaments", json=body, headers=KEY)
    assert created.status_code == 201, created.text
    return created.json()


def my_round(api, tid: str, token: str, number: int) -> dict[str, Any]:
    """The participant's round `number` once its game is made (it is shown a moment before)."""
    deadline = time.monotonic() + 30
    while True:
        answer = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(token))
        assert answer.status_code == 200, answer.text
        rounds = answer.json()["rounds"]
        if len(rounds) >= number and rounds[number - 1]["seat_token"] is not None:
            return rounds[number - 1]
        assert time.monotonic() < deadline, rounds
        time.sleep(0.05)


def replace(api, tid: str, participant: int, headers: dict[str, str]) -> Any:
    return api.client.post(
        f"/v1/tournaments/{tid}/participants/{participant}/token", headers=headers
    )


def resign(api, seat_round: dict[str, Any]) -> None:
    answer = api.client.post(
        f"/v1/games/{seat_round['game_id']}/resign",
        json={},
        headers=api.auth(seat_round["seat_token"]),
    )
    assert answer.status_code == 200, answer.text


def test_a_leaked_participant_token_stops_working_and_loses_the_table_and_later_rounds(api):
    created = swiss_of_two(api)
    tid = created["id"]
    leaked, bob = (p["token"] for p in created["participants"])
    first = my_round(api, tid, leaked, 1)

    answer = replace(api, tid, 0, api.auth(leaked))
    assert answer.status_code == 200, answer.text
    replaced = answer.json()
    assert replaced["participant"] == 0 and replaced["id"] == tid
    fresh = replaced["token"]
    assert fresh and fresh != leaked

    old_me = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(leaked))
    assert old_me.status_code == 401 and old_me.json()["code"] == "invalid_token"
    # The table in play: the seat token the leaker read no longer works; /me gives the new one.
    stale = api.client.get(f"/v1/games/{first['game_id']}", headers=api.auth(first["seat_token"]))
    assert stale.status_code == 401
    now = my_round(api, tid, fresh, 1)
    assert now["seat_token"] != first["seat_token"] and not now["token_replaced"]
    mine = api.game(now["game_id"], now["seat_token"])
    assert mine["you"] == now["seat"]

    resign(api, my_round(api, tid, bob, 1))
    second = my_round(api, tid, fresh, 2)
    assert api.game(second["game_id"], second["seat_token"])["you"] == second["seat"]
    refused = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(leaked))
    assert refused.status_code == 401, "the old token reads no later round either"


def replaced_count(by: str) -> float:
    from prometheus_client import REGISTRY

    sample = REGISTRY.get_sample_value("skyport_participant_tokens_replaced_total", {"by": by})
    return sample or 0.0


def test_the_api_key_that_created_the_tournament_gives_a_participant_a_new_token(api):
    created = swiss_of_two(api)
    tid = created["id"]
    lost = created["participants"][1]["token"]
    my_round(api, tid, lost, 1)
    before = replaced_count("creator")
    answer = replace(api, tid, 1, KEY)
    assert answer.status_code == 200, answer.text
    assert replaced_count("creator") == before + 1
    assert my_round(api, tid, answer.json()["token"], 1)["seat_token"]
    assert api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(lost)).status_code == 401


def test_who_may_not_replace_a_participants_token_is_told_why(api):
    created = swiss_of_two(api)
    tid = created["id"]
    ada, bob = (p["token"] for p in created["participants"])
    cases = [
        ({}, 401, "participant_token_required"),
        (api.auth("sps_not-a-token"), 401, "invalid_token"),
        (api.auth(bob), 403, "not_your_participant"),
        (OTHER_KEY, 403, "not_the_creator"),
    ]
    for headers, status, code in cases:
        answer = replace(api, tid, 0, headers)
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    missing = replace(api, tid, 2, api.auth(ada))
    assert (missing.status_code, missing.json()["code"]) == (404, "participant_not_found")
    unknown = replace(api, "b" * 24, 0, api.auth(ada))
    assert (unknown.status_code, unknown.json()["code"]) == (404, "tournament_not_found")
    assert api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada)).status_code == 200


def test_a_retry_with_the_same_key_gets_the_same_token_while_it_is_current(api):
    created = swiss_of_two(api)
    tid = created["id"]
    old = created["participants"][0]["token"]
    key = {"Idempotency-Key": "rotate-ada-0001"}
    first = replace(api, tid, 0, {**api.auth(old), **key})
    again = replace(api, tid, 0, {**api.auth(old), **key})
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    other = replace(api, tid, 1, {**api.auth(old), **key})
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")

    assert replace(api, tid, 0, KEY).status_code == 200  # replaced again since
    late = replace(api, tid, 0, {**api.auth(old), **key})
    assert (late.status_code, late.json()["code"]) == (409, "token_replaced")


def test_graphql_replaces_a_participant_token_as_rest_does(api, gql):
    created = swiss_of_two(api)
    tid = created["id"]
    old = created["participants"][0]["token"]
    mutation = """mutation($id: ID!, $p: Int!) { replaceParticipantToken(tournamentId: $id,
      participant: $p) { __typename ... on ParticipantTokenReplaced { tournamentId
      participant token replayed } ... on Error { code } } }"""
    answer = gql.data(mutation, {"id": tid, "p": 0}, token=old)["replaceParticipantToken"]
    assert answer["__typename"] == "ParticipantTokenReplaced", answer
    assert answer["participant"] == 0 and answer["tournamentId"] == tid
    mine = "query($id: ID!) { myTournament(id: $id) { participant } }"
    assert gql.data(mine, {"id": tid}, token=answer["token"])["myTournament"]["participant"] == 0
    refused = gql(mutation, {"id": tid, "p": 0}, token=old)
    assert refused["errors"][0]["extensions"]["code"] == "invalid_token"


def test_a_bot_participants_token_is_replaced_without_touching_its_tables(api):
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Bot", "bot": "random"}],
        "format": {"kind": "swiss", "rounds": 1},
    }
    created = api.client.post("/v1/tournaments", json=body, headers=KEY).json()
    tid = created["id"]
    my_round(api, tid, created["participants"][0]["token"], 1)
    answer = replace(api, tid, 1, api.auth(created["participants"][1]["token"]))
    assert answer.status_code == 200, answer.text
    mine = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(answer.json()["token"]))
    assert mine.status_code == 200 and mine.json()["bot"] == "random"


def test_a_retry_sets_the_tables_tokens_a_first_attempt_did_not(api, monkeypatch):
    """The participant's token swapped, then setting its table's seat token failed:
    the answer still gives the new token, and the retry with the key finishes the job."""
    from services.gameplay.seat_tokens import TokenDesk

    created = swiss_of_two(api)
    tid = created["id"]
    old = created["participants"][0]["token"]
    first_table = my_round(api, tid, old, 1)
    key = {**api.auth(old), "Idempotency-Key": "rotate-ada-0002"}

    async def failing(*args, **kwargs):
        raise RuntimeError("setting the seat failed")

    with monkeypatch.context() as dying:
        dying.setattr(TokenDesk, "set_for_tournament", failing)
        first = replace(api, tid, 0, key)
    assert first.status_code == 200, first.text
    still = api.client.get(
        f"/v1/games/{first_table['game_id']}", headers=api.auth(first_table["seat_token"])
    )
    assert still.status_code == 200, "the table's token was not replaced yet"

    again = replace(api, tid, 0, key)
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json()["token"] == first.json()["token"]
    stale = api.client.get(
        f"/v1/games/{first_table['game_id']}", headers=api.auth(first_table["seat_token"])
    )
    assert stale.status_code == 401
    assert my_round(api, tid, again.json()["token"], 1)["seat_token"]


def test_the_platform_is_told_who_replaced_a_participants_token(api, receiver):
    body = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Bob"}],
        "format": {"kind": "swiss", "rounds": 1},
        "webhook_url": receiver.url,
    }
    created = api.client.post("/v1/tournaments", json=body, headers=KEY).json()
    tid = created["id"]
    ada = created["participants"][0]["token"]
    fresh = replace(api, tid, 0, api.auth(ada)).json()["token"]
    assert replace(api, tid, 0, KEY).status_code == 200
    deadline = time.monotonic() + 20
    while True:
        told = [
            json.loads(payload)
            for _, payload in receiver.received
            if b"participant_token_replaced" in payload
        ]
        if len(told) >= 2:
            break
        assert time.monotonic() < deadline, receiver.received
        time.sleep(0.05)
    told.sort(key=lambda hook: hook["id"])
    assert [(t["participant"], t["name"], t["by"]) for t in told] == [
        (0, "Ada", "participant"),
        (0, "Ada", "creator"),
    ]
    assert told[0]["id"] == f"{tid}:participant:0:1:tournament.participant_token_replaced"
    assert all(ada not in json.dumps(t) and fresh not in json.dumps(t) for t in told)


def test_me_refuses_a_token_replaced_while_it_read_the_tables(api, monkeypatch):
    """A table made after the replacement has a seat token only the new token may read:
    `/me` checks the caller still holds the participant once it has read the tables."""
    from services.gameplay.auth import Credentials
    from services.gameplay.participant_tokens import participant_tokens
    from services.gameplay.tournament_runner import TournamentRunner

    created = swiss_of_two(api)
    tid = created["id"]
    ada = created["participants"][0]["token"]
    my_round(api, tid, ada, 1)
    reading = TournamentRunner._seat_token

    async def replaced_meanwhile(self, stored, *args):
        answer = await reading(self, stored, *args)
        leaked = Credentials(bearer=ada, client_ip="127.0.0.1")
        await participant_tokens(self).replace(stored.id, leaked, 0, None)
        return answer

    monkeypatch.setattr(TournamentRunner, "_seat_token", replaced_meanwhile)
    answer = api.client.get(f"/v1/tournaments/{tid}/me", headers=api.auth(ada))
    assert answer.status_code == 401, answer.text
    assert answer.json()["code"] == "invalid_token"


def test_a_finished_tables_seat_token_is_still_shown_after_later_replacements(api):
    created = swiss_of_two(api)
    tid = created["id"]
    ada, bob = (p["token"] for p in created["participants"])
    my_round(api, tid, ada, 1)
    first = replace(api, tid, 0, api.auth(ada)).json()["token"]
    table = my_round(api, tid, first, 1)
    resign(api, my_round(api, tid, bob, 1))
    my_round(api, tid, first, 2)

    second = replace(api, tid, 0, api.auth(first)).json()["token"]
    shown = my_round(api, tid, second, 1)
    assert shown["seat_token"] == table["seat_token"] and not shown["token_replaced"]
    record = api.game(table["game_id"], shown["seat_token"])
    assert record["status"] == "finished" and record["you"] == table["seat"]
    live = my_round(api, tid, second, 2)
    assert api.game(live["game_id"], live["seat_token"])["you"] == live["seat"]


def test_two_replacements_at_once_leave_the_table_with_the_newest_token(api, monkeypatch):
    """The first replacement sets its table's seat token after the second set a newer
    one: it sets the newest again, so the token the first one's holder could read on
    `/me` meanwhile does not keep playing."""
    from services.gameplay.auth import Credentials
    from services.gameplay.participant_seats import ParticipantSeats
    from services.gameplay.participant_tokens import participant_tokens
    from services.gameplay.tournament_runner import TournamentRunner
    from services.gameplay.tournament_tokens import table_game_id, table_seat_token

    created = swiss_of_two(api)
    tid = created["id"]
    ada = created["participants"][0]["token"]
    first_round = my_round(api, tid, ada, 1)
    settling, setting = TournamentRunner.settle_tokens, ParticipantSeats._set
    seen: dict[str, Any] = {}

    async def settle_tokens(self, tournament_id):
        seen.setdefault("runner", self)
        await settling(self, tournament_id)

    async def overtaken(self, stored, participant, generation):
        if generation == 1 and "newest" not in seen:
            creator = Credentials(
                bearer=KEY["Authorization"][7:], client_ip="127.0.0.1", platform=True
            )
            desk = participant_tokens(seen["runner"])
            seen["newest"], _ = await desk.replace(stored.id, creator, participant, None)
        await setting(self, stored, participant, generation)
        if generation == 1:
            record = await self.games.load(table_game_id(stored, 1, 1))
            seen["stale"] = table_seat_token(record, stored, 1, 1, first_round["seat"], 1)

    monkeypatch.setattr(TournamentRunner, "settle_tokens", settle_tokens)
    monkeypatch.setattr(ParticipantSeats, "_set", overtaken)
    assert replace(api, tid, 0, api.auth(ada)).status_code == 200
    stale = api.client.get(f"/v1/games/{first_round['game_id']}", headers=api.auth(seen["stale"]))
    assert stale.status_code == 401, "the older replacement's seat token still plays"
    shown = my_round(api, tid, seen["newest"].token, 1)
    assert shown["seat_token"] != seen["stale"] and not shown["token_replaced"]
    assert api.game(shown["game_id"], shown["seat_token"])["you"] == shown["seat"]


def test_a_token_replaced_again_and_again_keeps_the_tournament_bounded(api, monkeypatch):
    from services.gameplay.participant_seats import ParticipantSeats
    from services.gameplay.participant_tokens import SEAT_GENERATIONS_KEPT

    setting = ParticipantSeats._set
    kept: list[int] = []

    async def counted(self, stored, participant, generation):
        kept[:] = [len(generations) for generations in stored.seat_generations.values()]
        await setting(self, stored, participant, generation)

    monkeypatch.setattr(ParticipantSeats, "_set", counted)
    created = swiss_of_two(api)
    tid = created["id"]
    token = created["participants"][0]["token"]
    my_round(api, tid, token, 1)
    for _ in range(SEAT_GENERATIONS_KEPT + 4):
        answer = replace(api, tid, 0, KEY)
        assert answer.status_code == 200, answer.text
        token = answer.json()["token"]
    assert kept == [SEAT_GENERATIONS_KEPT]
    shown = my_round(api, tid, token, 1)
    assert api.game(shown["game_id"], shown["seat_token"])["you"] == shown["seat"]


def test_a_replacement_whose_process_died_is_finished_by_the_tournaments_next_step(
    api, receiver, monkeypatch
):
    """The token swapped, then the process died before the table's seat token was set
    and before the platform was told; nobody retries. The next step of the tournament
    (here another table ending) sets the seat and sends the webhook."""
    from services.gameplay.participant_tokens import ParticipantTokenDesk

    body = {
        "game": "hidden-numbers",
        "participants": [{"name": name} for name in ("Ada", "Bob", "Cy", "Dee")],
        "format": {"kind": "swiss", "rounds": 2},
        "webhook_url": receiver.url,
    }
    created = api.client.post("/v1/tournaments", json=body, headers=KEY).json()
    tid = created["id"]
    tokens = [p["token"] for p in created["participants"]]
    tables = [my_round(api, tid, token, 1) for token in tokens]
    leaked = tables[0]

    async def failing(*args, **kwargs):
        raise RuntimeError("the process died here")

    with monkeypatch.context() as dying:
        dying.setattr(ParticipantTokenDesk, "_settle", failing)
        with pytest.raises(RuntimeError):  # the test client re-raises what the app did
            replace(api, tid, 0, KEY)
    plays = api.client.get(f"/v1/games/{leaked['game_id']}", headers=api.auth(leaked["seat_token"]))
    assert plays.status_code == 200, "nothing settled yet"

    elsewhere = next(t for t in tables if t["game_id"] != leaked["game_id"])
    resign(api, elsewhere)
    deadline = time.monotonic() + 20
    while True:
        stale = api.client.get(
            f"/v1/games/{leaked['game_id']}", headers=api.auth(leaked["seat_token"])
        )
        told = [p for _, p in receiver.received if b"participant_token_replaced" in p]
        if stale.status_code == 401 and told:
            break
        assert time.monotonic() < deadline, (stale.status_code, receiver.received)
        time.sleep(0.05)
    assert [(t["participant"], t["by"]) for t in map(json.loads, told)] == [(0, "creator")]
