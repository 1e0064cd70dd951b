"""The replay viewer, the lobby's "Recently finished" list and the hint button, in
Debian's Chromium against a real `mazo serve`.

Matches are finished fast: all seats but one are bots, the table's dwell is 0 (no trick
dwell, no deal pause), and the person's seat is played over a socket from the test.
Set ``MAZO_SHOTS=/some/dir`` to keep screenshots.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .browser_fixtures import (
    Page,
    create_table,
    get_json,
    new_page,
    require_chromium,
    shot,
    wait_my_turn_or_end,
)

require_chromium()

from websockets.sync.client import connect  # noqa: E402

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def finish(base: str, game: str, players: int, seed: int, **extra: Any) -> str:
    """A public table of one person (seat 0) and `normal` bots played to its end; its id."""
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "normal"}] * (
        players - 1
    )
    table = create_table(
        base, game, players, seats, seed=seed, public=True, settings={"dwell": 0}, **extra
    )
    url = (
        base.replace("http://", "ws://")
        + f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    )
    with connect(url, max_size=2**22) as ws:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] != "state":
                continue
            obs = message["observation"]
            if obs["match_over"]:
                return str(table["id"])
            if obs["to_act"] == 0:
                legal = obs["legal_actions"]
                cards = [a for a in legal if " " not in a and a[-1:] in "OCEB"]
                action = (cards or legal)[0]
                ws.send(
                    json.dumps({"type": "act", "version": message["version"], "action": action})
                )
    raise AssertionError("the match did not end")


def bar(pg: Page) -> dict[str, str]:
    data: dict[str, str] = pg.eval_on_selector("#replay-bar", "el => ({...el.dataset})")
    return data


def wait_step(pg: Page, deal: int, move: int, seat: int | None) -> None:
    seat_text = "" if seat is None else str(seat)
    pg.wait_for_function(
        """([deal, move, seat]) => { const b = document.getElementById('replay-bar');
             const s = document.getElementById('status');
             return b && b.dataset.deal === String(deal) && b.dataset.move === String(move)
                    && b.dataset.seat === seat && s.dataset.version === b.dataset.version
                    && s.dataset.seat === seat; }""",
        arg=[deal, move, seat_text],
    )


def drawn(pg: Page, selector: str) -> list[str]:
    codes: list[str] = pg.eval_on_selector_all(
        f"{selector} [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return codes


def check_drawn(pg: Page, step: dict[str, Any]) -> None:
    """The hand and the trick on the page are the step's."""
    obs = step["observation"]
    assert drawn(pg, "#hand") == list(obs.get("hand") or []), step["version"]
    trick = [t["card"] for t in obs.get("trick") or []]
    if trick:
        assert drawn(pg, "#trick") == trick, step["version"]
    assert pg.locator("#hand button").count() == 0  # nothing to click in a replay
    assert pg.locator("#actions button").count() == 0


