"""The table page's layout in a real Chromium: nothing overlaps, phones see the game at once.

For every game and player count the server offers (``GET /api/games``), at a laptop size
(1366x900), a phone size (390x844) and a phone held sideways (844x390), a table is opened
as seat 0 with bots in the other seats, set up (first dealer, seed) so that seat 0 plays
last in the first trick: the trick holds as many played cards as it can when it is seat
0's turn.  The bounding boxes of the seats, the played cards and their captions, the
centre pieces (trump, vira, bet label, stock...), the trick caption, the status line, the
hand and the action buttons are read from the DOM, and no two of them may overlap, nor
stick out of the window sideways.  On a phone (either way up) the hand, the trick area
(Escoba's table cards) and the action buttons must lie within the first screen, and the
lobby must not scroll sideways.

Set ``MAZO_SHOTS=/some/dir`` to keep screenshots (whole page, and the first screen).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from .browser_fixtures import (
    SHOTS,
    Page,
    create_table,
    get_json,
    new_page,
    require_chromium,
    wait_my_turn_or_end,
)

require_chromium()

SIZES = {"desktop": (1366, 900), "phone": (390, 844), "landscape": (844, 390)}

# (game, players) -> (seed, options): seat 0 deals, so it plays last in the first trick
# (Trionfetti: seat 0 deals and seat 3 cuts; Escoba: seeds that leave the most cards on
# the table when seat 0 first plays).
SETUPS: dict[tuple[str, int], tuple[int, dict[str, Any]]] = {
    ("briscola", 2): (1, {"first_dealer": 0}),
    ("briscola", 3): (1, {"first_dealer": 0}),
    ("briscola", 4): (1, {"first_dealer": 0}),
    ("briscola", 6): (1, {"first_dealer": 0}),
    ("escoba", 2): (10, {"first_dealer": 0}),
    ("escoba", 3): (10, {"first_dealer": 0}),
    ("escoba", 4): (32, {"first_dealer": 0}),
    ("envite", 4): (1, {"first_dealer": 0}),
    ("envite", 6): (1, {"first_dealer": 0}),
    ("envite", 8): (1, {"first_dealer": 0}),
    ("envite", 10): (1, {"first_dealer": 0}),
    ("envite", 12): (1, {"first_dealer": 0}),
    ("trionfetti", 4): (1, {"first_dealer": 0}),
}

# Every box the layout must keep apart, as [{name, x, y, w, h}] in page coordinates.
MEASURE = """() => {
  const out = [];
  const add = (el, name) => {
    if (!el || el.hidden || el.closest('[hidden]')) return;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    out.push({name, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
  };
  for (const el of document.querySelectorAll('#seats .seat'))
    add(el, `seat ${el.dataset.seat} (${el.querySelector('.seat-name')?.textContent})`);
  document.querySelectorAll('#trick figure').forEach((f, i) => {
    const card = f.querySelector('.card');
    add(card, `played card ${i} (${card?.dataset.card})`);
    const caption = f.querySelector('figcaption');
    add(caption, `caption ${i} (${caption?.textContent})`);
  });
  add(document.querySelector('#trick > .empty'), 'trick: empty text');
  document.querySelectorAll('#centre-info > *').forEach((el, i) =>
    add(el, `centre piece ${i} (${el.id || el.textContent.slice(0, 30)})`));
  const cap = document.getElementById('trick-caption');
  if (cap && cap.textContent.trim()) add(cap, 'trick caption');
  for (const id of ['status', 'message', 'hand', 'actions', 'choices'])
    add(document.getElementById(id), '#' + id);
  return out;
}"""

# where the hand, the trick area and the action buttons end (page coordinates), or null
BOTTOMS = """() => {
  const bottom = (id) => {
    const el = document.getElementById(id);
    if (!el || el.hidden) return null;
    const r = el.getBoundingClientRect();
    return r.height < 1 ? null : r.bottom + scrollY;
  };
  return {hand: bottom('hand'), trick: bottom('trick'), actions: bottom('actions')};
}"""

# wait for finite animations and transitions (plays sliding in) to come to rest
SETTLED = """() => document.getAnimations().every(a =>
  a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)"""


def overlaps(boxes: list[dict[str, Any]], slack: float = 1.0) -> list[str]:
    """Every pair of boxes that overlap by more than `slack` px both ways."""
    bad = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            hgt = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if w > slack and hgt > slack:
                bad.append(f"{a['name']} x {b['name']} ({w:.0f}x{hgt:.0f} px)")
    return bad


def sideways(boxes: list[dict[str, Any]], width: int) -> list[str]:
    """Boxes that stick out of the window on the left or the right."""
    return [
        f"{b['name']} spans x={b['x']:.0f}..{b['x'] + b['w']:.0f}"
        for b in boxes
        if b["x"] < -1 or b["x"] + b["w"] > width + 1
    ]


def open_table(base: str, game: str, players: int) -> Any:
    seed, options = SETUPS[(game, players)]
    seats = [{"kind": "human", "name": "Ana"}]
    seats += [{"kind": "bot", "level": "normal"}] * (players - 1)
    return create_table(
        base, game, players, seats, seed=seed, options=options, settings={"dwell": 0}
    )


def save_shots(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-screen.png"))


def test_every_offered_configuration_is_laid_out(base: str) -> None:
    offered = {(g["name"], n) for g in get_json(base + "/api/games")["games"] for n in g["players"]}
    assert offered == set(SETUPS), f"add a setup for {offered - set(SETUPS)}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "players"), list(SETUPS))
def test_table_layout(base: str, browser: Any, game: str, players: int, size: str) -> None:
    width, height = SIZES[size]
    t = open_table(base, game, players)
    context, page, errors = new_page(browser, width, height)
    try:
        page.goto(base + t["seats"][0]["join_url"])
        page.wait_for_selector("#status[data-version]")
        assert wait_my_turn_or_end(page, timeout=30_000), "the match ended before seat 0 played"
        page.wait_for_selector("#hand [data-card]")
        with contextlib.suppress(Exception):  # an endless animation: measure anyway
            page.wait_for_function(SETTLED, timeout=5_000)
        save_shots(page, f"{game}-{players}-{size}")
        boxes = page.evaluate(MEASURE)
        names = [b["name"] for b in boxes]
        assert sum(n.startswith("seat ") for n in names) == players, names
        count = int(page.get_attribute("#trick", "data-count") or 0)
        problems = overlaps(boxes) + sideways(boxes, width)
        assert not problems, (
            f"{game} {players}p at {width}x{height} (trick of {count}): " + "; ".join(problems)
        )
        if size in ("phone", "landscape"):
            bottoms = page.evaluate(BOTTOMS)
            below = {k: v for k, v in bottoms.items() if v is not None and v > height}
            assert not below, f"{game} {players}p: below the first screen ({height}): {below}"
            assert bottoms["hand"] is not None and bottoms["trick"] is not None
        assert not errors, f"JavaScript errors: {errors}"
    finally:
        context.close()


def test_lobby_does_not_scroll_sideways_on_a_phone(base: str, browser: Any) -> None:
    context, page, errors = new_page(browser, *SIZES["phone"])
    try:
        page.goto(base + "/")
        page.wait_for_selector("#game option[value=briscola]", state="attached")
        wide = "document.documentElement.scrollWidth - innerWidth"
        assert page.evaluate(wide) <= 0, "the lobby scrolls sideways"
        games = page.locator("#game option").evaluate_all("els => els.map(e => e.value)")
        for game in games:
            page.select_option("#game", game)
            page.evaluate("document.getElementById('options-box').open = true")
            assert page.evaluate(wide) <= 0, f"the lobby scrolls sideways with {game}'s form"
        page.select_option("#game", "briscola")
        page.select_option("#players", "2")
        page.locator(".seat-row").nth(0).locator(".seat-name").fill("Ana")
        page.click("#create")
        page.wait_for_selector("#created a.join-link")
        save_shots(page, "lobby-phone")
        assert page.evaluate(wide) <= 0, "the lobby scrolls sideways once the links are shown"
        assert not errors, f"JavaScript errors: {errors}"
    finally:
        context.close()
