"""bench/tournaments.py runs end to end (a tiny tournament, embedded and on one Celery
worker) and reports sane numbers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "tournaments.py"

pytestmark = pytest.mark.timeout(240)


def test_the_tournament_bench_finishes_a_small_swiss_both_ways(redis_url, capsys):
    spec = importlib.util.spec_from_file_location("skyport_bench_tournaments", SCRIPT)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    rows = bench.run(
        [
            "--spawn",
            "--redis-url",
            redis_url,
            "--participants",
            "4",
            "--rounds",
            "2",
            "--workers",
            "1",
            "--timeout",
            "90",
        ]
    )
    assert [row["mode"] for row in rows] == ["embedded", "celery"]
    for row in rows:
        assert row["finished"] and row["games"] == 4 and row["rounds"] == 2
        assert row["games_per_minute"] > 0 and row["moves"] > 0
    assert "games/min" in capsys.readouterr().out
