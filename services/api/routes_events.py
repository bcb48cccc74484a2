"""REST: the event log, as a JSON page or as a live Server-Sent Events stream.

SSE frames: `id: <version>` / `event: move|resign` / `data: <log entry JSON>` for each
committed version, `: keepalive` comments while idle, and at the end
`id: <version>-end` / `event: end` / `data: {status, version, result, reason}`, after
which the server closes the stream. A game that waited for players has, before its first
entry, `id: 0-start` / `event: start` / `data: {status, version, turn, at}` when its last
open seat is filled. Reconnecting with `Last-Event-ID: <version>` resumes after that
version (`0-start`: after the start); with `<version>-end` the answer is 204, which tells
EventSource to stop (400 if the game has not ended: no stream of it sent that id).

A seat's status changes without a commit (it left under `bot_takes_over`, its autopilot
went on or off): `event: seat` / `data: {seat, abandoned, autopilot, version, at, reason}`, with
no `id:` line, so EventSource's last event id stays the last version and resuming replays
the log as before. A status is not in the log: every stream sends, once it has caught up,
the status of each seat a bot plays for now, so one that (re)connects still learns it.

While a game waits for players, `event: lobby` / `data: {seats}` (no `id:`) gives its
seats as `GET /v1/games/{id}` shows them, once the stream has caught up and again each
time they change (an open seat claimed, an invite reissued); the last, with every seat
filled, comes just before `start`.

A seat's stream whose token is replaced (`POST …/seats/{seat}/token`) ends with
`event: problem` / `data: <problem document>` (401 `invalid_token`, no `id:`): it sends
nothing more, and opening it again with the old token is refused the same way.

While Redis cannot be reached the stream stays open (keep-alives go on); an outage past
`SKYPORT_STREAM_OUTAGE_LIMIT` ends it the same way with 503 `store_unavailable`, after
`retry: 5000` (its Retry-After) so that EventSource reconnects once Redis may be back.
A stream opened while Redis is down (or on a replica that lacks the game) is answered
200 with that one frame, not 503: EventSource gives up for good on any answer but 200.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from services.gameplay import metrics
from services.gameplay.auth import Credentials
from services.gameplay.payloads import EventsPage
from services.gameplay.per_client import LiveStreams
from services.gameplay.problems import Problem, as_store_problem, bad_request
from services.gameplay.service import (
    FeedEnd,
    FeedEntry,
    FeedItem,
    FeedLobby,
    FeedSeat,
    FeedStart,
)
from services.store import GameStatus

from .inputs import credentials, json_response, service
from .operations import BEARER_OR_NONE, Answer, operation
from .params import CACHE_CONTROL, LAST_EVENT_ID, LAST_EVENT_ID_PATTERN, EventsQuery, GamePath
from .ratelimit import client_ip

_LAST_EVENT_ID = re.compile(LAST_EVENT_ID_PATTERN)
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RECONNECT_MS = 2000


@operation(
    "GET",
    "/v1/games/{game_id}/events",
    summary="Events after version `since`, redacted for you; with "
    "Accept: text/event-stream a live SSE stream (resumable with Last-Event-ID).",
    tag="events",
    security=BEARER_OR_NONE,
    headers=(LAST_EVENT_ID,),
    answers=(
        Answer(
            200,
            "A page of log entries, or a live stream",
            {"application/json": EventsPage, "text/event-stream": {"type": "string"}},
            headers=(CACHE_CONTROL,),
        ),
        Answer(204, "Last-Event-ID was the end of the stream."),
    ),
    problems=(401, 409),
)
async def events(request: Request, path: GamePath, query: EventsQuery) -> Response:
    who = credentials(request)
    if "text/event-stream" in request.headers.get("accept", ""):
        return await _stream(request, path.game_id, who, query.since)
    page = await service(request).events(path.game_id, who, query.since, query.limit)
    return json_response(page)


async def _stream(request: Request, target: str, who: Credentials, since: int) -> Response:
    try:
        return await _open_stream(request, target, who, since)
    except Exception as error:
        problem = error if isinstance(error, Problem) else as_store_problem(error)
        if problem is None or problem.status != 503 or request.method == "HEAD":
            raise
        # EventSource gives up for good on any answer but 200 (a reconnect into a Redis
        # outage stopped it): a stream whose one frame says why, and when to come back.
        return Response(_last_frame(problem), media_type="text/event-stream", headers=SSE_HEADERS)


async def _open_stream(request: Request, target: str, who: Credentials, since: int) -> Response:
    # An empty id is EventSource's "none yet" (an `id:` field with no value resets it).
    last_event_id = request.headers.get("last-event-id", "").strip() or None
    after_start = False
    if last_event_id is not None:
        match = _LAST_EVENT_ID.match(last_event_id)
        if not match:
            raise bad_request(
                "invalid_last_event_id", "Last-Event-ID must be one this stream sent."
            )
        if match.group(2) == "-end":
            if not await service(request).stream_ended(target, who):
                raise bad_request(
                    "invalid_last_event_id",
                    "Last-Event-ID names the end of the stream, but this game has not ended.",
                )
            return Response(status_code=204)
        since = int(match.group(1))
        after_start = match.group(2) == "-start"
    if request.method == "HEAD":
        return await _head(request, target, who, since, after_start, last_event_id is not None)
    streams: LiveStreams = request.app.state.live_streams
    client = client_ip(request.scope)
    if not streams.open(client):
        raise streams.refusal()
    try:
        feed = await service(request).follow(
            target, who, since, after_start, resumed=last_event_id is not None
        )
    except BaseException:
        streams.close(client)
        raise
    return _Stream(_frames(feed), lambda: streams.close(client))


async def _head(
    request: Request, target: str, who: Credentials, since: int, after_start: bool, resumed: bool
) -> Response:
    """A stream's head, after the same checks, and no stream: a HEAD answer has no body,
    so a stream opened for it never ended (uvicorn drops the body, and the connection's
    next request waited behind it), holding its place among the client's streams."""
    feed = await service(request).follow(target, who, since, after_start, resumed=resumed)
    await feed.aclose()  # type: ignore[attr-defined]
    head = Response(media_type="text/event-stream", headers=SSE_HEADERS)
    del head.headers["content-length"]  # a stream has no length; 0 would be untrue
    return head


