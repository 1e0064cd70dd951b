"""The lobby page lists every open public table, a page of the API at a time: past the
first page a button shows the next (issue 17 item 6: the API pages, the page follows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_fixtures import create_table, new_page, require_chromium, serve

require_chromium()


def test_the_lobby_shows_more_tables_a_page_at_a_time(tmp_path: Path, browser: Any) -> None:
    with serve(tmp_path / "t.sqlite3", "--lobby-page", "2") as base:
        ids = [
            create_table(
                base,
                "briscola",
                2,
                [{"kind": "human", "name": f"P{i}"}, {"kind": "human"}],
                public=True,
                title=f"Table {i}",
            )["id"]
            for i in range(5)
        ]
        context, page, errors = new_page(browser)
        try:
            page.goto(base + "/")
            rows = page.locator("#tables li[data-table]")
            more = page.locator("#tables button.more-tables")
            page.wait_for_function(
                "document.querySelectorAll('#tables li[data-table]').length === 2"
            )
            assert "3" in more.inner_text()
            more.click()
            page.wait_for_function(
                "document.querySelectorAll('#tables li[data-table]').length === 4"
            )
            assert "1" in more.inner_text()
            more.click()
            page.wait_for_function(
                "document.querySelectorAll('#tables li[data-table]').length === 5"
            )
            assert more.count() == 0
            shown = [rows.nth(i).get_attribute("data-table") for i in range(5)]
            assert shown == ids[::-1]  # newest first, each once
            assert not errors, errors
        finally:
            context.close()
