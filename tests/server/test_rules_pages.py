"""The rules pages: one per game, in the four interface languages, with card pictures.

``GET /rules/{game}`` serves ``rules.html``; ``js/rules.js`` loads the fragment
``/static/rules/<game>.<lang>.html`` (``<section id=...><h2>...`` written for players),
builds the contents from its sections and draws each ``<span class="card-pic"
data-card="7O">`` with ``cards.js`` (a row of cards is written compactly as ``<div
class="card-row" data-cards="1O:11 3O!win 7C + 5B =_15">``, which rules.js expands into
those spans).  The fast tests read the fragments themselves (every
game and language present, well formed, real card codes of that game's pack, the same
sections and the same pictures in every language); the browser tests open every page in
every language in Chromium, follow the lobby's and the table's links, and switch the deck
style and the language on the page.

Set ``MAZO_SHOTS=/some/dir`` to keep screenshots at desktop and phone size.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mazo
from mazo.games import GAMES, list_games

from .browser_fixtures import create_table, new_page, shot

WEB = Path(mazo.__file__).parent / "web"
RULES = WEB / "rules"
LANGS = ("en", "es", "it", "ja")
CARD = re.compile(r"^(10|[1-9]|[JQK])[OCEB]$")
# the pack of each game: Trionfetti's has 8, 9 and 10, the others do not
PACK_RANKS = {
    "briscola": {"1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"},
    "escoba": {"1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"},
    "envite": {"1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"},
    "trionfetti": {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"},
}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"}
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


# a compact row of cards: data-cards="1O:11 3O!win 7C + 5B =_15" (code[!mark][:caption];
# any other word is an operator between the cards), expanded by rules.js
CARD_TOKEN = re.compile(r"^((?:10|[1-9]|[JQK])[OCEB])(?:!([\w-]+))?(?::(\S+))?$")


def row_cards(cards: str) -> list[tuple[str, str | None, str | None]]:
    """The (code, mark, caption) of each card of a data-cards row, in order."""
    return [m.groups() for m in map(CARD_TOKEN.match, cards.split()) if m]  # type: ignore[misc]


class Fragment(HTMLParser):
    """The sections of a rules fragment: id, heading, h3 count and card codes, in order;
    and a check that every element is closed where it should be."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[dict[str, Any]] = []
        self.cards: list[str] = []
        self.stack: list[str] = []
        self.errors: list[str] = []
        self._in_h2 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "section":
            if self.stack != ["section"]:
                self.errors.append(f"a section inside {self.stack[:-1]}")
            self.sections.append({"id": a.get("id"), "h2": "", "h3": 0, "cards": []})
        elif tag == "h2":
            self._in_h2 = True
        elif tag == "h3" and self.sections:
            self.sections[-1]["h3"] += 1
        codes: list[str] = []
        if "card-pic" in (a.get("class") or "").split():
            codes.append(a.get("data-card") or "")
        if "card-row" in (a.get("class") or "").split() and a.get("data-cards") is not None:
            codes += [c for c, _mark, _caption in row_cards(a.get("data-cards") or "")]
        for code in codes:
            self.cards.append(code)
            if self.sections:
                self.sections[-1]["cards"].append(code)
        if tag == "script" or any(k.startswith("on") for k in a):
            self.errors.append(f"script in a fragment: <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "h2":
            self._in_h2 = False

    def handle_data(self, data: str) -> None:
        if self._in_h2 and self.sections:
            self.sections[-1]["h2"] += data
        elif not self.stack and data.strip():
            self.errors.append(f"text outside the sections: {data.strip()[:40]!r}")


def parse(game: str, lang: str) -> Fragment:
    frag = Fragment()
    frag.feed((RULES / f"{game}.{lang}.html").read_text(encoding="utf-8"))
    frag.close()
    if frag.stack:
        frag.errors.append(f"unclosed {frag.stack}")
    return frag


def named_games(text: str) -> list[str]:
    """The games a script names in a string ("briscola" or 'briscola')."""
    return [g for g in list_games() if re.search(rf"[\"'`]{g}[\"'`]", text)]


# ---- the fragments, without a browser ---------------------------------------------------


def test_rules_js_takes_the_games_from_the_registry() -> None:
    # The list of games and their deck styles come from /api/games and each game's table
    # module, so a new game needs no edit in rules.js.
    text = (WEB / "js" / "rules.js").read_text(encoding="utf-8")
    assert "/api/games" in text
    assert named_games(text) == [], "rules.js names games: take them from /api/games"


def test_every_game_has_a_page_in_every_language() -> None:
    for game in list_games():
        for lang in LANGS:
            path = RULES / f"{game}.{lang}.html"
            assert path.is_file(), f"{game} has no rules in {lang} ({path.name})"
    names = {p.name for p in RULES.glob("*.html")}
    assert names == {f"{g}.{lang}.html" for g in list_games() for lang in LANGS}, names


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGS)
def test_fragment_is_well_formed(game: str, lang: str) -> None:
    frag = parse(game, lang)
    assert not frag.errors, f"{game}.{lang}: {frag.errors}"
    assert len(frag.sections) >= 8, f"{game}.{lang}: only {len(frag.sections)} sections"
    ids = [s["id"] for s in frag.sections]
    assert all(ids) and len(set(ids)) == len(ids), f"{game}.{lang}: section ids {ids}"
    assert {"overview", "cards", "options", "mazo"} <= set(ids), ids
    for s in frag.sections:
        assert s["h2"].strip(), f"{game}.{lang}: section {s['id']} has no heading"
    text = (RULES / f"{game}.{lang}.html").read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text, "a fragment loads nothing remote"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_card_codes_are_cards_of_the_game(game: str) -> None:
    for lang in LANGS:
        frag = parse(game, lang)
        assert frag.cards, f"{game}.{lang} shows no card"
        for code in frag.cards:
            assert CARD.match(code), f"{game}.{lang}: {code!r} is not a card code"
            assert code[:-1] in PACK_RANKS[game], f"{game}.{lang}: {code} is not in the pack"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_languages_have_the_same_sections_and_pictures(game: str) -> None:
    """Same section ids in the same order, the same number of sub-headings and the same
    card pictures in each section; and the text really is translated."""
    en = parse(game, "en")
    for lang in LANGS[1:]:
        other = parse(game, lang)
        assert [s["id"] for s in other.sections] == [s["id"] for s in en.sections], lang
        for a, b in zip(en.sections, other.sections, strict=True):
            assert a["h3"] == b["h3"], f"{game}.{lang} #{a['id']}: {b['h3']} h3, en has {a['h3']}"
            assert a["cards"] == b["cards"], f"{game}.{lang} #{a['id']}: other pictures"
        same = [
            a["h2"] for a, b in zip(en.sections, other.sections, strict=True) if a["h2"] == b["h2"]
        ]
        assert len(same) <= 1, f"{game}.{lang}: headings left in English: {same}"
        if lang == "ja":
            assert all(CJK.search(s["h2"]) for s in other.sections), f"{game}.ja headings"


