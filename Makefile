# Two commands: `make run` plays, `make test` checks everything. Both create .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

run: $(STAMP)
	$(BIN)/mazo play briscola --players 2 --vs heuristic

test: $(STAMP)
	$(BIN)/ruff format --check mazo tests bench
	$(BIN)/ruff check mazo tests bench
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/mazo bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
