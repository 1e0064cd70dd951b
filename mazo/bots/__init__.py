"""Bots: players that see one seat's observation (a JSON dict) and return an action id.

A bot never receives a state, only what its seat may know, so the same bot can sit at a
local table, behind the server or inside a simulation without leaking anything.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=7)
>>> bot = make_bot("random", game, seed=1)
>>> bot.choose(state.observation(state.to_act)) in state.legal_actions()
True
>>> list_bots()
['easy', 'expert', 'hard', 'heuristic', 'ismcts', 'net', 'normal', 'random']

Plugin bots
-----------
Wherever a bot is named (``make_bot``, ``--bots``, ``--vs``), an import path
``package.module:factory`` names a bot that lives outside mazo: ``factory(game, seed,
**options)`` must return an object with ``choose(observation) -> int`` (a ``name`` is
optional: the path is used).  Registry names never contain ``:`` or ``.``, so the two
cannot be confused; a plugin path keeps its case (``bot_key``).  Modules are imported
from ``sys.path`` and then the current directory.
"""

from __future__ import annotations

import importlib
import os
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mazo.bots.base import Bot, Observation, check_bot_options, legal_ids
from mazo.core.errors import RulesError
from mazo.core.game import Game

__all__ = [
    "BOTS",
    "Bot",
    "BotSpec",
    "Observation",
    "PluginBotError",
    "bot_key",
    "check_bot_options",
    "is_plugin",
    "legal_ids",
    "list_bots",
    "make_bot",
    "parse_option_value",
    "resolve_seed",
]

BotFactory = Callable[..., Bot]


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: how to build it for a game, and a line of help."""

    name: str
    help: str
    factory: BotFactory  # factory(game, seed: int, **options) -> Bot


def _make_random(game: Game, seed: int, **options: Any) -> Bot:
    from mazo.bots.random_bot import RandomBot

    return RandomBot(game, seed, **options)


def _make_heuristic(game: Game, seed: int, **options: Any) -> Bot:
    from mazo.bots.heuristic import make_heuristic

    return make_heuristic(game, seed, **options)


def _make_ismcts(game: Game, seed: int, **options: Any) -> Bot:
    from mazo.bots.ismcts import ISMCTSBot

    return ISMCTSBot(game, seed, **options)


def _make_net(game: Game, seed: int, **options: Any) -> Bot:
    from mazo.bots.net import NetBot

    return NetBot(game, seed, **options)


def _level(level: str) -> BotFactory:
    def factory(game: Game, seed: int, **options: Any) -> Bot:
        from mazo.bots.levels import make_level

        return make_level(level, game, seed, **options)

    return factory


BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", "uniform over the legal actions", _make_random),
    "heuristic": BotSpec(
        "heuristic", "hand-written rules of thumb for each game (no search)", _make_heuristic
    ),
    "ismcts": BotSpec(
        "ismcts",
        "information-set Monte Carlo search over determinized deals (iterations, think_ms)",
        _make_ismcts,
    ),
    "net": BotSpec(
        "net",
        "the shipped policy network alone (mazo.nets, numpy; options temperature, weights)",
        _make_net,
    ),
    # Difficulty levels (mazo.bots.levels): what players choose from.
    "easy": BotSpec(
        "easy", "level 1: the heuristic, with one random slip in three", _level("easy")
    ),
    "normal": BotSpec("normal", "level 2: the heuristic (instant)", _level("normal")),
    "hard": BotSpec("hard", "level 3: ISMCTS search, about 0.2 s a move", _level("hard")),
    "expert": BotSpec("expert", "level 4: ISMCTS search, about 1 s a move", _level("expert")),
}


def list_bots() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def resolve_seed(seed: int | None) -> int:
    """The bot's seed: the given int, or 64 bits from the operating system."""
    if seed is None:
        return secrets.randbits(64)
    if type(seed) is not int:
        raise RulesError(f"a bot seed must be an int or None, not {seed!r}")
    return seed


def is_plugin(name: str) -> bool:
    """True for an import path (``package.module:factory``), False for a registry name.

    >>> is_plugin("examples.ppo_bot:make"), is_plugin("heuristic")
    (True, False)
    """
    return ":" in name or "." in name


def bot_key(name: str) -> str:
    """How a bot name is looked up: registry names are case-insensitive, an import path
    keeps its case (Python names are case-sensitive).

    >>> bot_key(" Heuristic "), bot_key("mybots.Strong:Make")
    ('heuristic', 'mybots.Strong:Make')
    """
    name = name.strip()
    return name if is_plugin(name) else name.lower()


