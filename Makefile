# Two commands: `make run` serves the tables, `make test` checks everything. Both create .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# This workplace keeps wheels on disk (the CPU build of torch among them): use them where
# they exist, so the training example's torch is never a multi-GB GPU download.
WHEELS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels,)

.PHONY: run play test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet $(WHEELS) -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

# The lobby and tables in the browser; it prints the address (http://localhost:8000/).
run: $(STAMP)
	$(BIN)/mazo serve

# A match in the terminal, no browser needed.
play: $(STAMP)
	$(BIN)/mazo play briscola --players 2 --vs normal

test: $(STAMP)
	$(BIN)/ruff format --check mazo tests bench
	$(BIN)/ruff check mazo tests bench
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/mazo bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
