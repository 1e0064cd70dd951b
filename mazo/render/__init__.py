"""Plain-text rendering of observations and events, for the terminal and for logs.

One file per game (``mazo/render/<game>.py``, each defining ``TEXT``, a
:class:`~mazo.render.common.GameText`) and :mod:`mazo.render.common` for what they share
(card names: ``card_label``, ``card_name``, ``rank_name`` and ``suit_name`` there).
A game's file is found through the game registry (:func:`text_for`), so this module and
the front ends never name a game: a new game adds one file here.

>>> view = View(players=2, side_of=(0, 1), viewer=0, seat_names=("Ana", "Seat 1 (random)"),
...             game="briscola")
>>> render_event({"type": "play", "seat": 1, "card": "KB"}, view)
'Seat 1 (random) plays KB (king of batons).'
>>> default_language("envite", {}), default_language("briscola", {})
('es', 'en')
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from mazo.core.errors import RulesError
from mazo.render.common import CARD_STYLES, LANGUAGES, GameText, View, suit_name

__all__ = [
    "CARD_STYLES",
    "LANGUAGES",
    "GameText",
    "View",
    "default_language",
    "prepare_events",
    "rank_labels",
    "render_choices",
    "render_event",
    "render_observation",
    "suit_name",
    "text_for",
]

JSON = Mapping[str, Any]


@cache
def text_for(game: str) -> GameText:
    """The text hooks of a registered game: ``mazo.render.<module>.TEXT``, where
    ``<module>`` is the last part of the game class's module (``mazo.games.briscola``).

    >>> type(text_for("escoba")).__name__
    'EscobaText'
    """
    from mazo.games import GAMES

    cls = GAMES.get(game)
    if cls is None:
        raise RulesError(f"unknown game {game!r}; games are: {', '.join(sorted(GAMES))}")
    name = cls.__module__.rsplit(".", 1)[-1]
    try:
        module = importlib.import_module(f"mazo.render.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"mazo.render.{name}":
            raise
        raise RulesError(f"{game} has no text renderer (no mazo/render/{name}.py)") from None
    text = getattr(module, "TEXT", None)
    if not isinstance(text, GameText):
        raise RulesError(f"mazo/render/{name}.py defines no TEXT (a GameText)")
    return text


def default_language(game: str, options: Mapping[str, Any]) -> str:
    """The language of card names when the user chose none: a Spanish pack speaks Spanish
    (Escoba's default pack, and always Envite Canario's), the Venetian Trionfetti Italian.

    >>> default_language("escoba", {"deck_style": "spanish"}), default_language("trionfetti", {})
    ('es', 'it')
    """
    return text_for(game).language(options)


def rank_labels(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """How a game's pack options relabel the figures on French-suited cards (labels only).

    >>> rank_labels("escoba", {"deck_style": "french_numeric"})
    {'J': '8', 'Q': '9', 'K': '10'}
    """
    return text_for(game).rank_labels(options)


def prepare_events(events: Sequence[JSON], game: str) -> list[dict[str, Any]]:
    """A seat's log ready for :func:`render_event` (Trionfetti's events gain what their
    sentences need from earlier ones; other games' are returned as they are)."""
    return text_for(game).prepare_events(events)


def render_event(event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
    """One log event as a sentence, or None for bookkeeping the viewer need not read.

    ``view.game`` names the game (events do not say it).  ``seats`` are the seats playing
    the current deal (the ``deal`` event's ``seats``), needed only when some sit out.
    """
    return text_for(view.game).event(event, view, seats)


def render_observation(obs: JSON, view: View, show_hand: bool = True) -> str:
    """The table as one seat sees it; ``show_hand=False`` leaves out the hand line (a
    front end listing it as choices)."""
    return text_for(str(obs.get("game") or view.game)).observation(obs, view, show_hand)


def render_choices(obs: JSON, view: View) -> list[str]:
    """The numbered legal actions, one line each: ``  1) 7O (7 of coins)  [trump]``."""
    return text_for(str(obs.get("game") or view.game)).choices(obs, view)
