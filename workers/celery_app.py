"""The Celery app of the workers, configured from the service's settings.

Broker: `SKYPORT_BROKER_URL`, else `SKYPORT_REDIS_URL` (any Celery broker URL works);
results go to the Redis URL (the tasks return nothing anyone waits for).

Tasks are acknowledged late and the worker takes one at a time per process, so a worker
killed in the middle of a task (even SIGKILL) leaves the message unacknowledged: the
Redis transport puts it back on the queue once it has been out for
`SKYPORT_TASK_VISIBILITY_TIMEOUT` seconds (swept every second), and another worker runs
it. The tasks are idempotent (they act only on the game version they name), so running
one twice changes nothing; `workers.tasks` caps the deliveries of one task.

Liveness: `celery -A workers.celery_app:app inspect ping --destination celery@$HOSTNAME`.
"""

from __future__ import annotations

import os
import tempfile

from celery import Celery
from celery.signals import beat_init

from services.gameplay.broker import transport_for
from services.gameplay.settings import Settings, get_settings

from .supervisor import die_with_parent


def make_celery(settings: Settings) -> Celery:
    """A Celery app for `settings` (broker, queue, concurrency, redelivery)."""
    broker_url = settings.celery_broker_url or "memory://"
    celery = Celery("skyport", set_as_current=False)
    celery.conf.update(
        broker_url=broker_url,
        broker_transport=transport_for(broker_url),
        result_backend=settings.redis_url or None,
        task_ignore_result=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        worker_concurrency=settings.worker_concurrency,
        worker_hijack_root_logger=False,
        task_default_queue=settings.task_queue,
        broker_connection_retry_on_startup=True,
        broker_transport_options={
            "visibility_timeout": settings.task_visibility_timeout,
            "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1,
        },
        result_backend_transport_options={
            "visibility_timeout": settings.task_visibility_timeout,
        },
        worker_send_task_events=False,
        include=["workers.tasks"],
        # `skyport worker --beat`: the clock sweep. Beat keeps no state worth saving.
        beat_schedule={
            "sweep-clocks": {
                "task": "skyport.sweep_clocks",
                "schedule": settings.clock_sweep_seconds,
                "options": {"expires": max(5.0, 5 * settings.clock_sweep_seconds)},
            }
        },
        beat_schedule_filename=os.path.join(tempfile.gettempdir(), f"skyport-beat-{os.getpid()}"),
    )
    return celery


app = make_celery(get_settings())


@beat_init.connect
def _beat_dies_with_its_worker(**_: object) -> None:
    # `--beat` runs beat in a child process that outlives a SIGKILLed worker otherwise; the
    # supervisor starts a new worker with a new beat, and the old one would go on forever.
    die_with_parent()
