"""Fixtures of the server tests: a throwaway database and an in-process test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mazo.server.app import create_app

# the browser tests' fixtures (a real `mazo serve`, Chromium, a fresh page), shared by every
# browser test module; they skip when Chromium or Playwright is missing
from .browser_fixtures import base, browser, page  # noqa: F401

# PostgreSQL and Redis for the scale-out tests: a fresh database each; they skip when the
# servers are missing, and fail instead when MAZO_REQUIRE_SERVICES=1 (CI)
from .services import pg_url, redis_url  # noqa: F401


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """The app in process (no bot delay, seeds allowed, bots in threads)."""
    app = create_app(db, bot_delay=0, allow_seed=True, bot_processes=False)
    with TestClient(app) as c:
        yield c
