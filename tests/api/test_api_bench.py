"""bench/load.py, bench/bot_turns.py, bench/move_parts.py and bench/move_instructions.py
run end to end (tiny loads) and report sane numbers."""

from __future__ import annotations

import gc
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
import redis

from services.api.app import create_app
from services.engine import all_games
from services.store import GameRecord, LogEntry

LOAD = Path(__file__).resolve().parents[2] / "bench" / "load.py"
BOT_TURNS = LOAD.with_name("bot_turns.py")
MOVE_PARTS = LOAD.with_name("move_parts.py")
MOVE_INSTRUCTIONS = LOAD.with_name("move_instructions.py")


def test_the_load_script_plays_games_over_rest_graphql_and_the_floor(
    settings, games, serve, redis_url, capsys
):
    load = bench_script(LOAD)
    with serve(create_app(settings, games)) as server:
        numbers = load.run(
            [
                "--url",
                server.url,
                "--redis-url",
                redis_url,
                "--clients",
                "2",
                "--games",
                "1",
                "--players",
                "2",
                "--game",
                "sky-islands",
                "--key-prefix",
                settings.key_prefix,
                "--memory",
                "hidden-numbers:3",
                "--memory-games",
                "1",
                "--rounds",
                "2",
            ]
        )
    printed = capsys.readouterr().out
    assert set(numbers) == {"sky-islands", "memory"}
    phases = numbers["sky-islands"]
    assert set(phases) == {"rest", "rest-minimal", "graphql", "floor"}
    assert all(n["moves"] > 0 and n["moves_per_second"] > 0 for n in phases.values())
    assert all(0 < n["p50_ms"] <= n["p99_ms"] for n in phases.values())
    assert phases["floor"]["cpu_ms_per_move"] >= 0, "the spawned floor's CPU is read"
    assert "floor/this CPU" in printed and "sky-islands: medians of 2 rounds" in printed
    assert all("floor_ratio_cpu" in n for n in phases.values())
    memory = numbers["memory"]
    assert set(memory) == {"sky-islands, 2p (rest load)", "hidden-numbers, 3p (whole games)"}
    assert all(
        row["hash_bytes_mean"] > 0 and row["log_bytes_per_move"] > 0 for row in memory.values()
    )


def test_rounds_give_medians_and_each_rounds_own_floor_ratio():
    load = bench_script(LOAD)
    rounds = [
        {
            "rest": {"moves": 10, "cpu_ms_per_move": 4.0},
            "floor": {"moves": 10, "cpu_ms_per_move": 1.0},
        },
        {
            "rest": {"moves": 12, "cpu_ms_per_move": 2.0},
            "floor": {"moves": 12, "cpu_ms_per_move": 1.5},
        },
        {
            "rest": {"moves": 11, "cpu_ms_per_move": 3.0},
            "floor": {"moves": 11, "cpu_ms_per_move": 0.9},
        },
    ]
    merged = load.medians(rounds)
    assert merged["rest"]["moves"] == 11 and merged["rest"]["cpu_ms_per_move"] == 3.0
    # Not 1.0 / 3.0 (the medians' ratio): the median of 0.25, 0.75 and 0.3.
    assert merged["rest"]["floor_ratio_cpu"] == pytest.approx(0.3)
    assert merged["floor"]["floor_ratio_cpu"] == pytest.approx(1.0)


def bench_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"skyport_bench_{path.stem}", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up there
    spec.loader.exec_module(bench)
    return bench


def keys_left(redis_url: str, prefix: str) -> list[bytes]:
    client = redis.Redis.from_url(redis_url)
    try:
        return list(client.scan_iter(f"{prefix}*"))
    finally:
        client.close()


def test_the_bot_turns_script_plays_bot_games_to_the_end_and_leaves_no_keys(redis_url, capsys):
    bench = bench_script(BOT_TURNS)
    numbers = bench.main(["--games", "1", "--game", "sky-islands", "--redis-url", redis_url])
    assert set(numbers) == {"sky-islands"} and numbers["sky-islands"] > 0
    assert "ms CPU per bot move" in capsys.readouterr().out
    assert not keys_left(redis_url, bench.PREFIX)


def test_the_move_parts_script_splits_a_moves_cpu_into_parts_that_add_up(redis_url, capsys):
    bench = bench_script(MOVE_PARTS)
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    numbers = bench.main(["--games", "1", "--game", "sky-islands", "--redis-url", redis_url])
    # It ran with the server's collector settings, and left this process's as they were.
    assert (gc.get_threshold(), gc.get_freeze_count()) == (thresholds, frozen)
    parts = numbers["sky-islands"]
    total = parts.pop(bench.TOTAL)
    assert total > 0 and sum(parts.values()) == pytest.approx(total)
    # Every move reads and commits over Redis, lists legal moves and answers with a view.
    for part in ["Redis HGETALL", "Redis EVALSHA", "the mover's view", "rules: legal moves"]:
        assert parts[part] > 0, part
    assert "service CPU per move" in capsys.readouterr().out
    assert not keys_left(redis_url, bench.PREFIX)
    # The timing wrappers are gone once the run ends: the engines and records are as before.
    assert isinstance(vars(GameRecord)["from_fields"], classmethod)
    assert vars(LogEntry)["to_json"].__name__ == "to_json" and not hasattr(
        vars(LogEntry)["to_json"], "__wrapped__"
    )
    assert not any(set(vars(game)) & set(bench.ENGINE_PARTS) for game in all_games())


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_the_move_instructions_script_counts_a_moves_instructions(redis_url, capsys):
    bench = bench_script(MOVE_INSTRUCTIONS)
    numbers = bench.main(["--games", "1", "--game", "sky-islands", "--redis-url", redis_url])
    # A Sky Islands move is millions of instructions (5.8 M in 2026-12), not start-up's
    # billions: the count is per move, with start-up taken out.
    assert 1e6 < numbers["sky-islands"] < 1e8
    assert "M instructions per move" in capsys.readouterr().out
    assert not keys_left(redis_url, "skyport-bench-instructions")
