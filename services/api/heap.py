"""The garbage collector tuned for a long-running server.

Python's defaults (a young collection every 700 net allocations, an old one every 100 of
those) are made for short scripts. In a server under load they cost about 0.4 ms of CPU
per Sky Islands move (`bench/load.py`, 16 clients): hundreds of young collections, and
full collections that walk every module, schema and cache built at start-up, each one a
pause of 100 ms or more on the event loop. Freezing what start-up built (it lives as long
as the process) takes it out of every collection, and a larger young generation makes
collections rarer: together about 0.08 ms per move, with pauses of a few milliseconds
and the same peak memory.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 10, 10)
"""Net allocations between young collections, then young collections per middle one and
middle ones per full one."""


def settle_after_startup() -> None:
    """Collect once, keep everything alive now out of later collections, and space them."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
