"""Hints: what the ``normal`` bot would play for a seat, and one line of why.

Asked on the socket (``{"type": "hint"}``) at a table whose settings allow hints.  The
bot sees the seat's observation only (what the seat may know), with the seed a ``normal``
bot would get at that seat and version, so the hint is that bot's very move; the reason
is the heuristic's ``explain``: an i18n key ``hint.<game>.<why>`` and its params (cards
as card codes, which the page draws).  The work runs in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from mazo.bots import make_bot
from mazo.core.errors import RulesError
from mazo.server.bots import _game, bot_seed
from mazo.server.tables import RequestError

if TYPE_CHECKING:
    from mazo.server.tables import Connection, LiveTable

__all__ = ["answer_hint", "hint_for"]


def hint_for(
    game: str, players: int, options_json: str, seed: int, observation: Any
) -> dict[str, Any]:
    """``{"action": "7O", "reason": {"key": "hint.<game>.<why>", "params": {...}}}``: the
    ``normal`` bot's choice from this observation and why; RulesError when the bot has
    nothing to do for this seat now."""
    rules = _game(game, players, options_json)
    bot = make_bot("normal", rules, seed=seed)
    action = rules.action_to_string(bot.choose(observation))
    explain = getattr(bot, "explain", None)
    if explain is None:
        key, params = f"hint.{game}.best", {}
    else:
        key, params = explain(observation, action)
    return {"action": action, "reason": {"key": key, "params": params}}


def hints_allowed(table: LiveTable) -> bool:
    """settings.hints: the table's resolved settings where it has them, else what its
    row stores (a table from before settings: no hints)."""
    settings = getattr(table, "settings", None)
    if not isinstance(settings, dict):
        settings = getattr(table.row, "settings", None)
    return isinstance(settings, dict) and settings.get("hints") is True


async def answer_hint(table: LiveTable, conn: Connection) -> None:
    """Answer ``{"type": "hint"}`` from ``conn`` (to it alone), or raise RequestError."""
    seat = conn.seat
    if seat is None:
        raise RequestError("watchers get no hints; open a seat's join link", code="spectator")
    if not hints_allowed(table):
        raise RequestError(
            "hints are off at this table (a table option chosen when it is created)",
            code="hints_off",
        )
    state, version = table.state, table.version
    observation = state.observation(seat)
    if state.match_over or not observation.get("legal_actions"):
        raise RequestError("nothing to hint: this seat has no move now", code="not_your_turn")
    row = table.row
    loop = asyncio.get_running_loop()
    try:
        hint = await loop.run_in_executor(
            None,
            hint_for,
            row.game,
            row.players,
            json.dumps(row.options, sort_keys=True),
            bot_seed(row.seed, version, seat),
            observation,
        )
    except RulesError as exc:
        raise RequestError(
            "nothing to hint: it is not this seat's turn and it owes no answer",
            code="not_your_turn",
        ) from exc
    conn.send({"type": "hint", "version": version, **hint})
