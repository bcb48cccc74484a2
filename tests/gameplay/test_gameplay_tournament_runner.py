"""The tournament runner over real Redis: however many workers finish a round at once,
and however often a task is redelivered, each round is started once, with the same
games; a result recorded again changes nothing."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from services.engine import Result, Standing
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay, build_service
from services.gameplay.settings import Settings
from services.gameplay.tournament_payloads import CreateTournamentRequest, StoredTournament
from services.gameplay.tournaments import record_result, round_robin
from services.gameplay.tournaments.seating import derive_seed
from services.store import GameRecord, GameStatus

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

PLATFORM = Credentials(bearer="platform-key-for-tests-0001", client_ip="", platform=True)


@pytest.fixture
async def gameplay(settings: Settings, games):
    built = build_service(settings, games=games)
    yield built
    await built.close()


async def stored(gameplay: Gameplay, tournament_id: str) -> tuple[StoredTournament, int]:
    found = await gameplay.tournaments.store.load(tournament_id)
    assert found is not None
    return StoredTournament.model_validate_json(found.document), found.version


def won_by_seat_0() -> Result:
    return Result(
        standings=[
            Standing(seat=0, score=5, breakdown={"points": 5}, rank=1),
            Standing(seat=1, score=2, breakdown={"points": 2}, rank=2),
        ],
        winners=[0],
    )


async def people_round_robin(gameplay: Gameplay) -> str:
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": f"P{n}"} for n in range(4)],
            "format": {"kind": "round_robin"},
            "seed": 9,
        }
    )
    created, _ = await gameplay.tournaments.create(PLATFORM, request)
    return created.id


async def test_workers_finishing_a_round_at_once_start_the_next_round_once(gameplay):
    tournament_id = await people_round_robin(gameplay)
    before, version = await stored(gameplay, tournament_id)
    assert before.announced == 1 and len(before.tournament.rounds) == 1
    # Round 1's results are stored, as by a worker that died before starting round 2.
    results = before.tournament
    for table in results.rounds[0].tables:
        results = record_result(results, 1, table.number, won_by_seat_0())
    changed = before.model_copy(update={"tournament": results})
    assert await gameplay.tournaments.store.swap(tournament_id, version, changed.model_dump_json())
    await asyncio.gather(*(gameplay.tournaments.progress(tournament_id) for _ in range(12)))
    after, _ = await stored(gameplay, tournament_id)
    assert len(after.tournament.rounds) == 2 and after.announced == 2
    for table in after.tournament.rounds[1].tables:
        assert table.game_id is not None
        game = await gameplay.store.load(table.game_id)
        assert game is not None and game.version == 0
        assert f"tournament:{tournament_id}" in game.tags
    # Run again (a redelivered task): nothing changes, not even the version.
    _, settled = await stored(gameplay, tournament_id)
    await asyncio.gather(*(gameplay.tournaments.progress(tournament_id) for _ in range(4)))
    assert (await stored(gameplay, tournament_id))[1] == settled


async def round_1_won_by_seat_0(gameplay: Gameplay, tournament_id: str, **update) -> None:
    """Store round 1's results, as the scoring of its games (that did not step on)."""
    before, version = await stored(gameplay, tournament_id)
    results = before.tournament
    for table in results.rounds[0].tables:
        results = record_result(results, 1, table.number, won_by_seat_0())
    changed = before.model_copy(update={"tournament": results, **update})
    assert await gameplay.tournaments.store.swap(tournament_id, version, changed.model_dump_json())


async def test_a_round_that_ended_while_its_request_opened_it_is_left_to_the_next_sweep(
    gameplay,
):
    """Bots in the API process may end all of round 1's games while the creating
    request is still opening it. The request opens that round only (one round's games
    a request, however fast bots play) and leaves the next step to the sweep, noted as
    due at its next pass rather than after SKYPORT_TASK_STALL_SECONDS."""
    runner = gameplay.tournaments
    tournament_id = await people_round_robin(gameplay)
    # as the request finds it: round 1's results all in, its opening not yet marked
    await round_1_won_by_seat_0(gameplay, tournament_id, announced=0)
    await runner.open_round(tournament_id)
    after, _ = await stored(gameplay, tournament_id)
    assert len(after.tournament.rounds) == 1 and after.announced == 1
    assert await gameplay.redis.zscore(runner.running.key, tournament_id) == 0
    assert await runner.sweep_stalled(stall_seconds=60) == 1
    after, _ = await stored(gameplay, tournament_id)
    assert len(after.tournament.rounds) == 2 and after.announced == 2
    assert all(table.game_id is not None for table in after.tournament.rounds[1].tables)


