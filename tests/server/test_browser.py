"""The browser client against the real server, in Debian's Chromium (Playwright).

A `mazo serve` subprocess on a free port (temporary database, no bot delay, seeds
allowed) serves the lobby and the table pages; the tests click through them the way a
person would: create a table from the lobby form, follow the seat link, play a whole
Briscola match by clicking legal cards, watch as a spectator, switch the language, make
an Escoba capture choice and see the Envite bet buttons.  What the page shows is checked
against the server's public view (``GET /api/tables/{id}``).

The fixtures (``base``, ``browser``, ``page``) and helpers live in ``browser_fixtures.py``
(the fixtures are registered in ``conftest.py``).  Set ``MAZO_SHOTS=/some/dir`` to keep
screenshots of the pages along the way.
"""

from __future__ import annotations

import re
import time
import urllib.request
from typing import Any

import mazo

from .browser_fixtures import (
    Page,
    click_stable,
    create_table,
    public,
    require_chromium,
    shot,
    table_id,
    version,
    wait_my_turn_or_end,
    wait_version_after,
)

require_chromium()


# ---- Briscola: from the lobby form to the end of a whole match ---------------------------


def test_briscola_match_from_the_lobby(base: str, page: Page) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#game option[value=briscola]", state="attached")
    page.select_option("#game", "briscola")
    page.select_option("#players", "2")
    rows = page.locator(".seat-row")
    assert rows.count() == 2
    rows.nth(0).locator(".seat-name").fill("Ana")
    assert rows.nth(0).locator(".seat-kind").input_value() == "human"
    rows.nth(1).locator(".seat-kind").select_option("normal")
    page.select_option("#pace", "0")  # instant: a whole match, no pauses
    shot(page, "lobby-form")
    page.click("#create")
    page.wait_for_selector("#created a.join-link")
    assert page.locator("#created a.join-link").count() == 1
    watch = page.get_attribute("#created a.watch-link", "href")
    assert watch and watch.startswith("/table/")
    join = page.get_attribute("#created a.join-link", "href")
    assert join and "#token=" in join
    shot(page, "lobby-created")

    page.click("#go-seat")
    page.wait_for_url(re.compile(r"/table/[^#]+#token="))
    page.wait_for_selector("#status[data-version]")
    tid = table_id(page)
    assert page.get_attribute("#status", "data-seat") == "0"
    assert page.locator("#name-form").is_hidden()  # named in the lobby

    seen_stock = seen_scores_change = False
    history_rows = 0
    moves = 0
    while wait_my_turn_or_end(page):
        view = public(base, tid)
        obs = view["observation"]
        assert obs["to_act"] == 0
        # the face-up trump card, as a picture
        assert page.get_attribute("#trump [data-card]", "data-card") == obs["trump"]
        assert page.locator("#trump svg").count() == 1
        hand = page.locator("#hand [data-card]")
        assert hand.count() == obs["hand_sizes"][0]
        if obs["stock_size"] > 0:
            seen_stock = True
            assert hand.count() == 3
        # every history row of the server is on the page
        rows_now = page.locator("#history tbody tr").count()
        assert rows_now == len(view["history"])
        if rows_now > history_rows:
            history_rows = rows_now
            if any(view["observation"]["scores"]):
                seen_scores_change = True
            scores_text = page.inner_text("#scores")
            for s in obs["scores"]:
                assert str(s) in scores_text
        assert "Your turn" in page.inner_text("#status")
        legal = page.locator("#hand button.card.legal")
        assert legal.count() == hand.count()  # Briscola: any card may be played
        if moves == 5:
            shot(page, "briscola-playing")
        v = version(page)
        card = legal.first.get_attribute("data-card")
        click_stable(page, f"#hand button.card.legal[data-card='{card}']")
        wait_version_after(page, v)
        moves += 1
        assert moves < 200

    view = public(base, tid)
    obs = view["observation"]
    assert obs["match_over"]
    assert page.get_attribute("#status", "data-match-over") == "true"
    assert seen_stock and seen_scores_change
    assert moves >= 40  # at least two whole deals of 20 cards each
    assert page.locator("#history tbody tr").count() == len(view["history"]) >= 2
    winner = "Ana" if obs["winner"] == 0 else "Bot 2"
    assert winner in page.inner_text("#status")
    assert "Match over" in page.inner_text("#status")
    assert page.locator("#hand [data-card]").count() == 0
    shot(page, "briscola-end")


# ---- watching: card backs only; the language switch ---------------------------------------


