"""Shared pieces of the browser tests: a real `mazo serve`, Debian's Chromium, helpers.

The fixtures ``base`` (a `mazo serve` per test module), ``browser`` and ``page`` are
registered for every test of ``tests/server`` by ``conftest.py``; test modules import the
helpers they use (``from .browser_fixtures import create_table, public, shot, ...``) and
call ``require_chromium()`` at module level, which skips the module (saying why) when
Chromium or Playwright is missing.  ``serve(...)`` starts one more server with extra
command-line flags (a test-only timer, say) for tests that need one of their own.

Set ``MAZO_SHOTS=/some/dir`` to keep screenshots of the pages along the way.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = os.environ.get("MAZO_SHOTS")

Page = Any


def require_chromium() -> Any:
    """Skip the calling test module unless Chromium and Playwright are there; the sync API."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
    sync_api = pytest.importorskip("playwright.sync_api")
    _csp_safe_waits(sync_api.Page)
    return sync_api


FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)")


def _csp_safe_waits(page_class: Any) -> None:
    """The pages run under the server's Content-Security-Policy, which allows no eval, and
    Playwright polls a bare expression given to ``wait_for_function`` through eval (an
    arrow function it does not): bare expressions are wrapped in one, so every browser
    test runs under the real CSP."""
    real = page_class.wait_for_function
    if getattr(real, "csp_safe", False):
        return

    def wait_for_function(self: Any, expression: str, **kwargs: Any) -> Any:
        if not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return real(self, expression, **kwargs)

    wait_for_function.csp_safe = True  # type: ignore[attr-defined]
    page_class.wait_for_function = wait_for_function


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as res:
        return json.load(res)


def post_json(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.load(res)


@contextlib.contextmanager
def serve(db: Path, *extra: str) -> Iterator[str]:
    """`mazo serve` in a subprocess (no bot delay, seeds allowed, plus `extra` flags)."""
    with serve_process(db, *extra) as (url, _pid):
        yield url


@contextlib.contextmanager
def serve_process(db: Path, *extra: str) -> Iterator[tuple[str, int]]:
    """As :func:`serve`, yielding the server's address and its pid."""
    port = free_port()
    cmd = [sys.executable, "-m", "mazo", "serve", "--port", str(port), "--db", str(db)]
    cmd += ["--bot-delay", "0", "--allow-seed", "--log-level", "warning"]
    # one server serves a whole module of tests, all from loopback: no creation limit
    cmd += ["--tables-per-minute", "0", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get_json(url + "/api/health").get("ok"):
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise RuntimeError(f"mazo serve did not start:\n{out}")
            time.sleep(0.1)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `mazo serve` in a subprocess; yields http://127.0.0.1:PORT."""
    with serve(tmp_path_factory.mktemp("serve") / "tables.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = require_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def new_page(browser: Any, width: int = 1280, height: int = 900) -> tuple[Any, Page, list[str]]:
    """A fresh context (English, nothing remembered) and page; (context, page, js errors)."""
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    return context, pg, errors


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    """A fresh page in English (a new context: no remembered language or names)."""
    context, pg, errors = new_page(browser)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def table_id(page: Page) -> str:
    return str(page.url.split("/table/")[1].split("#")[0])


def public(base: str, tid: str) -> dict[str, Any]:
    data: dict[str, Any] = get_json(f"{base}/api/tables/{tid}")
    return data


def version(page: Page) -> int:
    return int(page.get_attribute("#status", "data-version") or -1)


def wait_version_after(page: Page, v: int, timeout: float = 15_000) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('status').dataset.version) > {v}", timeout=timeout
    )


def wait_my_turn_or_end(page: Page, timeout: float = 20_000) -> bool:
    """Wait until the seat must act or the match is over; True while the match runs."""
    page.wait_for_function(
        """() => { const s = document.getElementById('status');
                 return s.dataset.matchOver === 'true' ||
                        (s.dataset.seat !== '' && s.dataset.toAct === s.dataset.seat); }""",
        timeout=timeout,
    )
    return page.get_attribute("#status", "data-match-over") != "true"


def click_stable(page: Page, selector: str) -> None:
    """Click, retrying while a re-render replaces the element under the pointer."""
    from playwright.sync_api import Error

    for _ in range(5):
        try:
            page.locator(selector).first.click(timeout=3000)
            return
        except Error:
            time.sleep(0.1)
    page.locator(selector).first.click()


def create_table(
    base: str, game: str, players: int, seats: list[dict[str, Any]], **extra: Any
) -> Any:
    body = {"game": game, "players": players, "seats": seats, **extra}
    return post_json(f"{base}/api/tables", body)
