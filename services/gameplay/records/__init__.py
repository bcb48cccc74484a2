"""Game records: the document (`Record`), making one (`RecordWriter`, `play_recorded`,
`record_from_store`) and replaying one through the engine (`replay`, `state_at`, `states_after`)."""

from .document import (
    RECORD_FORMAT,
    Record,
    RecordedAction,
    RecordedClock,
    RecordedSeat,
    state_sha256,
)
from .from_store import record_from_store
from .replay import (
    Replayed,
    ReplayMismatch,
    load_record,
    replay,
    state_at,
    states,
    states_after,
)
from .writer import RecordWriter, full_events, play_recorded, utc_now

__all__ = [
    "RECORD_FORMAT",
    "Record",
    "RecordWriter",
    "RecordedAction",
    "RecordedClock",
    "RecordedSeat",
    "ReplayMismatch",
    "Replayed",
    "full_events",
    "load_record",
    "play_recorded",
    "record_from_store",
    "replay",
    "state_at",
    "state_sha256",
    "states",
    "states_after",
    "utc_now",
]
