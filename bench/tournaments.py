"""How many bot-only games a tournament completes per minute: a Swiss of 64 bot
participants (by default 4 rounds of 32 tables: 128 games) created through the API and
played to its end by the service's workers — first embedded (the API process runs the
bots in its own event loop), then on Celery workers (`skyport worker` processes).

    python bench/tournaments.py --spawn --redis-url redis://127.0.0.1:6379/15
    python bench/tournaments.py --spawn --modes celery --workers 2 --participants 32

Every server and worker is started here, talks to 127.0.0.1 only, and is stopped at the
end; each phase stops after --timeout seconds whatever happens. The keys written (under
their own prefix) and the Celery queue are deleted afterwards. Numbers are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load import free_port, wait_until_up  # noqa: E402
from bench.redis_keys import delete_matching  # noqa: E402

KEY = "bench-tournaments-platform-key"
PREFIX = "skyport-bench-tournaments"
SKYPORT = str(Path(sys.executable).parent / "skyport")


def env_for(args: argparse.Namespace, mode: str) -> dict[str, str]:
    values = {
        "SKYPORT_REDIS_URL": args.redis_url,
        "SKYPORT_KEY_PREFIX": f"{PREFIX}-{mode}",
        "SKYPORT_TASKS": "inprocess" if mode == "embedded" else "celery",
        "SKYPORT_TASK_QUEUE": f"{PREFIX}-{mode}",
        "SKYPORT_API_KEYS": KEY,
        "SKYPORT_RATE_LIMIT_PER_IP": "0",
        "SKYPORT_CREATE_LIMIT_PER_IP": "0",
        "SKYPORT_RATE_LIMIT_PER_TOKEN": "0",
        "SKYPORT_LOG_LEVEL": "warning",
        "SKYPORT_FINISHED_GAME_TTL": "900",
        "SKYPORT_ABANDONED_GAME_TTL": "900",
        "SKYPORT_RECORD_TTL": "900",
    }
    base = {k: v for k, v in os.environ.items() if not k.startswith("SKYPORT_")}
    # the servers and workers run this checkout's code, whatever the venv has installed
    path = os.pathsep.join(p for p in (str(REPO), base.get("PYTHONPATH", "")) if p)
    return {**base, **values, "PYTHONPATH": path}


@contextlib.contextmanager
def process(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    with log.open("wb") as sink:
        child = subprocess.Popen(
            command,
            env=env,
            cwd=REPO,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield child
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=10)


def run_mode(args: argparse.Namespace, mode: str, logs: Path) -> dict:
    env = env_for(args, mode)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    code = f"from services.api.server import run; run('127.0.0.1', {port})"
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(
            process([sys.executable, "-c", code], env, logs / f"{mode}-api.log")
        )
        wait_until_up(f"{url}/readyz", server)
        if mode == "celery":
            for n in range(args.workers):
                log = logs / f"{mode}-worker-{n}.log"
                command = [
                    SKYPORT,
                    "worker",
                    "--concurrency",
                    str(args.concurrency),
                    "--hostname",
                    f"bench-{n}@%h",
                    "--no-supervise",
                    "--loglevel",
                    "info",
                ]
                stack.enter_context(process(command, env, log))
            deadline = time.monotonic() + 60
            while not all(
                b" ready." in (logs / f"{mode}-worker-{n}.log").read_bytes()
                for n in range(args.workers)
            ):
                if time.monotonic() > deadline:
                    raise SystemExit(f"the workers did not start (see {logs})")
                time.sleep(0.2)
        return play(args, url, mode)


def play(args: argparse.Namespace, url: str, mode: str) -> dict:
    body = {
        "game": args.game,
        "participants": [
            {"name": f"Bot {n}", "bot": args.levels[n % len(args.levels)]}
            for n in range(args.participants)
        ],
        "format": {"kind": "swiss", "rounds": args.rounds},
        "seed": args.seed,
    }
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=url, timeout=60) as http:
        started = time.perf_counter()
        created = http.post("/v1/tournaments", json=body, headers=headers)
        if created.status_code != 201:
            raise SystemExit(f"{mode}: {created.status_code} {created.text}")
        tournament_id = created.json()["id"]
        deadline = started + args.timeout
        document = http.get(f"/v1/tournaments/{tournament_id}").json()
        while document["status"] != "finished" and time.perf_counter() < deadline:
            time.sleep(0.25)
            document = http.get(f"/v1/tournaments/{tournament_id}").json()
        seconds = time.perf_counter() - started
        tables = [t for r in document["rounds"] for t in r["tables"]]
        done = [t for t in tables if t["status"] != "playing"]
        moves = 0
        for table in done:
            moves += http.get(f"/v1/games/{table['game_id']}").json()["version"]
    return {
        "mode": mode,
        "finished": document["status"] == "finished",
        "games": len(done),
        "rounds": len(document["rounds"]),
        "seconds": seconds,
        "games_per_minute": len(done) / seconds * 60,
        "moves": moves,
        "moves_per_second": moves / seconds,
    }


def report(rows: list[dict], args: argparse.Namespace) -> str:
    lines = [
        f"Tournament: Swiss of {args.participants} {'/'.join(args.levels)} bots, "
        f"{args.rounds} rounds of {args.game} at tables of 2, on {os.cpu_count()} cores",
        f"{'workers':<28} {'games':>6} {'seconds':>8} {'games/min':>10} {'moves/s':>8}",
    ]
    for row in rows:
        name = (
            "embedded (API process)"
            if row["mode"] == "embedded"
            else f"celery ({args.workers}x{args.concurrency})"
        )
        flag = "" if row["finished"] else "  (timed out)"
        lines.append(
            f"{name:<28} {row['games']:>6} {row['seconds']:>8.1f} "
            f"{row['games_per_minute']:>10.1f} {row['moves_per_second']:>8.0f}{flag}"
        )
    return "\n".join(lines)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spawn", action="store_true", help="start servers here (required)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--modes", default="embedded,celery")
    parser.add_argument("--participants", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--game", default="sky-islands")
    parser.add_argument("--levels", default="random", help="bot levels, in turn (comma-separated)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--concurrency", type=int, default=1, help="tasks per worker")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300, help="seconds per mode, at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    args.levels = [m.strip() for m in args.levels.split(",") if m.strip()]
    if not args.spawn:
        parser.error("this bench starts its own servers and workers: pass --spawn")
    if not args.redis_url.startswith(("redis://127.0.0.1", "redis://localhost")):
        parser.error("--redis-url must be on 127.0.0.1")
    return args


def run(argv: list[str]) -> list[dict]:
    import tempfile

    args = parse(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="skyport-bench-tournaments-") as logs:
        try:
            for mode in args.modes:
                rows.append(run_mode(args, mode, Path(logs)))
                print(f"{mode}: {rows[-1]}", flush=True)
        finally:
            delete_matching(args.redis_url, f"{PREFIX}*", f"_kombu.binding*.{PREFIX}*")
    print(report(rows, args))
    if args.json:
        print(orjson.dumps(rows).decode())
    return rows


if __name__ == "__main__":
    run(sys.argv[1:])
