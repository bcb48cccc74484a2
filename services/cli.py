"""The `skyport` command line: list games, play bot matches, replay records, serve the API,
run a worker."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import orjson
import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from services.ai import MatchRecord, make_bot, play_match
from services.ai.bot import levels_for
from services.engine import Game, GameError, all_games, get_game

app = typer.Typer(help="Skyport: a game-state service for three board games.", no_args_is_help=True)
if TYPE_CHECKING:
    from services.gameplay.settings import Settings

console = Console(stderr=True)


@app.command()
def games() -> None:
    """List the registered games and their options."""
    table = Table("id", "title", "players", "options")
    for game in all_games():
        options = ", ".join(
            f"{name} ({field.get('description') or field.get('type', 'value')})"
            for name, field in game.options_schema().get("properties", {}).items()
        )
        table.add_row(game.id, game.title, f"{game.min_players}-{game.max_players}", options or "-")
    Console().print(table)


def match_json(record: MatchRecord) -> bytes:
    return orjson.dumps(
        {
            "game": record.game,
            "seed": record.seed,
            "players": record.players,
            "scores": [
                s.model_dump() for s in sorted(record.result.standings, key=lambda s: s.seat)
            ],
            "winners": record.result.winners,
            "moves": len(record.moves),
        }
    )


def parse_bots(bots: str, players: int, game: Game) -> list[str]:
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels *= players
    if len(levels) != players:
        raise typer.BadParameter(f"give one bot per player ({players}), or one for all")
    known = levels_for(game)
    unknown = sorted(set(levels) - set(known))
    if unknown:
        raise typer.BadParameter(f"{game.title} has no bot level(s) {unknown}; its levels: {known}")
    return levels


def parse_options(pairs: list[str]) -> dict[str, object]:
    """`key=value` pairs into a game config; a value is JSON when it parses as JSON
    (true, 3, "x", [1]) and a plain string otherwise (dead-mine)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise typer.BadParameter(f"{pair!r} is not key=value", param_hint="--option")
        if key in options:
            raise typer.BadParameter(f"{key!r} is given twice", param_hint="--option")
        try:
            options[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            options[key] = raw
    return options


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id from `skyport games`")],
    players: Annotated[int, typer.Option("--players", "-p", min=1)] = 2,
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 1,
    bots: Annotated[str, typer.Option(help="comma-separated bot levels, one per seat")] = "random",
    seed: Annotated[int, typer.Option(help="seed of the first game; game k uses seed+k")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="one JSON line per finished game")
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="KEY=VALUE",
            help="a game option (see `skyport games`), repeatable; the value may be JSON",
        ),
    ] = None,
) -> None:
    """Play GAMES whole games between bots through the game contract."""
    try:
        game = get_game(game_id)
    except GameError as error:
        raise typer.BadParameter(error.message) from None
    levels = parse_bots(bots, players, game)
    config = parse_options(option or [])
    try:
        game.setup(config, players, seed)  # refuse bad options once, before any game
    except GameError as error:
        raise typer.BadParameter(error.message) from None
    wins = [0.0] * players
    rounds = range(seed, seed + games)
    for game_seed in track(
        rounds, description=f"{game.title}", console=console, disable=not console.is_terminal
    ):
        try:
            seated = [make_bot(level, game_seed * 101 + i, game) for i, level in enumerate(levels)]
            record = play_match(game, seated, game_seed, config)
        except GameError as error:
            console.print(f"[red]{error.message}[/red]")
            raise typer.Exit(2) from None
        for winner in record.result.winners:
            wins[winner] += 1 / len(record.result.winners)
        if as_json:
            sys.stdout.buffer.write(match_json(record) + b"\n")
            sys.stdout.flush()
    if not as_json:
        table = Table("seat", "bot", "wins")
        for seat, level in enumerate(levels):
            table.add_row(str(seat), level, f"{wins[seat]:g}")
        Console().print(table)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a game record (JSON)")],
) -> None:
    """Replay a game record through the engine, checking every version and the result.
    Prints OK, or the first mismatch (and exits with status 1)."""
    from services.gameplay.records import ReplayMismatch, load_record
    from services.gameplay.records import replay as replay_record

    try:
        data = file.read_bytes()
    except OSError as error:
        console.print(f"[red]cannot read {file}: {error.strerror or error}[/red]")
        raise typer.Exit(2) from None
    try:
        record = load_record(data)
        replayed = replay_record(record)
    except ReplayMismatch as error:
        print(f"MISMATCH {error}")
        raise typer.Exit(1) from None
    winners = replayed.result.winners if replayed.result is not None else None
    print(f"OK {record.game} {record.id}: {record.version} versions replayed, winners {winners}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
) -> None:
    """Start the REST + GraphQL API (embedded store unless SKYPORT_REDIS_URL is set)."""
    from services.api.server import run

    checked_settings()  # the server reads the same (cached) settings
    run(host=host, port=port)


