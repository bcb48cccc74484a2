# Skyport — every command a developer or CI needs. `make help` lists them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help install run test lint bench bench-service redis-server chromium valgrind screenshots clean

help:
	@echo "make run    install into $(VENV) and start the API on http://$(HOST):$(PORT)"
	@echo "make test   install (and Redis if missing) and run the whole test suite"
	@echo "make lint   ruff, and mypy on services, schema, workers and bench (the suite runs them too)"
	@echo "make bench  benchmarks (printed numbers, never asserted)"
	@echo "make bench-service  load test of the service against a local Redis"
	@echo "make screenshots    PNGs of each game's board and the playground into docs/screenshots/"

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

run: install
	$(VENV)/bin/skyport serve --host $(HOST) --port $(PORT)

# Tests talk to a real Redis: the suite starts its own redis-server when none answers
# on 127.0.0.1:6379, so the binary must exist (installed from Debian's packages as root).
redis-server:
	@command -v redis-server >/dev/null || (apt-get update -qq && apt-get install -y -qq redis-server >/dev/null)

# The browser tests drive Debian's chromium with Playwright (which cannot download its own
# browsers here): installed from Debian's packages as root, like Redis.
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)

# bench/move_instructions.py counts instructions with callgrind (its test runs it too).
valgrind:
	@command -v valgrind >/dev/null || (apt-get update -qq && apt-get install -y -qq valgrind >/dev/null)

test: install redis-server chromium valgrind
	$(PY) -m pytest -n auto

lint: install
	$(VENV)/bin/ruff check services schema workers tests bench
	$(VENV)/bin/ruff format --check services schema workers tests bench
	$(VENV)/bin/mypy

# The Sky Islands strength target: mcts at 1 CPU-second per move against greedy (a few
# minutes: 20 games). Dominion's mcts plays MCTS_GAMES games against the expert at 1
# CPU-second per move (a game takes a minute or two: 200 games, the issue's count, take
# hours on 2 cores, so the default is a sample); the logged runs are pooled after it.
MCTS_GAMES ?= 2
MCTS_LOGS := $(wildcard bench/results/dominion-mcts-vs-expert/*.jsonl)
bench: install
	$(PY) bench/playouts.py
	$(PY) bench/dominion_speed.py
	$(PY) bench/dominion_bots.py --mcts-games $(MCTS_GAMES) --mcts-cpu
	$(if $(MCTS_LOGS),$(PY) bench/dominion_bots.py --summarise $(MCTS_LOGS))
	$(PY) bench/bots.py --service
	$(PY) bench/bots.py --games 20 --only sky-islands --levels mcts,greedy \
		--mcts-seconds 1 --mcts-iterations 1000000 --mcts-cpu
	$(PY) bench/sky_lanterns.py

# Needs a Redis on 127.0.0.1:6379 (db 15 is used): the service under load vs the floor.
bench-service: install valgrind
	$(PY) bench/load.py --spawn --rounds 3 --redis-url redis://127.0.0.1:6379/15
	$(PY) bench/bot_turns.py --redis-url redis://127.0.0.1:6379/15
	$(PY) bench/move_parts.py --redis-url redis://127.0.0.1:6379/15
	$(PY) bench/move_instructions.py --redis-url redis://127.0.0.1:6379/15
	$(PY) bench/log_dictionary.py
	$(PY) bench/tournaments.py --spawn --redis-url redis://127.0.0.1:6379/15

# The browser tests keep their screenshots in docs/screenshots/ (shown in the README).
screenshots: install chromium
	SKYPORT_SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q -p no:cacheprovider tests/browser

clean:
	rm -rf $(VENV) .pytest_cache
