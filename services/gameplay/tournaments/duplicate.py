"""Duplicate: every table of a round plays the same deal (seed), and seats rotate.

Participants are numbered p = b·k + c (c = p mod k is their "seat class"). In round r
(counted from 0), class c holds seat (c + r) mod k at every table, so over k rounds each
participant holds every seat once, and on each deal all the participants in one seat
held it at different tables: their scores can be compared (matchpoints). Participant p
sits at table (b + c·r) mod T of the T = n/k tables, so each table has one participant
of each class and, with several tables, opponents change from round to round. The
participant count must be a multiple of the seats per table (no byes: a bye would
leave a deal unplayed by someone).
"""

from __future__ import annotations

from .models import Round, Table
from .seating import derive_seed


def round_of(participants: int, seats: int, index: int, seed: int, key: str | None = None) -> Round:
    """Round `index` (from 0): one deal for every table, derived from `seed` and the
    tournament's secret `key` (see `derive_seed`)."""
    tables_count = participants // seats
    deal = derive_seed(seed, "deal", index + 1, key=key)
    tables = []
    for t in range(tables_count):
        at_table = [0] * seats
        for c in range(seats):
            block = (t - c * index) % tables_count
            at_table[(c + index) % seats] = block * seats + c
        tables.append(Table(number=t + 1, seats=at_table, seed=deal))
    return Round(number=index + 1, tables=tables)
