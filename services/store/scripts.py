"""The Lua scripts that change a game. Each runs atomically inside Redis and touches
only keys of one game (one hash tag), so each works unchanged on Redis Cluster."""

from __future__ import annotations

CREATE = """
-- KEYS[1] game record
-- ARGV[1] ttl ms, ARGV[2] channel, ARGV[3..] field, value, field, value...
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'exists', redis.call('HGET', KEYS[1], 'fingerprint') or ''}
end
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], '0')
return {'created', ''}
"""

COMMIT = """
-- Compare-and-set of one move: applies only if the game is still at the version the
-- move was validated against.
-- KEYS[1] game record, KEYS[2] log stream, KEYS[3] idempotency record
-- ARGV[1] expected version, ARGV[2] new state, ARGV[3] new status, ARGV[4] log entry,
-- ARGV[5] updated_at, ARGV[6] ttl ms, ARGV[7] idempotency record ('' for none),
-- ARGV[8] idempotency ttl ms, ARGV[9] channel, ARGV[10] clocks ('' for an untimed game),
-- ARGV[11] the seat that resigns with this commit ('' for none),
-- ARGV[12] the record's expected revision ('' for any; see `records.REVISION_FIELD`)
if ARGV[7] ~= '' then
  local first = redis.call('GET', KEYS[3])
  if first then return {'replayed', first} end
end
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {'missing', ''} end
if current ~= ARGV[1] then return {'conflict', current} end
if ARGV[12] ~= '' and (redis.call('HGET', KEYS[1], 'rev') or '0') ~= ARGV[12] then
  return {'stale', current}
end
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'active' then return {'closed', status} end
local version = tostring(tonumber(current) + 1)
redis.call('HSET', KEYS[1], 'version', version, 'state', ARGV[2], 'status', ARGV[3],
           'updated_at', ARGV[5])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[10]) end
if ARGV[11] ~= '' then
  local resigned = redis.call('HGET', KEYS[1], 'resigned')
  redis.call('HSET', KEYS[1], 'resigned', (resigned and resigned .. ' ' or '') .. ARGV[11])
end
redis.call('XADD', KEYS[2], version .. '-0', 'entry', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
if ARGV[7] ~= '' then
  redis.call('SET', KEYS[3], ARGV[7], 'PX', ARGV[8])
end
redis.call('PUBLISH', ARGV[9], version)
return {'committed', version}
"""

TRANSITION = """
-- Moves a game from one status to another at a given version (scoring -> finished,
-- anything unfinished -> aborted), storing extra fields with it, and the answer to the
-- request that asked for it under its Idempotency-Key, if any.
-- KEYS[1] game record, KEYS[2] log stream, KEYS[3] idempotency answer (or a key never set)
-- ARGV[1] version, ARGV[2] allowed current statuses (space-separated), ARGV[3] new status,
-- ARGV[4] updated_at, ARGV[5] ttl ms, ARGV[6] channel, ARGV[7] answer ('' none),
-- ARGV[8] answer ttl ms, ARGV[9..] extra field, value...
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return 'stale' end
local status = redis.call('HGET', KEYS[1], 'status')
if not string.find(' ' .. ARGV[2] .. ' ', ' ' .. status .. ' ', 1, true) then
  return 'stale'
end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'updated_at', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
if ARGV[7] ~= '' then redis.call('SET', KEYS[3], ARGV[7], 'PX', ARGV[8], 'NX') end
redis.call('PUBLISH', ARGV[6], current)
return 'done'
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""KEYS[1] a hold; ARGV[1] its holder. Deletes the hold only if that holder still has it."""
