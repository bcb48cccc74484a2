"""HTTP caching and preconditions on a game: a weak ETag per representation,
`If-None-Match` (304, the cheapest poll) and `If-Match` (412, an alternative to
`expected_version` on moves and resigning)."""

from __future__ import annotations

import hashlib
import re

from starlette.requests import Request

from services.gameplay.payloads import MAX_VERSION, GameDocument
from services.gameplay.problems import Problem, bad_request

IF_MATCH_PATTERN = r'^(?:\*|(?:W/)?"v([0-9]{1,18})(?:-[0-9a-f]{1,16})?")$'
"""One ETag as `entity_tag` makes it, or `*`: what `If-Match` must hold (blanks around it
aside), as parsed here and as the OpenAPI document shows it."""
ENTITY_TAG = re.compile(IF_MATCH_PATTERN)
VARY = "Authorization"


def entity_tag(document: GameDocument) -> str:
    """`W/"v{version}-{mark}"`: the version, and a mark of what changes without a new
    version (the status when the game is scored or starts, seats stepping away, open
    seats filled or given a new invite) and of whose representation it is: a seat's
    (`you`), a spectator's, or a platform's full read of an ended game. With one tag for
    all readers, a client that switched tokens and sent the tag it held got a 304 and
    kept the other reader's view. The reader, never the token. A running clock's
    remaining time is not part of it: it follows from the version and the time."""
    away = "".join(
        "a" if seat.abandoned else "p" if seat.autopilot else "o" if seat.open else "-"
        for seat in document.seats
    )
    if document.seat_views is not None:
        reader = "every seat"
    elif document.you is None:
        reader = "spectator"
    else:
        reader = f"seat {document.you}"
    invites = ",".join(seat.invite_expires_at or "" for seat in document.seats)
    mark = hashlib.blake2s(
        f"{document.status.value}|{away}|{invites}|{reader}".encode(), digest_size=4
    )
    return f'W/"v{document.version}-{mark.hexdigest()}"'


def not_modified(request: Request, tag: str) -> bool:
    """Whether the client's `If-None-Match` names `tag` (weak comparison) or is `*`."""
    header = request.headers.get("if-none-match")
    if header is None:
        return False
    if header.strip() == "*":
        return True
    wanted = _opaque(tag)
    return any(_opaque(candidate) == wanted for candidate in header.split(","))


def if_match_version(request: Request) -> int | None:
    """The version an `If-Match` header requires, or None without one. `*` (RFC 9110)
    matches any current representation: the game exists, which a move or resignation
    checks anyway (404 otherwise), so it requires no version."""
    header = request.headers.get("if-match")
    if header is None:
        return None
    found = ENTITY_TAG.match(header.strip())
    if found is None:
        raise bad_request(
            "invalid_if_match",
            'If-Match must be one ETag of this game, as GET returned it (W/"v<version>-…"), or *.',
        )
    version = found.group(1)
    return None if version is None else int(version)


def required_version(request: Request, expected_version: int | None) -> int | None:
    """The version a move or resignation must find: from `If-Match` or the body, which
    must agree when both are given."""
    wanted = if_match_version(request)
    if wanted is not None and expected_version is not None and wanted != expected_version:
        raise bad_request(
            "conflicting_preconditions",
            f"If-Match names version {wanted} but expected_version is {expected_version}.",
        )
    if wanted is None:
        return expected_version
    # A tag past MAX_VERSION names a version the game is not at: the usual 412, not
    # the 422 of a body's out-of-range expected_version. No game reaches MAX_VERSION
    # itself (every game ends after far fewer moves), so it stands in for them.
    return min(wanted, MAX_VERSION)


def precondition_failed(conflict: Problem) -> Problem:
    """A version conflict under `If-Match` is the precondition failing: 412."""
    current = conflict.extra.get("current_version")
    return Problem(
        412,
        "precondition_failed",
        f"If-Match does not match: the game is at version {current}; reload it and try again.",
        current_version=current,
    )


def _opaque(tag: str) -> str:
    return tag.strip().removeprefix("W/")
