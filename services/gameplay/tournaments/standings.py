"""Standings from the results recorded at the tables.

Each game gives every participant at its table points from the game's own ranks (its
own tie-breaks already decided those): the share of the others at the table they
finished ahead of, a tie counting half — 1 for a win and ½ for a draw at two seats; 1,
⅔, ⅓, 0 at four.

A bye at tables of two is scored as a win (1 point), as chess scores a bye: a round robin
then gives everyone one bye (odd fields) or none, and a Swiss gives nobody a second
before everyone has had one. At tables of three or more a round robin cannot always
give everyone as many byes (n mod k sit out each round: 5 players at tables of 3 sit out
2, 2, 1, 1, 2 times over 4 rounds), and a full point would be worth more than a game is
on average (½): a bye there scores the participant's own average points per game played
(½ before they have played), so sitting out neither gains nor loses against playing, and
however many byes someone had, their points are their average over the rounds. The
format's tie-break (Buchholz, Sonneborn-Berger), a sum over the games played, is counted
the same way there: a bye adds the participant's average per game of it.

Participants are ordered by:

1. points;
2. the game's own measure: their average score per game played (the sum of their
   scores over their games; the same order as the sum when all played as many games,
   and not biased towards those who played more when byes or void tables differ);
3. the format's tie-break —
   - Swiss: Buchholz, the sum of the points of every opponent met (a bye adds nothing);
   - round robin: Sonneborn-Berger, the points of each opponent weighted by the result
     against them (1 for finishing ahead of them, ½ for level, 0 behind);
   - duplicate: matchpoints, comparing scores on the same deal in the same seat: in each
     round, each participant gets 1 for every participant who held the same seat at
     another table and scored less, ½ for every one who scored the same.

Participants equal on all three share a rank (and are listed by their entry order).
Arithmetic is exact (fractions); the rows carry floats rounded to 6 places.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from pydantic import BaseModel

from services.engine import Result

from .models import Duplicate, RoundRobin, Swiss, Table, Tournament

TIEBREAK_NAMES = {
    "swiss": "buchholz",
    "round_robin": "sonneborn_berger",
    "duplicate": "matchpoints",
}


class StandingRow(BaseModel):
    rank: int
    participant: int
    name: str
    bot: str | None
    played: int
    wins: int
    """Games won outright (a shared first place is not counted)."""
    byes: int
    points: float
    score: int
    tiebreak: float
    """The format's tie-break (see `tiebreak_name`)."""


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    """Points from games (and, once `standings` has added them, from byes)."""
    score: int = 0
    played: int = 0
    wins: int = 0
    byes: int = 0
    tiebreak: Fraction = Fraction(0)
    games: list[tuple[Table, int]] = field(default_factory=list)
    """(table, seat) of every finished game."""


def tiebreak_name(tournament: Tournament) -> str:
    return TIEBREAK_NAMES[tournament.spec.format.kind]


