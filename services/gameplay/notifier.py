"""Webhooks of a game: `move` after each commit (as a spectator sees it) and
`game.finished` with the stored standings, to every URL the game was given. Delivery is
the sender's (signed, retried with back-off: at least once; receivers dedupe by id)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.store import GameRecord

from .clocks import now
from .commits import Change
from .dispatch import WebhookSender
from .visibility import Viewer, entry_for


class WebhookNotifier:
    def __init__(self, sender: WebhookSender | None) -> None:
        self.sender = sender

    async def after_commit(self, change: Change) -> None:
        """A committed move, as a spectator sees it (no hidden information)."""
        record, entry = change.record, change.entry
        if entry is None or "move" not in record.webhook_events:
            return
        document = entry_for(entry, Viewer(), full=False)
        await self._send(
            replace(record, version=entry.version),
            "move",
            {"entry": document.model_dump(mode="json")},
        )

    async def finished(self, record: GameRecord) -> None:
        """game.finished with the stored standings (every breakdown)."""
        if record.standings is not None:
            await self._send(record, "game.finished", {"result": record.standings})

    async def _send(self, record: GameRecord, event_type: str, body: dict[str, Any]) -> None:
        if self.sender is None or event_type not in record.webhook_events:
            return
        event_id = f"{record.id}:{record.version}:{event_type}"
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
            await self.sender.send_webhook(event_id, event_type, url, payload)
