"""Creating many games at once, all or nothing: one Lua script checks that no game of
the batch exists (and that its idempotency key is new), then writes every game and the
batch's answer, so no reader ever sees part of a batch.

The script touches the keys of many games, so it needs them on one Redis node (a single
server or the embedded store; on Redis Cluster the batch would need one hash tag)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from .records import GameRecord
from .store import DueNote, GameStore

CREATE_BATCH = """
-- KEYS[1] the batch's idempotency record (never written when ARGV[3] is '')
-- KEYS[2..] one game record per game of the batch
-- ARGV[1] games' ttl ms, ARGV[2] batch record ttl ms, ARGV[3] batch record ('' for none),
-- then per game: its channel, the number n of field/value items, and the n items
if ARGV[3] ~= '' then
  local first = redis.call('GET', KEYS[1])
  if first then return {'replayed', first} end
end
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return {'exists', KEYS[i]} end
end
local at = 4
for i = 2, #KEYS do
  local channel = ARGV[at]
  local n = tonumber(ARGV[at + 1])
  local fields = {}
  for j = at + 2, at + 1 + n do fields[#fields + 1] = ARGV[j] end
  redis.call('HSET', KEYS[i], unpack(fields))
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
  redis.call('PUBLISH', channel, '0')
  at = at + 2 + n
end
if ARGV[3] ~= '' then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[2]) end
return {'created', ''}
"""


@dataclass(frozen=True)
class BatchOutcome:
    created: bool
    """False: nothing was written (see `replayed` and `clash`)."""
    replayed: str | None = None
    """The batch record stored under the idempotency key by an earlier batch."""
    clash: str | None = None
    """A game of the batch that exists already."""


class BatchCreator:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.redis: Redis = store.redis
        self._create = self.redis.register_script(CREATE_BATCH)

    def batch_key(self, scope_digest: str | None) -> str:
        if scope_digest is None:
            return f"{self.store.prefix}:bulk:-"
        return f"{self.store.prefix}:bulk:{scope_digest}"

    async def stored(self, scope_digest: str) -> str | None:
        """The batch record an earlier batch with this key kept, if any."""
        return cast(str | None, await self.redis.get(self.batch_key(scope_digest)))

    async def create(
        self,
        records: Sequence[GameRecord],
        scope_digest: str | None,
        batch_record: str,
        work_due: Sequence[bool] = (),
    ) -> BatchOutcome:
        """Write every record, or none. `batch_record` is kept under the batch key for
        `idempotency` seconds when `scope_digest` is given. `work_due`: per record,
        whether a bot may be prompted first (noted with the batch, as `GameStore.create`
        does)."""
        keys = [self.batch_key(scope_digest)]
        args: list[str | int] = [
            max((self.store.ttl_of_new(record) for record in records), default=0),
            self.store.lifetimes.idempotency * 1000,
            batch_record if scope_digest is not None else "",
        ]
        for record in records:
            ids = self.store.keys(record.id)
            keys.append(ids.record)
            fields = [item for pair in record.to_fields().items() for item in pair]
            args += [ids.channel, len(fields), *fields]
        dues = list(work_due) or [False] * len(records)
        notes = [DueNote.of_new(record, due) for record, due in zip(records, dues, strict=True)]
        verdict, value = await self.store.noted_before(self._create, keys, args, notes)
        if verdict == "replayed":
            return BatchOutcome(False, replayed=str(value))
        if verdict == "exists":
            return BatchOutcome(False, clash=str(value))
        for record in records:
            await self.store.add_to_indexes(record)
        return BatchOutcome(True)
