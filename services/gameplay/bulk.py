"""Bulk creation (`POST /v1/games/bulk`, lichess's bulk pairing as an analogue): up to
`MAX_BULK_GAMES` games in one request, for platform API keys.

All or nothing: every spec is checked (game, options, bot levels, webhook URL) and every
record built before anything is written; then one Lua script writes the whole batch or
nothing (`services.store.bulk`). Idempotent: with an Idempotency-Key (header, or
`idempotency_key` in the body) the games' ids and seat tokens are derived from the key,
so a repeat answers the same ids and tokens; the same key with another body is refused.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, replace

import orjson
from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from services.store import GameRecord
from services.store.bulk import BatchCreator

from . import metrics
from .auth import Credentials, check_idempotency_key, new_salt, require_api_key
from .commits import due_on_creation
from .game_ids import created_game_id
from .invites import Invites
from .payloads import TOO_MANY_GAMES, CreateGameRequest, GameCreated, Strict
from .problems import Problem, idempotency_key_reused, unprocessable
from .service import GameService, fingerprint, prompted_seats

MAX_BULK_GAMES = 200
MAX_BULK_WEBHOOK_URLS = 4


class BulkCreateRequest(Strict):
    games: list[CreateGameRequest] = Field(
        min_length=1,
        max_length=MAX_BULK_GAMES,
        description=f"1 to {MAX_BULK_GAMES} games, each as POST /v1/games takes it.",
    )
    idempotency_key: str | None = Field(
        default=None,
        description="As the Idempotency-Key header (which wins if both are sent): a repeat "
        "answers the same ids and tokens; the same key with another body is refused (422).",
    )

    @model_validator(mode="before")
    @classmethod
    def _at_most_the_limit(cls, data: object) -> object:
        """Over the limit the request is refused as a whole, before any game is read."""
        games = data.get("games") if isinstance(data, dict) else None
        if isinstance(games, list) and len(games) > MAX_BULK_GAMES:
            raise PydanticCustomError(
                TOO_MANY_GAMES,
                "A bulk creation takes at most {limit} games; {count} were sent.",
                {"limit": MAX_BULK_GAMES, "count": len(games)},
            )
        return data

    @field_validator("idempotency_key")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        if value is not None and check_idempotency_key(value) is None:
            raise ValueError("not an idempotency key")
        return value


class BulkCreated(BaseModel):
    games: list[GameCreated] = Field(description="In the order of the request, with tokens.")


@dataclass(frozen=True)
class _BuiltGame:
    record: GameRecord
    tokens: list[str | None]
    invites: Invites
    turn: tuple[int, ...]
    """The seats its first state prompts."""

    def answer(self, service: GameService) -> GameCreated:
        return self.invites.shown_in(service._created_answer(self.record, self.tokens))


class BulkCreation:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.batches = BatchCreator(service.store)

    async def create_games(
        self, who: Credentials, request: BulkCreateRequest, header_key: str | None
    ) -> tuple[BulkCreated, bool]:
        """Every game of the request, or none. Returns the answer and whether it is a
        replay of an earlier batch with the same key."""
        require_api_key(who, "Bulk creation")
        if header_key and request.idempotency_key and header_key != request.idempotency_key:
            raise unprocessable(
                "idempotency_key_mismatch",
                "The Idempotency-Key header and the body's idempotency_key differ; send one, "
                "or the same in both.",
            )
        key = header_key or request.idempotency_key
        body_print = fingerprint(request.model_dump(mode="json", exclude={"idempotency_key"}))
        digest = hashlib.sha256(f"{who.scope}\x00{key}".encode()).hexdigest()[:40] if key else None
        if digest is not None:  # a retry is answered before any game is set up again
            stored = await self.batches.stored(digest)
            if stored is not None:
                return await self._replayed(who, request, key, stored, body_print), True
        await self._check_webhook_urls(who, request.games)
        # Up to 200 set-ups, tokens and answers: a tenth of a second or more of CPU, kept
        # off the event loop.
        built = await asyncio.to_thread(self._built_all, who, request.games, key)
        records = [built_game.record for built_game in built]
        batch_record = orjson.dumps(
            {"fingerprint": body_print, "games": [record.id for record in records]}
        ).decode()
        dues = [due_on_creation(one.record, one.turn) for one in built]
        outcome = await self.batches.create(records, digest, batch_record, dues)
        if outcome.replayed is not None:
            return await self._replayed(who, request, key, outcome.replayed, body_print), True
        if outcome.clash is not None:
            raise Problem(
                409,
                "game_exists",
                "A game of this batch exists already; nothing was created.",
                refusal=True,
            )
        for built_game in built:
            await self.service.pipeline.created(built_game.record, built_game.turn)
        games = [built_game.answer(self.service) for built_game in built]
        return BulkCreated(games=games), False

    async def _check_webhook_urls(self, who: Credentials, games: list[CreateGameRequest]) -> None:
        """Each webhook URL of the batch checked once (a platform names one or a few for
        all its games), at most MAX_BULK_WEBHOOK_URLS of them: a batch's lookups are as
        bounded as a few creations'. A refusal names the first game with that URL."""
        first_index: dict[str, int] = {}
        for index, spec in enumerate(games):
            if spec.webhook_url is not None:
                first_index.setdefault(spec.webhook_url, index)
        if len(first_index) > MAX_BULK_WEBHOOK_URLS:
            raise unprocessable(
                "too_many_webhook_urls",
                f"A batch names {len(first_index)} webhook URLs; at most "
                f"{MAX_BULK_WEBHOOK_URLS} different ones are allowed.",
                limit=MAX_BULK_WEBHOOK_URLS,
            )
        for url, index in first_index.items():
            try:
                await self.service.check_webhook_url(url, who)
            except Problem as problem:
                raise _at(index, problem) from None

    def _built_all(
        self, who: Credentials, games: list[CreateGameRequest], key: str | None
    ) -> list[_BuiltGame]:
        return [self._built(who, index, spec, key) for index, spec in enumerate(games)]

    def _built(
        self, who: Credentials, index: int, request: CreateGameRequest, key: str | None
    ) -> _BuiltGame:
        """Game `index` as POST /v1/games sets one up (its open seats' invite codes and
        the creator token included; its webhook URL is checked with the batch's); a
        refusal names the game's index."""
        service = self.service
        try:
            game, policy, seed, state = service.set_up(request)
        except Problem as problem:
            raise _at(index, problem) from None
        game_key = f"bulk:{key}:{index}" if key else None
        salt = new_salt()
        tokens = service._tokens(request, who, game_key, salt)
        invites = service.invites(who, request, game_key, salt)
        record = service._new_record(
            created_game_id(who.scope, game_key), game, request, state, seed, tokens, who, salt
        )
        record = replace(
            record,
            create_fingerprint=fingerprint(request.model_dump(mode="json")),
            leave_policy=policy,
            creator_token_hash=invites.creator_token_hash,
            invites=invites.stored,
        )
        record = service._with_created_answer(record)
        return _BuiltGame(record, tokens, invites, prompted_seats(game, state))

    async def _replayed(
        self,
        who: Credentials,
        request: BulkCreateRequest,
        key: str | None,
        stored: str,
        body_print: str,
    ) -> BulkCreated:
        first = orjson.loads(stored)
        if first.get("fingerprint") != body_print:
            raise idempotency_key_reused()
        games: list[GameCreated] = []
        for index, (game_id, spec) in enumerate(zip(first["games"], request.games, strict=True)):
            record = await self.service.store.load(game_id)
            if record is None:
                raise Problem(
                    409,
                    "batch_expired",
                    f"Game {index} of this batch ({game_id}) has expired.",
                    refusal=True,
                )
            await self.service.finish_creation(record)  # the first batch may have died
            game_key = f"bulk:{key}:{index}"
            tokens = self.service._tokens(spec, who, game_key, record.token_salt)
            invites = self.service.invites(who, spec, game_key, record.token_salt)
            games.append(invites.shown_in(self.service._created_answer(record, tokens)))
        metrics.IDEMPOTENT_REPLAYS.inc()
        return BulkCreated(games=games)


def _at(index: int, problem: Problem) -> Problem:
    """The same refusal, saying which game of the batch it is about."""
    return Problem(
        problem.status,
        problem.code,
        f"Game {index}: {problem.detail}",
        headers=problem.headers,
        refusal=problem.refusal,
        **{**problem.extra, "index": index},
    )
