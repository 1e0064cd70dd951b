# Two commands: `make run` serves the tables, `make test` checks everything. Both create .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HASH := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# One stamp per install set, so `make run` installs only what serving needs (about 30 MB)
# and `make test` the whole dev set (torch, ray, OpenSpiel, Playwright: about 1.8 GB).
SERVE_STAMP := $(VENV)/.installed-serve-$(HASH)
CLI_STAMP := $(VENV)/.installed-cli-$(HASH)
DEV_STAMP := $(VENV)/.installed-dev-$(HASH)
# This workplace keeps wheels on disk (the CPU build of torch among them): use them where
# they exist, so the training example's torch is never a multi-GB GPU download.
WHEELS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels,)

.PHONY: run play test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# An older pyproject's stamps are dropped; the dev set includes the others.
$(SERVE_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[server,cli]'
	rm -f $(filter-out $(DEV_STAMP) $(CLI_STAMP),$(wildcard $(VENV)/.installed-*))
	touch $@

$(CLI_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[cli]'
	rm -f $(filter-out $(DEV_STAMP) $(SERVE_STAMP),$(wildcard $(VENV)/.installed-*))
	touch $@

$(DEV_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet $(WHEELS) -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@ $(SERVE_STAMP) $(CLI_STAMP)

# The lobby and tables in the browser; it prints the address (http://localhost:8000/).
run: $(SERVE_STAMP)
	$(BIN)/mazo serve

# A match in the terminal, no browser needed.
play: $(CLI_STAMP)
	$(BIN)/mazo play briscola --players 2 --vs normal

test: $(DEV_STAMP)
	$(BIN)/ruff format --check mazo tests bench
	$(BIN)/ruff check mazo tests bench
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(CLI_STAMP)
	$(BIN)/mazo bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