def test_rules_route(client: TestClient) -> None:
    for game in list_games():
        res = client.get(f"/rules/{game}")
        assert res.status_code == 200, game
        assert 'src="/static/js/rules.js"' in res.text
        assert 'id="lang"' in res.text and 'id="deck-style"' in res.text
        frag = client.get(f"/static/rules/{game}.ja.html")
        assert frag.status_code == 200 and "<section" in frag.text
    res = client.get("/rules/poker")
    assert res.status_code == 404
    assert "briscola" in res.json()["error"]


def test_lobby_and_table_link_the_rules() -> None:
    lobby = (WEB / "index.html").read_text(encoding="utf-8")
    assert 'id="game-rules"' in lobby and 'id="rules-list"' in lobby
    table = (WEB / "table.html").read_text(encoding="utf-8")
    assert re.search(r'<a id="rules-link"[^>]*target="_blank"', table)


# ---- in Chromium ------------------------------------------------------------------------


def dictionary(lang: str) -> dict[str, str]:
    with open(WEB / "i18n" / f"{lang}.json", encoding="utf-8") as f:
        data: dict[str, str] = json.load(f)
    return data


def open_rules(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#rules section .card-pic svg")
    page.wait_for_function("!document.getElementById('rules').hasAttribute('aria-busy')")


def test_every_page_in_every_language(base: str, page: Any) -> None:
    for game in sorted(GAMES):
        for lang in LANGS:
            d = dictionary(lang)
            frag = parse(game, lang)
            open_rules(page, f"{base}/rules/{game}?lang={lang}")
            title = d["rules.title"].replace("{game}", d[f"game.{game}"])
            assert page.text_content("#rules-title") == title
            assert page.title().startswith(title)
            assert page.get_attribute("html", "lang") == lang
            assert page.eval_on_selector("#lang", "el => el.value") == lang
            headings = page.eval_on_selector_all(
                "#rules section > h2", "els => els.map(e => e.textContent)"
            )
            assert headings == [s["h2"] for s in frag.sections], (game, lang)
            toc = page.eval_on_selector_all("#toc a", "els => els.map(e => e.textContent)")
            assert toc == headings
            drawn = page.eval_on_selector_all(
                ".card-pic", "els => els.filter(e => e.querySelector('svg')).length"
            )
            assert drawn == len(frag.cards), (game, lang, drawn, len(frag.cards))
            # every picture is named in the page's language ("as de oros", "金貨のエース")
            first = frag.cards[0]
            name = d["card.name"].replace("{rank}", d["rank." + first[:-1]])
            name = name.replace("{suit}", d["suit." + first[-1]])
            label = page.get_attribute(f'.card-pic[data-card="{first}"] .card', "aria-label")
            assert label and name in label, (label, name)


def test_deck_style_and_language_switch(base: str, page: Any) -> None:
    open_rules(page, f"{base}/rules/envite?lang=en")
    assert page.eval_on_selector("#deck-style", "el => el.value") == "spanish"
    before = page.inner_html('.card-pic[data-card="2C"]')
    page.select_option("#deck-style", "italian")
    page.wait_for_function(
        "html => document.querySelector('.card-pic[data-card=\"2C\"]').innerHTML !== html",
        arg=before,
    )
    assert page.evaluate("localStorage.getItem('mazo.deck.envite')") == "italian"
    # the table page reads the same remembered style: reloading keeps it
    open_rules(page, f"{base}/rules/envite")
    assert page.eval_on_selector("#deck-style", "el => el.value") == "italian"
    page.select_option("#lang", "it")
    page.wait_for_function("document.querySelector('#rules').dataset.lang === 'it'")
    heads = page.eval_on_selector_all("#rules section > h2", "els => els.map(e => e.textContent)")
    assert heads == [s["h2"] for s in parse("envite", "it").sections]
    assert "lang=it" in page.url
    # the game tabs keep the language
    page.click('.rules-games a[data-game="trionfetti"]')
    page.wait_for_function("document.querySelector('#rules').dataset.game === 'trionfetti'")
    page.wait_for_selector("#rules section .card-pic svg")
    assert page.get_attribute("html", "lang") == "it"


def test_lobby_links(base: str, page: Any) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#rules-list a")
    links = page.eval_on_selector_all(
        "#rules-list a", "els => els.map(e => e.getAttribute('href'))"
    )
    assert sorted(links) == sorted(f"/rules/{g}" for g in list_games())
    assert (
        page.get_attribute("#game-rules", "href")
        == f"/rules/{page.eval_on_selector('#game', 'el => el.value')}"
    )
    assert page.get_attribute("#game-rules", "target") == "_blank"
    page.select_option("#game", "escoba")
    assert page.get_attribute("#game-rules", "href") == "/rules/escoba"
    page.click('#rules-list a[data-game="trionfetti"]')
    page.wait_for_url("**/rules/trionfetti*")
    page.wait_for_selector("#rules section .card-pic svg")


def test_table_header_links_the_rules(base: str, page: Any) -> None:
    t = create_table(
        base, "escoba", 2, [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "random"}]
    )
    page.goto(base + t["seats"][0]["join_url"])
    page.wait_for_selector("#rules-link:not([hidden])")
    assert page.get_attribute("#rules-link", "href") == "/rules/escoba"
    assert page.get_attribute("#rules-link", "target") == "_blank"
    with page.context.expect_page() as info:
        page.click("#rules-link")
    rules = info.value
    rules.wait_for_selector("#rules section .card-pic svg")
    assert rules.text_content("#rules-title") == "Rules of Escoba"
    rules.close()


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_pages_fit_the_screen(base: str, browser: Any, size: tuple[int, int]) -> None:
    width, height = size
    context, pg, errors = new_page(browser, width, height)
    try:
        for game in sorted(GAMES):
            for lang in ("en", "ja") if width > 500 else LANGS:
                open_rules(pg, f"{base}/rules/{game}?lang={lang}")
                scroll = pg.evaluate("document.documentElement.scrollWidth")
                assert scroll <= width, f"{game}.{lang} at {width}px scrolls sideways ({scroll}px)"
                shot(pg, f"rules-{game}-{lang}-{width}")
    finally:
        context.close()
    assert not errors, errors


