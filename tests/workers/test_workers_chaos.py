"""Chaos: games over real workers and a real Redis while workers are SIGKILLed and Redis
restarts. Every game must finish, with every version logged exactly once, and each game
must move again soon after each fault.

- Redis: the test's own redis-server (append-only, so a restart keeps the data).
- Two supervised `skyport worker --beat` processes, the service's defaults for the
  visibility timeout (30 s), the stall time (5 s) and the sweep (1 s): recovery must come
  from the stored state (pending index, sweep), not from redelivery after 30 s.
- Games of both kinds, created all along the faults: all-bot, and human-vs-bot where
  the test plays the human through the API (legal-moves and moves only: reading the game
  would nudge it, and the workers must recover on their own).
- Faults, at random (seeded): SIGKILL of a worker's Celery process (its supervisor starts
  it again), of a pool process (mid-task), of a whole worker with its supervisor (a
  replacement is started), and one Redis restart.
- Every fault must hit games in play: each comes shortly after games are created (and
  after the workers are back from the previous one; should waiting for them have outlasted
  every game, one more is started first), and the test fails if one found no game going,
  since it would then prove nothing about recovery.

Sizes: SKYPORT_CHAOS_GAMES (default 12), SKYPORT_CHAOS_KILLS (default 10), seed
SKYPORT_CHAOS_SEED. Select with `-m chaos`; it also runs in the default suite.
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis as sync_redis
from starlette.testclient import TestClient
from worker_harness import (
    FINAL,
    PLATFORM_KEY,
    WorkerSetup,
    celery_main,
    kill_hard,
    pool_processes,
)

from services.api.app import create_app

pytestmark = [pytest.mark.chaos, pytest.mark.timeout(600)]

GAMES = int(os.environ.get("SKYPORT_CHAOS_GAMES", "12"))
KILLS = int(os.environ.get("SKYPORT_CHAOS_KILLS", "10"))
SEED = int(os.environ.get("SKYPORT_CHAOS_SEED", "20261201"))
RECOVERY_P95_SECONDS = 15.0
DOMINION = {"recommended": "Heading East", "turn_limit": 60}
"""Greedy-vs-greedy Dominion can play for thousands of moves; the turn limit keeps each
game to a few hundred, so every game can end inside the test's time, and still lasts
long enough (seconds) to be in play when the next fault comes."""
HUMAN_MOVES_BEFORE_RESIGNING = 12
"""A human playing random Dominion moves would rarely end the game: it resigns instead."""
HUMAN_THINK_SECONDS = 0.25
"""Between a human's moves: a human game then lasts seconds, long enough to meet a fault."""


@dataclass
class Game:
    id: str
    kind: str
    human_token: str | None
    human_moves: int = 0
    resigned: bool = False
    thinks_until: float = 0.0
    seen: list[tuple[float, int, str]] = field(default_factory=list)
    """(time, version, status) each time the test saw the game change."""

    @property
    def final(self) -> bool:
        return bool(self.seen) and self.seen[-1][2] in FINAL


@dataclass
class Fault:
    at: float
    what: str


