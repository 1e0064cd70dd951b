"""The browser client's static files, checked without a browser.

The four dictionaries must agree (same keys, no empty text, the same placeholders), every
file a page or module references must exist, every key the code asks for must be in the
dictionaries, and every game must have its rendering module.  Keys built at run time
(``t("act." + word)``) are checked from the engine itself: each game's action strings,
phases and option values map to keys by the rules in docs/web.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mazo
from mazo.games import GAMES

WEB = Path(mazo.__file__).parent / "web"
LANGS = ("en", "es", "it", "ja")
CARD = re.compile(r"^(10|[1-9]|[JQK])[OCEB]$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict[str, str]:
    with open(WEB / "i18n" / f"{lang}.json", encoding="utf-8") as f:
        data = json.load(f)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def dicts() -> dict[str, dict[str, str]]:
    return {lang: load(lang) for lang in LANGS}


def js_files() -> list[Path]:
    return sorted((WEB / "js").rglob("*.js"))


def html_files() -> list[Path]:
    return sorted(WEB.glob("*.html"))


def test_dictionaries_have_the_same_keys(dicts: dict[str, dict[str, str]]) -> None:
    keys = set(dicts["en"])
    for lang, d in dicts.items():
        assert set(d) == keys, (
            f"{lang}: missing {sorted(keys - set(d))}, extra {sorted(set(d) - keys)}"
        )


def test_dictionaries_have_no_empty_text(dicts: dict[str, dict[str, str]]) -> None:
    for lang, d in dicts.items():
        empty = [k for k, v in d.items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"{lang}: empty values for {empty}"


def test_placeholders_match_across_languages(dicts: dict[str, dict[str, str]]) -> None:
    for key, text in dicts["en"].items():
        want = set(PLACEHOLDER.findall(text))
        for lang in LANGS[1:]:
            got = set(PLACEHOLDER.findall(dicts[lang][key]))
            assert got == want, f"{lang} {key}: placeholders {got} != {want}"


def test_language_names_are_in_every_dictionary(dicts: dict[str, dict[str, str]]) -> None:
    for d in dicts.values():
        for lang in LANGS:
            assert f"lang.name.{lang}" in d


def test_html_references_exist() -> None:
    for page in html_files():
        text = page.read_text(encoding="utf-8")
        refs = re.findall(r'(?:src|href)="(/static/[^"#?]+)"', text)
        assert refs, f"{page.name} references no static file"
        for ref in refs:
            assert (WEB / ref.removeprefix("/static/")).is_file(), f"{page.name}: {ref} is missing"
        assert "http://" not in text and "https://" not in text, (
            f"{page.name} loads something remote"
        )


def test_js_imports_exist() -> None:
    for path in js_files():
        text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in text and "https://" not in text, f"{path.name} names a remote URL"
        for ref in re.findall(r'from\s+"([^"]+)"', text):
            assert ref.startswith("."), f"{path.name} imports {ref!r}: only relative modules"
            assert (path.parent / ref).resolve().is_file(), f"{path.name}: {ref} is missing"


def test_required_dom_hooks() -> None:
    table = (WEB / "table.html").read_text(encoding="utf-8")
    for hook in ("hand", "trick", "scores", "actions", "message", "status", "history", "lang"):
        assert f'id="{hook}"' in table, f"table.html lacks #{hook}"
    lobby = (WEB / "index.html").read_text(encoding="utf-8")
    for hook in ("create-form", "game", "players", "create", "created", "lang"):
        assert f'id="{hook}"' in lobby, f"index.html lacks #{hook}"


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in js_files():
        # a literal key: t("key") or t("key", ...); t("prefix." + x) is checked below
        keys.update(re.findall(r'\bt\(\s*"([^"]+)"\s*[,)]', path.read_text(encoding="utf-8")))
    for page in html_files():
        keys.update(
            re.findall(r'data-i18n(?:-[a-z]+)?="([^"]+)"', page.read_text(encoding="utf-8"))
        )
    return keys


def test_literal_keys_exist(dicts: dict[str, dict[str, str]]) -> None:
    keys = used_keys()
    assert len(keys) > 100
    missing = sorted(k for k in keys if k not in dicts["en"])
    assert not missing, f"keys used but not defined: {missing}"


def action_key(game: str, action: str) -> str | None:
    """The dictionary key a non-card action's label comes from (docs/web.md)."""
    if CARD.match(action) or "+" in action:
        return None
    word, _, arg = action.partition(" ")
    if not arg:
        return f"act.{word}"
    if word == "consult":
        return f"consult.{arg}"
    if word == "rank":
        return f"ranking.{arg}"
    if game == "trionfetti" and word in ("signal", "announce"):
        if CARD.match(arg):
            return None  # a card's name
        return f"rank.{arg}" if re.fullmatch(r"10|[1-9]|[JQK]", arg) else f"claim.{arg}"
    if word == "signal":
        return f"signal.{game}.{arg}"
    return f"act.{word}"