def test_watcher_sees_backs_never_faces(base: str, browser: Any, page: Page) -> None:
    t = create_table(base, "briscola", 2, [{"kind": "human", "name": "Ana"}, {"kind": "human"}])
    page.goto(base + t["watch_url"])
    page.wait_for_selector("#status[data-version]")
    assert page.get_attribute("#status", "data-seat") == ""
    assert "watching" in page.inner_text("#subtitle")
    assert page.locator("#hand [data-card]").count() == 0
    assert page.locator(".seat .card.back").count() == 6
    assert page.locator(".seat [data-card]").count() == 0

    # the players' hands, seen through their own pages, never reach the watcher
    context = browser.new_context(locale="en-US")
    try:
        player = context.new_page()
        player.goto(base + t["seats"][0]["join_url"])
        player.wait_for_selector("#hand [data-card]")
        hand = [el.get_attribute("data-card") for el in player.locator("#hand [data-card]").all()]
        assert len(hand) == 3
    finally:
        context.close()
    on_watch = {el.get_attribute("data-card") for el in page.locator("[data-card]").all()}
    assert not on_watch & set(hand), on_watch & set(hand)
    html = page.content()
    assert not any(f'data-card="{c}"' in html for c in hand)
    assert page.locator("#actions button").count() == 0
    shot(page, "watcher")


def test_language_switch_changes_visible_text(base: str, page: Page) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    assert page.inner_text("h1") == "Card tables"
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('h1').textContent === 'Mesas de cartas'")
    assert page.inner_text("#create") == "Crear mesa"
    assert page.evaluate("document.documentElement.lang") == "es"

    t = create_table(
        base,
        "briscola",
        2,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}],
        seed=5,
    )
    page.goto(base + t["seats"][0]["join_url"])  # the choice is remembered
    page.wait_for_selector("#status[data-version]")
    assert page.input_value("#lang") == "es"
    wait_my_turn_or_end(page)
    assert "Tu turno" in page.inner_text("#status")
    assert page.inner_text("#hand-title") == "Tu mano"
    assert "Marcador" in page.inner_text("#scores")
    title = page.get_attribute("#hand [data-card]", "title") or ""
    assert " de " in title  # e.g. "siete de oros (7O)"
    shot(page, "table-es")
    page.select_option("#lang", "it")
    page.wait_for_function("document.getElementById('hand-title').textContent === 'La tua mano'")
    assert "Tocca a te" in page.inner_text("#status")
    page.select_option("#lang", "ja")
    page.wait_for_function("document.getElementById('hand-title').textContent === 'あなたの手札'")
    page.select_option("#lang", "en")
    page.wait_for_function("document.getElementById('hand-title').textContent === 'Your hand'")


def test_name_prompt_and_claiming_a_public_seat(base: str, page: Page) -> None:
    # a private table: seat 0 has a link but no name, so the table asks for one
    t = create_table(base, "briscola", 2, [{"kind": "human"}, {"kind": "bot", "level": "normal"}])
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#name-form:not([hidden])")
    page.fill("#name-input", "Luz")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#name-form", state="hidden")
    page.wait_for_function("document.getElementById('who').textContent.includes('Luz')")

    # a public table: unnamed seat 1 has no link; the lobby lists it with a join button
    t = create_table(
        base,
        "briscola",
        2,
        [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
        public=True,
        title="Claim me",
    )
    assert "join_url" not in t["seats"][1] and t["seats"][1]["claimable"]
    page.goto(base + "/")
    item = page.locator(f"#tables li[data-table='{t['id']}']")
    item.wait_for(timeout=15_000)
    assert "Claim me" in item.inner_text()
    page.click(f"#tables button.claim[data-table='{t['id']}'][data-seat='1']")
    page.fill(".claim-form .claim-name", "Mar")
    page.click(".claim-form button[type=submit]")
    page.wait_for_url(re.compile(r"/table/.+#token="))
    page.wait_for_selector("#status[data-version]")
    assert page.get_attribute("#status", "data-seat") == "1"
    assert "Mar" in page.inner_text("#who")
    assert page.locator("#name-form").is_hidden()


# ---- Escoba: a capture with a choice, made through the page --------------------------------


def escoba_seed_with_a_choice() -> tuple[int, str, list[str]]:
    game = mazo.load_game("escoba", players=2)
    for seed in range(1, 2000):
        state = game.new_match(seed=seed)
        if state.to_act != 0:
            continue
        obs = state.observation(0)
        for card in obs["hand"]:
            options = [a for a in obs["legal_actions"] if a.split("+")[0] == card]
            if len(options) >= 2:
                return seed, card, options
    raise AssertionError("no seed with an opening capture choice")


def test_escoba_capture_choice(base: str, page: Page) -> None:
    seed, card, options = escoba_seed_with_a_choice()
    t = create_table(
        base,
        "escoba",
        2,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}],
        seed=seed,
    )
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert wait_my_turn_or_end(page)
    table_before = public(base, t["id"])["observation"]["table"]
    assert {
        el.get_attribute("data-card") for el in page.locator("#trick [data-card]").all()
    } == set(table_before)
    assert "Your turn" in page.inner_text("#status")

    v = version(page)
    page.click(f"#hand button.card[data-card='{card}']")
    page.wait_for_selector("#choices:not([hidden])")
    choices = page.locator("#choices button.choice[data-action]")
    assert sorted(choices.evaluate_all("els => els.map(e => e.dataset.action)")) == sorted(options)
    assert version(page) == v  # nothing sent yet

    chosen = options[-1]
    taken = chosen.split("+")[1:]
    page.hover(f"#choices button.choice[data-action='{chosen}']")
    lit = {el.get_attribute("data-card") for el in page.locator("#trick .card.highlight").all()}
    assert lit == set(taken)
    shot(page, "escoba-choice")
    page.click(f"#choices button.choice[data-action='{chosen}']")
    wait_version_after(page, v)
    obs = public(base, t["id"])["observation"]
    assert set(taken) | {card} <= set(obs["captured"][0])
    page.wait_for_selector("#choices", state="hidden")
    last = page.inner_text("#last")
    assert "Ana" in last or "Bot" in last


