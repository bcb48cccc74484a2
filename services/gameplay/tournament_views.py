"""The tournament as the API shows it: standings, and rounds of tables with their games'
ranks and scores, why seats left (resigned or timeout, as records say), and a table's
seed once no game dealt with it is still being played: a seed reveals hidden
information, and a duplicate tournament deals one seed at every table of a round, so a
table that is done keeps its seed hidden while another table plays the same deal. So do
its ranks and scores, and the standings count them only then (`published`): a table's
scores tell the players of the same deal what it yields."""

from __future__ import annotations

from .tournament_payloads import (
    RoundDocument,
    StandingDocument,
    StoredTournament,
    TableDocument,
    TournamentDocument,
)
from .tournaments import (
    is_finished,
    published,
    seeds_in_play,
    standings,
    tiebreak_name,
    total_rounds,
)


def tournament_document(stored: StoredTournament) -> TournamentDocument:
    tournament = stored.tournament
    spec = tournament.spec
    in_play = seeds_in_play(tournament)
    shown = published(tournament)
    rounds = []
    for round_, shown_round in zip(tournament.rounds, shown.rounds, strict=True):
        tables = []
        for table, shown_table in zip(round_.tables, shown_round.tables, strict=True):
            ranks = scores = left_reasons = None
            if shown_table.result is not None:
                by_seat = {s.seat: s for s in shown_table.result.standings}
                ranks = [by_seat[seat].rank for seat in range(len(table.seats))]
                scores = [by_seat[seat].score for seat in range(len(table.seats))]
                left = stored.left_reasons.get(table.game_id or "", {})
                left_reasons = [left.get(seat) for seat in range(len(table.seats))]
            seed = table.seed if table.done and table.seed not in in_play else None
            tables.append(
                TableDocument(
                    number=table.number,
                    participants=table.seats,
                    game_id=table.game_id,
                    status="void" if table.void else "finished" if table.done else "playing",
                    ranks=ranks,
                    scores=scores,
                    left_reasons=left_reasons,
                    seed=seed,
                    seed_text=None if seed is None else str(seed),
                )
            )
        rounds.append(
            RoundDocument(number=round_.number, done=round_.done, byes=round_.byes, tables=tables)
        )
    return TournamentDocument(
        id=stored.id,
        game=spec.game,
        options=spec.options,
        format=spec.format.model_dump(mode="json"),
        seats_per_table=spec.seats_per_table,
        status="finished" if is_finished(tournament) else "running",
        rounds_total=total_rounds(tournament),
        tiebreak=tiebreak_name(tournament),
        standings=[StandingDocument.model_validate(row.model_dump()) for row in standings(shown)],
        rounds=rounds,
        clock=stored.clock,
        on_leave=stored.on_leave,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        finished_at=stored.finished_at,
    )
