"""Standings from given results: points from the game's ranks, then its scores, then the
format's tie-break; the CSV export; and how results and rounds are accepted."""

from __future__ import annotations

import pytest
from tournament_play import people, result_of

from services.engine import Result, Standing
from services.gameplay.tournaments import (
    InvalidTournament,
    Participant,
    RoundRobin,
    Swiss,
    Tournament,
    TournamentSpec,
    create_tournament,
    is_finished,
    record_result,
    standings,
    standings_csv,
    start_next_round,
)


def swiss(n: int = 4, rounds: int = 2) -> Tournament:
    return create_tournament(
        TournamentSpec(game="sky-islands", participants=people(n), format=Swiss(rounds=rounds))
    )


def record(tournament: Tournament, scores_by_participant: dict[int, int]) -> Tournament:
    """Start the next round and give each participant the score named for them."""
    tournament, new_round = start_next_round(tournament)
    for table in new_round.tables:
        scores = [scores_by_participant[p] for p in table.seats]
        tournament = record_result(tournament, new_round.number, table.number, result_of(scores))
    return tournament


def test_swiss_standings_break_ties_by_score_then_buchholz():
    tournament = swiss()
    # Round 1 pairs 0-1 and 2-3: 0 beats 1, 2 and 3 draw.
    tournament = record(tournament, {0: 10, 1: 5, 2: 7, 3: 7})
    # Round 2, by standings 0, 2, 3, 1: pairs 0-2 and 3-1; 2 beats 0, 1 beats 3.
    assert [sorted(t.seats) for t in tournament.rounds[-1].tables] == [[0, 1], [2, 3]]
    tournament = record(tournament, {0: 4, 2: 9, 3: 2, 1: 9})
    assert [sorted(t.seats) for t in tournament.rounds[-1].tables] == [[0, 2], [1, 3]]
    assert is_finished(tournament)
    # P0 and P1 both have 1 point and 14; P0 met P1 (1) and P2 (1.5), P1 met P0 and P3 (½).
    assert standings_csv(tournament) == (
        "rank,participant,name,bot,played,wins,byes,points,score,buchholz\r\n"
        "1,2,P2,,2,1,0,1.5,16,1.5\r\n"
        "2,0,P0,,2,1,0,1,14,2.5\r\n"
        "3,1,P1,,2,1,0,1,14,1.5\r\n"
        "4,3,P3,,2,0,0,0.5,9,2.5\r\n"
    )


def test_round_robin_ties_break_by_sonneborn_berger():
    outcomes = {  # winner's score first
        frozenset({0, 1}): {0: 3, 1: 1},
        frozenset({0, 2}): {0: 2, 2: 2},
        frozenset({1, 2}): {1: 2, 2: 0},
    }
    tournament = create_tournament(
        TournamentSpec(game="sky-islands", participants=people(3), format=RoundRobin())
    )
    while not is_finished(tournament):
        tournament, new_round = start_next_round(tournament)
        (table,) = new_round.tables
        scores = outcomes[frozenset(table.seats)]
        result = result_of([scores[p] for p in table.seats])
        tournament = record_result(tournament, new_round.number, 1, result)
    rows = {row.participant: row for row in standings(tournament)}
    # Everyone had one bye (a win). P0: beat P1 (2 points), drew P2 (½ × 1½).
    assert [rows[p].points for p in range(3)] == [2.5, 2, 1.5]
    assert [rows[p].tiebreak for p in range(3)] == [2.75, 1.5, 1.25]
    assert [rows[p].byes for p in range(3)] == [1, 1, 1]
    assert [rows[p].rank for p in range(3)] == [1, 2, 3]


def test_equal_participants_share_a_rank():
    tournament = swiss(4, 1)
    tournament = record(tournament, {p: 5 for p in range(4)})
    assert [(row.rank, row.participant) for row in standings(tournament)] == [
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
    ]


def test_multi_seat_points_are_shares_of_the_table_beaten():
    tournament = create_tournament(
        TournamentSpec(
            game="dominion", seats_per_table=4, participants=people(4), format=Swiss(rounds=1)
        )
    )
    tournament = record(tournament, {0: 40, 1: 30, 2: 30, 3: 10})
    rows = {row.participant: row for row in standings(tournament)}
    assert [rows[p].points for p in range(4)] == [1, 0.5, 0.5, 0]
    assert [rows[p].rank for p in range(4)] == [1, 2, 2, 4]


