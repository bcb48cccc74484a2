"""How a log entry is kept in the move-log stream: compact, yet every reader's events
come back exactly as they were when the move committed.

A commit knows each reader's events (`EventViews`: the full ones, the spectator's, and
those of each seat that sees more). Keeping them all repeats most of each event several
times, so an entry keeps only the full events and, per event, which of its keys readers
outside its `private_to` may not see. Every reader's events follow from that:

- full: the events as they are;
- a seat named in an event's `private_to`: that event without `private_to`;
- anyone else (a spectator, another seat): that event without `private_to` and without
  its hidden keys.

That is the engine's redaction (`Event.visible_to`), but the store does not rely on it:
`encode` decodes what it made and compares it with the views it was given, and keeps the
views verbatim (the older, verbose form) if anything differs. So a catch-up reader always
gets what it got live, whatever the views were.

The stored text is one of:

- `[version, seat, move, events, status, at, hidden]`: compact JSON. `events` are the full
  events, each without `"private_to": []` (put back as the event's third key); `at` is
  unix milliseconds when that gives back the same ISO text, else the text; `hidden` is
  `[[event index, key, ...], ...]`; the action is "resign" when `move` is null, else
  "move". A resignation for any reason but "resigned" (a clock that ran out: "timeout")
  adds its `reason` after `hidden` (then `[]` when nothing is hidden); without it (every
  entry kept before there were reasons) a resignation's reason is "resigned".
- `^<n>:` and base64 of the compact JSON deflated against dictionary n (a fixed file of
  typical entries, `log_dictionary_<n>.json`; see `bench/log_dictionary.py`), when that is
  shorter: an entry is too short for deflate to find much to repeat within it alone.
- `~` and base64 of the raw-deflated compact JSON, as older logs hold.
- a JSON object: the verbose form (every view spelled out), as older logs hold; `reason`
  only when given.
"""

from __future__ import annotations

import base64
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from .records import RESIGNED, EventViews, GameStatus, LogEntry

PRIVATE_TO = "private_to"
PACKED = "^"
COMPRESSED = "~"
DICTIONARY = 1
"""The dictionary new entries are packed against. A released one never changes."""
COMPRESS_FROM = 48
"""Entries at least this long (in bytes of compact JSON) are tried packed."""


def encode(entry: LogEntry) -> str:
    compact = _compact(entry)
    if compact is None:
        return _verbose(entry)
    text = orjson.dumps(compact)
    if len(text) >= COMPRESS_FROM:
        packed = mark(DICTIONARY) + pack(text, DICTIONARIES[DICTIONARY])
        if len(packed) < len(text):
            return packed
    return text.decode()


def decode(data: str | bytes) -> LogEntry:
    if isinstance(data, bytes):
        data = data.decode()
    if data.startswith(PACKED):
        number, _, packed = data[1:].partition(":")
        return _from_compact(orjson.loads(unpack(packed, DICTIONARIES[int(number)])))
    if data.startswith(COMPRESSED):
        return _from_compact(orjson.loads(unpack(data[1:], None)))
    raw = orjson.loads(data)
    if isinstance(raw, list):
        return _from_compact(raw)
    return _from_verbose(raw)


# --- the compact form ------------------------------------------------------------------


def _compact(entry: LogEntry) -> list[Any] | None:
    """The compact form of `entry`, or None when it would not give back the same views."""
    if entry.action != ("resign" if entry.move is None else "move"):
        return None
    if entry.action == "move" and entry.reason is not None:
        return None  # only a resignation has a reason in the compact form
    events: list[dict[str, Any]] = []
    hidden: list[list[Any]] = []
    spectator = entry.events.spectator
    if len(spectator) != len(entry.events.full):
        return None
    for index, (full, public) in enumerate(zip(entry.events.full, spectator, strict=True)):
        events.append(_without_empty_private_to(full))
        secret = [key for key in full if key != PRIVATE_TO and key not in public]
        if secret:
            hidden.append([index, *secret])
    compact: list[Any] = [entry.version, entry.seat, entry.move, events, entry.status.value]
    compact.append(_at_ms(entry.at))
    if hidden or entry.reason not in (None, RESIGNED):
        compact.append(hidden)
    if entry.reason not in (None, RESIGNED):
        compact.append(entry.reason)
    if not _same_views(_views(events, hidden), entry.events):
        return None
    return compact


