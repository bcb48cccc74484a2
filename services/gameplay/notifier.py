"""Webhooks of a game: `move` after each commit (as a spectator sees it),
`game.finished` with the stored standings, the open seats' `game.seat_claimed`,
`game.started` and `game.cancelled`, and `seat.left` when a seat resigns or runs out of
time, to every URL the game was given (for the events it asked for). Delivery is the
sender's (signed, retried with back-off: at least once; receivers dedupe by id).

A commit's webhooks (`move`, `seat.left`) are noted as owed with the commit itself
(`services.store.webhooks_owed`); the notifier takes the note out once it has handed
them over, and the sweep sends those of a commit whose process died before its hooks,
through `committed` here too: one builder of their payloads. So with `seat.left` of a
seat taken over (`taken_over`), noted before the seat's change."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import structlog

from services.store import RESIGNED, GameRecord, LogEntry
from services.store.webhooks_owed import OwedWebhooks, left_member, owed_member

from . import metrics
from .clocks import now
from .commits import Change, webhooks_due
from .dispatch import WebhookSender
from .visibility import Viewer, entry_for

log = structlog.get_logger(__name__)


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
        if self.owed is not None:
            await self.owed.handed_over(owed_member(record.id, entry))

    async def taken_over(self, record: GameRecord, seat: int, reason: str, *, bot: str) -> None:
        """seat.left of `seat`, taken over by `bot` at the record's version (on_leave
        bot_takes_over: nothing is committed); then it is no longer owed."""
        await self.seat_left(record, seat, reason, bot=bot)
        if self.owed is not None:
            await self.owed.handed_over(left_member(record.id, record.version, seat))

    async def seat_left(
        self, record: GameRecord, seat: int, reason: str, *, bot: str | None
    ) -> None:
        """seat.left: `seat` resigned or ran out of time (`reason`); `bot` plays it on
        (on_leave bot_takes_over), or None when the game ended with it."""
        body = {"seat": seat, "name": record.seats[seat].name, "reason": reason, "bot": bot}
        await self._send(record, "seat.left", body, key=str(seat))

    @staticmethod
    def seat_left_due(record: GameRecord) -> bool:
        """Whether a seat leaving the game owes a webhook (`seat.left`)."""
        return bool(record.webhooks) and "seat.left" in record.webhook_events

    async def game_event(
        self, record: GameRecord, event_type: str, body: dict[str, Any], key: str = ""
    ) -> None:
        """Any other event of the game (the open seats' game.seat_claimed,
        game.started, game.cancelled); `key` tells events of one type and version apart."""
        await self._send(record, event_type, body, key=key)

    async def finished(self, record: GameRecord) -> None:
        """game.finished with the stored standings (every breakdown)."""
        if record.standings is not None:
            await self._send(record, "game.finished", {"result": record.standings})

    async def aborted(self, record: GameRecord, reason: str) -> None:
        """game.aborted: the game ended without standings (a bot or a step kept failing).
        Sent to those told of game.finished too: it is the other way a game ends, and
        one waiting for game.finished would otherwise wait for ever."""
        await self._send(record, "game.aborted", {"reason": reason}, also_for="game.finished")

    async def _send(
        self,
        record: GameRecord,
        event_type: str,
        body: dict[str, Any],
        key: str = "",
        also_for: str | None = None,
    ) -> None:
        wanted = event_type in record.webhook_events or also_for in record.webhook_events
        if self.sender is None or not wanted:
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
