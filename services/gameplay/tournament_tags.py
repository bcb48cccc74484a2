"""The tag a tournament puts on its tables' games, `tournament:<tournament id>`, and
reading it back (a platform may tag its own games `tournament:spring-cup`: only a
well-formed tournament id names a tournament)."""

from __future__ import annotations

import re
from collections.abc import Iterable

TOURNAMENT_TAG = "tournament:"
TOURNAMENT_ID = re.compile(r"^[a-z2-7]{24}$")


def table_tag(tournament_id: str) -> str:
    return f"{TOURNAMENT_TAG}{tournament_id}"


def tournaments_tagged(tags: Iterable[str]) -> list[str]:
    """The ids of the tournaments whose table a game with `tags` may be."""
    return [
        tag[len(TOURNAMENT_TAG) :]
        for tag in tags
        if tag.startswith(TOURNAMENT_TAG) and TOURNAMENT_ID.fullmatch(tag[len(TOURNAMENT_TAG) :])
    ]