async def test_a_retried_creation_opens_no_later_round(gameplay):
    """An Idempotency-Key retry answers the first creation and does what it may have
    left undone (opening round 1), nothing more: the next round is the sweep's."""
    runner = gameplay.tournaments
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": f"P{n}"} for n in range(4)],
            "format": {"kind": "round_robin"},
        }
    )
    first, replayed = await runner.create(PLATFORM, request, "tournament-retry-bounded")
    assert not replayed
    await round_1_won_by_seat_0(gameplay, first.id)
    again, replayed = await runner.create(PLATFORM, request, "tournament-retry-bounded")
    assert replayed and again == first
    after, _ = await stored(gameplay, first.id)
    assert len(after.tournament.rounds) == 1 and after.tournament.rounds[0].done
    assert await runner.sweep_stalled(stall_seconds=60) == 1
    assert len((await stored(gameplay, first.id))[0].tournament.rounds) == 2


async def test_a_result_reported_again_is_recorded_once(gameplay):
    tournament_id = await people_round_robin(gameplay)
    before, _ = await stored(gameplay, tournament_id)
    table = before.tournament.rounds[0].tables[0]
    assert table.game_id is not None
    record = await gameplay.store.load(table.game_id)
    assert record is not None
    finished: GameRecord = record.__class__(
        **{
            **record.__dict__,
            "status": GameStatus.FINISHED,
            "standings": {
                "id": record.id,
                "game": record.game,
                "version": 9,
                "winners": [1],
                "standings": [
                    {"seat": 1, "name": "x", "rank": 1, "score": 4, "breakdown": {"p": 4}},
                    {"seat": 0, "name": "y", "rank": 2, "score": 1, "breakdown": {"p": 1}},
                ],
            },
        }
    )
    await asyncio.gather(*(gameplay.tournaments.game_ended(finished) for _ in range(6)))
    after, version = await stored(gameplay, tournament_id)
    recorded = after.tournament.rounds[0].tables[0]
    assert recorded.result is not None and recorded.result.winners == [1]
    assert len(after.tournament.rounds) == 1, "the round's other table is still playing"
    await gameplay.tournaments.game_ended(finished)
    assert (await stored(gameplay, tournament_id))[1] == version


async def game_ended_unreported(gameplay: Gameplay) -> tuple[str, int]:
    """A two-player tournament of one game, which Ada resigned and whose scoring worker
    died before reporting it (the hook dropped): its id, and the seat Ada played."""
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": "Ada"}, {"name": "Grace"}],
            "format": {"kind": "round_robin"},
            "seed": 1,
        }
    )
    created, _ = await gameplay.tournaments.create(PLATFORM, request)
    ada = Credentials(bearer=created.participants[0].token, client_ip="")
    mine = await gameplay.tournaments.mine(created.id, ada)
    (first,) = mine.rounds
    assert first.game_id is not None and first.seat_token is not None
    gameplay.referee.game_ended = None  # the worker that scores it dies before reporting
    seat = Credentials(bearer=first.seat_token, client_ip="")
    await gameplay.service.resign(first.game_id, seat, None, None)
    for _ in range(400):
        game = await gameplay.store.load(first.game_id)
        if game is not None and game.status is GameStatus.FINISHED:
            break
        await asyncio.sleep(0.01)
    before, _ = await stored(gameplay, created.id)
    assert not before.tournament.rounds[0].done
    return created.id, first.seat or 0


async def test_a_result_whose_report_was_lost_is_recorded_by_the_next_step(gameplay):
    tournament_id, ada_seat = await game_ended_unreported(gameplay)
    await gameplay.tournaments.progress(tournament_id)
    after, _ = await stored(gameplay, tournament_id)
    table = after.tournament.rounds[0].tables[0]
    assert table.result is not None
    assert table.result.winners == [1 - ada_seat], "the one who resigned lost"
    assert after.finished_at is not None and after.finish_announced


