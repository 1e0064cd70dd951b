"""Issue 17, item 10: every page of the web client runs in Chromium under the server's
Content-Security-Policy (scripts, styles, images and sockets from the site itself, no
inline script): nothing is refused, and the pages work (the other browser tests play
whole matches under the same headers)."""

from __future__ import annotations

from typing import Any

from .browser_fixtures import create_table, new_page, require_chromium

require_chromium()


def test_every_page_loads_under_the_csp_without_a_violation(browser: Any, base: str) -> None:
    context, pg, errors = new_page(browser)
    refused: list[str] = []
    pg.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    table = create_table(
        base,
        "briscola",
        2,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
        seed=3,
    )
    seen: dict[str, str] = {}
    try:
        response = pg.goto(base + "/", wait_until="networkidle")
        seen["lobby"] = response.headers["content-security-policy"]
        pg.wait_for_selector("button")
        pg.goto(base + table["seats"][0]["join_url"], wait_until="networkidle")
        # the socket connected (connect-src 'self') and the hand is drawn (the card SVGs)
        pg.wait_for_function("document.getElementById('status').dataset.version !== undefined")
        pg.wait_for_selector(".card")
        for path in ("/rules/briscola", f"/replay/{table['id']}"):
            response = pg.goto(base + path, wait_until="networkidle")
            seen[path] = response.headers["content-security-policy"]
    finally:
        context.close()
    assert all("script-src 'self'" in csp for csp in seen.values()), seen
    assert not refused, f"the CSP refused: {refused}"
    assert not errors, f"JavaScript errors: {errors}"
