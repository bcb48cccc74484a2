"""Every request is logged as one JSON line with its request id and game id."""

import os

import orjson
from starlette.testclient import TestClient

from services.api.app import create_app
from services.api.requestlog import request_id_from
from services.gameplay.settings import Settings


def json_lines(text):
    return [orjson.loads(line) for line in text.splitlines() if line.startswith("{")]


def request_lines(capfd):
    return [line for line in json_lines(capfd.readouterr().err) if line.get("event") == "request"]


def test_each_request_is_logged_with_its_id_and_game(capfd):
    app = create_app(Settings(log_json=True, rate_limit_per_ip=0, rate_limit_per_token=0))
    with TestClient(app) as client:
        created = client.post(
            "/v1/games", json={"game": "sky-islands", "seats": [{"name": "A"}, {"name": "B"}]}
        ).json()
        capfd.readouterr()
        answer = client.get(f"/v1/games/{created['id']}", headers={"X-Request-ID": "abc-123"})
        assert answer.headers["x-request-id"] == "abc-123"
        [line] = request_lines(capfd)
    assert line["request_id"] == "abc-123"
    assert line["game_id"] == created["id"]
    assert line["status"] == 200 and line["method"] == "GET"
    assert "token" not in orjson.dumps(line).decode().lower()


def test_a_missing_or_unsafe_request_id_is_replaced_by_a_fresh_one(capfd):
    app = create_app(Settings(log_json=True, rate_limit_per_ip=0, rate_limit_per_token=0))
    with TestClient(app) as client:
        capfd.readouterr()
        plain = client.get("/healthz")
        odd = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
        lines = request_lines(capfd)
    assert len(plain.headers["x-request-id"]) == 32
    assert odd.headers["x-request-id"] != "bad id\twith spaces"
    assert [line["request_id"] for line in lines] == [
        plain.headers["x-request-id"],
        odd.headers["x-request-id"],
    ]
    assert all(line["game_id"] is None for line in lines)


def test_fresh_request_ids_never_repeat_within_a_process_or_across_forked_ones():
    ids = {request_id_from({"headers": []}) for _ in range(10_000)}
    assert len(ids) == 10_000
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe and exits
        os.write(writer, request_id_from({"headers": []}).encode())
        os._exit(0)
    os.close(writer)
    forked = os.read(reader, 64).decode()
    os.close(reader)
    os.waitpid(child, 0)
    mine = request_id_from({"headers": []})
    assert len(forked) == len(mine) == 32
    assert forked[:16] != mine[:16], "a forked process names its requests apart"
