"""What every bot shares: the :class:`Bot` protocol, the observation type and the
checks of options and legal actions.

A module of its own so that the bots (``random_bot``, the heuristics, ``ismcts``...)
import these without importing the registry in ``mazo.bots``, which imports them: the
package would otherwise form an import cycle with each of its bots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from mazo.core.errors import RulesError
from mazo.core.game import Game

__all__ = ["Bot", "Observation", "check_bot_options", "legal_ids"]

Observation = Mapping[str, Any]


@runtime_checkable
class Bot(Protocol):
    """What every bot offers: a name and a choice from an observation."""

    @property
    def name(self) -> str:
        """The registry name (``random``, ``heuristic``...)."""
        ...

    def choose(self, observation: Observation) -> int:
        """An action id among ``observation["legal_actions"]`` (parsed by the game)."""
        ...


def check_bot_options(
    bot: str, given: Mapping[str, Any], allowed: Mapping[str, tuple[Any, ...]]
) -> dict[str, Any]:
    """Validate bot options against ``{name: allowed values (first is the default)}``."""
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        names = ", ".join(allowed) if allowed else "none"
        raise RulesError(f"bot {bot!r} has no option {', '.join(unknown)}; options are: {names}")
    out: dict[str, Any] = {}
    for key, values in allowed.items():
        value = given.get(key, values[0])
        if not any(type(value) is type(v) and value == v for v in values):
            shown = ", ".join(repr(v) for v in values)
            raise RulesError(f"bot option {key}={value!r} is not allowed; allowed: {shown}")
        out[key] = value
    return out


def legal_ids(game: Game, observation: Observation) -> list[int]:
    """The observation's legal actions as ids; a bot asked to act with none is a bug."""
    try:
        legal = observation["legal_actions"]
    except (KeyError, TypeError):
        raise RulesError("a bot needs an observation dict with 'legal_actions'") from None
    obs_game = observation.get("game")
    if obs_game is not None and obs_game != game.name:
        raise RulesError(f"this bot plays {game.name}, not {obs_game}")
    if not legal:
        raise RulesError(
            f"seat {observation.get('seat')!r} has no legal action in this observation "
            f"(to_act is {observation.get('to_act')!r})"
        )
    ids = _ids_of(game)
    out = []
    for text in legal:
        got = ids.get(text)
        if got is None:
            got = ids[text] = game.string_to_action(text)
        out.append(got)
    return out


# Per configured game, the ids of the action strings met so far: parsing a string costs
# more than a bot's whole decision in some games (Trionfetti offers up to 140 message
# strings a turn), and a game maps a string to the same id for ever.  Games are kept by
# identity (with the game itself, so an id is never reused while cached); the table is
# emptied when many games have come and gone (a server makes one per table).
_ID_TABLES: dict[int, tuple[Game, dict[str, int]]] = {}
_MAX_TABLES = 256


def _ids_of(game: Game) -> dict[str, int]:
    entry = _ID_TABLES.get(id(game))
    if entry is not None and entry[0] is game:
        return entry[1]
    if len(_ID_TABLES) >= _MAX_TABLES:
        _ID_TABLES.clear()
    table: dict[str, int] = {}
    _ID_TABLES[id(game)] = (game, table)
    return table
