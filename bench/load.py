"""Load test: N concurrent clients play whole games through REST and through GraphQL
against a running Skyport with real Redis; then the same load against the floor — a
bare Starlette endpoint doing one Lua compare-and-set of a same-sized JSON blob
(bench/floor_app.py) — and the ratio.

Each client plays every seat of its games: per move it asks for the legal moves and
posts one back with expected_version (2 requests). The floor client does the same two
round trips per move (read the blob, compare-and-set it), with a blob as large as the
game's state snapshot, for as many moves as the REST games took. Latency is that of
the move request (the POST); moves/s counts committed moves over the phase's wall time.
The rest-minimal phase is REST with `Prefer: return=minimal` on the move (no view in the
answer), as a client that does not show the view would play.

    python bench/load.py --spawn [--rounds 3]          # start Skyport and the floor here
    python bench/load.py --url http://127.0.0.1:8000 --server-pid PID --key-prefix P

A running Skyport should have rate limits off for this (SKYPORT_RATE_LIMIT_PER_IP=0,
SKYPORT_RATE_LIMIT_PER_TOKEN=0, SKYPORT_CREATE_LIMIT_PER_IP=0) or the clients get 429s,
which are counted and shown; without --server-pid its CPU is not reported, and without its
--key-prefix nor its memory.
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
    cpu_seconds: float | None = None
    """The server processes' CPU time (user + system) over the phase, if known."""
    game_ids: list[str] = field(default_factory=list)
    """The games the phase played to their end."""

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_move(self) -> float:
        if self.cpu_seconds is None or not self.moves:
            return float("nan")
        return self.cpu_seconds / self.moves * 1000

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
        committed = 0
        while turn and (not args.move_limit or committed < args.move_limit):
            auth = {"Authorization": f"Bearer {tokens[turn[0]]}"}
            legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
            body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
            started = time.perf_counter()
            prefer = {"Prefer": args.prefer} if args.prefer else {}
            answer = await http.post(
                f"/v1/games/{game_id}/moves", json=body, headers={**auth, **prefer}
            )
            tally.latencies.append(time.perf_counter() - started)
            tally.statuses[answer.status_code] += 1
            if answer.status_code != 200:
                if answer.status_code == 429:
                    await asyncio.sleep(1)
                turn = (await http.get(f"/v1/games/{game_id}")).json()["turn"]
                continue
            tally.moves += 1
            committed += 1
            applied = answer.json()
            turn = applied["turn"] if applied["status"] == "active" else []
        tally.games += 1
        tally.game_ids.append(game_id)


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
        committed = 0
        while turn and (not args.move_limit or committed < args.move_limit):
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
            committed += 1
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


async def run_phase(
    name: str,
    base_url: str,
    player: Player,
    args: argparse.Namespace,
    server_pids: list[int],
    clients: int | None = None,
) -> Tally:
    tally = Tally(name)
    clients = clients or args.clients
    limits = httpx.Limits(max_connections=clients + 4)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as http:
        cpu_before = cpu_seconds(server_pids)
        started = time.perf_counter()
        players = [
            player(http, args, random.Random(args.seed * 1000 + n), tally) for n in range(clients)
        ]
        await asyncio.wait_for(asyncio.gather(*players), args.timeout)
        tally.seconds = time.perf_counter() - started
        cpu_after = cpu_seconds(server_pids)
    if cpu_before is not None and cpu_after is not None:
        tally.cpu_seconds = cpu_after - cpu_before
    return tally


def cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of these processes so far (Linux /proc), or None."""
    if not pids:
        return None
    total = 0
    try:
        for pid in pids:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    except (OSError, ValueError, IndexError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


# --- servers -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


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
def spawned(command: list[str], env: dict[str, str], probe: str) -> Iterator[int]:
    """Runs a server until the block ends; gives its process id."""
    process = subprocess.Popen(command, env={**os.environ, **env}, cwd=REPO)
    try:
        wait_until_up(probe, process)
        yield process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


BENCH_PREFIX = f"skyport-bench-{os.getpid()}"
BENCH_QUEUE = BENCH_PREFIX
"""The spawned server's key prefix and Celery queue, this run's own (two runs on one Redis
database must not delete each other's games): nothing consumes the queue here, so the
bench empties it."""


def skyport_server(args: argparse.Namespace, port: int) -> contextlib.AbstractContextManager:
    env = {
        "SKYPORT_REDIS_URL": args.redis_url,
        "SKYPORT_KEY_PREFIX": BENCH_PREFIX,
        "SKYPORT_TASK_QUEUE": BENCH_QUEUE,
        "SKYPORT_RATE_LIMIT_PER_IP": "0",
        "SKYPORT_CREATE_LIMIT_PER_IP": "0",
        "SKYPORT_RATE_LIMIT_PER_TOKEN": "0",
        "SKYPORT_LOG_LEVEL": "warning",
        "SKYPORT_FINISHED_GAME_TTL": "600",
        "SKYPORT_ABANDONED_GAME_TTL": "600",
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
    sizes: list[int] = []
    while (prompts := game.prompts(state)) and len(sizes) < 2000:
        sizes.append(len(game.dump_state(state)))
        seat = prompts[0].seat
        state = game.apply(state, seat, bots[seat].choose(game, state, seat)).state
    return int(statistics.mean(sizes))


# --- Redis memory per game ----------------------------------------------------------


@dataclass(frozen=True)
class GameMemory:
    moves: int
    hash_bytes: int
    """MEMORY USAGE of the game's hash: snapshot, version, status, seats and metadata."""
    snapshot_bytes: int
    """The state snapshot's own length (HSTRLEN)."""
    log_bytes: int
    """MEMORY USAGE of the move-log stream."""


def game_memory(redis_url: str, prefix: str, game_ids: list[str]) -> list[GameMemory]:
    """What each game holds in Redis now (games whose keys are gone are left out)."""
    import redis

    from services.store import GameKeys

    found = []
    with redis.Redis.from_url(redis_url) as client:
        for game_id in game_ids:
            keys = GameKeys(prefix, game_id)
            hash_bytes = client.memory_usage(keys.record, samples=0)
            version = client.hget(keys.record, "version")
            if hash_bytes is None or version is None:
                continue
            found.append(
                GameMemory(
                    moves=int(version),
                    hash_bytes=hash_bytes,
                    snapshot_bytes=client.hstrlen(keys.record, "state"),
                    log_bytes=client.memory_usage(keys.log, samples=0) or 0,
                )
            )
    return found


def memory_numbers(memories: list[GameMemory]) -> dict:
    moves = sum(m.moves for m in memories)
    return {
        "games": len(memories),
        "moves_per_game": moves / len(memories),
        "hash_bytes_mean": statistics.mean(m.hash_bytes for m in memories),
        "hash_bytes_max": max(m.hash_bytes for m in memories),
        "snapshot_bytes_max": max(m.snapshot_bytes for m in memories),
        "log_bytes_per_game": statistics.mean(m.log_bytes for m in memories),
        "log_bytes_per_move": sum(m.log_bytes for m in memories) / moves if moves else 0.0,
    }


def delete_bench_keys(redis_url: str) -> None:
    """The spawned server's keys and its never-consumed Celery queue, and nothing else."""
    from bench.redis_keys import delete_matching

    delete_matching(redis_url, f"{BENCH_PREFIX}:*", BENCH_QUEUE, f"_kombu.binding*.{BENCH_QUEUE}")


# --- the run ---------------------------------------------------------------------------


def report(tallies: list[Tally], floor: Tally | None) -> str:
    lines = [
        f"{'load':<13}{'games':>7}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'CPU ms/move':>13}{'floor/this CPU':>16}{'floor/this moves/s':>20}  statuses"
    ]
    for tally in [*tallies, *([floor] if floor else [])]:
        by_rate = (
            tally.moves_per_second / floor.moves_per_second
            if floor and floor.moves_per_second
            else float("nan")
        )
        by_cpu = (
            floor.cpu_ms_per_move / tally.cpu_ms_per_move
            if floor and tally.cpu_ms_per_move > 0
            else float("nan")
        )
        statuses = ", ".join(f"{code}×{n}" for code, n in sorted(tally.statuses.items()))
        lines.append(
            f"{tally.name:<13}{tally.games:>7}{tally.moves:>8}"
            f"{tally.moves_per_second:>10.1f}{tally.percentile(0.5):>9.2f}"
            f"{tally.percentile(0.99):>9.2f}{tally.cpu_ms_per_move:>13.2f}"
            f"{by_cpu:>16.3f}{by_rate:>20.2f}  {statuses}"
        )
    return "\n".join(lines)


def memory_report(rows: dict[str, dict]) -> str:
    lines = [
        "Redis memory per game (MEMORY USAGE ... SAMPLES 0, at the end of each game)",
        f"{'games of':<42}{'games':>6}{'moves/game':>12}{'hash B':>9}{'max':>8}"
        f"{'snapshot max B':>16}{'log B/game':>12}{'log B/move':>12}",
    ]
    for label, row in rows.items():
        lines.append(
            f"{label:<42}{row['games']:>6}{row['moves_per_game']:>12.1f}"
            f"{row['hash_bytes_mean']:>9.0f}{row['hash_bytes_max']:>8}"
            f"{row['snapshot_bytes_max']:>16}{row['log_bytes_per_game']:>12.0f}"
            f"{row['log_bytes_per_move']:>12.1f}"
        )
    return "\n".join(lines)


def phase_numbers(tally: Tally) -> dict:
    return {
        "moves": tally.moves,
        "moves_per_second": tally.moves_per_second,
        "p50_ms": tally.percentile(0.5),
        "p99_ms": tally.percentile(0.99),
        "cpu_ms_per_move": tally.cpu_ms_per_move,
    }


async def load_one_game(
    args: argparse.Namespace, floor: tuple[str, int] | None, memory: dict[str, dict]
) -> dict:
    """Every phase for `args.game`; notes the REST games' memory in `memory`."""
    pids = [args.server_pid] if args.server_pid else []
    tallies = []
    if "rest" in args.transports:
        rest = await run_phase("rest", args.url, play_rest, args, pids)
        tallies.append(rest)
        memories = game_memory(args.redis_url, args.key_prefix, rest.game_ids)
        if memories:
            whole = "" if args.move_limit == 0 else f", <= {args.move_limit} moves"
            memory[f"{args.game}, {args.players}p (rest load{whole})"] = memory_numbers(memories)
    if "rest-minimal" in args.transports:
        minimal = argparse.Namespace(**{**vars(args), "prefer": "return=minimal"})
        tallies.append(await run_phase("rest-minimal", args.url, play_rest, minimal, pids))
    if "graphql" in args.transports:
        tallies.append(await run_phase("graphql", args.url, play_graphql, args, pids))
    floor_tally = None
    if floor is not None:
        rest_tally = next((t for t in tallies if t.games), None)
        args.moves_per_game = (
            max(1, round(rest_tally.moves / rest_tally.games)) if rest_tally else 50
        )
        args.blob_bytes = state_size(args.game, args.players)
        floor_url, floor_pid = floor
        floor_tally = await run_phase("floor", floor_url, play_floor, args, [floor_pid])
    print(
        f"\n{args.game}, {args.players} players: {args.clients} clients x {args.games} "
        f"game(s), Redis {args.redis_url}"
        + (f", floor blob {args.blob_bytes} B" if floor_tally else "")
    )
    print(report(tallies, floor_tally))
    return {t.name: phase_numbers(t) for t in [*tallies, *([floor_tally] if floor_tally else [])]}


def medians(rounds: list[dict]) -> dict:
    """Each phase's numbers as the median over rounds, and `floor_ratio_cpu`: the median
    of each round's floor/this CPU (a round's floor ran beside it, under the same load)."""
    merged: dict[str, dict] = {}
    for phase in rounds[0]:
        merged[phase] = {
            key: statistics.median(r[phase][key] for r in rounds) for key in rounds[0][phase]
        }
        if "floor" in rounds[0]:
            merged[phase]["floor_ratio_cpu"] = statistics.median(
                r["floor"]["cpu_ms_per_move"] / r[phase]["cpu_ms_per_move"]
                if r[phase]["cpu_ms_per_move"] > 0
                else float("nan")
                for r in rounds
            )
    return merged


def rounds_report(phases: dict) -> str:
    lines = [f"{'load':<13}{'moves/s':>10}{'p50 ms':>9}{'CPU ms/move':>13}{'floor/this CPU':>16}"]
    for name, row in phases.items():
        lines.append(
            f"{name:<13}{row['moves_per_second']:>10.1f}{row['p50_ms']:>9.2f}"
            f"{row['cpu_ms_per_move']:>13.2f}{row.get('floor_ratio_cpu', float('nan')):>16.3f}"
        )
    return "\n".join(lines)


async def whole_games_memory(args: argparse.Namespace, memory: dict[str, dict]) -> None:
    """Plays --memory-games whole games of each --memory spec over REST; notes memory."""
    for spec in args.memory:
        game, _, players = spec.partition(":")
        spec_args = argparse.Namespace(**{**vars(args), "game": game, "players": int(players)})
        spec_args.games, spec_args.move_limit = 1, 0
        tally = await run_phase("memory", args.url, play_rest, spec_args, [], args.memory_games)
        memories = game_memory(args.redis_url, args.key_prefix, tally.game_ids)
        if memories:
            memory[f"{game}, {players}p (whole games)"] = memory_numbers(memories)


async def main(args: argparse.Namespace) -> dict:
    numbers: dict[str, dict] = {}
    memory: dict[str, dict] = {}
    with contextlib.ExitStack() as stack:
        floor = None
        if not args.no_floor:
            port = free_port()
            floor = (f"http://127.0.0.1:{port}", stack.enter_context(floor_server(args, port)))
        for game in args.game:
            game_args = argparse.Namespace(**{**vars(args), "game": game})
            rounds = [await load_one_game(game_args, floor, memory) for _ in range(args.rounds)]
            numbers[game] = rounds[0] if len(rounds) == 1 else medians(rounds)
            if len(rounds) > 1:
                print(f"\n{game}: medians of {len(rounds)} rounds")
                print(rounds_report(numbers[game]))
    await whole_games_memory(args, memory)
    if memory:
        print()
        print(memory_report(memory))
        numbers["memory"] = memory
    return numbers


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="a running Skyport")
    parser.add_argument("--spawn", action="store_true", help="start Skyport here instead")
    parser.add_argument("--server-pid", type=int, help="process id of the running Skyport")
    parser.add_argument(
        "--key-prefix",
        default="skyport",
        help="SKYPORT_KEY_PREFIX of the running Skyport (--spawn uses a prefix of its own)",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games", type=int, default=1, help="games per client")
    parser.add_argument("--game", default="sky-islands,dominion", help="comma-separated")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--transports", default="rest,rest-minimal,graphql", help="comma-separated phases"
    )
    parser.set_defaults(prefer=None)  # the rest-minimal phase's Prefer header
    parser.add_argument(
        "--move-limit",
        type=int,
        default=0,
        help="moves per game in the load phases, at most (0: whole games); "
        "the memory phase always plays whole games",
    )
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument(
        "--memory",
        default="dominion:4,sky-islands:4",
        help="whole games whose Redis memory is measured, game:players, comma-separated "
        "('' for none)",
    )
    parser.add_argument("--memory-games", type=int, default=2, help="games per --memory spec")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds of every phase and the floor, per game; with more than one, each "
        "number is the median over rounds (CPU per move moves by ±20 %% between runs)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per phase, at most")
    parser.add_argument("--json", action="store_true", help="also print the numbers as JSON")
    args = parser.parse_args(argv)
    args.transports = {t.strip() for t in args.transports.split(",") if t.strip()}
    args.game = [g.strip() for g in args.game.split(",") if g.strip()]
    args.memory = [m.strip() for m in args.memory.split(",") if m.strip()]
    return args


def run(argv: list[str]) -> dict:
    args = parse(argv)
    if args.spawn:
        port = free_port()
        args.url = f"http://127.0.0.1:{port}"
        try:
            with skyport_server(args, port) as pid:
                args.server_pid = pid
                args.key_prefix = BENCH_PREFIX
                numbers = asyncio.run(main(args))
        finally:
            delete_bench_keys(args.redis_url)
    else:
        numbers = asyncio.run(main(args))
    if args.json:
        print(orjson.dumps(numbers).decode())
    return numbers


if __name__ == "__main__":
    run(sys.argv[1:])
