"""What a resolver knows about its request: the gameplay service and the caller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from services.gameplay.auth import Credentials, credentials_from
from services.gameplay.service import GameService
from services.gameplay.tournament_runner import TournamentRunner


@dataclass
class GraphQLContext:
    request: HTTPConnection
    response: Any = None
    connection_params: dict[str, Any] | None = None
    """The graphql-transport-ws `connection_init` payload (WebSocket only)."""

    @property
    def service(self) -> GameService:
        service: GameService = self.request.app.state.service
        return service

    @property
    def tournaments(self) -> TournamentRunner:
        runner: TournamentRunner = self.request.app.state.tournaments
        return runner

    @property
    def client_ip(self) -> str:
        return self.request.client.host if self.request.client else "unknown"

    def authorization(self) -> dict[str, str]:
        """Over HTTP the `Authorization` header; over a WebSocket the connection_init
        payload's `Authorization` (or `authorization`), else the handshake's header."""
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


def _from_params(params: dict[str, Any] | None) -> str | None:
    if not isinstance(params, dict):
        return None
    for key in ("Authorization", "authorization"):
        value = params.get(key)
        if isinstance(value, str):
            return value
    return None
