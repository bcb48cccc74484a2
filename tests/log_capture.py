"""The app's log records, for tests that check what a server logged (attach after the
app has configured logging, which replaces the root logger's handlers)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


class Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def messages(self) -> list[str]:
        return [r.getMessage() for r in self.records]

    def errors(self) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= logging.ERROR or r.exc_info]


@contextmanager
def captured_logs() -> Iterator[Captured]:
    handler = Captured()
    logging.getLogger().addHandler(handler)
    try:
        yield handler
    finally:
        logging.getLogger().removeHandler(handler)