def game_actions(name: str) -> set[str]:
    cls = GAMES[name]
    game = mazo.load_game(name, players=cls.default_players)
    n = game.info.num_actions
    ids = range(n) if n < 1000 else range(40)  # Escoba: the cards, then only captures
    return {game.action_to_string(i) for i in ids}


@pytest.mark.parametrize("name", mazo.list_games())
def test_every_action_has_a_label(name: str, dicts: dict[str, dict[str, str]]) -> None:
    missing = set()
    for action in game_actions(name):
        key = action_key(name, action)
        if key is not None and key not in dicts["en"]:
            missing.add(key)
    assert not missing, f"{name}: no label for {sorted(missing)}"


@pytest.mark.parametrize("name", mazo.list_games())
def test_every_option_and_value_has_a_label(name: str, dicts: dict[str, dict[str, str]]) -> None:
    d = dicts["en"]
    assert f"game.{name}" in d
    for spec in GAMES[name].option_specs:
        assert f"opt.{spec.name}" in d, spec.name
        assert f"opt.{spec.name}.help" in d, spec.name
        for value in spec.allowed or ():
            if isinstance(value, bool) or value is None:
                assert f"val.{str(value).lower() if value is not None else 'null'}" in d
            elif isinstance(value, str) and not CARD.match(value):
                assert f"val.{value}" in d, f"{spec.name}={value}"


def test_phases_bots_and_fixed_families_have_labels(dicts: dict[str, dict[str, str]]) -> None:
    from mazo.server.bots import SERVER_BOTS

    d = dicts["en"]
    phases = (
        "play",
        "exchange",
        "over",
        "bet_pending",
        "tumbo_decision",
        "ranking",
        "vega_pending",
    )
    families = {
        "phase": phases,
        "bot": SERVER_BOTS,
        "suit": "OCEB",
        "rank": ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
        "face": ("J", "Q", "K", "J.short", "Q.short", "K.short"),
        "envite.level": ("none", "envio", "siete", "nueve", "chico"),
        "envite.reason": ("tricks", "fold", "tumbo_decline", "renuncio"),
        "trionfetti.reason": ("tricks", "refused"),
        "trionfetti.talk": ("none", "partner", "all"),
        "trionfetti.msg_": None,
        "trionfetti.share": (
            "vega_pending",
            "vega_accepted",
            "refused",
            "tricks",
            "shown",
            "shown_previous",
        ),
        "escoba.bd": ("escobas", "cards", "oros", "velo", "prime", "total", "counts"),
        "error": (
            "bad_message",
            "too_large",
            "stale_version",
            "invalid_action",
            "illegal_action",
            "spectator",
            "rate_limited",
        ),
        "conn": ("online", "connecting", "offline"),
        "lobby.status": ("playing", "finished"),
        "ranking": ("custom",),
    }
    for prefix, members in families.items():
        if members is None:
            for kind in ("signal", "announce", "tell", "say"):
                assert f"{prefix}{kind}" in d
            continue
        for m in members:
            assert f"{prefix}.{m}" in d, f"{prefix}.{m}"


@pytest.mark.parametrize("name", mazo.list_games())
def test_every_game_has_its_module(name: str) -> None:
    module = WEB / "js" / "games" / f"{name}.js"
    assert module.is_file(), f"no rendering module for {name}"
    text = module.read_text(encoding="utf-8")
    assert "export default" in text
    assert re.search(r'deckStyle:\s*"(spanish|italian)"', text)