class PluginBotError(RulesError, ImportError):
    """A plugin bot path that cannot be loaded.  It is a :class:`RulesError` (a bad bot
    name) and an :class:`ImportError` (what is missing is a module or a name in one)."""


def _with_current_directory() -> None:
    """Plugins are found in the current directory too, as with ``python -m`` (the
    ``mazo`` script alone would not look there); after everything else, so a local
    file never hides an installed module."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)


def load_plugin(path: str) -> BotFactory:
    """The factory named by ``package.module:factory``, imported; clear errors otherwise."""
    module_name, sep, attr = path.strip().partition(":")
    module_name, attr = module_name.strip(), attr.strip()
    if not sep or not module_name or not attr or ":" in attr:
        raise PluginBotError(
            f"bot {path!r}: a plugin bot is written package.module:factory "
            f"(e.g. examples.ppo_bot:make); registered bots are: {', '.join(list_bots())}"
        )
    if module_name.lower() in BOTS:  # "ismcts:verbose": an option without a value
        raise PluginBotError(
            f"bot {path!r}: options go after the name as :key=value (e.g. "
            "ismcts:iterations=50); a plugin bot is written package.module:factory"
        )
    _with_current_directory()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and module_name.startswith(err.name):
            raise PluginBotError(
                f"bot {path!r}: no module named {module_name!r} (plugins are imported "
                "from sys.path and the current directory: run from the folder that "
                "holds it, or install it)"
            ) from None
        raise PluginBotError(f"bot {path!r}: importing {module_name!r} failed: {err}") from err
    except ImportError as err:
        raise PluginBotError(f"bot {path!r}: importing {module_name!r} failed: {err}") from err
    factory = module
    for part in attr.split("."):
        if not hasattr(factory, part):
            raise PluginBotError(f"bot {path!r}: module {module_name!r} has no attribute {attr!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise PluginBotError(
            f"bot {path!r}: {module_name}.{attr} is not callable; it must be a factory "
            "factory(game, seed, **options) returning a bot"
        )
    return factory


class _NamedBot:
    """A plugin bot without a ``name``: the import path names it."""

    def __init__(self, bot: Any, name: str) -> None:
        self.bot = bot
        self.name = name

    def choose(self, observation: Observation) -> int:
        return int(self.bot.choose(observation))


def _make_plugin(path: str, game: Game, seed: int, **options: Any) -> Bot:
    factory = load_plugin(path)
    bot = factory(game, seed, **options)
    if not callable(getattr(bot, "choose", None)):
        raise RulesError(
            f"bot {path!r}: the factory returned {type(bot).__name__}, which has no "
            "choose(observation) method"
        )
    if not isinstance(getattr(bot, "name", None), str):
        return _NamedBot(bot, path)
    return bot


def make_bot(name: str, game: Game, seed: int | None = None, **options: Any) -> Bot:
    """Build the bot called ``name`` for ``game``: a registered name, or a plugin's
    import path ``package.module:factory`` (see the module docstring).

    ``seed`` makes its choices reproducible (tie-breaks and random play); an unknown name
    or option raises :class:`mazo.RulesError` saying what is allowed.
    """
    if not isinstance(name, str):
        raise RulesError(
            f"a bot name is a string, not {name!r}; bots are: {', '.join(list_bots())}"
        )
    key = bot_key(name)
    spec = None if is_plugin(key) else BOTS.get(key)
    if spec is None and not is_plugin(key):
        raise RulesError(
            f"unknown bot {name!r}; bots are: {', '.join(list_bots())}, or a plugin "
            "package.module:factory"
        )
    if not isinstance(game, Game):
        raise RulesError(f"make_bot needs a configured game (mazo.load_game(...)), not {game!r}")
    if spec is None:
        return _make_plugin(key, game, resolve_seed(seed), **options)
    return spec.factory(game, resolve_seed(seed), **options)


def parse_option_value(text: str) -> Any:
    """A bot option typed on a command line: ``true``/``yes``/``on`` and ``false``/``no``/
    ``off`` are booleans, ``12`` an int, ``0.5`` a float, anything else stays text.

    >>> [parse_option_value(t) for t in ("yes", "12", "0.5", "heuristic")]
    [True, 12, 0.5, 'heuristic']
    """
    text = text.strip()
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text
