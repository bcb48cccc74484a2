"""Game records this process read lately, by game id.

A client reads, then moves: GET the legal moves (or the game), then POST a move at that
version. Validating the move against the record it just read spares reading it again, a
third of a move's Redis round trips. Nothing here is trusted: the move's commit
compare-and-sets the version and the revision the record was read at
(`records.REVISION_FIELD`), so it lands only if the stored record is still that one;
otherwise, and whenever the move fails on the kept record, the service reads the record
afresh and judges the move on that. Each kept record serves one move (`take`); a move
that commits keeps the record it leaves (`Commit.applied_to`), so the next move needs no
read either."""

from __future__ import annotations

from collections import OrderedDict

from services.store import GameRecord

SIZE = 512
"""Records kept, at most: one per game being played on this replica right now."""


class RecentRecords:
    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._records: OrderedDict[str, GameRecord] = OrderedDict()

    def keep(self, record: GameRecord) -> None:
        self._records[record.id] = record
        self._records.move_to_end(record.id)
        while len(self._records) > self._size:
            self._records.popitem(last=False)

    def take(self, game_id: str) -> GameRecord | None:
        """The record kept for `game_id`, which is forgotten (its next read keeps another)."""
        return self._records.pop(game_id, None)