def _from_compact(raw: list[Any]) -> LogEntry:
    version, seat, move, events, status, at = raw[:6]
    hidden = raw[6] if len(raw) > 6 else []
    return LogEntry(
        version=version,
        seat=seat,
        action="resign" if move is None else "move",
        move=move,
        events=_views(events, hidden),
        status=GameStatus(status),
        at=_at_text(at),
        reason=raw[7] if len(raw) > 7 else None,
    )


def _views(events: list[dict[str, Any]], hidden: list[list[Any]]) -> EventViews:
    """Every reader's events from the stored ones (see the module's docstring)."""
    secret = {row[0]: frozenset(row[1:]) for row in hidden}
    full = [_with_private_to(event) for event in events]
    spectator = []
    owners: set[int] = set()
    for index, event in enumerate(full):
        drop = secret.get(index, frozenset())
        spectator.append(
            {key: value for key, value in event.items() if key != PRIVATE_TO and key not in drop}
        )
        if drop:
            owners.update(event[PRIVATE_TO])
    seats = {}
    for seat in sorted(owners):
        mine = [
            {key: value for key, value in event.items() if key != PRIVATE_TO}
            if seat in event[PRIVATE_TO] and index in secret
            else public
            for index, (event, public) in enumerate(zip(full, spectator, strict=True))
        ]
        seats[str(seat)] = mine
    return EventViews(full=full, spectator=spectator, seats=seats)


def _without_empty_private_to(event: dict[str, Any]) -> dict[str, Any]:
    keys = list(event)
    if len(keys) > 2 and keys[2] == PRIVATE_TO and event[PRIVATE_TO] == []:
        return {key: value for key, value in event.items() if key != PRIVATE_TO}
    return event


def _with_private_to(event: dict[str, Any]) -> dict[str, Any]:
    if PRIVATE_TO in event:
        return event
    items = list(event.items())
    return dict([*items[:2], (PRIVATE_TO, []), *items[2:]])


def _same_views(derived: EventViews, given: EventViews) -> bool:
    """Equal down to the order of keys, so a reader's JSON is byte for byte the same."""
    return orjson.dumps([derived.full, derived.spectator, derived.seats]) == orjson.dumps(
        [given.full, given.spectator, given.seats]
    )


def _at_ms(at: str) -> int | str:
    try:
        ms = round(datetime.fromisoformat(at).timestamp() * 1000)
    except ValueError:
        return at
    return ms if _at_text(ms) == at else at


def _at_text(at: int | str) -> str:
    if isinstance(at, str):
        return at
    return datetime.fromtimestamp(at / 1000, UTC).isoformat(timespec="milliseconds")


def mark(dictionary: int | None) -> str:
    """What a packed entry starts with: the dictionary it was packed against, if any."""
    return COMPRESSED if dictionary is None else f"{PACKED}{dictionary}:"


def pack(text: bytes, dictionary: bytes | None) -> str:
    """Base64 of `text` raw-deflated, against `dictionary` if given."""
    if dictionary is None:
        packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    else:
        packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, dictionary)
    return base64.b64encode(packer.compress(text) + packer.flush()).decode()


def unpack(packed: str, dictionary: bytes | None) -> bytes:
    unpacker = zlib.decompressobj(-15, dictionary) if dictionary else zlib.decompressobj(-15)
    return unpacker.decompress(base64.b64decode(packed)) + unpacker.flush()


def dictionary_bytes(path: Path) -> bytes:
    """A dictionary file's bytes: its typical entries, one after the other."""
    return "".join(orjson.loads(path.read_bytes())).encode()


DICTIONARIES = {
    number: dictionary_bytes(Path(__file__).with_name(f"log_dictionary_{number}.json"))
    for number in (1,)
}
"""Every released dictionary, read once at import (never on the event loop)."""


# --- the verbose form ------------------------------------------------------------------


def _verbose(entry: LogEntry) -> str:
    return orjson.dumps(
        {
            "version": entry.version,
            "seat": entry.seat,
            "action": entry.action,
            "move": entry.move,
            "events": {
                "full": entry.events.full,
                "spectator": entry.events.spectator,
                "seats": entry.events.seats,
            },
            "status": entry.status.value,
            "at": entry.at,
            **({"reason": entry.reason} if entry.reason is not None else {}),
        }
    ).decode()


def _from_verbose(raw: dict[str, Any]) -> LogEntry:
    return LogEntry(
        version=raw["version"],
        seat=raw["seat"],
        action=raw["action"],
        move=raw["move"],
        events=EventViews(**raw["events"]),
        status=GameStatus(raw["status"]),
        at=raw["at"],
        reason=raw.get("reason"),
    )
