"""All configuration, from environment variables prefixed `SKYPORT_`.

One object, read once at start-up. Nothing else in the service reads the environment.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

_PREFIX_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
MIN_SECRET_CHARS = 16
PLACEHOLDER = "change-me"
"""What the shipped templates (k8s/, the compose file's comments) put where a secret goes."""


def _check_secret(what: str, secret: str) -> None:
    """Refuse a secret anyone could know: a template's placeholder, or a short word."""
    make_one = "make one with `openssl rand -hex 32`"
    if PLACEHOLDER in secret.lower():
        raise ValueError(f"{what} is still a {PLACEHOLDER!r} placeholder; {make_one}")
    if len(secret) < MIN_SECRET_CHARS:
        raise ValueError(f"{what} is shorter than {MIN_SECRET_CHARS} characters; {make_one}")


def comma_separated(value: str) -> list[str]:
    """The entries of a comma-separated setting, trimmed, empty ones left out."""
    return [entry.strip() for entry in value.split(",") if entry.strip()]


_ORIGIN_PATTERN = re.compile(
    r"^https?://([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$", re.IGNORECASE
)
"""A web origin as a browser sends it: scheme, host (a name, IPv4 or bracketed IPv6) and
an optional port; no path, no trailing slash."""


class Settings(BaseSettings):
    # No setting's value in an error: a start-up failure goes to logs, and some values are
    # secrets (API keys, the webhook secret, a Redis URL with its password).
    model_config = SettingsConfigDict(
        env_prefix="SKYPORT_", extra="ignore", hide_input_in_errors=True
    )

    # --- storage -------------------------------------------------------------------
    redis_url: str | None = Field(
        default=None,
        description="Redis to keep games in, e.g. redis://localhost:6379/0. "
        "Unset: embedded mode, an in-process store that forgets everything on exit.",
    )
    redis_max_connections: int = Field(
        default=64, ge=2, description="Size of the blocking Redis connection pool."
    )
    redis_pool_timeout: float = Field(
        default=5.0, gt=0, description="Seconds a request waits for a free Redis connection."
    )
    key_prefix: str = Field(
        default="skyport", description="Prefix of every Redis key and channel the service uses."
    )
    finished_game_ttl: int = Field(
        default=7 * 24 * 3600, gt=0, description="Seconds a finished game is kept."
    )
    abandoned_game_ttl: int = Field(
        default=30 * 24 * 3600,
        gt=0,
        description="Seconds an unfinished game is kept after its last move.",
    )
    idempotency_ttl: int = Field(
        default=24 * 3600, gt=0, description="Seconds an Idempotency-Key is remembered."
    )
    record_ttl: int = Field(
        default=90 * 24 * 3600,
        gt=0,
        description="Seconds the record of a finished game is kept (GET /v1/games/{id}/record, "
        "GET /v1/records), counted from its end; it outlives the game itself.",
    )

    # --- access ----------------------------------------------------------------------
    api_keys: Annotated[list[SecretStr], NoDecode] = Field(
        default_factory=list,
        description="Comma-separated platform API keys. Holders may create games, and list "
        "and read in full (once finished) the games their own key created.",
    )
    anonymous_create: bool = Field(
        default=True,
        description="Whether callers without an API key may create games.",
    )
    invite_ttl: int = Field(
        default=24 * 3600,
        ge=60,
        le=7 * 24 * 3600,
        description="Seconds an open seat's invite code is valid, unless the game's "
        "creation asks for another time (invite_ttl_seconds).",
    )
    rate_limit_per_ip: int = Field(
        default=600, ge=0, description="Requests per window per client IP; 0 turns it off."
    )
    rate_limit_per_token: int = Field(
        default=300,
        ge=0,
        description="Requests per window per bearer token (seat token or API key); 0 is off.",
    )
    rate_limit_window: int = Field(default=60, gt=0, description="Rate-limit window in seconds.")
    create_limit_per_ip: int = Field(
        default=60,
        ge=0,
        description="Games one client IP may create per hour without an API key; 0 is no limit.",
    )
    max_body_bytes: int = Field(
        default=64 * 1024, gt=0, description="Largest request body accepted, in bytes."
    )
    request_receive_seconds: float = Field(
        default=30.0,
        gt=0,
        le=600,
        description="Seconds a request may take to arrive whole (headers and body) once the "
        "server waits for it; slower is 408 request_timeout and the connection closed.",
    )
    webhook_secret: SecretStr | None = Field(
        default=None,
        description="Key the workers sign outgoing webhooks with (HMAC); unused by the API.",
    )
    api_key_webhooks: dict[str, str] = Field(
        default_factory=dict,
        description='JSON object mapping an API key to a callback URL, e.g. {"key": '
        '"https://platform.example/hooks"}: events of every game that key creates are POSTed '
        "there too.",
    )
    webhook_allow_private: bool = Field(
        default=False,
        description="Let webhooks go to loopback, private, link-local and cluster-internal "
        "hosts (e.g. http://127.0.0.1:9000/hook). For local development only: otherwise "
        "anyone who creates a game could make the service POST to its own neighbours.",
    )
    webhook_max_retries: int = Field(
        default=8, ge=0, description="Retries of a failed webhook delivery before giving up."
    )
    webhook_backoff_seconds: float = Field(
        default=1.0,
        gt=0,
        description="First retry delay of a webhook; doubles each retry (with jitter).",
    )
    webhook_backoff_max: float = Field(
        default=20.0,
        gt=0,
        description="Longest delay between two webhook retries (keep it below the task "
        "visibility timeout).",
    )
    webhook_timeout: float = Field(
        default=10.0,
        gt=0,
        description="Seconds one webhook POST may take, from connecting to the answer's "
        "status line (its body is never read).",
    )
    webhook_outbox_max_entries: int = Field(
        default=10_000,
        ge=1,
        description="Most webhooks kept in Redis while the broker cannot take them (to be "
        "sent by the sweep once it can); one more drops the oldest, counted in "
        "skyport_webhooks_not_sent_total.",
    )
    webhook_outbox_max_age: int = Field(
        default=86_400,
        ge=60,
        description="Seconds a webhook the broker could not take is kept for a later send; "
        "older, it is dropped and counted in skyport_webhooks_not_sent_total.",
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="Proxies whose X-Forwarded-For gives the client IP: comma-separated "
        "addresses or CIDR networks (e.g. the ingress controller's pod network). The "
        "client is the right-most X-Forwarded-For entry that is not one of them; entries "
        "a client wrote further left are ignored. '*' trusts any peer to append one entry "
        "(the right-most is the client); empty trusts none.",
    )
    cors_allow_origins: str = Field(
        default="",
        description="Web origins whose pages may call the API from a browser (CORS): "
        "comma-separated, such as 'https://app.example.com', or '*' for any page. Empty: "
        "none (pages served by Skyport itself, like the playground, need no CORS). Tokens "
        "travel in the Authorization header, never in cookies, so no credentials mode "
        "is offered.",
    )

    # --- background work: bots, scoring -------------------------------------------
    tasks: Literal["inprocess", "celery"] | None = Field(
        default=None,
        description="Where bot turns, scoring, clocks and webhooks run: 'inprocess' "
        "(background tasks of the API process) or 'celery' (workers). Unset: 'celery' when "
        "a Redis URL is set; always 'inprocess' without one.",
    )
    broker_url: str | None = Field(
        default=None,
        description="Celery broker URL (any Celery broker). Unset: the Redis URL.",
    )
    task_queue: str = Field(
        default="skyport", description="Name of the Celery queue the API and workers share."
    )
    worker_metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Port of a worker's Prometheus endpoint (bot turn time, scoring time, "
        "queue depth); 0 serves none.",
    )
    worker_concurrency: int = Field(
        default=2, ge=1, description="Tasks one `skyport worker` runs at once (processes)."
    )
    task_visibility_timeout: int = Field(
        default=30,
        ge=2,
        description="Seconds after which a task taken by a worker that died without "
        "acknowledging it is delivered again; keep it above the longest task "
        "(the mcts budget).",
    )
    task_max_deliveries: int = Field(
        default=5,
        ge=1,
        description="Deliveries of one task (same game and version) that may die unfinished "
        "(their worker killed) before the game is aborted rather than tried forever.",
    )
    clock_sweep_seconds: float = Field(
        default=1.0,
        gt=0,
        description="How often game clocks are checked for time-outs (in-process, or by the "
        "workers, unless started with --no-beat).",
    )
    # --- keeping games going when workers die or Redis restarts -----------------
    task_stall_seconds: float = Field(
        default=5.0,
        gt=0,
        description="A game whose bot turn or scoring is due and that has not moved for "
        "this long gets its turn sent again by the sweep (every `skyport worker`, or the "
        "API process itself with SKYPORT_TASKS=inprocess). Kept at "
        "least 2 s above the mcts budget, so a bot that is thinking is not sent twice. "
        "A change whose webhooks (move, seat.left, game.seat_claimed, game.started, "
        "game.cancelled, game.aborted) were not handed over for this long (whoever made "
        "the change died first) gets them sent by the sweep.",
    )
    task_retry_seconds: float = Field(
        default=60.0,
        ge=0,
        description="How long a task retries in place, with back-off, while Redis or the "
        "broker is unreachable, before it hands its message back to the queue.",
    )
    bot_mcts_seconds: float = Field(
        default=2.0,
        gt=0,
        description="Thinking time of the mcts bot per move, in seconds (its budget cap).",
    )
    bot_mcts_iterations: int = Field(
        default=200, ge=1, description="Iterations of the mcts bot per move, at most."
    )

    # --- live updates --------------------------------------------------------------
    stream_keepalive: float = Field(
        default=15.0,
        gt=0,
        description="Seconds between keep-alive comments on an idle event stream; also how "
        "often a live stream re-reads Redis should a notification be lost.",
    )
    stream_outage_limit: float = Field(
        default=60.0,
        gt=0,
        description="Seconds a live stream rides out a Redis it cannot reach (keeping its "
        "connection and keep-alives, reading again with back-off) before it ends: SSE's "
        "body ends (with `retry:` set to wait), a GraphQL subscription ends with "
        "store_unavailable.",
    )

    # --- GraphQL ------------------------------------------------------------------
    graphql_max_depth: int = Field(default=12, gt=0, description="Deepest GraphQL query allowed.")
    graphql_max_cost: int = Field(
        default=20_000,
        gt=0,
        description="Costliest GraphQL query allowed (fields, multiplied by list sizes).",
    )
    graphql_cache_size: int = Field(
        default=1024,
        gt=0,
        description="GraphQL documents kept parsed and validated (only documents that pass, "
        "and at most a million characters of them in all).",
    )
    graphql_max_length: int = Field(
        default=32_768,
        gt=0,
        description="Longest GraphQL document, in characters; longer ones are refused "
        "before parsing.",
    )
    graphql_max_tokens: int = Field(
        default=10_000,
        gt=0,
        description="Most tokens in a GraphQL document; more are refused before parsing.",
    )
    graphql_ws_max_subscriptions: int = Field(
        default=20,
        gt=0,
        description="Operations one GraphQL WebSocket may run at once (subscriptions, and "
        "queries or mutations not yet answered).",
    )
    graphql_ws_max_unsent_bytes: int = Field(
        default=1 << 20,
        gt=0,
        description="Bytes of answers one GraphQL WebSocket may have waiting to be sent to a "
        "client that does not read them (beyond what the socket itself buffers); one more "
        "answer then closes the connection with 4413.",
    )
    graphql_ws_max_connections_per_ip: int = Field(
        default=50,
        ge=0,
        description="GraphQL WebSockets one client IP may hold open on one replica; 0 is no limit.",
    )
    sse_max_streams_per_ip: int = Field(
        default=50,
        ge=0,
        description="Live streams one client IP may hold open on one replica, SSE streams "
        "and GraphQL gameEvents subscriptions together; 0 is no limit.",
    )
    max_connections_per_ip: int = Field(
        default=256,
        ge=0,
        description="Connections one address may hold open to one replica (`skyport serve`); "
        "the next is answered 429 too_many_connections and closed. Trusted proxies "
        "(SKYPORT_FORWARDED_ALLOW_IPS) are not capped; 0 is no limit.",
    )

    # --- logging ------------------------------------------------------------------
    log_level: str = Field(default="info", description="debug, info, warning or error.")
    log_json: bool = Field(default=False, description="Log JSON lines instead of console text.")

    @field_validator("api_keys", mode="before")
    @classmethod
    def _split_keys(cls, value: object) -> object:
        if isinstance(value, str):
            return comma_separated(value)
        return value

    @field_validator("api_keys")
    @classmethod
    def _real_keys(cls, value: list[SecretStr]) -> list[SecretStr]:
        for number, key in enumerate(value, 1):
            _check_secret(f"API key {number}", key.get_secret_value())
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _real_webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            _check_secret("the webhook secret", value.get_secret_value())
        return value

    @field_validator("key_prefix")
    @classmethod
    def _plain_prefix(cls, value: str) -> str:
        # Braces would break the Redis Cluster hash tags; glob characters the pub/sub pattern.
        if not _PREFIX_PATTERN.fullmatch(value):
            raise ValueError("use 1-64 of A-Z a-z 0-9 _ . : -")
        return value

    @field_validator("api_key_webhooks")
    @classmethod
    def _web_urls(cls, value: dict[str, str]) -> dict[str, str]:
        for url in value.values():
            if not re.match(r"^https?://\S+$", url):
                raise ValueError(f"not an http(s) URL: {url!r}")
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _proxy_networks(cls, value: str) -> str:
        entries = comma_separated(value)
        if entries != ["*"]:
            for entry in entries:
                ipaddress.ip_network(entry, strict=False)  # ValueError names a bad entry
        return value

    @field_validator("cors_allow_origins")
    @classmethod
    def _web_origins(cls, value: str) -> str:
        entries = comma_separated(value)
        if entries != ["*"]:
            for entry in entries:
                if not _ORIGIN_PATTERN.match(entry):
                    raise ValueError(f"not a web origin (scheme://host[:port], no path): {entry!r}")
        return value

    @field_validator("task_queue")
    @classmethod
    def _plain_queue(cls, value: str) -> str:
        if not _PREFIX_PATTERN.fullmatch(value):
            raise ValueError("use 1-64 of A-Z a-z 0-9 _ . : -")
        return value

    @property
    def embedded(self) -> bool:
        return not self.redis_url

    @property
    def task_mode(self) -> Literal["inprocess", "celery"]:
        """Where background work runs (see `tasks`). Embedded mode always runs it here:
        workers could not read an in-process store."""
        if not self.redis_url:
            return "inprocess"
        return self.tasks or "celery"

    @property
    def celery_broker_url(self) -> str | None:
        return self.broker_url or self.redis_url


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
