"""The game modules' panels in a real Chromium: histories drawn as card pictures, never as
raw card codes, in English and Italian; the lobby's named rankings and 1..n dealer seats;
Trionfetti's "shown by your partner" panel listing each card once; Envite's note on who
may raise.

Each test plays into a game from the page (clicking legal cards, answering bets) far
enough to have histories, then reads the panels.  Tables are made through the API with
``"settings": {"dwell": 0}`` so no pause slows the bots down.

Set ``MAZO_SHOTS=/some/dir`` to keep screenshots of the panels (1366x900 and 390x844).
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from typing import Any

from .browser_fixtures import (
    SHOTS,
    click_stable,
    create_table,
    new_page,
    public,
    require_chromium,
    shot,
    version,
    wait_my_turn_or_end,
    wait_version_after,
)

require_chromium()

Page = Any

# a card code as the engine writes it: what no panel may show as text
CODE = re.compile(r"\b(10|[1-9JQK])[OCEB]\b")
BOTS3 = [{"kind": "bot", "level": "normal"}] * 3
FAST = {"dwell": 0}


def panel_text(page: Page) -> str:
    """The side panels, the last move and the message line, as the user reads them."""
    return "\n".join(page.inner_text(sel) for sel in ("#panels", "#last", "#history"))


def assert_no_codes(page: Page, where: str) -> None:
    text = panel_text(page)
    found = CODE.findall(text)
    assert not CODE.search(text), f"{where}: raw card codes {found} in\n{text}"


def pick(page: Page, selector: str, value: str) -> None:
    """Choose in a select that may sit in a closed menu (the table's settings on phones)."""
    page.eval_on_selector(
        selector,
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('change', {bubbles: true})); }",
        value,
    )


def set_lang(page: Page, lang: str, hand_title: str) -> None:
    pick(page, "#lang", lang)
    page.wait_for_function(
        f"document.getElementById('hand-title').textContent === {json.dumps(hand_title)}"
    )