def test_rules_pages_start_with_each_games_deck_style(base: str, page: Any) -> None:
    """A rules page starts in its game module's deck style (docs/web.md, Cards) until the
    player picks another, and its game tabs are the registry's games."""
    for game in list_games():
        module = (WEB / "js" / "games" / f"{game}.js").read_text(encoding="utf-8")
        style = re.search(r'deckStyle: "(\w+)"', module)
        assert style, game
        page.goto(f"{base}/")
        page.evaluate("localStorage.clear()")
        open_rules(page, f"{base}/rules/{game}?lang=en")
        assert page.eval_on_selector("#deck-style", "el => el.value") == style.group(1), game
        tabs = page.eval_on_selector_all(".rules-games a", "els => els.map(e => e.dataset.game)")
        assert tabs == list_games()


# ---- compact rows of cards (data-cards) -------------------------------------------------

ROW_TAG = re.compile(r'<div class="(card-row[^"]*)"([^>]*)>(.*?)</div>', re.S)
OPS = {"+", "…", "=_15"}


def fragment_rows(game: str, lang: str) -> list[list[str]]:
    """Each card row of a fragment as rules.js should draw it: "label:...", "op:...",
    "card:code:mark:caption" items, read from its data-label and data-cards."""
    rows = []
    for m in ROW_TAG.finditer((RULES / f"{game}.{lang}.html").read_text(encoding="utf-8")):
        attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', m.group(2)))
        items = [f"label:{attrs['label']}"] if "label" in attrs else []
        for token in attrs.get("cards", "").split():
            card = CARD_TOKEN.match(token)
            if card:
                code, mark, caption = card.groups()
                items.append(f"card:{code}:{mark or ''}:{caption or ''}")
            else:
                items.append("op:" + token.replace("_", " "))
        rows.append(items)
    return rows


