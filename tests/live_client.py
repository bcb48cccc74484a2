"""A client of the live updates, shared by the live-update tests: it plays a game through
REST, reads an SSE stream frame by frame, and follows the GraphQL subscription."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect


async def play_one(http, game_id: str, tokens: list[str]) -> bool:
    """Make one move (the first legal one) for whoever is prompted. False once over."""
    game = (await http.get(f"/v1/games/{game_id}")).json()
    if game["status"] != "active":
        return False
    seat = game["turn"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    moves = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()["moves"]
    answer = await http.post(f"/v1/games/{game_id}/moves", json={"move": moves[0]}, headers=auth)
    assert answer.status_code == 200, answer.text
    return True


async def frames(response: httpx.Response):
    """Parse an SSE body into (id, event, data) frames; comments are yielded as
    (None, "comment", text)."""
    frame: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line == "":
            if "data" in frame:  # as EventSource: only frames with data are events
                yield frame.get("id"), frame.get("event", "message"), orjson.loads(frame["data"])
            frame = {}
        elif line.startswith(":"):
            yield None, "comment", line[1:].strip()
        else:
            name, _, value = line.partition(":")
            frame[name] = value[1:] if value.startswith(" ") else value


@contextlib.asynccontextmanager
async def graphql_subscription(
    base_url: str, query: str, variables: dict[str, Any], token: str | None = None
):
    """Yields an async iterator over the subscription's payloads (graphql-transport-ws)."""
    url = base_url.replace("http://", "ws://") + "/graphql"
    async with connect(url, subprotocols=["graphql-transport-ws"]) as socket:
        params = {"Authorization": f"Bearer {token}"} if token else {}
        await socket.send(json.dumps({"type": "connection_init", "payload": params}))
        ack = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        await socket.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": query, "variables": variables},
                }
            )
        )

        async def updates():
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                if message["type"] == "ping":
                    await socket.send(json.dumps({"type": "pong"}))
                    continue
                if message["type"] == "complete":
                    return
                assert message["type"] == "next", message
                yield message["payload"]

        yield updates()
