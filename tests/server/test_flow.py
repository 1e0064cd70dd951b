"""The flow of play in a real Chromium: pacing, deal results, the match summary and
"Play again", the turn timer's takeover and "I'm back", and the sound toggle.

The page's own clock measures the dwell: a MutationObserver logs every change of the trick
area, and the page itself polls ``GET /api/tables/{id}`` to learn when the bot's next lead
happened, so a slow test runner cannot make a trick look shorter or longer than it was.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

import mazo

from .browser_fixtures import (
    Page,
    click_stable,
    create_table,
    new_page,
    public,
    require_chromium,
    serve,
    shot,
    table_id,
    version,
    wait_my_turn_or_end,
    wait_version_after,
)

sync_api = require_chromium()

ANA = {"kind": "human", "name": "Ana"}
BOT = {"kind": "bot", "level": "normal"}

# Logs every change of #trick: [{t, done, cards}] in page time (performance.now()).
TRICK_LOG = """() => {
  const box = document.getElementById('trick');
  const snap = () => ({t: performance.now(), done: box.classList.contains('done'),
      cards: [...box.querySelectorAll('[data-card]')].map((e) => e.dataset.card)});
  window.__trickLog = [snap()];
  new MutationObserver(() => window.__trickLog.push(snap()))
    .observe(box, {childList: true, attributes: true, attributeFilter: ['class']});
}"""

# Polls the public view until the seat 0 must act again; returns it with the page time of
# the first poll that saw it.
POLL_UNTIL_MY_TURN = """async ([tid, v]) => {
  for (let i = 0; i < 400; i++) {
    const view = await (await fetch(`/api/tables/${tid}`)).json();
    if (view.version > v && (view.observation.to_act === 0 || view.observation.match_over))
      return {at: performance.now(), view};
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}"""


def screen_current(page: Page, timeout: float = 20_000) -> None:
    """Wait until the screen shows the newest received state (no trick dwelling)."""
    page.wait_for_function(
        "() => { const s = document.getElementById('status');"
        " return s.dataset.version === s.dataset.latest; }",
        timeout=timeout,
    )


def bot_lead_after_my_play(page: Page, tid: str) -> tuple[float, dict[str, Any], str]:
    """Play cards as seat 0 until a trick ends with the bot winning and leading the next
    one at once; returns (page time the lead was seen, public view, card led)."""
    for _ in range(20):
        assert wait_my_turn_or_end(page)
        screen_current(page)
        v = version(page)
        page.evaluate(TRICK_LOG)
        click_stable(page, "#hand button.card.legal")
        seen = page.evaluate(POLL_UNTIL_MY_TURN, [tid, v])
        assert seen, "the table did not come back to seat 0"
        obs = seen["view"]["observation"]
        trick = obs.get("trick") or []
        if len(trick) == 1 and trick[0]["seat"] == 1:
            return float(seen["at"]), seen["view"], trick[0]["card"]
        wait_version_after(page, v)
    raise AssertionError("the bot never led after a trick in 20 tries")


def left_at(page: Page, finished: set[str]) -> float | None:
    """Page time the finished trick left #trick after it was drawn whole, or None."""
    log = page.evaluate("window.__trickLog")
    drawn = False
    for entry in log:
        whole = finished <= set(entry["cards"])
        if whole:
            drawn = True
        elif drawn:
            return float(entry["t"])
    assert drawn, f"the finished trick {finished} was never drawn: {log}"
    return None


# ---- pacing: a finished trick stays readable ----------------------------------------------


def test_trick_dwell_keeps_a_finished_trick(base: str, page: Page) -> None:
    t = create_table(base, "briscola", 2, [ANA, BOT], seed=5)  # default pace: 1.5 s
    assert public(base, t["id"])["settings"]["dwell"] == 1.5
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    lead_at, view, led = bot_lead_after_my_play(page, t["id"])
    finished = set(view["observation"]["tricks"][-1]["cards"])
    assert led not in finished
    shot(page, "dwell-finished-trick")
    # the lead is drawn in the end (after the dwell and the gathering) ...
    page.wait_for_selector(f"#trick [data-card='{led}']", timeout=10_000)
    # ... and the page's log of #trick says the finished trick was on the felt until at
    # least 1 s after the bot's lead had happened (page time on both sides)
    gone = left_at(page, finished)
    assert gone is not None and gone >= lead_at + 1000, (gone, lead_at)
    assert "Last trick" in page.inner_text("#last-trick")


def test_instant_pace_draws_the_lead_at_once(base: str, page: Page) -> None:
    """The same scene at pace 0: the lead replaces the trick at once (the dwell test's twin:
    it shows the dwell above comes from the setting)."""
    t = create_table(base, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 0})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    lead_at, view, led = bot_lead_after_my_play(page, t["id"])
    page.wait_for_selector(f"#trick [data-card='{led}']", timeout=10_000)
    finished = set(view["observation"]["tricks"][-1]["cards"])
    gone = left_at(page, finished)
    assert gone is not None and gone < lead_at + 1000, (gone, lead_at)


