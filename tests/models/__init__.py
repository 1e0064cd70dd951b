"""Independent models of the games' rules for the conformance suite (``core/test_conformance.py``).

The suite has a generic part, which only uses the engine contract of design.md and runs
for every registered game, and a model part, which needs to know a game's rules: where
every card is, which cards a seat may know, and what the event log must say.  A model is
a small class written from ``rules/<game>.md``, one module per game here
(``models/<module>.py``, named like the game's module in ``mazo/games/``, defining
``MODEL``); :data:`MODELS` finds them through the game registry, so a new game joins the
model part by adding its module, with nothing else edited.  A registered game without
one gets the generic checks only, and ``test_conformance_model`` reports it as skipped.

The models are differential tests: each re-implements its game's rules on its own, so an
expected value never comes from the engine.  A model reads states through the public
omniscient helpers (``hand``, ``stock``, ``won_cards``, ``table``, ``captured``), never
through private attributes, and computes every expected value itself, from the rules file
(never from the engine's code).  What the models share (no game's rules) is in
:mod:`models.common`, re-exported here.

A game's module also holds what its scenario and bot tests build positions with: the
rules as tables and a pack builder, the deal formulas run backwards on
:func:`models.common.fill_pack` (``briscola.build_deck``, ``envite.envite_deck``,
``escoba.escoba_deck``, ``trionfetti.tri_deck``).
"""

from __future__ import annotations

import importlib

from mazo.games import GAMES
from models.common import (
    CARD_CODES_40,
    JSON,
    Config,
    Model,
    Position,
    Step,
    cards_named,
    deal_blocks,
    deck_codes,
    generic_step,
    unique_best,
)

__all__ = [
    "CARD_CODES_40",
    "JSON",
    "MODELS",
    "Config",
    "Model",
    "Position",
    "Step",
    "cards_named",
    "deal_blocks",
    "deck_codes",
    "default_configs",
    "generic_step",
    "model_module",
    "unique_best",
]


def model_module(game: str) -> str:
    """The module that holds ``game``'s model: named like the game's own module."""
    return f"{__name__}.{GAMES[game].__module__.rpartition('.')[2]}"


def _find_models() -> dict[str, Model]:
    found: dict[str, Model] = {}
    for game in sorted(GAMES):
        name = model_module(game)
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # the module exists but fails to import: say so
                raise
            continue
        model = module.MODEL
        assert isinstance(model, Model) and model.game == game, f"{name}.MODEL is not {game}'s"
        found[game] = model
    return found


MODELS: dict[str, Model] = _find_models()
"""The games with a conformance model; every other registered game is checked generically."""


def default_configs(game: str) -> list[Config]:
    model = MODELS.get(game)
    return model.configs() if model is not None else [Config(game, "default")]
