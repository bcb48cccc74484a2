"""Redis persistence: snapshots, versions, the move log, idempotency and live updates."""

from .clocks import Clock, ClockRules
from .connection import open_redis
from .keys import KEY_SCOPE_PREFIX, GameKeys, IndexKeys
from .live import Doorbell, LiveUpdates
from .records import (
    AWAY_FIELD,
    FINAL_STATUSES,
    MAX_SEATS,
    RESIGNED,
    TIMEOUT,
    EventViews,
    GameRecord,
    GameStatus,
    LogEntry,
    SeatRecord,
)
from .store import (
    Commit,
    CommitOutcome,
    CommitVerdict,
    GamePage,
    GameStore,
    GameSummary,
    KeptAnswer,
    Lifetimes,
    LiveStatus,
)

__all__ = [
    "AWAY_FIELD",
    "FINAL_STATUSES",
    "KEY_SCOPE_PREFIX",
    "MAX_SEATS",
    "RESIGNED",
    "TIMEOUT",
    "Clock",
    "ClockRules",
    "Commit",
    "CommitOutcome",
    "CommitVerdict",
    "Doorbell",
    "EventViews",
    "GameKeys",
    "GamePage",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "IndexKeys",
    "KeptAnswer",
    "Lifetimes",
    "LiveStatus",
    "LiveUpdates",
    "LogEntry",
    "SeatRecord",
    "open_redis",
]