# ---- Envite: bet buttons for the human, and a card the duty to follow forbids ---------------


def test_envite_bets_and_an_illegal_click(base: str, page: Page) -> None:
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "normal"}] * 3
    t = create_table(base, "envite", 4, seats, seed=11, settings={"dwell": 0})
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert page.locator("#vira [data-card]").count() == 1
    assert page.locator("#trump-order .chip").count() >= 10
    assert page.locator(".seat.team-0").count() == 2 and page.locator(".seat.team-1").count() == 2

    bets = {"envio", "accept", "fold", "raise"}
    saw_bet_button = proposed = illegal_checked = False
    for _ in range(80):
        if not wait_my_turn_or_end(page, timeout=30_000):
            break
        acts = set(
            page.locator("#actions button[data-action]").evaluate_all(
                "els => els.map(e => e.dataset.action)"
            )
        )
        if acts & bets:
            saw_bet_button = True
        v = version(page)
        phase = page.get_attribute("#status", "data-phase")
        if phase == "bet_pending":
            assert {"accept", "fold"} <= acts
            shot(page, "envite-answer")
            click_stable(page, "#actions button[data-action='accept']")
        elif phase == "tumbo_decision":
            click_stable(page, "#actions button[data-action='tumbo_play']")
        elif not proposed and "envio" in acts:
            proposed = True
            shot(page, "envite-bets")
            click_stable(page, "#actions button[data-action='envio']")
        else:
            illegal = page.locator("#hand button.card:not(.legal)")
            if (
                not illegal_checked
                and illegal.count()
                and page.locator("#hand button.card.legal").count()
            ):
                hand = page.locator("#hand [data-card]").evaluate_all(
                    "els => els.map(e => e.dataset.card)"
                )
                illegal.first.click()
                message = page.locator("#message")
                message.wait_for(state="visible")
                assert (
                    "must" in message.inner_text()
                )  # "You must follow suit ..." / "... play a trump"
                time.sleep(0.3)
                assert version(page) == v
                assert (
                    page.locator("#hand [data-card]").evaluate_all(
                        "els => els.map(e => e.dataset.card)"
                    )
                    == hand
                )
                shot(page, "envite-illegal")
                illegal_checked = True
            click_stable(page, "#hand button.card.legal")
        wait_version_after(page, v, timeout=30_000)
        if saw_bet_button and proposed and illegal_checked:
            break
    assert saw_bet_button, "the human never saw a bet button"
    assert proposed, "no envío proposed from the page"
    assert illegal_checked, "no card was ever forbidden by the duty to follow"
    assert page.locator("#panels .ladder li").count() == 5


def test_static_files_are_served(base: str) -> None:
    for path in (
        "/static/js/table.js",
        "/static/js/cards.js",
        "/static/i18n/ja.json",
        "/static/css/mazo.css",
    ):
        with urllib.request.urlopen(base + path, timeout=10) as res:
            assert res.status == 200


# ---- Trionfetti: the cutter's choice, a preset and a custom order built in the editor -------


def trionfetti_cutter_table(base: str, seed: int) -> Any:
    """Seat 0 (the human) cuts first: the first dealer is seat 1, the cutter its left (§2)."""
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "normal"}] * 3
    return create_table(base, "trionfetti", 4, seats, seed=seed, options={"first_dealer": 1})


def open_as_cutter(base: str, page: Page, t: Any) -> None:
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-version]")
    assert wait_my_turn_or_end(page)
    obs = public(base, t["id"])["observation"]
    assert (obs["phase"], obs["cutter"], obs["to_act"]) == ("ranking", 0, 0)
    assert page.get_attribute("#status", "data-phase") == "ranking"


