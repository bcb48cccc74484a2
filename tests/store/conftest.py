"""Fixtures of the store tests beyond the suite's own (tests/conftest.py)."""

from own_redis import own_redis  # noqa: F401 (a fixture for the store's failure tests)