@pytest.mark.parametrize("game", sorted(GAMES))
def test_card_rows_are_written_compactly(game: str) -> None:
    # A row of cards carries its cards in data-cards; the spans are rules.js's to write
    # (lone pictures inside a sentence or a table cell stay spans).
    for lang in LANGS:
        text = (RULES / f"{game}.{lang}.html").read_text(encoding="utf-8")
        for m in ROW_TAG.finditer(text):
            assert "data-cards=" in m.group(2), f"{game}.{lang}: a row without data-cards"
            assert m.group(3).strip() == "", f"{game}.{lang}: a row written out: {m.group(0)}"
            attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', m.group(2)))
            for token in attrs["cards"].split():
                assert CARD_TOKEN.match(token) or token in OPS, f"{game}.{lang}: {token!r}"
        assert fragment_rows(game, lang), f"{game}.{lang} has no row of cards"


# what the page drew in each row: the same items, read from the DOM
DRAWN_ROWS = """els => els.map(row => [...row.children].map(el => {
  if (el.classList.contains('row-label')) return 'label:' + el.textContent;
  if (el.classList.contains('op')) return 'op:' + el.textContent;
  const card = el.querySelector('.card');
  const mark = [...(card ? card.classList : [])].find(c => c.startsWith('rules-mark-'));
  const cap = el.querySelector('.card-caption');
  return ['card', el.dataset.card, mark ? mark.slice(11) : '', cap ? cap.textContent : '',
          card && card.querySelector('svg') ? 'drawn' : 'empty'].join(':');
}))"""


@pytest.mark.parametrize("game", ["briscola", "escoba", "envite"])
def test_compact_rows_draw_the_same_cards(base: str, page: Any, game: str) -> None:
    """Each data-cards row becomes the spans it replaces: one drawn .card-pic per card with
    its data-card, caption and mark, the operators and the label, in order; and a deck
    style switch redraws them."""
    for lang in ("en", "ja"):
        open_rules(page, f"{base}/rules/{game}?lang={lang}")
        drawn = page.eval_on_selector_all("#rules .card-row", DRAWN_ROWS)
        want = [
            [i + ":drawn" if i.startswith("card:") else i for i in r]
            for r in fragment_rows(game, lang)
        ]
        assert drawn == want, (game, lang)
        assert page.eval_on_selector_all("#rules .card-row[data-cards]", "els => els.length") == 0
    other = (
        "italian"
        if page.eval_on_selector("#deck-style", "el => el.value") == "spanish"
        else "spanish"
    )
    page.select_option("#deck-style", other)
    assert page.eval_on_selector_all("#rules .card-row", DRAWN_ROWS) == want