def standings(tournament: Tournament) -> list[StandingRow]:
    spec = tournament.spec
    tallies = [_Tally() for _ in spec.participants]
    for round_ in tournament.rounds:
        for p in round_.byes:
            tallies[p].byes += 1
        for table in round_.tables:
            if table.result is None:
                continue
            shares = exact_returns(table.result)
            by_seat = {s.seat: s for s in table.result.standings}
            for seat, p in enumerate(table.seats):
                tally = tallies[p]
                tally.played += 1
                tally.points += shares[seat]
                tally.score += by_seat[seat].score
                tally.wins += table.result.winners == [seat]
                tally.games.append((table, seat))
    for tally in tallies:
        tally.points += tally.byes * bye_points(tally.points, tally.played, spec.seats_per_table)
    fmt = spec.format
    if isinstance(fmt, Swiss):
        _buchholz(tallies)
    elif isinstance(fmt, RoundRobin):
        _sonneborn_berger(tallies)
    elif isinstance(fmt, Duplicate):
        _matchpoints(tournament, tallies)
    if spec.seats_per_table > 2:
        for tally in tallies:
            if tally.byes and tally.played:
                tally.tiebreak += tally.byes * tally.tiebreak / tally.played
    keys = [(t.points, _score_per_game(t), t.tiebreak) for t in tallies]
    order = sorted(range(len(tallies)), key=lambda p: (tuple(-x for x in keys[p]), p))
    rows: list[StandingRow] = []
    for position, p in enumerate(order):
        tied = position > 0 and keys[order[position - 1]] == keys[p]
        participant = spec.participants[p]
        tally = tallies[p]
        rows.append(
            StandingRow(
                rank=rows[-1].rank if tied else position + 1,
                participant=p,
                name=participant.name,
                bot=participant.bot,
                played=tally.played,
                wins=tally.wins,
                byes=tally.byes,
                points=round(float(tally.points), 6),
                score=tally.score,
                tiebreak=round(float(tally.tiebreak), 6),
            )
        )
    return rows


def bye_points(game_points: Fraction, played: int, seats_per_table: int) -> Fraction:
    """What a bye scores (see the module's docstring): a win at tables of two; at bigger
    tables the participant's average points per game played (`game_points` over
    `played`), or ½ before they have played."""
    if seats_per_table <= 2:
        return Fraction(1)
    if not played:
        return Fraction(1, 2)
    return game_points / played


def _score_per_game(tally: _Tally) -> Fraction:
    return Fraction(tally.score, tally.played) if tally.played else Fraction(0)


def exact_returns(result: Result) -> dict[int, Fraction]:
    """`Result.returns()` as exact fractions, by seat: the share of the other participants
    (and the virtual opponent) each seat finished ahead of, a tie counting half."""
    ranks = {s.seat: s.rank for s in result.standings}
    rival = [result.opponent.rank] if result.opponent is not None else []
    shares: dict[int, Fraction] = {}
    for seat, mine in ranks.items():
        others = [rank for other, rank in ranks.items() if other != seat] + rival
        if not others:
            shares[seat] = Fraction(1 if seat in result.winners else 0)
            continue
        ahead = sum(_versus(mine, rank) for rank in others)
        shares[seat] = Fraction(ahead) / len(others)
    return shares


def _versus(mine: int, theirs: int) -> Fraction:
    return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


def _opponents(table: Table, seat: int) -> list[tuple[int, int]]:
    """(opponent, their seat) of everyone else at the table."""
    return [(q, s) for s, q in enumerate(table.seats) if s != seat]


def _buchholz(tallies: list[_Tally]) -> None:
    for tally in tallies:
        tally.tiebreak = sum(
            (tallies[q].points for table, seat in tally.games for q, _ in _opponents(table, seat)),
            Fraction(0),
        )


def _sonneborn_berger(tallies: list[_Tally]) -> None:
    for tally in tallies:
        total = Fraction(0)
        for table, seat in tally.games:
            assert table.result is not None
            ranks = {s.seat: s.rank for s in table.result.standings}
            for q, their_seat in _opponents(table, seat):
                total += _versus(ranks[seat], ranks[their_seat]) * tallies[q].points
        tally.tiebreak = total


def _matchpoints(tournament: Tournament, tallies: list[_Tally]) -> None:
    for round_ in tournament.rounds:
        held: dict[int, list[tuple[int, int]]] = defaultdict(list)
        """seat -> (participant, score) at every finished table of the round."""
        for table in round_.tables:
            if table.result is None:
                continue
            scores = {s.seat: s.score for s in table.result.standings}
            for seat, p in enumerate(table.seats):
                held[seat].append((p, scores[seat]))
        for group in held.values():
            for p, mine in group:
                tallies[p].tiebreak += sum(
                    (_versus(-mine, -theirs) for q, theirs in group if q != p), Fraction(0)
                )
