"""What a resolver knows about its request: the gameplay service and the caller."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from services.gameplay.auth import Credentials, credentials_from
from services.gameplay.per_client import LiveStreams
from services.gameplay.service import GameService
from services.gameplay.tournament_runner import TournamentRunner


@dataclass
class GraphQLContext:
    request: HTTPConnection
    response: Any = None
    connection_params: dict[str, Any] | None = None
    """The graphql-transport-ws `connection_init` payload (WebSocket only)."""
    tournament_items: int = 0
    """Tournament tables, rounds and standings rows this answer holds so far."""
    count_requests: Callable[[GraphQLContext, int], Awaitable[None]] | None = None
    """Counts that many more requests of the caller against the rate limits, raising
    `Problem` 429 rate_limited over one (None: no limits, as in tests that build no app)."""

    @property
    def service(self) -> GameService:
        service: GameService = self.request.app.state.service
        return service

    @property
    def tournaments(self) -> TournamentRunner:
        runner: TournamentRunner = self.request.app.state.tournaments
        return runner

    @property
    def live_streams(self) -> LiveStreams:
        """The replica's count of live streams per client IP, shared with SSE."""
        streams: LiveStreams = self.request.app.state.live_streams
        return streams

    @property
    def client_ip(self) -> str:
        return self.request.client.host if self.request.client else "unknown"

    def authorization(self) -> dict[str, str]:
        """Over HTTP the `Authorization` header; over a WebSocket the connection_init
        payload's `Authorization` (or `authorization`, at its top or in its `headers`),
        else the handshake's header."""
        authorization = _from_params(self.connection_params)
        if authorization is not None:
            return {"authorization": authorization}
        if "authorization" in self.request.headers:
            return {"authorization": self.request.headers["authorization"]}
        return {}

    def credentials(self) -> Credentials:
        return credentials_from(
            self.authorization(), self.client_ip, self.request.app.state.api_keys
        )


AUTHORIZATION_KEYS = ("Authorization", "authorization")
CONNECTION_PARAMS_HELP = (
    'connection_init payload: send {"Authorization": "Bearer <token>"}, or {} to watch'
)


def connection_params_problem(params: object) -> str | None:
    """Why a `connection_init` payload cannot be read, or None. It is `{}` (or none) for a
    spectator, else it carries credentials, as `Authorization` or, as Apollo's and urql's
    clients send them, inside `headers`. Anything else is refused rather than read as a
    spectator, which would hide every seat's private view from a client that meant to
    sign in."""
    if params is None or params == {}:
        return None
    if not isinstance(params, dict):
        return CONNECTION_PARAMS_HELP
    headers = params.get("headers")
    places = [params, headers] if isinstance(headers, dict) else [params]
    values = [place[key] for place in places for key in AUTHORIZATION_KEYS if key in place]
    if "headers" in params and not isinstance(headers, dict):
        return CONNECTION_PARAMS_HELP
    if not values or not all(isinstance(value, str) for value in values):
        return CONNECTION_PARAMS_HELP
    return None


def _from_params(params: dict[str, Any] | None) -> str | None:
    if not isinstance(params, dict):
        return None
    headers = params.get("headers")
    for place in (params, headers if isinstance(headers, dict) else {}):
        for key in AUTHORIZATION_KEYS:
            value = place.get(key)
            if isinstance(value, str):
                return value
    return None