def test_the_csv_gives_the_points_and_tie_breaks_the_document_gives():
    """At tables of three a game gives shares of opponents beaten and a bye the average
    per game, so points and Sonneborn-Berger run to many digits."""
    tournament = create_tournament(
        TournamentSpec(
            game="dominion", seats_per_table=3, participants=people(13), format=RoundRobin()
        )
    )
    while not is_finished(tournament):
        tournament, new_round = start_next_round(tournament)
        for table in new_round.tables:
            scores = [(p * 7 + new_round.number * 3) % 5 for p in table.seats]
            tournament = record_result(
                tournament, new_round.number, table.number, result_of(scores)
            )
    rows = [line.split(",") for line in standings_csv(tournament).splitlines()[1:]]
    document = standings(tournament)
    assert [float(row[7]) for row in rows] == [row.points for row in document]
    assert [float(row[9]) for row in rows] == [row.tiebreak for row in document]


def test_names_that_spreadsheets_would_run_are_quoted():
    tournament = create_tournament(
        TournamentSpec(
            game="sky-islands",
            participants=[Participant(name="=HYPERLINK(1)"), Participant(name='Bo, the "bot"')],
            format=Swiss(rounds=1),
        )
    )
    lines = standings_csv(tournament).splitlines()
    assert "'=HYPERLINK(1)" in lines[1] + lines[2]
    assert '"Bo, the ""bot"""' in lines[1] + lines[2]


def test_a_round_starts_only_when_the_last_is_finished():
    tournament, first = start_next_round(swiss())
    tournament = record_result(tournament, 1, 1, result_of([1, 0]))
    with pytest.raises(InvalidTournament, match=r"round_not_finished: Round 1 .* tables \[2\]"):
        start_next_round(tournament)
    tournament = record_result(tournament, 1, 2, None)  # aborted: void, nobody scores
    assert tournament.rounds[0].tables[1].void
    tournament, _ = start_next_round(tournament)
    for table in (1, 2):
        tournament = record_result(tournament, 2, table, result_of([0, 0]))
    with pytest.raises(InvalidTournament, match="tournament_over"):
        start_next_round(tournament)


def test_results_are_recorded_once_and_must_fit_the_table():
    tournament, _ = start_next_round(swiss())
    once = record_result(tournament, 1, 1, result_of([2, 1]))
    assert record_result(once, 1, 1, result_of([2, 1])) == once
    with pytest.raises(InvalidTournament, match="result_recorded"):
        record_result(once, 1, 1, result_of([1, 2]))
    with pytest.raises(InvalidTournament, match=r"result_mismatch: Table 2 .* has 2 seats"):
        record_result(tournament, 1, 2, result_of([1, 2, 3]))
    with pytest.raises(InvalidTournament, match="no_such_table"):
        record_result(tournament, 1, 3, result_of([1, 2]))
    with pytest.raises(InvalidTournament, match="no_such_round"):
        record_result(tournament, 2, 1, result_of([1, 2]))
    assert tournament.rounds[0].tables[0].result is None  # the original is untouched


def test_a_tournament_survives_json():
    tournament = record(swiss(5, 3), {p: p for p in range(5)})
    again = Tournament.model_validate_json(tournament.model_dump_json())
    assert again == tournament
    assert standings(again) == standings(tournament)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"seats_per_table": 5}, "seats_per_table: Merchants of Sky Islands is for 2 to 4"),
        ({"participants": people(1)}, "too_few_participants"),
        ({"participants": [Participant(name="A", bot="genius"), *people(2)]}, "unknown_bot_level"),
        ({"options": {"starting_player": "nobody"}}, "invalid_options"),
    ],
)
def test_impossible_tournaments_are_refused(changes, message):
    spec = TournamentSpec(game="sky-islands", participants=people(4), format=Swiss(rounds=2))
    with pytest.raises(InvalidTournament, match=message):
        create_tournament(spec.model_copy(update=changes))


def test_solo_tables_need_the_duplicate_format():
    spec = TournamentSpec(
        game="sky-lanterns", seats_per_table=1, participants=people(3), format=RoundRobin()
    )
    with pytest.raises(InvalidTournament, match="solo games suit the duplicate format"):
        create_tournament(spec)


# --- byes at tables of three or more ---------------------------------------------------


