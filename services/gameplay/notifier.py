"""Webhooks of a game: `move` after each commit (as a spectator sees it),
`game.finished` with the stored standings, `game.aborted`, the open seats'
`game.seat_claimed`, `game.started` and `game.cancelled`, `seat.left` when a seat
resigns or runs out of time, and `seat.token_replaced`, to every URL the game was given
(for the events it asked for). Delivery is the sender's (signed, retried with back-off:
at least once; receivers dedupe by id).

Every webhook but `game.finished` (which the scoring task sends again when it is
redelivered) is noted as owed with the change that makes it (`services.store.webhooks_owed`):
the notifier takes the note out once it has handed the webhook over, and the sweep sends
those of a change whose process died before its hooks, through the methods here too
(`committed`, `taken_over`, `seat_claimed`, `token_replaced`, `started`, `cancelled`,
`aborted`): one builder
of their payloads, so a webhook sent again has the event id and the body of the first
(but for `at`, when it was made)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import structlog

from services.store import RESIGNED, GameRecord, LogEntry, SeatRecord
from services.store.webhooks_owed import (
    OwedWebhooks,
    aborted_member,
    cancelled_member,
    claimed_member,
    left_member,
    owed_member,
    replaced_member,
    started_member,
    token_print,
)

from . import metrics
from .clocks import now
from .commits import Change, webhooks_due
from .dispatch import WebhookSender
from .visibility import Viewer, entry_for, seat_infos

log = structlog.get_logger(__name__)

ALSO_FOR = {"game.aborted": "game.finished"}
"""Events sent to those who asked for another too: a game.aborted to those told of
game.finished (the other way a game ends: one waiting for game.finished would otherwise
wait for ever)."""


class WebhookNotifier:
    def __init__(self, sender: WebhookSender | None, owed: OwedWebhooks | None = None) -> None:
        self.sender = sender
        self.owed = owed
        """The index where commits note the webhooks they owe: each note is taken out here
        once they are handed over (None: none are)."""

    async def after_commit(self, change: Change) -> None:
        if change.entry is not None and webhooks_due(change):
            await self.committed(change.record, change.entry)

    async def committed(self, record: GameRecord, entry: LogEntry) -> None:
        """The webhooks of the commit that logged `entry`: the move, as a spectator sees it
        (no hidden information); and seat.left for a resignation or a forfeit on time,
        which ends the game (only under on_leave end_game is a resignation committed:
        under bot_takes_over the seat is taken over instead, `Referee.take_over`). Then
        they are no longer owed. `record`: the game's, at that version or later (what a
        webhook reads of it - URLs, tags, names - is settled before any move)."""
        moved = replace(record, version=entry.version)
        if entry.action == "resign":
            await self.seat_left(moved, entry.seat, entry.reason or RESIGNED, bot=None)
        if "move" in record.webhook_events:
            document = entry_for(entry, Viewer(), full=False)
            await self._send(moved, "move", {"entry": document.model_dump(mode="json")})
        await self._handed_over(owed_member(record.id, entry))

    async def taken_over(self, record: GameRecord, seat: int, reason: str, *, bot: str) -> None:
        """seat.left of `seat`, taken over by `bot` at the record's version (on_leave
        bot_takes_over: nothing is committed); then it is no longer owed."""
        await self.seat_left(record, seat, reason, bot=bot)
        await self._handed_over(left_member(record.id, record.version, seat))

    async def seat_left(
        self, record: GameRecord, seat: int, reason: str, *, bot: str | None
    ) -> None:
        """seat.left: `seat` resigned or ran out of time (`reason`); `bot` plays it on
        (on_leave bot_takes_over), or None when the game ended with it."""
        body = {"seat": seat, "name": record.seats[seat].name, "reason": reason, "bot": bot}
        await self._send(record, "seat.left", body, key=str(seat))

    @staticmethod
    def due(record: GameRecord, event_type: str) -> bool:
        """Whether the game asked for webhooks of `event_type` (and has a URL for them):
        whether a change that makes one notes it as owed."""
        events = record.webhook_events
        also = ALSO_FOR.get(event_type)
        return bool(record.webhooks) and (event_type in events or also in events)

    async def seat_claimed(self, record: GameRecord, seat: int, taken_by: SeatRecord) -> None:
        """game.seat_claimed: open `seat` was given to `taken_by` (a claim, or the
        creator's bot) at the record's version; then it is no longer owed."""
        body = {"seat": seat, "name": taken_by.name, "bot": taken_by.bot}
        await self._send(record, "game.seat_claimed", body, key=str(seat))
        await self._handed_over(claimed_member(record.id, record.version, seat, taken_by))

    async def token_replaced(self, record: GameRecord, seat: int, by: str, token_hash: str) -> None:
        """seat.token_replaced: `seat`'s token was replaced at the record's version, by
        the seat itself or the API key that created the game (`by`); then it is no longer
        owed. The event id tells replacements apart by a print of the new token's hash."""
        body = {"seat": seat, "name": record.seats[seat].name, "by": by}
        key = f"{seat}-{token_print(token_hash)}"
        await self._send(record, "seat.token_replaced", body, key=key)
        await self._handed_over(replaced_member(record.id, record.version, seat, by, token_hash))

    async def started(self, record: GameRecord) -> None:
        """game.started: the last open seat was filled at the record's version, with the
        seats as they were then (nobody away yet: a seat may leave right after, before
        this is sent); then it is no longer owed."""
        seats = [info.model_dump(mode="json") for info in seat_infos(replace(record, away={}))]
        await self._send(record, "game.started", {"seats": seats})
        await self._handed_over(started_member(record.id, record.version))

    async def cancelled(self, record: GameRecord, reason: str) -> None:
        """game.cancelled: the creator called the waiting game off at the record's
        version; then it is no longer owed."""
        await self._send(record, "game.cancelled", {"reason": reason})
        await self._handed_over(cancelled_member(record.id, record.version, reason))

    async def finished(self, record: GameRecord) -> None:
        """game.finished with the stored standings (every breakdown)."""
        if record.standings is not None:
            await self._send(record, "game.finished", {"result": record.standings})

    async def aborted(self, record: GameRecord, reason: str) -> None:
        """game.aborted: the game ended without standings at the record's version (a bot
        or a step kept failing); then it is no longer owed. Sent to those told of
        game.finished too (`ALSO_FOR`)."""
        await self._send(record, "game.aborted", {"reason": reason})
        await self._handed_over(aborted_member(record.id, record.version, reason))

    async def _handed_over(self, member: str) -> None:
        """The webhooks of note `member` are with the sender: the note goes. If it cannot
        (Redis failed), it stays, and the sweep sends them again later (receivers dedupe
        by id): the change stands, and what comes after it must not fail for this."""
        if self.owed is None:
            return
        try:
            await self.owed.handed_over(member)
        except Exception as error:
            log.error("owed_note_not_taken_out", note=member, error=repr(error))

    async def _send(
        self,
        record: GameRecord,
        event_type: str,
        body: dict[str, Any],
        key: str = "",
    ) -> None:
        if self.sender is None or not self.due(record, event_type):
            return
        event_id = f"{record.id}:{record.version}:{event_type}" + (f":{key}" if key else "")
        payload = {
            "id": event_id,
            "type": event_type,
            "game_id": record.id,
            "game": record.game,
            "version": record.version,
            "tags": record.tags,
            "at": now(),
            **body,
        }
        for url in record.webhooks:
            try:
                await self.sender.send_webhook(event_id, event_type, url, payload)
            except Exception as error:
                # Sent after a change that stands: what comes next (a tournament's report,
                # the next URL) must not wait on one notification.
                metrics.WEBHOOKS_NOT_SENT.inc()
                log.error("webhook_not_sent", event_id=event_id, url=url, error=repr(error))