def test_the_replay_viewer_steps_a_whole_envite_deal(base: str, browser: Any) -> None:
    table_id = finish(base, "envite", 4, 3, options={"chicos_to_win": 1}, title="Replay")
    api = f"{base}/api/tables/{table_id}/replay"
    deal1 = get_json(f"{api}?seat=0&deal=1")
    assert len(deal1["deals"]) >= 2
    steps = deal1["steps"]
    moves = len(steps) - 1
    context, pg, errors = new_page(browser, *SIZES["desktop"])
    try:
        pg.goto(f"{base}/replay/{table_id}")  # no seat asked for: the person's (seat 0)
        wait_step(pg, 1, 0, 0)
        assert pg.get_attribute("#conn", "data-state") == "replay"
        check_drawn(pg, steps[0])
        # forward through every step of the deal, each drawn as its observation says
        for i in range(1, moves + 1):
            pg.click("#replay-forward")
            wait_step(pg, 1, i, 0)
            assert pg.inner_text("#replay-counter") == f"deal 1 · move {i}/{moves}"
            assert bar(pg)["version"] == str(steps[i]["version"])
            check_drawn(pg, steps[i])
            if i == moves // 2:
                shot(pg, "replay-envite-desktop")
        # the deal's end: its result is told (the last move's sentence names the points)
        assert "Deal over" in pg.inner_text("#last")
        # back, with the keyboard
        pg.keyboard.press("ArrowLeft")
        wait_step(pg, 1, moves - 1, 0)
        check_drawn(pg, steps[moves - 1])
        pg.keyboard.press("Home")
        wait_step(pg, 1, 0, 0)
        # jump to deal 2
        pg.select_option("#replay-deal", "2")
        wait_step(pg, 2, 0, 0)
        deal2 = get_json(f"{api}?seat=0&deal=2")
        check_drawn(pg, deal2["steps"][0])
        pg.click("#replay-forward")
        wait_step(pg, 2, 1, 0)
        check_drawn(pg, deal2["steps"][1])
        # another seat's view of the same moment: its own hand
        pg.select_option("#replay-seat", "1")
        wait_step(pg, 2, 1, 1)
        other = get_json(f"{api}?seat=1&deal=2")["steps"][1]
        assert other["version"] == deal2["steps"][1]["version"]
        check_drawn(pg, other)
        mine = set(deal2["steps"][1]["observation"]["hand"])
        assert other["observation"]["hand"] and mine.isdisjoint(other["observation"]["hand"])
        # the spectators' view: no hand
        pg.select_option("#replay-seat", "")
        wait_step(pg, 2, 1, None)
        assert drawn(pg, "#hand") == []
        # the URL follows (a link to this very step)
        assert "deal=2" in pg.url and "move=1" in pg.url
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
    context, pg, errors = new_page(browser, *SIZES["phone"])
    try:
        pg.goto(f"{base}/replay/{table_id}?seat=0&deal=1&move=5")
        wait_step(pg, 1, 5, 0)
        check_drawn(pg, steps[5])
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES["phone"][0]
        shot(pg, "replay-envite-phone")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_lobby_lists_finished_tables_linked_to_their_replay(base: str, page: Page) -> None:
    table_id = finish(base, "briscola", 2, 8, options={"match_wins_target": 2}, title="Done")
    page.goto(base + "/")
    link = page.locator(f"#finished li[data-table='{table_id}'] a.replay-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/replay/{table_id}"
    item = page.locator(f"#finished li[data-table='{table_id}']")
    assert "Done" in item.inner_text() and " won" in item.inner_text()
    shot(page, "lobby-finished")
    link.click()
    page.wait_for_url(f"**/replay/{table_id}**")
    wait_step(page, 1, 0, 0)
    # a link to a deal the match does not have opens its first deal
    page.goto(f"{base}/replay/{table_id}?seat=1&deal=99&move=3")
    wait_step(page, 1, 0, 1)
    # a match still being played has no replay yet: the page says so
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]
    live = create_table(base, "briscola", 2, seats, seed=8)
    page.goto(f"{base}/replay/{live['id']}")
    page.wait_for_selector("#message:not([hidden])")
    assert "over" in page.inner_text("#message")
    assert page.get_attribute("#replay-table", "href") == f"/table/{live['id']}"


def test_escoba_speaks_of_hands_in_the_replay_and_the_summary(base: str, page: Page) -> None:
    """Escoba's unit of scoring is the hand (its rules' word): the deal picker, the step
    counter and the match summary say so, through the `<key>.escoba` dictionary keys."""
    table_id = finish(base, "escoba", 2, 5, options={"target_score": 4}, title="Hands")
    deals = get_json(f"{base}/api/tables/{table_id}/replay?seat=0")["deals"]
    last = deals[-1]
    page.goto(f"{base}/replay/{table_id}?seat=0&deal={last['deal']}&move=99999")
    page.wait_for_selector("#replay-bar")
    page.wait_for_function("document.getElementById('status').dataset.matchOver === 'true'")
    options = page.locator("#replay-deal option").all_inner_texts()
    assert options == [f"Hand {d['deal']}" for d in deals]
    assert page.inner_text("#replay-counter").startswith(f"hand {last['deal']} · move ")
    summary = page.locator("#felt-overlay")
    summary.wait_for()
    text = summary.inner_text()
    assert f"Decided in hand {last['deal']}" in text, text
    assert "deal" not in text.lower(), text


def test_the_hint_button_shows_a_legal_card_and_a_reason(base: str, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}]
    for name, (width, height) in SIZES.items():
        table = create_table(
            base, "briscola", 2, seats, seed=12, settings={"hints": True, "dwell": 0}
        )
        context, pg, errors = new_page(browser, width, height)
        try:
            pg.goto(base + table["seats"][0]["join_url"])
            assert wait_my_turn_or_end(pg)
            pg.click("#hint-button")
            pg.wait_for_selector("#hint-text")
            action = pg.get_attribute("#hint-text", "data-action")
            legal = pg.eval_on_selector_all(
                "#hand .card.legal", "els => els.map(e => e.dataset.card)"
            )
            assert action in legal
            assert pg.locator(f"#hint-text .card[data-card='{action}']").count() == 1
            reason = pg.inner_text("#hint-text .hint-reason")
            assert len(reason) > 10 and "hint." not in reason and "{" not in reason
            shot(pg, f"hint-{name}")
            # playing moves on: the hint of the last turn goes
            pg.click(f"#hand .card[data-card='{action}']")
            pg.wait_for_function("!document.getElementById('hint-text')")
        finally:
            context.close()
        assert not errors, f"JavaScript errors: {errors}"
    # hints off (the default): no button
    table = create_table(base, "briscola", 2, seats, seed=12, settings={"dwell": 0})
    context, pg, errors = new_page(browser)
    try:
        pg.goto(base + table["seats"][0]["join_url"])
        assert wait_my_turn_or_end(pg)
        assert pg.locator("#hint-button").count() == 0
    finally:
        context.close()
