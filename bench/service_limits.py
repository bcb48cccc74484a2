"""Measure one API process the way the image runs it, against a real Redis on this machine.

    .venv/bin/python bench/service_limits.py [--redis redis://127.0.0.1:6379/12]

Prints start-up time, memory, requests per second and latency for health checks, game
creation and moves (every registered game, human seats playing their first legal move),
and the time from SIGTERM to exit. The load generator shares the machine's cores with the
server, so the numbers are a floor. Everything is bounded in count and time, and only goes
to 127.0.0.1. Not a test: run by hand, numbers go to the README ("Limits measured").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import redis

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load import free_port  # noqa: E402
from bench.redis_keys import delete_keys, keys_matching  # noqa: E402

SKYPORT = str(Path(sys.executable).parent / "skyport")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def summary(name: str, latencies: list[float], seconds: float, errors: int) -> None:
    ordered = sorted(latencies)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    print(
        f"{name:<28} {len(ordered) / seconds:8.0f}/s  p50 {p(0.5):6.1f} ms  "
        f"p99 {p(0.99):6.1f} ms  n={len(ordered)} errors={errors}"
    )


async def hammer(
    name: str, count: int, concurrency: int, one: Callable[[], Awaitable[object]]
) -> None:
    latencies: list[float] = []
    errors = 0
    remaining = iter(range(count))

    async def lane() -> None:
        nonlocal errors
        for _ in remaining:
            started = time.perf_counter()
            try:
                await one()
            except Exception:
                errors += 1
                continue
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(lane() for _ in range(concurrency)))
    summary(name, latencies, time.perf_counter() - started, errors)


async def play(client: httpx.AsyncClient, game: dict, seconds: float, lanes: int) -> None:
    """Lanes each play games of `game` move by move until `seconds` have passed."""
    move_latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds
    seats = [{"name": f"p{i}"} for i in range(game["min_players"])]

    async def lane() -> None:
        nonlocal errors
        while time.perf_counter() < deadline:
            created = (
                await client.post("/v1/games", json={"game": game["id"], "seats": seats})
            ).json()
            tokens = [seat["token"] for seat in created["seats"]]
            status = created["status"]
            while status == "active" and time.perf_counter() < deadline:
                moved = False
                for token in tokens:
                    auth = {"authorization": f"Bearer {token}"}
                    legal = await client.get(f"/v1/games/{created['id']}/legal-moves", headers=auth)
                    moves = legal.json().get("moves") if legal.status_code == 200 else None
                    if not moves:
                        continue
                    started = time.perf_counter()
                    answer = await client.post(
                        f"/v1/games/{created['id']}/moves", json={"move": moves[0]}, headers=auth
                    )
                    if answer.status_code != 200:
                        errors += 1
                        break
                    move_latencies.append(time.perf_counter() - started)
                    status = answer.json()["status"]
                    moved = True
                    break
                if not moved:
                    break

    started = time.perf_counter()
    await asyncio.gather(*(lane() for _ in range(lanes)))
    summary(f"moves ({game['id']})", move_latencies, time.perf_counter() - started, errors)


async def measure(base: str) -> None:
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        catalog = (await client.get("/v1/catalog")).json()["games"]
        await hammer("GET /healthz", 4000, 32, lambda: client.get("/healthz"))
        first = catalog[0]
        body = {
            "game": first["id"],
            "seats": [{"name": f"p{i}"} for i in range(first["min_players"])],
        }
        await hammer(
            f"POST /v1/games ({first['id']})", 600, 16, lambda: client.post("/v1/games", json=body)
        )
        created = (await client.post("/v1/games", json=body)).json()
        await hammer(
            "GET /v1/games/{id} (spectator)",
            2000,
            16,
            lambda: client.get(f"/v1/games/{created['id']}"),
        )
        for game in catalog:
            await play(client, game, seconds=10, lanes=8)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()
    prefix = f"skyport-measure-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKYPORT_")}
    env.update(
        SKYPORT_REDIS_URL=args.redis,
        SKYPORT_KEY_PREFIX=prefix,
        SKYPORT_RATE_LIMIT_PER_IP="0",
        SKYPORT_CREATE_LIMIT_PER_IP="0",
        SKYPORT_RATE_LIMIT_PER_TOKEN="0",
        SKYPORT_LOG_JSON="true",
        SKYPORT_LOG_LEVEL="warning",
        PYTHONDONTWRITEBYTECODE="1",
    )
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    server = subprocess.Popen(
        [SKYPORT, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.perf_counter() - started > 60 or server.poll() is not None:
                raise SystemExit("the server did not become ready")
            time.sleep(0.02)
        print(f"start-up to ready (Redis)      {time.perf_counter() - started:6.2f} s")
        print(f"memory, idle                   {rss_mib(server.pid):6.0f} MiB RSS")
        asyncio.run(measure(base))
        print(f"memory, after the load         {rss_mib(server.pid):6.0f} MiB RSS")
        stopping = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
        print(
            f"SIGTERM to exit (idle)         {time.perf_counter() - stopping:6.2f} s, status {code}"
        )
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        client = redis.Redis.from_url(args.redis)
        keys = keys_matching(client, f"{prefix}*")
        games = sum(1 for key in keys if key.endswith(b":game"))
        used = sum(client.memory_usage(key) or 0 for key in keys)
        if games:
            print(f"Redis per game (all its keys)  {used / games / 1024:6.1f} KiB ({games} games)")
        delete_keys(client, keys)
        info = client.info("memory")
        print(
            f"(redis used_memory at the end: {info['used_memory_human']}; {len(keys)} keys removed)"
        )


if __name__ == "__main__":
    main()
