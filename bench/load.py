"""Load test: N concurrent clients play whole games through REST and through GraphQL
against a running Skyport with real Redis; then the same load against the floor — a
bare Starlette endpoint doing one Lua compare-and-set of a same-sized JSON blob
(bench/floor_app.py) — and the ratio.

Each client plays every seat of its games: per move it asks for the legal moves and
posts one back with expected_version (2 requests). The floor client does the same two
round trips per move (read the blob, compare-and-set it), with a blob as large as the
game's state snapshot, for as many moves as the REST games took. Latency is that of
the move request (the POST); moves/s counts committed moves over the phase's wall time.

    python bench/load.py --spawn                       # start Skyport and the floor here
    python bench/load.py --url http://127.0.0.1:8000   # against a running Skyport

A running Skyport should have rate limits off for this (SKYPORT_RATE_LIMIT_PER_IP=0,
SKYPORT_RATE_LIMIT_PER_TOKEN=0) or the clients get 429s, which are counted and shown.
Requests go to loopback only; every loop is bounded by --games and --timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

LEGAL = "query($id: ID!) { legalMoves(gameId: $id) { version moves { move } } }"
MOVE = """mutation($id: ID!, $move: JSON!, $v: Int) {
  makeMove(gameId: $id, move: $move, expectedVersion: $v) {
    __typename ... on MoveApplied { version status turn } ... on Rejected { code } } }"""
CREATE = """mutation($input: CreateGameInput!) { createGame(input: $input) {
  ... on GameCreated { id seats { token } } ... on Rejected { code message } } }"""
TURN = "query($id: ID!) { game(id: $id) { status turn } }"


@dataclass
class Tally:
    name: str
    moves: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def percentile(self, fraction: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


# --- the three kinds of client ---------------------------------------------------------


async def play_rest(
    http: httpx.AsyncClient, args: argparse.Namespace, rng: random.Random, tally: Tally
) -> None:
    seats = [{"name": f"P{n}"} for n in range(args.players)]
    for _ in range(args.games):
        created = await http.post(
            "/v1/games", json={"game": args.game, "seats": seats, "seed": rng.randrange(2**31)}
        )
        tally.statuses[created.status_code] += 1
        if created.status_code != 201:
            return
        game_id = created.json()["id"]
        tokens = [seat["token"] for seat in created.json()["seats"]]
        turn = (await http.get(f"/v1/games/{game_id}")).json()["turn"]
        while turn:
            auth = {"Authorization": f"Bearer {tokens[turn[0]]}"}
            legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
            body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
            started = time.perf_counter()
            answer = await http.post(f"/v1/games/{game_id}/moves", json=body, headers=auth)
            tally.latencies.append(time.perf_counter() - started)
            tally.statuses[answer.status_code] += 1
            if answer.status_code != 200:
                if answer.status_code == 429:
                    await asyncio.sleep(1)
                turn = (await http.get(f"/v1/games/{game_id}")).json()["turn"]
                continue
            tally.moves += 1
            applied = answer.json()
            turn = applied["turn"] if applied["status"] == "active" else []
        tally.games += 1


async def play_graphql(
    http: httpx.AsyncClient, args: argparse.Namespace, rng: random.Random, tally: Tally
) -> None:
    async def gql(query: str, variables: dict, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = await http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        tally.statuses[answer.status_code] += 1
        return answer.json().get("data") or {}

    seats = [{"name": f"P{n}"} for n in range(args.players)]
    for _ in range(args.games):
        created = (
            await gql(
                CREATE, {"input": {"game": args.game, "seats": seats, "seed": rng.randrange(2**31)}}
            )
        )["createGame"]
        game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        turn = (await gql(TURN, {"id": game_id}))["game"]["turn"]
        while turn:
            token = tokens[turn[0]]
            legal = (await gql(LEGAL, {"id": game_id}, token))["legalMoves"]
            move = rng.choice(legal["moves"])["move"]
            started = time.perf_counter()
            made = await gql(MOVE, {"id": game_id, "move": move, "v": legal["version"]}, token)
            tally.latencies.append(time.perf_counter() - started)
            applied = made.get("makeMove") or {}
            if applied.get("__typename") != "MoveApplied":
                turn = (await gql(TURN, {"id": game_id}))["game"]["turn"]
                continue
            tally.moves += 1
            turn = applied["turn"] if applied["status"] == "ACTIVE" else []
        tally.games += 1


async def play_floor(
    http: httpx.AsyncClient, args: argparse.Namespace, rng: random.Random, tally: Tally
) -> None:
    blob = {"state": "x" * max(args.blob_bytes - 12, 1)}
    for _ in range(args.games):
        key = f"{rng.getrandbits(64):016x}"
        for _ in range(args.moves_per_game):
            current = (await http.get(f"/floor/{key}")).json()
            started = time.perf_counter()
            answer = await http.post(
                f"/floor/{key}", json={"version": str(current["version"]), "blob": blob}
            )
            tally.latencies.append(time.perf_counter() - started)
            tally.statuses[answer.status_code] += 1
            tally.moves += answer.status_code == 200
        tally.games += 1


Player = Callable[[httpx.AsyncClient, argparse.Namespace, random.Random, Tally], Awaitable[None]]


async def run_phase(name: str, base_url: str, player: Player, args: argparse.Namespace) -> Tally:
    tally = Tally(name)
    limits = httpx.Limits(max_connections=args.clients + 4)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as http:
        started = time.perf_counter()
        clients = [
            player(http, args, random.Random(args.seed * 1000 + n), tally)
            for n in range(args.clients)
        ]
        await asyncio.wait_for(asyncio.gather(*clients), args.timeout)
        tally.seconds = time.perf_counter() - started
    return tally


# --- servers -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server for {url} exited with {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code < 500:
                return
        time.sleep(0.1)
    raise SystemExit(f"{url} did not come up")


@contextlib.contextmanager
def spawned(command: list[str], env: dict[str, str], probe: str) -> Iterator[None]:
    process = subprocess.Popen(command, env={**os.environ, **env}, cwd=REPO)
    try:
        wait_until_up(probe, process)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def skyport_server(args: argparse.Namespace, port: int) -> contextlib.AbstractContextManager:
    env = {
        "SKYPORT_REDIS_URL": args.redis_url,
        "SKYPORT_KEY_PREFIX": "skyport-bench",
        "SKYPORT_RATE_LIMIT_PER_IP": "0",
        "SKYPORT_RATE_LIMIT_PER_TOKEN": "0",
        "SKYPORT_LOG_LEVEL": "warning",
        "SKYPORT_FINISHED_GAME_TTL": "600",
    }
    code = f"from services.api.server import run; run('127.0.0.1', {port})"
    return spawned([sys.executable, "-c", code], env, f"http://127.0.0.1:{port}/readyz")


def floor_server(args: argparse.Namespace, port: int) -> contextlib.AbstractContextManager:
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "--app-dir",
        str(BENCH),
        "floor_app:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    return spawned(
        command, {"FLOOR_REDIS_URL": args.redis_url}, f"http://127.0.0.1:{port}/floor/probe"
    )


def state_size(game_id: str, players: int) -> int:
    """Mean size in bytes of the game's state snapshot over a bot game (for the floor)."""
    from services.ai import make_bot
    from services.engine import get_game

    game = get_game(game_id)
    state = game.setup({}, players, 1)
    bots = [make_bot("random", seat) for seat in range(players)]
    sizes = []
    while (prompts := game.prompts(state)) and len(sizes) < 2000:
        sizes.append(len(game.dump_state(state)))
        seat = prompts[0].seat
        state = game.apply(state, seat, bots[seat].choose(game, state, seat)).state
    return int(statistics.mean(sizes))