def history_cards(page: Page, selector: str) -> list[str]:
    cards: list[str] = page.locator(f"{selector} [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def play_first_legal(page: Page) -> None:
    v = version(page)
    click_stable(page, "#hand button.card.legal")
    wait_version_after(page, v, timeout=30_000)


def settled_public(page: Page, base: str, tid: str, timeout: float = 30.0) -> dict[str, Any]:
    """The table's public view at the version the page shows. Bots go on playing after
    a click, so a view fetched once may be newer than the page (a trick the page has not
    drawn yet) or the page newer than it: fetch until the two name the same version."""
    deadline = time.monotonic() + timeout
    while True:
        view = public(base, tid)
        shown = version(page)
        if shown == view["version"]:
            return view
        if time.monotonic() > deadline:
            raise AssertionError(
                f"the page shows version {shown}, the table is at {view['version']}"
            )
        if shown < view["version"]:
            wait_version_after(page, view["version"] - 1, timeout=timeout * 1000)
        else:
            time.sleep(0.05)  # the page moved on while the view was fetched: fetch again


def shots(page: Page, name: str) -> None:
    """Screenshots at the desktop and the phone size (only with MAZO_SHOTS)."""
    if not SHOTS:
        return
    shot(page, f"{name}-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)  # let the page lay itself out again
    shot(page, f"{name}-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.wait_for_timeout(300)


# ---- Briscola: the tricks of the deal --------------------------------------------------


def test_briscola_trick_history_is_pictures(base: str, page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}]
    t = create_table(base, "briscola", 2, seats, seed=4, settings=FAST)
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    for _ in range(6):
        assert wait_my_turn_or_end(page)
        play_first_legal(page)
    obs = public(base, t["id"])["observation"]
    tricks = obs["tricks"]
    assert len(tricks) >= 5
    page.wait_for_selector("#trick-history li")
    rows = page.locator("#trick-history li")
    assert rows.count() == len(tricks)
    # latest first: each row is the trick's cards as pictures, in playing order
    for i, trick in enumerate(reversed(tricks)):
        row = rows.nth(i)
        assert history_cards(page, f"#trick-history li:nth-child({i + 1})") == trick["cards"]
        assert row.locator("svg").count() == len(trick["cards"])
        assert "takes it" in row.inner_text()
    assert_no_codes(page, "briscola en")
    shots(page, "briscola-panels-en")
    set_lang(page, "it", "La tua mano")
    assert "la prende" in page.inner_text("#trick-history")
    assert history_cards(page, "#trick-history li:first-child") == tricks[-1]["cards"]
    assert_no_codes(page, "briscola it")
    # the Italian deck is the default here: a card's name is Italian, never its code
    title = page.get_attribute("#trick-history [data-card]", "title") or ""
    assert " di " in title and not CODE.search(title), title
    shots(page, "briscola-panels-it")


# ---- Escoba: the plays of the hand, with what each took ---------------------------------


def test_escoba_plays_of_the_hand_are_pictures(base: str, page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}]
    t = create_table(base, "escoba", 2, seats, seed=6, settings=FAST)
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    captured = False
    for _ in range(10):
        assert wait_my_turn_or_end(page)
        v = version(page)
        click_stable(page, "#hand button.card.legal")
        choice = page.locator("#choices button.choice[data-action]")
        if page.locator("#choices").is_visible() and choice.count():
            choice.first.click()
        wait_version_after(page, v, timeout=30_000)
        hist = public(base, t["id"])["observation"]["history"]
        captured = captured or any(e["captured"] for e in hist)
        if captured and len(hist) >= 6:
            break
    hist = public(base, t["id"])["observation"]["history"]
    assert captured, "no capture in ten plays"
    page.wait_for_selector("#play-history li")
    rows = page.locator("#play-history li")
    assert rows.count() == min(12, len(hist))
    for i, e in enumerate(list(reversed(hist))[: rows.count()]):
        assert history_cards(page, f"#play-history li:nth-child({i + 1})") == [
            e["card"],
            *e["captured"],
        ]
    # the word the table uses for the unit of scoring: "Hand" everywhere
    assert "Hand" in page.inner_text("#centre-info")
    assert "deal" not in page.inner_text("#centre-info").lower()
    heading = "document.getElementById('history').parentElement.querySelector('h2').textContent"
    assert page.evaluate(heading) == "Hands"
    assert_no_codes(page, "escoba en")
    shots(page, "escoba-panels-en")
    set_lang(page, "it", "La tua mano")
    assert "prende" in page.inner_text("#play-history")
    assert_no_codes(page, "escoba it")
    shots(page, "escoba-panels-it")


# ---- Envite: the tricks of the deal, the trump order, who may raise ----------------------


def raise_note_ok(page: Page, base: str, tid: str) -> None:
    """The ladder's note names the team that may raise now (rules §9.2)."""
    obs = public(base, tid)["observation"]
    bet = obs["bet"]
    note = page.locator("#raise-note")
    names = ["Blue team", "Red team"]
    if bet["pending"]:
        text = note.inner_text()
        answering = 1 - bet["pending"]["team"]
        assert names[answering] in text and names[1 - answering] not in text, text
    elif bet["level"] < 4 and bet["raise_right"] is not None:
        text = note.inner_text()
        assert names[bet["raise_right"]] in text and names[1 - bet["raise_right"]] not in text


def test_envite_histories_and_the_raise_note(base: str, page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    seats = [{"kind": "human", "name": "Ana"}, *BOTS3]
    t = create_table(base, "envite", 4, seats, seed=11, settings=FAST)
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    saw_tricks = saw_pending = False
    for _ in range(40):
        if not wait_my_turn_or_end(page, timeout=30_000):
            break
        raise_note_ok(page, base, t["id"])
        acts = page.locator("#actions button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
        phase = page.get_attribute("#status", "data-phase")
        v = version(page)
        if phase == "bet_pending":
            saw_pending = True
            if "raise" in acts:
                assert "Blue team" in page.inner_text("#raise-note")
                shots(page, "envite-raise-en")
            click_stable(page, "#actions button[data-action='accept']")
        elif phase == "tumbo_decision":
            click_stable(page, "#actions button[data-action='tumbo_play']")
        elif "envio" in acts and not saw_pending:
            click_stable(page, "#actions button[data-action='envio']")
        else:
            click_stable(page, "#hand button.card.legal")
        wait_version_after(page, v, timeout=30_000)
        obs = settled_public(page, base, t["id"])["observation"]
        if obs["tricks"]:
            saw_tricks = True
            page.wait_for_selector("#trick-history li", timeout=30_000)
            assert (
                history_cards(page, "#trick-history li:first-child") == obs["tricks"][-1]["cards"]
            )
            assert_no_codes(page, "envite en")
            if len(obs["tricks"]) >= 2 and saw_pending:
                break
    assert saw_tricks and saw_pending
    assert page.locator("#trump-order .chip").count() >= 10
    assert not CODE.search(page.inner_text("#trump-order"))
    shots(page, "envite-panels-en")
    set_lang(page, "it", "La tua mano")
    assert_no_codes(page, "envite it")
    shots(page, "envite-panels-it")


# ---- Trionfetti: the tricks of the smazzata, and each shown card once --------------------


def test_trionfetti_histories_and_partner_cards_once(base: str, browser: Any) -> None:
    context, page, errors = new_page(browser, 1366, 900)
    try:
        frames: list[str] = []
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived", lambda p: frames.append(p if isinstance(p, str) else "{}")
            ),
        )
        seats = [{"kind": "human", "name": "Ana"}, *BOTS3]
        t = create_table(
            base, "trionfetti", 4, seats, seed=5, settings=FAST, options={"first_dealer": 1}
        )
        page.goto(base + t["seats"][0]["join_url"])
        page.wait_for_selector("#status[data-version]")
        twice = False
        checked = 0
        for _ in range(80):
            if not wait_my_turn_or_end(page, timeout=30_000):
                break
            acts = page.locator("#actions button[data-action]").evaluate_all(
                "els => els.map(e => e.dataset.action)"
            )
            v = version(page)
            if "keep" in acts and "rank bomba" in acts:
                # the presets' buttons: names and orders as the cards show them
                bomba = page.locator("#actions button[data-action='rank bomba']")
                assert bomba.inner_text().startswith("Bomba")
                label = bomba.get_attribute("aria-label") or ""
                assert "K (swords)" in label and not CODE.search(label), label
                assert not CODE.search(bomba.inner_text()), bomba.inner_text()
                assert bomba.locator("svg").count() == 3 + 3 * 3  # KE QE JE, K Q J (BCO)
                shots(page, "trionfetti-ranking-en")
            if "keep" in acts:
                click_stable(page, "#actions button[data-action='keep']")
            elif "accept" in acts:
                click_stable(page, "#actions button[data-action='accept']")
            elif "vega" in acts:
                click_stable(page, "#actions button[data-action='vega']")
            else:
                click_stable(page, "#hand button.card.legal")
            wait_version_after(page, v, timeout=30_000)
            # what the page shows now, and the observation it drew that from
            seen = page.evaluate(
                """() => ({
                    version: Number(document.getElementById('status').dataset.version),
                    cards: [...document.querySelectorAll('#partner-shown [data-card]')]
                        .map(e => e.dataset.card),
                    tricks: [...(document.querySelector('#trick-history li.trick-line')
                        ?.querySelectorAll('[data-card]') || [])].map(e => e.dataset.card),
                })"""
            )
            states = [m for m in map(json.loads, frames) if m.get("type") == "state"]
            obs = next(m for m in states if m["version"] == seen["version"])["observation"]
            shown = Counter(
                c
                for e in obs["smazzata_log"]
                if e["type"] == "share" and e["seat"] == 2
                for c in e["cards"]
            )
            on_page = seen["cards"]
            assert len(on_page) == len(set(on_page)), f"a shown card listed twice: {on_page}"
            assert set(on_page) == set(shown), (on_page, shown)
            if shown:
                checked += 1
            if any(n > 1 for n in shown.values()):
                twice = True
            tricks = [e for e in obs["smazzata_log"] if e["type"] == "trick"]
            if tricks:
                assert seen["tricks"] == tricks[-1]["cards"]
            assert_no_codes(page, "trionfetti en")
            if twice and checked >= 3 and len(tricks) >= 3:
                break
        assert twice, "no card was shown twice by the partner: the check proved nothing"
        shots(page, "trionfetti-panels-en")
        set_lang(page, "it", "La tua mano")
        assert_no_codes(page, "trionfetti it")
        assert "la prende" in page.inner_text("#trick-history")
        shots(page, "trionfetti-panels-it")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


# ---- the lobby: named starting rankings, dealers counted from 1 --------------------------


def test_lobby_ranking_select_and_dealer_seats(base: str, page: Page) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=trionfetti]", state="attached")
    page.select_option("#game", "trionfetti")
    page.evaluate("document.getElementById('options-box').open = true")  # "Game options"
    ranking = page.locator("#opt-initial_ranking")
    assert ranking.evaluate("e => e.tagName") == "SELECT"
    values = ranking.locator("option").evaluate_all("els => els.map(e => JSON.parse(e.value))")
    assert values == [
        "piu_ponto_e_piu_figure",
        "manco_ponto",
        "piu_ponto",
        "manco_e_cavalli",
        "bomba",
    ]
    labels = ranking.locator("option").evaluate_all("els => els.map(e => e.textContent)")
    assert "Bomba" in labels and "Più ponto e più figure" in labels
    assert ranking.input_value() == json.dumps("piu_ponto_e_piu_figure")
    dealer = page.locator("#opt-first_dealer")
    assert dealer.evaluate("e => e.tagName") == "SELECT"
    labels = dealer.locator("option").evaluate_all("els => els.map(e => e.textContent)")
    assert labels == ["Drawn by cards", "Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    page.select_option("#opt-initial_ranking", label="Bomba")
    page.select_option("#opt-first_dealer", label="Seat 2")
    shot(page, "lobby-trionfetti-options")
    page.click("#create")
    page.wait_for_selector("#created a.watch-link")
    tid = page.get_attribute("#created a.watch-link", "href").split("/table/")[1]
    view = public(base, tid)
    assert view["options"] == {"initial_ranking": "bomba", "first_dealer": 1}
    assert view["observation"]["dealer"] == 1  # "Seat 2", the engine's seat 1
    assert view["observation"]["ranking_name"] == "bomba"

    # Envite: the seats follow the player count; the default is drawn at random
    page.select_option("#game", "envite")
    page.select_option("#players", "6")
    labels = page.locator("#opt-first_dealer option").evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    assert labels == ["Random", *[f"Seat {n}" for n in range(1, 7)]]
    page.select_option("#opt-first_dealer", label="Seat 6")
    page.select_option("#players", "4")  # seat 6 is gone: back to the default
    assert page.locator("#opt-first_dealer option").count() == 5
    page.select_option("#opt-first_dealer", label="Seat 4")
    page.select_option("#lang", "it")
    page.wait_for_function(
        "document.querySelector('#opt-first_dealer option').textContent === 'A caso'"
    )
    assert page.locator("#opt-first_dealer").input_value() == "3"  # kept across languages
    first = page.get_attribute("#created a.watch-link", "href")
    page.click("#create")
    # The box still shows the first table until the second answer arrives: wait for it.
    page.wait_for_function(
        "old => { const a = document.querySelector('#created a.watch-link');"
        " return a && a.getAttribute('href') !== old; }",
        arg=first,
    )
    tid = page.get_attribute("#created a.watch-link", "href").split("/table/")[1]
    assert public(base, tid)["options"] == {"first_dealer": 3}