def editor_levels(page: Page) -> list[tuple[str, str]]:
    rows = page.locator("#rank-levels li").evaluate_all(
        "els => els.map(e => [e.dataset.rank, e.dataset.suits])"
    )
    return [(r, s) for r, s in rows]


def test_trionfetti_preset_button(base: str, page: Page) -> None:
    t = trionfetti_cutter_table(base, seed=7)
    open_as_cutter(base, page, t)
    acts = page.locator("#actions button[data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)"
    )
    assert "keep" in acts and "rank bomba" in acts
    assert page.locator("#rank-editor summary").inner_text() == "Custom order…"
    v = version(page)
    click_stable(page, "#actions button[data-action='rank bomba']")
    wait_version_after(page, v)
    page.wait_for_selector("#rank-editor", state="detached")
    obs = public(base, t["id"])["observation"]
    assert obs["ranking_name"] == "bomba"
    assert obs["ranking"][0] == {"rank": "K", "suits": "E"}
    page.wait_for_function("document.querySelectorAll('#ranking .chip').length === 16")
    assert "Bomba" in page.inner_text("#panels")


def test_trionfetti_custom_ranking_editor(base: str, page: Page) -> None:
    t = trionfetti_cutter_table(base, seed=3)
    open_as_cutter(base, page, t)
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    default = [(r, "OCEB") for r in ranks]
    page.click("#rank-editor summary")
    page.wait_for_selector("#rank-levels li")
    assert editor_levels(page) == default  # the ranking in force
    assert page.locator("#rank-levels li").first.locator("button.move-up").is_disabled()

    # the king of swords gets a level of its own, just below the other kings ...
    v = version(page)
    page.click("#rank-levels li[data-rank='K'] button.suit-split[data-suit='E']")
    assert editor_levels(page)[:3] == [("K", "OCB"), ("K", "E"), ("Q", "OCEB")]
    assert page.evaluate("document.activeElement.dataset.key") == "up:K:E"
    # ... and goes on top from the keyboard: the focus follows the level
    page.keyboard.press("Enter")
    assert editor_levels(page)[:2] == [("K", "E"), ("K", "OCB")]
    assert page.evaluate("document.activeElement.dataset.key") == "down:K:E"
    assert "1 of 14" in page.inner_text("#rank-editor-status")
    # Alt+Down / Alt+Up in a row move it too
    page.keyboard.press("Alt+ArrowDown")
    assert editor_levels(page)[:2] == [("K", "OCB"), ("K", "E")]
    page.keyboard.press("Alt+ArrowUp")
    assert editor_levels(page)[:2] == [("K", "E"), ("K", "OCB")]
    # a join puts the card back with its rank, a split takes it out again
    page.click("#rank-levels li[data-suits='E'] button.join")
    assert editor_levels(page) == default
    page.click("#rank-levels li[data-rank='K'] button.suit-split[data-suit='E']")
    page.click("#rank-levels li[data-suits='E'] button.move-up")
    wanted = [("K", "E"), ("K", "OCB"), *default[1:]]
    assert editor_levels(page) == wanted
    assert page.locator("#rank-preview .chip").count() == 14
    assert version(page) == v  # nothing sent while building

    # the order survives redraws (another language), and every label follows it
    page.select_option("#lang", "it")
    page.wait_for_function(
        "document.querySelector('#rank-editor summary').textContent === 'Ordine personalizzato…'"
    )
    assert editor_levels(page) == wanted
    assert page.inner_text("#rank-send") == "Invia quest'ordine"
    page.select_option("#lang", "en")
    page.wait_for_function(
        "document.querySelector('#rank-editor summary').textContent === 'Custom order…'"
    )
    shot(page, "trionfetti-rank-editor")

    page.click("#rank-send")
    wait_version_after(page, v)
    page.wait_for_selector("#rank-editor", state="detached")
    obs = public(base, t["id"])["observation"]
    assert obs["ranking_name"] == "custom"
    assert obs["ranking"][:2] == [{"rank": "K", "suits": "E"}, {"rank": "K", "suits": "OCB"}]
    assert [(lv["rank"], lv["suits"]) for lv in obs["ranking"]] == wanted
    page.wait_for_function("document.querySelectorAll('#ranking .chip').length === 14")
    first = page.locator("#ranking .chip").first
    assert first.inner_text().strip() == "K" and "strong" in (first.get_attribute("class") or "")
    assert first.locator("svg").count() == 1  # one suit shown: swords
    assert "custom" in page.inner_text("#panels")
    shot(page, "trionfetti-custom-ranking")
