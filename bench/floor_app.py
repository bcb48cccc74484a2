"""The floor for bench/load.py: the least a move can cost over HTTP with Redis.

A bare Starlette app with two endpoints and no game logic:

    GET  /floor/{key}  -> {"version": n, "blob": ...}       (one HMGET)
    POST /floor/{key}  {"version": n, "blob": ...}         (one Lua compare-and-set)

The POST stores the blob only if the stored version is still `n`, like a Skyport move
commit; 200 with the new version, or 409. Run it with uvicorn (bench/load.py does), with
FLOOR_REDIS_URL pointing at the same Redis as the service.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

CAS = """
local current = redis.call('HGET', KEYS[1], 'version') or '0'
if current ~= ARGV[1] then return {0, current} end
local version = tostring(tonumber(current) + 1)
redis.call('HSET', KEYS[1], 'version', version, 'blob', ARGV[2])
redis.call('PEXPIRE', KEYS[1], 600000)
return {1, version}
"""


def _key(request: Request) -> str:
    return f"skyport-floor:{{{request.path_params['key']}}}"


async def read(request: Request) -> Response:
    version, blob = await request.app.state.redis.hmget(_key(request), "version", "blob")
    body = b'{"version":' + (version or "0").encode() + b',"blob":' + (blob or "null").encode()
    return Response(body + b"}", media_type="application/json")


async def write(request: Request) -> Response:
    payload = orjson.loads(await request.body())
    blob = orjson.dumps(payload["blob"]).decode()
    won, version = await request.app.state.cas(
        keys=[_key(request)], args=[payload["version"], blob]
    )
    status = 200 if int(won) else 409
    return Response(orjson.dumps({"version": int(version)}), status, media_type="application/json")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    url = os.environ.get("FLOOR_REDIS_URL", "redis://127.0.0.1:6379/0")
    pool = BlockingConnectionPool.from_url(url, max_connections=64, decode_responses=True)
    app.state.redis = Redis(connection_pool=pool)
    app.state.cas = app.state.redis.register_script(CAS)
    yield
    await app.state.redis.aclose()


app = Starlette(
    routes=[
        Route("/floor/{key}", read, methods=["GET"]),
        Route("/floor/{key}", write, methods=["POST"]),
    ],
    lifespan=lifespan,
)