def test_a_click_on_the_felt_skips_the_dwell(base: str, page: Page) -> None:
    t = create_table(base, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 3})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    _lead_at, _view, led = bot_lead_after_my_play(page, t["id"])
    page.click("#trick")  # anywhere on the felt
    page.wait_for_selector(f"#trick [data-card='{led}']", timeout=2_500)
    # the previous trick is one click away
    page.click("#last-trick")
    assert page.get_attribute("#last-trick", "aria-pressed") == "true"
    assert page.locator("#trick.recalled [data-card]").count() == 2
    assert led not in page.locator("#trick [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    shot(page, "last-trick")
    page.click("#last-trick")
    page.wait_for_selector(f"#trick [data-card='{led}']")


def whole_span(page: Page, cards: set[str]) -> tuple[float, float | None]:
    """Page times `cards` were first all in #trick together, and when that ended (or None)."""
    log = page.evaluate("window.__trickLog")
    start = None
    for entry in log:
        whole = cards <= set(entry["cards"])
        if whole and start is None:
            start = float(entry["t"])
        elif not whole and start is not None:
            return start, float(entry["t"])
    assert start is not None, f"{cards} were never on the felt together: {log}"
    return start, None


def escoba_capture_seed() -> tuple[int, str]:
    """A seed where seat 0 plays first and can take cards from the table: (seed, action)."""
    game = mazo.load_game("escoba", players=2)
    for seed in range(1, 500):
        state = game.new_match(seed=seed)
        if state.to_act == 0:
            takes = [a for a in state.observation(0)["legal_actions"] if "+" in a]
            if takes:
                return seed, takes[0]
    raise AssertionError("no seed with an opening capture")


def test_an_escoba_capture_stays_readable(base: str, page: Page) -> None:
    """Escoba has no tricks: a play that takes cards shows them (the card and what it took)
    for the dwell before they leave the table with their taker."""
    seed, action = escoba_capture_seed()
    card, *taken = action.split("+")
    t = create_table(base, "escoba", 2, [ANA, BOT], seed=seed)  # default pace: 1.5 s
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert wait_my_turn_or_end(page)
    page.evaluate(TRICK_LOG)
    page.click(f"#hand button.card[data-card='{card}']")
    if page.locator("#choices:not([hidden])").count():
        page.click(f"#choices button.choice[data-action='{action}']")
    page.wait_for_selector("#trick-caption:has-text('takes'), #trick-caption:has-text('sweeps')")
    shot(page, "escoba-capture")
    assert set(taken) | {card} <= set(
        page.locator("#trick [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    # the bot's answer comes at once; the capture still stays its 1.5 s
    start, end = whole_span(page, set(taken) | {card})
    if end is None:
        page.wait_for_function(
            f"window.__trickLog.some((e) => e.t > {start} && !{sorted({card, *taken})!r}"
            ".every((c) => e.cards.includes(c)))",
            timeout=10_000,
        )
        start, end = whole_span(page, set(taken) | {card})
    assert end is not None and end - start >= 1000, (start, end)


# ---- sound ---------------------------------------------------------------------------------


def test_sound_toggle_is_off_by_default_and_remembered(base: str, page: Page) -> None:
    t = create_table(base, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 0})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert wait_my_turn_or_end(page)
    v = version(page)
    click_stable(page, "#hand button.card.legal")
    wait_version_after(page, v)
    assert page.get_attribute("#sound", "data-played") == "0"  # off: silent

    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('mazo.sound')") == "on"
    page.reload()
    page.wait_for_selector("#status[data-version]")
    assert page.get_attribute("#sound", "aria-pressed") == "true"  # remembered
    played = int(page.get_attribute("#sound", "data-played") or 0)
    assert wait_my_turn_or_end(page)
    v = version(page)
    click_stable(page, "#hand button.card.legal")
    wait_version_after(page, v)
    page.wait_for_function(
        f"Number(document.getElementById('sound').dataset.played) > {played}"
    )  # a play makes a sound now
    page.click("#sound")
    assert page.evaluate("localStorage.getItem('mazo.sound')") == "off"


# ---- the lobby's table settings -----------------------------------------------------------


def test_lobby_sends_the_table_settings(base: str, page: Page) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=briscola]", state="attached")
    assert page.input_value("#pace") == "1.5"
    assert page.input_value("#turn-timer") == "0"  # private: off
    page.check("#public")
    assert page.input_value("#turn-timer") == "60"  # public: a minute
    # a public table never waits forever: "off" cannot be picked there, even after a choice
    assert page.locator('#turn-timer option[value="0"]').is_disabled()
    page.uncheck("#public")
    assert page.input_value("#turn-timer") == "0"
    page.select_option("#turn-timer", "0")
    page.check("#public")
    assert page.input_value("#turn-timer") == "60"
    page.uncheck("#public")
    assert not page.locator('#turn-timer option[value="0"]').is_disabled()
    page.select_option("#turn-timer", "0")
    page.select_option("#game", "briscola")
    page.select_option("#players", "2")
    page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ana")
    page.select_option("#pace", "0.8")
    page.select_option("#turn-timer", "120")
    page.select_option("#takeover", "hard")
    page.check("#hints")
    shot(page, "lobby-settings")
    page.click("#create")
    page.wait_for_selector("#created a.join-link")
    tid = page.get_attribute("#created a.watch-link", "href").split("/table/")[1]
    settings = public(base, tid)["settings"]
    assert settings == {"dwell": 0.8, "turn_timer": 120, "takeover": "hard", "hints": True}


# ---- the deal result waits for a click ------------------------------------------------------


def play_until(page: Page, done: str, timeout: float = 120) -> None:
    """Click legal cards as the page's seat until the selector `done` is visible."""
    deadline = time.monotonic() + timeout
    while not page.locator(done).is_visible():
        assert time.monotonic() < deadline, f"{done} never showed"
        page.wait_for_function(
            f"""() => {{ const s = document.getElementById('status');
                 const box = document.querySelector({done!r});
                 const mine = s.dataset.toAct === s.dataset.seat;
                 return (box && box.offsetParent !== null) || s.dataset.matchOver === 'true' ||
                        (mine && s.dataset.version === s.dataset.latest); }}""",
            timeout=30_000,
        )
        if page.locator(done).is_visible():
            break
        assert page.get_attribute("#status", "data-match-over") != "true"
        v = version(page)
        click_stable(page, "#hand button.card.legal")
        with contextlib.suppress(sync_api.TimeoutError):
            wait_version_after(page, v, timeout=5_000)


def test_deal_result_waits_for_continue(base: str, page: Page) -> None:
    # seed 5: the bot deals first, so Ana leads deal 1 and the bot leads deal 2
    t = create_table(base, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 0.8})
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    play_until(page, "#deal-result")
    view = public(base, t["id"])
    assert view["ready"]["waiting"] == [0]
    assert view["observation"]["to_act"] == 1  # the bot would lead deal 2 ...
    v = view["version"]
    box = page.locator("#deal-result")
    text = box.inner_text()
    assert "Deal 1" in text and "Ana" in text and "Continue" in text
    row = view["history"][0]
    for p in row["points"]:
        assert (f"+{p}" if p > 0 else str(p)) in text
    shot(page, "deal-result-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "deal-result-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    time.sleep(2.0)
    assert public(base, t["id"])["version"] == v  # ... but it waits for Ana's click
    assert box.is_visible()
    page.click("#continue")
    page.wait_for_selector("#deal-result", state="detached")
    deadline = time.monotonic() + 10
    while public(base, t["id"])["version"] == v:  # the bot moves at once
        assert time.monotonic() < deadline, "the bot did not move after Continue"
        time.sleep(0.1)
    assert public(base, t["id"])["ready"] is None


# ---- the match summary and "Play again" ----------------------------------------------------


def test_match_summary_and_play_again_keep_both_links(base: str, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Luz"}]
    t = create_table(
        base,
        "briscola",
        2,
        seats,
        seed=8,
        options={"match_wins_target": 2},
        settings={"dwell": 0},
    )
    tid = t["id"]
    sizes = [(1366, 900), (390, 844)]
    opened = [new_page(browser, w, h) for w, h in sizes]
    watcher = new_page(browser, 1366, 900)
    try:
        pages = [pg for _c, pg, _e in opened]
        tokens = [t["seats"][s]["token"] for s in (0, 1)]
        for s, pg in enumerate(pages):
            pg.goto(base + t["seats"][s]["join_url"])
            pg.wait_for_selector("#status[data-version]")
        watcher[1].goto(base + t["watch_url"])
        watcher[1].wait_for_selector("#status[data-version]")
        for _ in range(400):
            view = public(base, tid)
            obs = view["observation"]
            if obs["match_over"]:
                break
            seat = obs["to_act"]
            pg = pages[seat]
            pg.wait_for_function(
                f"""() => {{ const s = document.getElementById('status');
                     return Number(s.dataset.version) >= {view["version"]} &&
                            s.dataset.toAct === '{seat}'; }}"""
            )
            click_stable(pg, "#hand button.card.legal")
            wait_version_after(pg, view["version"])
        view = public(base, tid)
        assert view["observation"]["match_over"]
        history = view["history"]
        winner = ["Ana", "Luz"][view["observation"]["winner"]]
        for s, pg in enumerate(pages):
            pg.wait_for_selector("#match-summary")
            summary = pg.locator("#match-summary")
            assert summary.locator("tbody tr:not(.total)").count() == len(history)
            assert summary.locator("tr.decider").count() == 1
            text = summary.inner_text()
            assert winner in text
            assert f"Decided in deal {history[-1]['deal']}" in text
            assert pg.get_attribute("#replay-link", "href") == f"/replay/{tid}?seat={s}"
            assert pg.get_attribute("#to-lobby", "href") == "/"
            # the hand area is not left empty and silent
            assert "Match over" in pg.inner_text("#hand")
            shot(pg, f"summary-{sizes[s][0]}")
        shot(watcher[1], "summary-watcher")
        assert watcher[1].locator("#play-again").count() == 0

        pages[0].click("#play-again")
        for s, pg in enumerate(pages):
            pg.wait_for_url(re.compile(r"/table/(?!" + re.escape(tid) + r")[^#]+#token="))
            assert pg.url.endswith("#token=" + tokens[s])
            pg.wait_for_selector("#status[data-version]")
            assert pg.get_attribute("#status", "data-seat") == str(s)
            assert pg.get_attribute("#status", "data-match-over") == "false"
        nxt = public(base, tid)["next"]
        assert nxt and table_id(pages[0]) == nxt == table_id(pages[1])
        fresh = public(base, nxt)
        assert [x["name"] for x in fresh["seats"]] == ["Ana", "Luz"]
        assert fresh["settings"]["dwell"] == 0
        # the watcher is offered the next match as a link
        watcher[1].wait_for_selector("#next-match")
        assert watcher[1].get_attribute("#next-match", "href") == f"/table/{nxt}"
        shot(watcher[1], "summary-watcher-next")
    finally:
        for context, _pg, errors in [*opened, watcher]:
            context.close()
            assert not errors, errors


# ---- the turn timer: a bot takes over, "I'm back" takes the seat back ----------------------


@pytest.fixture(scope="module")
def quick_timers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second server whose timers run 10 times faster (60 s -> 6 s), with bots that take
    their time (0.5 s a move), so a match with a seat in autoplay is not over at once."""
    db = tmp_path_factory.mktemp("timers") / "tables.sqlite3"
    with serve(db, "--timer-scale", "0.1", "--bot-delay", "0.5") as url:
        yield url


def test_turn_timer_hands_the_seat_to_a_bot_and_back(quick_timers: str, page: Page) -> None:
    base = quick_timers
    t = create_table(
        base,
        "briscola",
        2,
        [ANA, BOT],
        seed=5,
        settings={"dwell": 0, "turn_timer": 60, "hints": True},
    )
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert wait_my_turn_or_end(page)
    # the countdown, on the seat and in the status bar
    page.wait_for_selector(".seat[data-seat='0'] .turn-clock")
    assert re.search(r"\d:\d\d", page.inner_text("#status .turn-clock"))
    assert public(base, t["id"])["turn"]["seat"] == 0
    assert page.locator("#hint-button").count() == 1  # her turn: she may ask
    shot(page, "turn-clock")
    # Ana does nothing: a bot plays for her, and her page says so
    page.wait_for_selector(".seat[data-seat='0'] .badge.autoplay", timeout=15_000)
    assert "played by bot (normal)" in page.inner_text(".seat[data-seat='0']")
    page.wait_for_selector("#back-bar #im-back")
    assert page.locator("#hint-button").count() == 0  # a bot plays for her: no hint
    shot(page, "autoplay")
    seat0 = public(base, t["id"])["seats"][0]
    assert seat0["autoplay"] is True
    v = public(base, t["id"])["version"]
    deadline = time.monotonic() + 15
    while public(base, t["id"])["version"] == v:  # the takeover bot played her card
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page.click("#im-back")
    page.wait_for_selector("#back-bar", state="hidden")
    assert public(base, t["id"])["seats"][0]["autoplay"] is False


# ---- what the header and the status bar say ---------------------------------------------------


def test_header_names_the_seat_once_and_counts_spectators(base: str, browser: Any) -> None:
    t = create_table(base, "briscola", 2, [ANA, {"kind": "human"}], settings={"dwell": 0})
    pages = [new_page(browser) for _ in range(4)]
    try:
        ana, unnamed, watch1, watch2 = (pg for _c, pg, _e in pages)
        ana.goto(base + t["seats"][0]["join_url"])
        ana.wait_for_selector("#status[data-version]")
        assert ana.inner_text("#who") == "you are Ana (seat 1)"
        unnamed.goto(base + t["seats"][1]["join_url"])
        unnamed.wait_for_selector("#status[data-version]")
        assert unnamed.inner_text("#who") == "you are seat 2"
        watch1.goto(base + t["watch_url"])
        watch1.wait_for_selector("#status[data-version]")
        assert watch1.inner_text("#who") == "watching"
        assert watch1.locator("#crowd").count() == 0  # alone: no "1 watching"
        watch2.goto(base + t["watch_url"])
        watch2.wait_for_selector("#status[data-version]")
        assert watch2.inner_text("#crowd") == " · with 1 other spectator"
        # a watcher's arrival reaches the seats with the next state: here, a reconnect
        ana.reload()
        ana.wait_for_selector("#status[data-version]")
        assert ana.inner_text("#crowd") == " · 2 spectators"
        assert ana.inner_text("#who") == "you are Ana (seat 1)"
    finally:
        for context, _pg, errors in pages:
            context.close()
            assert not errors, errors


def test_offline_never_says_your_turn(tmp_path: Any, page: Page) -> None:
    with serve(tmp_path / "tables.sqlite3") as base:
        t = create_table(base, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 0})
        page.goto(base + t["seats"][0]["join_url"])
        page.wait_for_selector("#status[data-version]")
        assert wait_my_turn_or_end(page)
        assert "Your turn" in page.inner_text("#status")
    # the server is gone: the status bar says so, and stops claiming it is Ana's turn
    page.wait_for_selector("#conn[data-state='offline']", timeout=15_000)
    page.wait_for_selector("#status.offline")
    text = page.inner_text("#status")
    assert "Connection lost" in text and "Your turn" not in text
    shot(page, "offline")


# ---- a table the server will not play: the page says why and stops reconnecting -------------


def test_a_table_the_server_cannot_restore_says_so_and_stops(tmp_path: Any, page: Page) -> None:
    import sqlite3

    db = tmp_path / "tables.sqlite3"
    with serve(db) as url:
        t = create_table(url, "briscola", 2, [ANA, BOT], seed=5, settings={"dwell": 0})
    con = sqlite3.connect(db)  # a stored table edited by hand: the server quarantines it
    with con:
        con.execute(
            "UPDATE tables SET options = '{\"no_such_option\": 1}' WHERE id = ?", (t["id"],)
        )
    con.close()
    with serve(db) as url:
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(url + t["seats"][0]["join_url"])
        page.wait_for_selector("#message:not([hidden])")
        page.wait_for_function("document.getElementById('conn').dataset.state === 'offline'")
        assert "cannot be played" in page.inner_text("#message")
        page.wait_for_timeout(2500)  # a retry would come within 0.5-1 s
        assert len(sockets) == 1, sockets