async def test_the_sweep_finishes_a_tournament_whose_last_report_was_lost(gameplay):
    runner = gameplay.tournaments
    tournament_id, _ = await game_ended_unreported(gameplay)
    assert await runner.sweep_stalled(stall_seconds=60) == 0, "stepped just now: not stalled"
    assert (await runner.document(tournament_id)).status == "running"
    # Several sweepers at once (beat on two workers): each step is a compare-and-set.
    swept = await asyncio.gather(*(runner.sweep_stalled(stall_seconds=0) for _ in range(4)))
    assert sum(swept) >= 1
    document = await runner.document(tournament_id)
    assert document.status == "finished" and document.finished_at is not None
    assert (document.standings[0].name, document.standings[0].wins) == ("Grace", 1), "Ada resigned"
    after, version = await stored(gameplay, tournament_id)
    assert after.finish_announced
    assert after.tournament.rounds[0].tables[0].result is not None
    # Finished: out of the index, so later sweeps leave it alone.
    assert await gameplay.redis.zscore(runner.running.key, tournament_id) is None
    assert await runner.sweep_stalled(stall_seconds=0) == 0
    assert (await stored(gameplay, tournament_id))[1] == version


async def test_the_embedded_sweeper_finishes_a_tournament_whose_last_report_was_lost(
    settings: Settings, games
):
    quick = settings.model_copy(update={"clock_sweep_seconds": 0.05, "task_stall_seconds": 0.2})
    async with build_service(quick, games=games) as gameplay:
        await gameplay.start()
        tournament_id, _ = await game_ended_unreported(gameplay)
        for _ in range(200):
            if (await gameplay.tournaments.document(tournament_id)).status == "finished":
                break
            await asyncio.sleep(0.05)
        document = await gameplay.tournaments.document(tournament_id)
        assert document.status == "finished", "nothing stepped the stalled tournament"


async def test_a_round_robin_stored_before_schedules_were_kept_is_read_and_played_on(
    gameplay, monkeypatch
):
    """A tournament as the release before stored it (no schedule) is read, and its next
    round is the one its schedule always had: made again off the event loop, and kept
    from the next step on. What this release stores keeps the schedule beside the
    tournament, so that release (whose tournament refuses unknown fields) reads it too."""
    runner = gameplay.tournaments
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": f"P{n}"} for n in range(5)],
            "seats_per_table": 3,
            "format": {"kind": "round_robin"},
            "seed": 9,
        }
    )
    created, _ = await runner.create(PLATFORM, request)
    found = await runner.store.load(created.id)
    assert found is not None
    document = json.loads(found.document)
    assert "schedule" not in document["tournament"] and document["schedule"]
    schedule = StoredTournament.model_validate_json(found.document).tournament.schedule
    assert schedule is not None and len(schedule) == created.rounds_total
    del document["schedule"]  # as the release before stored it
    assert await runner.store.swap(created.id, found.version, json.dumps(document))

    made_on: list[threading.Thread] = []
    make = round_robin._covering

    def covering(n: int, k: int):
        made_on.append(threading.current_thread())
        return make(n, k)

    monkeypatch.setattr(round_robin, "_covering", covering)
    round_robin._pairings.cache_clear()
    read = await runner.document(created.id)
    assert (read.status, read.rounds_total) == ("running", len(schedule))
    # round 1's results are in (stored as the release before would: no schedule)
    before, version = await stored(gameplay, created.id)
    results = before.tournament
    for table in results.rounds[0].tables:
        ranks = {seat: ({"points": seat}, (seat,)) for seat in range(3)}
        results = record_result(results, 1, table.number, Result.rank(ranks))
    legacy = json.loads(before.model_copy(update={"tournament": results}).model_dump_json())
    del legacy["schedule"]
    assert await runner.store.swap(created.id, version, json.dumps(legacy))
    await runner.progress(created.id)
    after, _ = await stored(gameplay, created.id)
    assert after.tournament.schedule == schedule, "kept again"
    assert [t.seats for t in after.tournament.rounds[1].tables] == schedule[1].tables
    loop_thread = threading.current_thread()  # the event loop's
    assert made_on and loop_thread not in made_on, "made off the event loop"


async def test_table_seeds_are_keyed_by_the_tournaments_secret_in_every_round(gameplay):
    """A platform's small seed (2026) no longer lets anyone who reads one finished table's
    seed work out the seeds, and so the hands, of the tables still playing."""
    tournament_id = await people_round_robin(gameplay)  # seed 9
    before, version = await stored(gameplay, tournament_id)
    secret = before.secret
    for table in before.tournament.rounds[0].tables:
        assert table.seed == derive_seed(9, 1, table.number, key=secret)
        assert table.seed != derive_seed(9, 1, table.number)
    results = before.tournament
    for table in results.rounds[0].tables:
        results = record_result(results, 1, table.number, won_by_seat_0())
    changed = before.model_copy(update={"tournament": results})
    assert await gameplay.tournaments.store.swap(tournament_id, version, changed.model_dump_json())
    await gameplay.tournaments.progress(tournament_id)
    after, _ = await stored(gameplay, tournament_id)
    assert [t.seed for t in after.tournament.rounds[1].tables] == [
        derive_seed(9, 2, t.number, key=secret) for t in after.tournament.rounds[1].tables
    ]
    game = await gameplay.store.load(after.tournament.rounds[1].tables[0].game_id or "")
    assert game is not None and game.seed == after.tournament.rounds[1].tables[0].seed


