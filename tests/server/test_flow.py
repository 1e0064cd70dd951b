"""The flow of play in a real Chromium: pacing, deal results, the match summary and
"Play again", the turn timer's takeover and "I'm back", and the sound toggle.

The page's own clock measures the dwell: a MutationObserver logs every change of the trick
area, and the page itself polls ``GET /api/tables/{id}`` to learn when the bot's next lead
happened, so a slow test runner cannot make a trick look shorter or longer than it was.
"""

from __future__ import annotations

from typing import Any

from .browser_fixtures import (
    Page,
    click_stable,
    create_table,
    public,
    require_chromium,
    shot,
    version,
    wait_my_turn_or_end,
    wait_version_after,
)

require_chromium()

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
    # 1 s after the bot's lead (page time), the finished trick is still on the felt ...
    page.wait_for_function(f"performance.now() > {lead_at + 1000}")
    shown = page.locator("#trick [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert finished <= set(shown), (finished, shown)
    assert "done" in (page.get_attribute("#trick", "class") or "")
    gone = left_at(page, finished)
    assert gone is None or gone >= lead_at + 1000, (gone, lead_at)
    shot(page, "dwell-finished-trick")
    # ... then it is gathered and the lead is drawn
    page.wait_for_selector(f"#trick [data-card='{led}']", timeout=10_000)
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
    page.uncheck("#public")
    assert page.input_value("#turn-timer") == "0"
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