def round_robin_of_five_at_threes(score: dict[int, int], ranks_tied: bool = True) -> Tournament:
    """5 participants at tables of 3: byes 2, 2, 1, 1, 2 over 4 rounds. Every game is a
    draw (all share rank 1) in which participant p scores `score[p]`."""
    tournament = create_tournament(
        TournamentSpec(
            game="dominion", seats_per_table=3, participants=people(5), format=RoundRobin()
        )
    )
    while not is_finished(tournament):
        tournament, new_round = start_next_round(tournament)
        for table in new_round.tables:
            result = Result(
                standings=[
                    Standing(seat=seat, score=score[p], breakdown={"vp": score[p]}, rank=1)
                    for seat, p in enumerate(table.seats)
                ],
                winners=list(range(len(table.seats))),
            )
            tournament = record_result(tournament, new_round.number, table.number, result)
    return tournament


def test_at_bigger_tables_byes_as_even_as_the_rounds_allow_are_worth_no_more_than_playing():
    tournament = round_robin_of_five_at_threes({p: 10 for p in range(5)})
    rows = {row.participant: row for row in standings(tournament)}
    assert [rows[p].byes for p in range(5)] == [2, 2, 1, 1, 2]
    assert [rows[p].played for p in range(5)] == [2, 2, 3, 3, 2]
    # Every game a draw: ½ a game, and a bye the participant's own average (½): everyone
    # has 4 rounds × ½, however many of them were byes (a bye worth 1 gave 3 against 2½).
    assert [rows[p].points for p in range(5)] == [2, 2, 2, 2, 2]
    assert {row.rank for row in rows.values()} == {1}


def test_at_bigger_tables_a_bye_scores_the_participants_average_per_game():
    tournament = create_tournament(
        TournamentSpec(
            game="dominion", seats_per_table=3, participants=people(4), format=Swiss(rounds=2)
        )
    )
    # round 1: the lowest placed (P3, entry order) sits out before anyone has played: ½
    tournament, first = start_next_round(tournament)
    assert first.byes == [3]
    assert {row.participant: row for row in standings(tournament)}[3].points == 0.5
    (table,) = first.tables
    scores = {0: 30, 1: 20, 2: 10}  # P0 beats both (1), P1 one of two (½), P2 none (0)
    tournament = record_result(tournament, 1, 1, result_of([scores[p] for p in table.seats]))
    tournament, second = start_next_round(tournament)
    (sitting_out,) = second.byes
    (table,) = second.tables
    # P3 wins the second round's table, the others in entry order after
    ranked = sorted(table.seats, key=lambda p: (p != 3, p))
    tournament = record_result(
        tournament, 2, 1, result_of([10 - ranked.index(p) for p in table.seats])
    )
    rows = {row.participant: row for row in standings(tournament)}
    assert rows[3].points == 2, "P3 won the one game they played: their bye counts 1 too"
    round_1 = {0: 1, 1: 0.5, 2: 0}[sitting_out]
    assert rows[sitting_out].points == 2 * round_1, "the game they played, twice"


def test_the_score_tie_break_compares_averages_not_sums_of_unequal_game_counts():
    # all draws, so everyone has 2 points; P2 and P3 played 3 games of 9, the others 2 of
    # 10: the sum (27 against 20) put P2 and P3 first, the average (9 against 10) last
    tournament = round_robin_of_five_at_threes({0: 10, 1: 10, 2: 9, 3: 9, 4: 10})
    rows = standings(tournament)
    assert [row.participant for row in rows] == [0, 1, 4, 2, 3]
    assert [row.score for row in rows] == [20, 20, 20, 27, 27], "score is still the sum"
    assert [row.rank for row in rows] == [1, 1, 1, 4, 4]


def test_a_bye_does_not_cost_its_holder_the_score_tie_break():
    tournament = swiss(3, 2)
    # round 1: P2 sits out (1); P0 beats P1 10 to 9
    tournament = record(tournament, {0: 10, 1: 9, 2: 0})
    assert tournament.rounds[0].byes == [2]
    # round 2: P1 sits out (1); P2 beats P0 6 to 4
    tournament = record(tournament, {0: 4, 1: 0, 2: 6})
    assert tournament.rounds[1].byes == [1]
    rows = standings(tournament)
    assert [(row.participant, row.points, row.played, row.score) for row in rows] == [
        (2, 2, 1, 6),
        (1, 1, 1, 9),  # 9 a game
        (0, 1, 2, 14),  # 7 a game: first by the sum, which counts a game more
    ]


def test_at_two_seats_a_bye_still_counts_a_whole_point():
    tournament = swiss(3, 1)
    tournament = record(tournament, {0: 5, 1: 3, 2: 0})
    (bye,) = tournament.rounds[0].byes
    rows = {row.participant: row for row in standings(tournament)}
    assert rows[bye].points == 1 and rows[bye].played == 0