def checked_settings() -> Settings:
    """The settings from the environment, or exit 2 with one line per bad setting (by
    its variable's name) instead of a traceback."""
    from pydantic import ValidationError

    from services.gameplay.settings import get_settings

    try:
        return get_settings()
    except ValidationError as error:
        for item in error.errors(include_input=False, include_url=False):
            name = "SKYPORT_" + "_".join(str(part) for part in item["loc"]).upper()
            message = str(item["msg"]).removeprefix("Value error, ")
            console.print(f"[red]{name}: {message}[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


@app.command()
def worker(
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, help="tasks run at once (default: SKYPORT_WORKER_CONCURRENCY)"),
    ] = None,
    loglevel: Annotated[
        str | None, typer.Option(help="debug, info, warning or error (default: SKYPORT_LOG_LEVEL)")
    ] = None,
    beat: Annotated[
        bool,
        typer.Option(
            help="also run the sweep (clocks, stalled games) every SKYPORT_CLOCK_SWEEP_SECONDS; "
            "on by default, as every worker should run it"
        ),
    ] = True,
    hostname: Annotated[
        str | None,
        typer.Option(
            help="Celery node name (default celery@HOST); give each worker on one "
            "host its own, e.g. skyport-1@%h"
        ),
    ] = None,
    supervise: Annotated[
        bool,
        typer.Option(
            help="run the Celery worker in a child process and start it again whenever it "
            "exits without being asked to (e.g. kombu giving up after a Redis restart)"
        ),
    ] = True,
) -> None:
    """Start a Celery worker for bot turns, scoring, webhooks and the sweep (clocks,
    lost turns; `--no-beat` leaves it out); needs SKYPORT_REDIS_URL or SKYPORT_BROKER_URL.
    SIGTERM stops it warmly: running tasks finish first. The sweep is idempotent and
    cheap, so every worker runs it: without it no clock runs out and a lost turn is never
    sent again."""
    settings = checked_settings()
    if settings.celery_broker_url is None:
        console.print("[red]set SKYPORT_REDIS_URL (or SKYPORT_BROKER_URL) to run a worker[/red]")
        raise typer.Exit(2)
    if settings.worker_metrics_port:
        from workers.metrics import prepare_multiprocess_dir, serve_metrics

        prepare_multiprocess_dir()  # inherited by the supervised worker
        serve_metrics(
            settings.worker_metrics_port,
            settings.celery_broker_url,
            settings.task_queue,
            settings.redis_url,
            settings.key_prefix,
        )
    from services.gameplay.logs import configure_logging

    level = loglevel or settings.log_level
    configure_logging(level, settings.log_json)
    options = [f"--concurrency={concurrency or settings.worker_concurrency}", f"--loglevel={level}"]
    options.append("--beat" if beat else "--no-beat")
    if hostname:
        options.append(f"--hostname={hostname}")
    if supervise:
        from workers.supervisor import supervise_worker

        command = [sys.executable, "-m", "services.cli", "worker", "--no-supervise", *options]
        # The metrics (if any) are served here, from every generation of the worker.
        raise typer.Exit(supervise_worker(command, {"SKYPORT_WORKER_METRICS_PORT": "0"}))
    from workers.celery_app import app as celery

    argv = [
        "worker",
        f"--concurrency={concurrency or settings.worker_concurrency}",
        f"--loglevel={level.upper()}",
        f"--queues={settings.task_queue}",
        "--without-gossip",
        "--without-mingle",
    ]
    if beat:
        argv.append("--beat")
    if hostname:
        argv.append(f"--hostname={hostname}")
    celery.worker_main(argv)


if __name__ == "__main__":
    app()