class _Stream(StreamingResponse):
    """An SSE response that gives its client's place back however it ends: a generator
    that never started (the client gone before the first frame) runs no `finally`."""

    def __init__(self, frames: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(frames, media_type="text/event-stream", headers=SSE_HEADERS)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


async def _frames(feed: AsyncIterator[FeedItem]) -> AsyncIterator[bytes]:
    metrics.LIVE_STREAMS.labels(kind="sse").inc()
    try:
        yield f"retry: {RECONNECT_MS}\n: connected\n\n".encode()
        async for item in feed:
            yield _frame(item)
            if isinstance(item, FeedEnd):
                return
    except Problem as problem:
        # The answer has begun: the last frame says why the body ends (whole: a failure
        # here used to cut it and log a 500), and when to come back if the problem says.
        yield _last_frame(problem)
    finally:
        metrics.LIVE_STREAMS.labels(kind="sse").dec()
        await feed.aclose()  # type: ignore[attr-defined]


def _last_frame(problem: Problem) -> bytes:
    retry_after = problem.extra.get("retry_after")
    retry = f"retry: {int(retry_after * 1000)}\n" if retry_after else ""
    return f"{retry}event: problem\ndata: ".encode() + orjson.dumps(problem.document()) + b"\n\n"


def _frame(item: FeedItem) -> bytes:
    if isinstance(item, FeedEntry):
        data = orjson.dumps(item.entry.model_dump(mode="json"))
        head = f"id: {item.entry.version}\nevent: {item.entry.action}\n"
        return head.encode() + b"data: " + data + b"\n\n"
    if isinstance(item, FeedStart):
        start = {
            "status": GameStatus.ACTIVE.value,
            "version": item.version,
            "turn": item.turn,
            "at": item.at,
        }
        head = f"id: {item.version}-start\nevent: start\n"
        return head.encode() + b"data: " + orjson.dumps(start) + b"\n\n"
    if isinstance(item, FeedLobby):
        seats = [seat.model_dump(mode="json") for seat in item.seats]
        return b"event: lobby\ndata: " + orjson.dumps({"seats": seats}) + b"\n\n"
    if isinstance(item, FeedSeat):
        # No id: a status is not a place in the log to resume from (see the module's doc).
        seat = {
            "seat": item.seat,
            "abandoned": item.abandoned,
            "autopilot": item.autopilot,
            "version": item.version,
            "at": item.at,
            "reason": item.reason,
        }
        return b"event: seat\ndata: " + orjson.dumps(seat) + b"\n\n"
    if isinstance(item, FeedEnd):
        end = {
            "status": item.status.value,
            "version": item.version,
            "result": item.result.model_dump(mode="json") if item.result else None,
            "reason": item.reason,
        }
        head = f"id: {item.version}-end\nevent: end\n"
        return head.encode() + b"data: " + orjson.dumps(end) + b"\n\n"
    return b": keepalive\n\n"


operations = [events]