def game_plan(index: int) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    """Alternately Sky Islands and Dominion; all-bot, then human-vs-bot, in turn."""
    game = ("sky-islands", "dominion")[index % 2]
    human = (index // 2) % 2 == 1
    options = DOMINION if game == "dominion" else {}
    if human:
        return game, [{"name": "Human"}, {"name": "Bot", "bot": "greedy"}], options
    if game == "sky-islands":
        return game, [{"name": "M", "bot": "mcts"}, {"name": "G", "bot": "greedy"}], options
    return game, [{"name": "G1", "bot": "greedy"}, {"name": "G2", "bot": "greedy"}], options


class Chaos:
    def __init__(self, setup: WorkerSetup, client: TestClient, rng: random.Random) -> None:
        self.setup = setup
        self.client = client
        self.rng = rng
        self.games: list[Game] = []
        self.faults: list[Fault] = []
        self.store = setup.store()
        self.celery_kills: dict[str, int] = {}
        """Per worker node, its Celery processes killed: each is back once it says ready."""

    # --- games ----------------------------------------------------------------------

    def create(self, index: int) -> None:
        game, seats, options = game_plan(index)
        body = {"game": game, "seats": seats, "seed": index % 12 + 1, "options": options}
        headers = {
            "Authorization": f"Bearer {PLATFORM_KEY}",
            "Idempotency-Key": f"chaos-create-{index}",
        }
        for _ in range(50):
            response = self.client.post("/v1/games", json=body, headers=headers)
            if response.status_code == 201:
                created = response.json()
                token = created["seats"][0]["token"]
                kind = f"{game}/{'human' if token else 'bots'}"
                self.games.append(Game(created["id"], kind, token))
                return
            time.sleep(0.2)  # Redis restarting: the API answers 5xx meanwhile
        pytest.fail(f"could not create game {index}: {response.text}")

    def observe(self) -> None:
        """Note every game's (version, status) if it changed; skipped while Redis is down."""
        try:
            with self.store.pipeline(transaction=False) as pipe:
                for game in self.games:
                    pipe.hmget(self.record_key(game.id), "version", "status")
                rows = pipe.execute()
        except sync_redis.RedisError:
            return
        at = time.monotonic()
        for game, (version, status) in zip(self.games, rows, strict=True):
            now = (int(version), status)
            if not game.seen or game.seen[-1][1:] != now:
                game.seen.append((at, *now))

    def play_humans(self) -> None:
        now = time.monotonic()
        for game in self.games:
            if game.human_token and not (game.final or game.resigned or now < game.thinks_until):
                self.play_human(game)

    def play_human(self, game: Game) -> None:
        auth = {"Authorization": f"Bearer {game.human_token}"}
        legal = self.client.get(f"/v1/games/{game.id}/legal-moves", headers=auth)
        if legal.status_code != 200 or not legal.json()["moves"]:
            return
        page = legal.json()
        if game.kind.startswith("dominion") and game.human_moves >= HUMAN_MOVES_BEFORE_RESIGNING:
            response = self.client.post(
                f"/v1/games/{game.id}/resign",
                json={"expected_version": page["version"]},
                headers=auth,
            )
            game.resigned = response.status_code == 200
            return
        response = self.client.post(
            f"/v1/games/{game.id}/moves",
            json={"move": self.rng.choice(page["moves"]), "expected_version": page["version"]},
            headers={**auth, "Idempotency-Key": f"{game.id}-{page['version']}"},
        )
        if response.status_code == 200:
            game.human_moves += 1
            game.thinks_until = time.monotonic() + HUMAN_THINK_SECONDS

    def tick(self, seconds: float) -> None:
        """Play the humans and watch the games for `seconds`."""
        until = time.monotonic() + seconds
        while True:
            self.observe()
            self.play_humans()
            if time.monotonic() >= until:
                return
            time.sleep(0.05)

    def record_key(self, game_id: str) -> str:
        return f"{self.setup.settings.key_prefix}:{{{game_id}}}:game"

    def log_ids(self, game_id: str) -> list[str]:
        key = f"{self.setup.settings.key_prefix}:{{{game_id}}}:log"
        return [entry_id for entry_id, _ in self.store.xrange(key)]

    # --- faults ---------------------------------------------------------------------

    def ready_workers(self) -> list[Any]:
        """Workers whose Celery process is up (one kill at a time, as in a real incident:
        a worker killed again before it is back only measures its start-up time). Its
        Celery process is back once it has said ready once more than it was killed (the
        supervisor may not have logged the restart yet)."""
        return [
            w
            for w in self.setup.workers
            if w.poll() is None
            and (text := w.log.read_text(errors="replace")).count(" ready.")
            > max(text.count("worker_restarted"), self.celery_kills.get(w.node, 0))
        ]

    def wait_for_workers(self) -> list[Any]:
        deadline = time.monotonic() + 90
        while len(ready := self.ready_workers()) < 2:
            if time.monotonic() > deadline:
                pytest.fail("the workers did not come back")
            self.tick(0.2)
        return ready

    def kill_one(self) -> None:
        worker = self.rng.choice(self.wait_for_workers())
        self.keep_a_game_going()
        how = self.rng.choices(["celery", "pool", "whole"], weights=[4, 5, 1])[0]
        if how == "pool":
            pids = pool_processes(self.setup, worker.node)
            if pids:
                self.signal(self.rng.choice(pids), f"pool process of {worker.node}")
                return
            how = "celery"
        if how == "celery":
            main = celery_main(worker)
            if main is not None:
                self.celery_kills[worker.node] = self.celery_kills.get(worker.node, 0) + 1
                self.signal(main, f"celery process of {worker.node}")
                return
        kill_hard(worker)
        self.faults.append(Fault(time.monotonic(), f"whole worker {worker.node}"))
        self.start_worker(wait=False)

    def keep_a_game_going(self) -> None:
        """Waiting for the workers can outlast every game in play (on a loaded machine a
        restart takes seconds): the fault must still meet one, so one more is started."""
        self.observe()
        if all(game.final for game in self.games):
            self.create(GAMES + len(self.games))
            self.tick(0.3)

    def signal(self, pid: int, what: str) -> None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        self.faults.append(Fault(time.monotonic(), what))

    def start_worker(self, wait: bool = True) -> None:
        node = f"chaos-{len(self.setup.workers)}@%h"
        worker = self.setup.start_worker("--beat", f"--hostname={node}", wait=wait)
        worker.node = node.replace("%h", os.uname().nodename)  # type: ignore[attr-defined]

    # --- what the players saw -------------------------------------------------------

    def recoveries(self) -> dict[str, list[float]]:
        """Per fault, per game still going then: seconds until the game next moved."""
        samples: dict[str, list[float]] = {}
        for number, fault in enumerate(self.faults):
            waits = samples.setdefault(f"{number}:{fault.what}", [])
            for game in self.games:
                before = [s for s in game.seen if s[0] <= fault.at]
                after = [s for s in game.seen if s[0] > fault.at]
                if before and before[-1][2] not in FINAL and after:
                    waits.append(after[0][0] - fault.at)
        return samples


def test_every_game_finishes_through_worker_kills_and_a_redis_restart(
    private_redis, private_worker_setup
) -> None:
    rng = random.Random(SEED)
    setup = private_worker_setup(
        task_visibility_timeout=30, bot_mcts_seconds=0.05, bot_mcts_iterations=20
    )
    with TestClient(create_app(setup.settings), raise_server_exceptions=False) as client:
        chaos = Chaos(setup, client, rng)
        chaos.start_worker()
        chaos.start_worker()
        # Games are created all along, so that some are going during every fault.
        waiting = list(range(GAMES))
        restart_after = KILLS // 2
        started = time.monotonic()
        for number in range(KILLS):
            # Workers first, then new games, then the fault: so that it meets games in play
            # (most end within seconds) rather than a worker still starting.
            chaos.wait_for_workers()
            for _ in range(-(-len(waiting) // (KILLS - number))):
                chaos.create(waiting.pop(0))
            chaos.tick(rng.uniform(0.3, 1.0))
            if number + 1 == restart_after:
                private_redis.restart(down_seconds=2)
                chaos.faults.append(Fault(time.monotonic(), "redis restart"))
                chaos.tick(rng.uniform(0.3, 1.0))
            chaos.kill_one()
        for index in waiting:
            chaos.create(index)
        faults_done = time.monotonic()
        deadline = faults_done + 150
        while not all(game.final for game in chaos.games) and time.monotonic() < deadline:
            chaos.tick(0.5)
        ended = time.monotonic()

        stuck = [(g.id, g.kind, g.seen[-1][1:] if g.seen else None) for g in chaos.games]
        stuck = [row for row, g in zip(stuck, chaos.games, strict=True) if not g.final]
        per_fault = chaos.recoveries()
        recoveries = sorted(wait for waits in per_fault.values() for wait in waits)
        logs = {game.id: chaos.log_ids(game.id) for game in chaos.games}
        outputs = [w.log.read_text(errors="replace") for w in setup.workers]
        chaos.store.close()

    p95 = recoveries[int(0.95 * (len(recoveries) - 1))] if recoveries else 0.0
    print(
        f"\nchaos seed={SEED}: {len(chaos.games)} games, {len(chaos.faults)} faults "
        f"({', '.join(f.what for f in chaos.faults)}), faults over {faults_done - started:.0f}s, "
        f"all ended {ended - faults_done:.0f}s after the last\n"
        f"recovery (s) per fault and game going: n={len(recoveries)} "
        f"median={statistics.median(recoveries) if recoveries else 0:.2f} p95={p95:.2f} "
        f"max={max(recoveries, default=0):.2f}; worker restarts "
        f"{sum(o.count('worker_restarted') for o in outputs)}, turns resent "
        f"{sum(o.count('turn_resent') for o in outputs)}, unrecoverable errors "
        f"{sum(o.count('Unrecoverable error') for o in outputs)}\n"
        + "\n".join(
            f"  {what}: {' '.join(f'{wait:.1f}' for wait in waits)}"
            for what, waits in per_fault.items()
        )
    )
    assert not stuck, f"games that never finished: {stuck}"
    missed = [what for what, waits in per_fault.items() if not waits]
    assert not missed, f"faults that met no game in play, so proved nothing: {missed}"
    for game in chaos.games:
        version, status = game.seen[-1][1:]
        assert status == "finished", (game.id, game.kind, status)
        assert logs[game.id] == [f"{v}-0" for v in range(1, version + 1)], (
            f"gaps or duplicates in the log of {game.id}"
        )
    assert p95 <= RECOVERY_P95_SECONDS, recoveries
