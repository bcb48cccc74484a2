"""What each reader may see. Hidden information leaves the engine only through
`game.view(state, seat)` and `Event.visible_to(seat)`; this module decides, for
everything else the API says (prompts, log entries, moves), who sees which part."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.engine import Event, Prompt
from services.store import FINAL_STATUSES, EventViews, GameRecord, GameStatus, LogEntry

from .invites import expiry_text
from .payloads import LogEntryDocument, PromptInfo, SeatInfo


@dataclass(frozen=True)
class Viewer:
    """Who reads: a seat (by its token), a platform (by an API key) or a spectator."""

    seat: int | None = None
    platform: bool = False
    creator: bool = False
    """The platform's API key created the game (itself, in bulk or by its tournament)."""

    def sees_everything(self, status: GameStatus) -> bool:
        """The API key that created a game reads it in full once it is over; another
        key reads it as a spectator does."""
        return self.platform and self.creator and status in FINAL_STATUSES


def event_views(events: Sequence[Event], players: int) -> EventViews:
    """Every reader's version of `events`, made once with the engine's redaction
    (`Event.hidden_from`), from each event's full data dumped once."""
    full = [event.full() for event in events]
    spectator = [_seen_by(event, data, None) for event, data in zip(events, full, strict=True)]
    seats = {}
    for seat in range(players):
        mine = [
            _seen_by(event, data, seat) if seat in event.private_to else public
            for event, data, public in zip(events, full, spectator, strict=True)
        ]
        if mine != spectator:
            seats[str(seat)] = mine
    return EventViews(full=full, spectator=spectator, seats=seats)


def _seen_by(event: Event, full: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """`event.visible_to(viewer)`, from `full` (its `full()`), without dumping it again."""
    hidden = event.hidden_from(viewer)
    return {key: value for key, value in full.items() if key not in hidden}


def entry_for(entry: LogEntry, viewer: Viewer, full: bool) -> LogEntryDocument:
    """A log entry as `viewer` may read it. The move itself may name hidden things (a
    card put back on a deck), so only its maker — or an audit — sees it."""
    own = viewer.seat is not None and viewer.seat == entry.seat
    return LogEntryDocument(
        version=entry.version,
        seat=entry.seat,
        action=entry.action,
        move=entry.move if (own or full) else None,
        events=entry.events.full if full else entry.events.for_seat(viewer.seat),
        status=entry.status,
        at=entry.at,
        reason=entry.reason,
    )


def prompts_for(prompts: Sequence[Prompt], viewer: Viewer) -> list[PromptInfo]:
    """Everyone sees who must act and on what kind of decision; only the prompted seat
    sees the text and options, which may list its hidden cards."""
    shown = []
    for prompt in prompts:
        if viewer.seat == prompt.seat:
            shown.append(PromptInfo(**prompt.model_dump()))
        else:
            shown.append(PromptInfo(seat=prompt.seat, kind=prompt.kind))
    return shown


def seat_infos(record: GameRecord, resigned: Sequence[int] = ()) -> list[SeatInfo]:
    """The seats as everyone sees them: `bot` is the seat's own level (null for a human
    seat, even while a bot plays it); `abandoned` and `autopilot` say a bot plays it now."""
    return [
        SeatInfo(
            seat=index,
            name=seat.name,
            bot=seat.bot,
            resigned=index in resigned,
            abandoned=record.away.get(index, {}).get("why") == "abandoned",
            autopilot=record.away.get(index, {}).get("why") == "autopilot",
            open=seat.open,
            invite_expires_at=expiry_text(record.invites.get(index)),
        )
        for index, seat in enumerate(record.seats)
    ]
