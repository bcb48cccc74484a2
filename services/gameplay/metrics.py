"""The service's Prometheus metrics (moves, games, bots, scoring, tasks), defined once per
process; the API serves them at /metrics, each worker on its metrics port."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES_COMMITTED = Counter(
    "skyport_moves_committed_total", "Moves committed by compare-and-set.", ["game", "by"]
)
CAS_CONFLICTS = Counter(
    "skyport_cas_conflicts_total", "Commits refused because another move won the race."
)
IDEMPOTENT_REPLAYS = Counter(
    "skyport_idempotent_replays_total", "Requests answered from an Idempotency-Key record."
)
SEAT_TOKENS_REPLACED = Counter(
    "skyport_seat_tokens_replaced_total",
    "Seat tokens replaced, by the seat itself or by the API key that created the game.",
    ["by"],
)
PARTICIPANT_TOKENS_REPLACED = Counter(
    "skyport_participant_tokens_replaced_total",
    "Tournament participant tokens replaced, by the participant or by the API key that "
    "created the tournament.",
    ["by"],
)
GAMES_CREATED = Counter("skyport_games_created_total", "Games created.", ["game"])
GAMES_FINISHED = Counter("skyport_games_finished_total", "Games ended.", ["game", "how"])
LIVE_STREAMS = Gauge("skyport_live_streams", "Open live event streams.", ["kind"])
BOT_TURN_SECONDS = Histogram(
    "skyport_bot_turn_seconds",
    "Time a bot took to choose its move.",
    ["game", "level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
)
SCORING_SECONDS = Histogram(
    "skyport_scoring_seconds",
    "Time to compute and store the standings of a finished game.",
    ["game"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 1, 5),
)
TASKS_GIVEN_UP = Counter(
    "skyport_tasks_given_up_total",
    "Worker tasks dropped after too many deliveries of the same game version.",
    ["task"],
)
TURNS_RESENT = Counter(
    "skyport_turns_resent_total",
    "Bot turns or scorings sent again by the sweep because the game had stalled.",
)
AFTER_COMMIT_FAILURES = Counter(
    "skyport_after_commit_failures_total",
    "After-commit hooks that failed on a change that stands (each is logged).",
    ["hook"],
)
WEBHOOKS_NOT_SENT = Counter(
    "skyport_webhooks_not_sent_total",
    "Webhooks given up before the workers had them: the broker could not take them and "
    "they could not be kept for later, or they were dropped from the outbox (full, or "
    "kept too long).",
)
WEBHOOKS_KEPT = Counter(
    "skyport_webhooks_kept_total",
    "Webhooks the broker could not take, kept in Redis for the sweep to send later.",
)
WEBHOOKS_RESENT = Counter(
    "skyport_webhooks_resent_total",
    "Kept webhooks the sweep handed to the broker.",
)
OWED_WEBHOOKS_SENT = Counter(
    "skyport_webhooks_owed_sent_total",
    "Changes (moves, seats that left or were claimed, starts, cancels, aborts) whose "
    "webhooks the sweep sent because whoever made the change died before handing them over.",
)
SWEEP_FAILURES = Counter(
    "skyport_sweep_failures_total",
    "Games the sweep could not look at (it looks again later, backing off).",
    ["sweep"],
)
