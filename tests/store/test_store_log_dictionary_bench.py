"""bench/log_dictionary.py runs, and the released dictionary packs every game's entries
to well under their plain size (what keeps the move log small in Redis)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_dictionary_packs_every_game_to_under_half_its_plain_size():
    printed = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "log_dictionary.py"), "--games", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    rows = {line.split()[0]: line.split()[1:] for line in printed.splitlines()[1:]}
    assert set(rows) == {"dominion", "sky-islands", "sky-lanterns"}
    for entries, plain, _packed, with_dictionary in rows.values():
        assert int(entries) > 0
        assert int(with_dictionary) < int(plain) / 2
