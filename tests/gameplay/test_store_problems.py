"""Which Redis failures a client is told to retry (503 `store_unavailable`), and which
are faults of ours (no problem: the doors answer 500). Redis replies that redis-py
leaves as a plain `ResponseError` are told apart by their first word."""

from __future__ import annotations

import pytest
import redis.exceptions

from services.gameplay.problems import as_store_problem


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ConnectionError("Connection refused"),
        redis.exceptions.TimeoutError("Timeout reading from socket"),
        redis.exceptions.OutOfMemoryError("command not allowed when used memory > 'maxmemory'"),
        redis.exceptions.ReadOnlyError("You can't write against a read only replica."),
        redis.exceptions.ResponseError("MISCONF Redis is configured to save RDB snapshots"),
        redis.exceptions.ResponseError("BUSY Redis is busy running a script."),
    ],
)
def test_a_store_that_cannot_take_the_change_now_is_a_503_to_retry(error: Exception) -> None:
    problem = as_store_problem(error)
    assert problem is not None
    assert (problem.status, problem.code) == (503, "store_unavailable")
    assert int(problem.headers["Retry-After"]) > 0


@pytest.mark.parametrize(
    "error",
    [
        redis.exceptions.ResponseError("WRONGTYPE Operation against a key holding the wrong kind"),
        redis.exceptions.ResponseError("BUSYKEY Target key name already exists."),
        redis.exceptions.NoScriptError("No matching script."),
        ValueError("not Redis at all"),
    ],
)
def test_other_redis_replies_are_not_told_to_retry(error: Exception) -> None:
    assert as_store_problem(error) is None
