"""Random-playout speed and MCTS search speed of every registered game, on one core.

    python bench/playouts.py [--seconds 10] [--baseline REF] [--chunks 6] [--only sky-islands]

Prints the machine, then for each game and player count the games and moves per CPU
second of random bots playing whole games through the contract (setup, prompts,
legal_moves, apply, result), then MCTS iterations per CPU second from a few early
positions of each game.

With --baseline REF (a commit of this repository; by default the commit before the
engine-core work), Sky Islands random playouts are also
run on that commit's code, in a subprocess, interleaved with the current code in
alternating chunks of the same seeds, so that machine noise hits both; the ratio of
games per CPU second is printed. Each chunk is a fresh process that plays one game to
warm up and collects garbage before the clock starts; chunks of 100 games keep what a
process pays once (the first placements it lists, made and kept as moves) from
weighing as it would in a few games, since servers and searching bots play thousands.
Numbers are printed, never asserted.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import typer  # noqa: E402

from services.ai import RandomBot, play_match  # noqa: E402
from services.ai.mcts import MctsBot  # noqa: E402
from services.engine import Game, all_games  # noqa: E402

BEFORE_ENGINE_CORE = "6251f99"
"""The last commit before the engine-core work (issue 9): "today's" speed."""

CHUNK = """
import gc, sys, time
from services.ai import RandomBot, play_match
from services.engine import get_game
game = get_game(sys.argv[1])
players, first, count = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
play_match(game, [RandomBot(s) for s in range(players)], seed=10**6)  # warm caches up
gc.collect()  # the collector's pass over what importing left, not over playouts
moves, started = 0, time.process_time()
for seed in range(first, first + count):
    bots = [RandomBot(seed * 7 + s) for s in range(players)]
    moves += len(play_match(game, bots, seed=seed).moves)
print(time.process_time() - started, moves)
"""


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def machine() -> str:
    return (
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.system()} {platform.machine()}, {cpu_model()}, {os.cpu_count()} cores "
        f"(benchmark uses one)"
    )


def measure(game: Game, players: int, seconds: float) -> tuple[int, int, float]:
    """Games and moves played in about `seconds` of CPU time, and that CPU time."""
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        bots = [RandomBot(games * 7 + s) for s in range(players)]
        moves += len(play_match(game, bots, seed=games).moves)
        games += 1
    return games, moves, time.process_time() - start


def mcts_rate(game: Game, players: int, iterations: int = 300) -> float:
    """MCTS iterations per CPU second, averaged over the first decisions of a game."""
    bots = [RandomBot(s) for s in range(players)]
    state = game.setup(None, players, 11)
    spent = done = 0.0
    for _ in range(12):
        prompts = game.prompts(state)
        if not prompts:
            break
        seat = prompts[0].seat
        if len(game.legal_moves(state, seat)) > 1:
            searcher = MctsBot(seat, iterations=iterations)
            started = time.process_time()
            searcher.choose(game, state, seat)
            spent += time.process_time() - started
            done += iterations
        state = game.apply(state, seat, bots[seat].choose(game, state, seat)).state
    return done / spent if spent else float("nan")


def export(ref: str, into: Path) -> Path:
    """The code of commit `ref`, unpacked into `into` (git archive: no worktree made)."""
    archive = into / "baseline.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "code", filter="data")
    return into / "code"


def run_chunk(code: Path, game_id: str, players: int, first: int, count: int) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run(
        [sys.executable, "-c", CHUNK, game_id, str(players), str(first), str(count)],
        env=env,
        cwd=code,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), int(out[1])


def compare(ref: str, chunks: int, games_per_chunk: int, players: int = 2) -> None:
    game_id = "sky-islands"
    print(f"\n{game_id}, {players} players: this code vs {ref}, {chunks} interleaved chunks")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            before = export(ref, Path(tmp))
        except (subprocess.CalledProcessError, OSError) as error:
            print(f"  baseline {ref} is not available here ({error}); skipped")
            return
        totals: dict[str, list[float]] = {"before": [0.0, 0, 0], "now": [0.0, 0, 0]}
        for chunk in range(chunks):
            first = chunk * games_per_chunk
            order = [("before", before), ("now", ROOT)]
            for name, code in order if chunk % 2 == 0 else order[::-1]:
                cpu, moves = run_chunk(code, game_id, players, first, games_per_chunk)
                totals[name][0] += cpu
                totals[name][1] += moves
                totals[name][2] += games_per_chunk
    rates = {name: games / cpu for name, (cpu, _, games) in totals.items()}
    for name, (cpu, moved, played) in totals.items():
        rate = f"{played / cpu:>9.1f} games/s {moved / cpu:>9.0f} moves/s"
        print(f"  {name:<7}{played:>6} games {rate}")
    print(f"  ratio  {rates['now'] / rates['before']:.2f}x games per CPU second")


def main(
    seconds: float = typer.Option(10.0, help="CPU seconds spent on each game and player count"),
    baseline: str = typer.Option(
        BEFORE_ENGINE_CORE, help="a commit to compare Sky Islands playouts with ('' for none)"
    ),
    chunks: int = typer.Option(6, help="interleaved chunks of the baseline comparison"),
    chunk_games: int = typer.Option(100, help="games per chunk of the baseline comparison"),
    only: str = typer.Option("", help="comma-separated game ids (default: all)"),
) -> None:
    wanted = {name.strip() for name in only.split(",") if name.strip()}
    print(machine())
    print(f"{'game':<14}{'players':>8}{'games':>8}{'games/s':>10}{'moves/s':>10}  (CPU time)")
    games_list = [g for g in all_games() if not wanted or g.id in wanted]
    for game in games_list:
        for players in range(game.min_players, game.max_players + 1):
            games, moves, elapsed = measure(game, players, seconds)
            rates = f"{games / elapsed:>10.1f}{moves / elapsed:>10.0f}"
            print(f"{game.id:<14}{players:>8}{games:>8}{rates}")
    print(f"\n{'game':<14}{'players':>8}{'MCTS iterations/s':>20}  (CPU time, default depth)")
    for game in games_list:
        if game.supports_search():
            rate = mcts_rate(game, game.min_players)
            print(f"{game.id:<14}{game.min_players:>8}{rate:>20.0f}")
    if baseline:
        compare(baseline, chunks, chunk_games)


if __name__ == "__main__":
    typer.run(main)