async def test_a_running_tournament_is_kept_while_a_table_holds_its_round_up(gameplay):
    """Only a compare-and-set renewed a tournament's lifetime; a round waiting on one table
    for longer lost the tournament and every result. Each step (the sweep's) renews it."""
    runner = gameplay.tournaments
    tournament_id = await people_round_robin(gameplay)
    key = runner.store.key(tournament_id)
    _, version = await stored(gameplay, tournament_id)
    await gameplay.redis.pexpire(key, 5_000)  # the lifetime nearly spent
    assert await runner.sweep_stalled(stall_seconds=0) >= 1
    assert (await stored(gameplay, tournament_id))[1] == version, "nothing was swapped"
    assert await gameplay.redis.pttl(key) > runner.store.ttl_ms - 60_000
    assert (await runner.document(tournament_id)).status == "running"


async def test_a_table_whose_game_expired_unplayed_is_void_and_the_round_goes_on(gameplay):
    runner = gameplay.tournaments
    tournament_id = await people_round_robin(gameplay)
    before, _ = await stored(gameplay, tournament_id)
    gone, playing = before.tournament.rounds[0].tables
    assert gone.game_id is not None and playing.game_id is not None
    await gameplay.redis.delete(gameplay.store.keys(gone.game_id).record)  # expired
    await runner.progress(tournament_id)
    after, _ = await stored(gameplay, tournament_id)
    assert after.tournament.rounds[0].tables[0].void
    assert not after.tournament.rounds[0].tables[1].done, "its game is still there"
    assert len(after.tournament.rounds) == 1
    document = await runner.document(tournament_id)
    assert [t.status for t in document.rounds[0].tables] == ["void", "playing"]


async def test_a_field_a_later_release_stores_survives_this_releases_swaps(gameplay):
    """During a rolling update a replica of this release swaps a tournament that a later
    one wrote: what it does not know is kept, not dropped."""
    runner = gameplay.tournaments
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": "Ada"}, {"name": "Bob"}],
            "format": {"kind": "swiss", "rounds": 1},
        }
    )
    created, _ = await runner.create(PLATFORM, request)
    found = await runner.store.load(created.id)
    later = {**json.loads(found.document), "owed_by_a_later_release": {"0:1": "creator"}}
    assert await runner.store.swap(created.id, found.version, json.dumps(later))
    stored, version = await runner.stored(created.id)
    assert await runner.changed(stored, version, token_generations=[0, 0])
    kept = json.loads((await runner.store.load(created.id)).document)
    assert kept["owed_by_a_later_release"] == {"0:1": "creator"}
    assert kept["token_generations"] == [0, 0]


async def test_the_sweep_settles_a_replacement_owed_on_a_finished_tournament(gameplay, monkeypatch):
    """A finished tournament has no steps left: a participant-token replacement whose
    process died after the swap is finished by the sweep, which then lets it go."""
    from services.gameplay.participant_tokens import ParticipantTokenDesk, participant_tokens

    runner = gameplay.tournaments
    tournament_id, _ = await game_ended_unreported(gameplay)
    await runner.progress(tournament_id)
    assert (await stored(gameplay, tournament_id))[0].finish_announced
    assert await gameplay.redis.zscore(runner.running.key, tournament_id) is None

    async def died(self, tournament_id):
        raise RuntimeError("the process died here")

    monkeypatch.setattr(ParticipantTokenDesk, "_settle", died)
    with pytest.raises(RuntimeError):
        await participant_tokens(runner).replace(tournament_id, PLATFORM, 0, None)
    assert (await stored(gameplay, tournament_id))[0].tokens_owed == {"0:1": "creator"}

    assert await runner.sweep_stalled(stall_seconds=0) == 1
    assert (await stored(gameplay, tournament_id))[0].tokens_owed == {}
    assert await gameplay.redis.zscore(runner.running.key, tournament_id) is None
