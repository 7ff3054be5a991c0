# Two commands do everything on a fresh machine with Python 3.11+: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# The project is installed by uv (itself installed by the venv's pip): a fresh install takes a
# few seconds where pip's resolver and build took over twenty. Bytecode is compiled at install,
# as pip does, so that no test process compiles the libraries again.
$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[dev]'
	touch $@

.PHONY: install run test test-long lint format bench load play messages
install: $(BIN)/.installed

run: install
	$(BIN)/python -m bot

# The types are checked (mypy, one core) while the tests run: on a 2-core machine that waits
# for neither. First a collection of the tests writes the bytecode of every module, the test
# modules as pytest rewrites their asserts: each test worker then loads it instead of compiling
# and rewriting everything again (on a fresh clone, two thirds of their start-up). Bytecode is
# written even where PYTHONDONTWRITEBYTECODE is set. mypy's report follows the tests'.
CACHED := env -u PYTHONDONTWRITEBYTECODE
test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@typing=$$(mktemp); $(BIN)/mypy >$$typing 2>&1 & checker=$$!; \
		$(CACHED) $(BIN)/python -m pytest --collect-only -q -n 0 >/dev/null 2>&1; \
		$(CACHED) $(BIN)/python -m pytest; tested=$$?; \
		wait $$checker; typed=$$?; echo "mypy: $$(tail -n 1 $$typing)"; \
		[ $$typed = 0 ] || cat $$typing; rm -f $$typing; \
		[ $$tested = 0 ] && [ $$typed = 0 ]

# The nightly run: every property test tries ten times as many examples.
test-long: install
	HYPOTHESIS_PROFILE=nightly $(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Fix what `make lint` reports: the format, and the lint findings ruff can fix by itself.
format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	$(BIN)/python -m bench.random_games

# A short load run (20 tables for a minute against the fake Discord); see bench/load.py.
load: install
	$(BIN)/python -m bench.load --tables 20 --minutes 1

play: install
	$(BIN)/python -m tests.fakediscord play

# The catalogues (locales/): the templates from the code (texts marked with _, ngettext, N_,
# pgettext), the games' summaries and the slash commands, then each language's .po brought up
# to date. Translate the new entries, then `make test` (tests/bot/test_i18n.py finds gaps).
messages: install
	$(BIN)/pybabel extract -F babel.cfg --no-default-keywords -k _:2 -k ngettext:2,3 -k N_ \
		-k pgettext:2c,3 --sort-by-file --no-wrap --project=cardtable -o locales/cardtable.pot .
	$(BIN)/python -m cogs.messages locales
	$(BIN)/pybabel update -i locales/cardtable.pot -d locales -D cardtable --no-wrap
	$(BIN)/pybabel update -i locales/commands.pot -d locales -D commands --no-wrap \
		--ignore-obsolete
