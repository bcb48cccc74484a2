"""Idempotency-Key for requests that commit no move (filling an open seat with a bot,
cancelling a waiting game, leaving a game a bot takes over): the first answer is kept
under the key, as a move's commit keeps it, and a retry gets it again; another request
under the same key is refused.

Each answer is kept by the script that makes the change, as a move's commit keeps a
move's (`Keeping`): a retry after whoever asked died between the change and the answer
still gets that answer. Two copies of one request sent at the same instant may still see
one succeed and the other refused as a conflict.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel

from services.store import GameStore

from . import metrics
from .auth import Credentials
from .payloads import GAME_ID_PATTERN
from .problems import Problem, idempotency_key_reused, not_found, unprocessable

Answer = TypeVar("Answer", bound=BaseModel)
GAME_ID = re.compile(GAME_ID_PATTERN)


def fingerprint(payload: Any) -> str:
    """What a request asked for, as a digest. A value orjson cannot encode (an integer
    beyond 64 bits) is the caller's mistake: each door refuses those itself, and this is
    the service's own guard, so that a new door cannot turn one into a 500."""
    try:
        encoded = orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        raise unprocessable(
            "invalid_request",
            "The request holds a value that cannot be kept as JSON (an integer beyond 64 bits).",
        ) from None
    return hashlib.sha256(encoded).hexdigest()


def key_digest(who: Credentials, idempotency_key: str) -> str:
    """Whose key it is and the key: the same key sent by another caller is another key."""
    return hashlib.sha256(f"{who.token_hash}\x00{idempotency_key}".encode()).hexdigest()


@dataclass(frozen=True)
class Keeping:
    """What a change's script needs to keep its answer under the request's key."""

    digest: str
    request_print: str

    def kept(self, answer: BaseModel) -> str:
        """`answer` as it is kept, for `replayed` to give back."""
        return orjson.dumps(
            {"fingerprint": self.request_print, "answer": answer.model_dump(mode="json")}
        ).decode()


async def once(
    store: GameStore,
    game_id: str,
    who: Credentials,
    idempotency_key: str | None,
    request: Mapping[str, Any],
    act: Callable[[Keeping | None], Awaitable[Answer]],
    answer_type: type[Answer],
) -> tuple[Answer, bool]:
    """`act(keeping)`'s answer, or the first answer to this key. Returns it and whether
    it is a replay. `request` is what the request asked for. `act` keeps its answer with
    its change, as `keeping` says (None without a key)."""
    if idempotency_key is None:
        return await act(None), False
    if not GAME_ID.fullmatch(game_id):  # before it names a key in the store
        raise not_found(game_id[:64])
    digest = key_digest(who, idempotency_key)
    request_print = fingerprint(request)
    first = await store.idempotent_answer(game_id, digest)
    if first is not None:
        return replayed(first, request_print, answer_type), True
    try:
        return await act(Keeping(digest, request_print)), False
    except Problem:
        # Refused: a first copy may have landed meanwhile (the retry that overtook it).
        first = await store.idempotent_answer(game_id, digest)
        if first is None:
            raise
        return replayed(first, request_print, answer_type), True


def replayed(stored: str, request_print: str, answer_type: type[Answer]) -> Answer:
    """The first answer kept under a key, if this request is the one that was answered."""
    first = orjson.loads(stored)
    if first.get("fingerprint") != request_print:
        raise idempotency_key_reused()
    metrics.IDEMPOTENT_REPLAYS.inc()
    return answer_type.model_validate(first["answer"])
