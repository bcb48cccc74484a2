"""Standings as CSV, one row per participant in standings order."""

from __future__ import annotations

import csv
import io

from .models import Tournament
from .standings import standings, tiebreak_name


def standings_csv(tournament: Tournament) -> str:
    """RFC 4180 CSV (CRLF line ends) with a header row; the tie-break column is named
    after the format's tie-break (buchholz, sonneborn_berger or matchpoints). Names a
    spreadsheet would take for formulas are prefixed with an apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out)
    columns = ["rank", "participant", "name", "bot", "played", "wins", "byes", "points", "score"]
    writer.writerow([*columns, tiebreak_name(tournament)])
    for row in standings(tournament):
        writer.writerow(
            [
                row.rank,
                row.participant,
                _cell(row.name),
                row.bot or "",
                row.played,
                row.wins,
                row.byes,
                _number(row.points),
                row.score,
                _number(row.tiebreak),
            ]
        )
    return out.getvalue()


def _number(value: float) -> str:
    """The value the JSON document gives (rounded to 6 places), without trailing zeros:
    `:g` kept 6 significant digits, so 467.951738 read 467.952 and rows of different
    ranks could print alike."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _cell(text: str) -> str:
    """A name a spreadsheet would run as a formula (=, +, -, @ first) is quoted with an
    apostrophe, as OWASP advises against CSV injection."""
    return f"'{text}" if text[:1] in {"=", "+", "-", "@", "\t", "\r"} else text