# --- the run ---------------------------------------------------------------------------


def report(tallies: list[Tally], floor: Tally | None) -> str:
    lines = [
        f"{'load':<9}{'games':>7}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'floor/this':>12}  statuses"
    ]
    for tally in [*tallies, *([floor] if floor else [])]:
        ratio = (
            floor.moves_per_second / tally.moves_per_second
            if floor and tally.moves_per_second
            else float("nan")
        )
        statuses = ", ".join(f"{code}×{n}" for code, n in sorted(tally.statuses.items()))
        lines.append(
            f"{tally.name:<9}{tally.games:>7}{tally.moves:>8}"
            f"{tally.moves_per_second:>10.1f}{tally.percentile(0.5):>9.2f}"
            f"{tally.percentile(0.99):>9.2f}{ratio:>12.2f}  {statuses}"
        )
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> dict:
    tallies = []
    if "rest" in args.transports:
        tallies.append(await run_phase("rest", args.url, play_rest, args))
    if "graphql" in args.transports:
        tallies.append(await run_phase("graphql", args.url, play_graphql, args))
    floor = None
    if not args.no_floor:
        rest = next((t for t in tallies if t.games), None)
        args.moves_per_game = max(1, round(rest.moves / rest.games)) if rest else 50
        args.blob_bytes = state_size(args.game, args.players)
        port = free_port()
        with floor_server(args, port):
            floor = await run_phase("floor", f"http://127.0.0.1:{port}", play_floor, args)
    print(
        f"{args.clients} clients x {args.games} game(s) of {args.game}, {args.players} "
        f"players, Redis {args.redis_url}" + (f", floor blob {args.blob_bytes} B" if floor else "")
    )
    print(report(tallies, floor))
    return {
        t.name: {
            "moves": t.moves,
            "moves_per_second": t.moves_per_second,
            "p50_ms": t.percentile(0.5),
            "p99_ms": t.percentile(0.99),
        }
        for t in [*tallies, *([floor] if floor else [])]
    }


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="a running Skyport")
    parser.add_argument("--spawn", action="store_true", help="start Skyport here instead")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=1, help="games per client")
    parser.add_argument("--game", default="sky-islands")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--transports", default="rest,graphql")
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per phase, at most")
    parser.add_argument("--json", action="store_true", help="also print the numbers as JSON")
    args = parser.parse_args(argv)
    args.transports = {t.strip() for t in args.transports.split(",") if t.strip()}
    return args


def run(argv: list[str]) -> dict:
    args = parse(argv)
    if args.spawn:
        port = free_port()
        args.url = f"http://127.0.0.1:{port}"
        with skyport_server(args, port):
            numbers = asyncio.run(main(args))
    else:
        numbers = asyncio.run(main(args))
    if args.json:
        print(orjson.dumps(numbers).decode())
    return numbers


if __name__ == "__main__":
    run(sys.argv[1:])
