"""Replays of finished matches, as one seat saw them, one deal at a time.

A finished table is its creation row plus its ordered actions (the store): replaying the
actions through the engine rebuilds every version, and each step of a replay is the very
``state`` message :func:`mazo.server.views.state_message` built for that seat at that
version (the seat's observation, the events it saw, the card-free history).  So a replay
tells a seat nothing it was not told at the table, and a watcher's replay shows what
watchers saw.  Only finished matches are replayed (their record, every deck order, is
public by then anyway: ``/record``).

A deal's steps run from the version that dealt it (the end of the previous deal, or
version 0) to the version of its last action: ``first``/``last`` are the versions of the
deal's first and last actions, and its steps are versions ``first - 1`` .. ``last``.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from mazo.games import load_game
from mazo.server.store import ActionRow, StoreError, TableRow
from mazo.server.tables import LiveTable, RequestError
from mazo.server.views import state_message, table_summary

__all__ = ["Replays", "deal_spans", "parse_seat", "replay_deal"]


def _fresh_table(row: TableRow) -> LiveTable:
    game = load_game(row.game, row.players, **row.options)
    return LiveTable(row=row, game=game, state=game.new_match(seed=row.seed))


def _ends_deal(table: LiveTable) -> bool:
    return any(e.get("type") == "hand_end" for e in table.fresh)


def deal_spans(row: TableRow, actions: list[ActionRow]) -> list[dict[str, int]]:
    """``[{"deal": 1, "first": 1, "last": 57}, ...]``: the versions of each deal's first
    and last actions (a deal ends with the action whose events hold ``hand_end``)."""
    table = _fresh_table(row)
    spans: list[dict[str, int]] = []
    first = 1
    for a in actions:
        table.advance(table.state.apply(a.action, seat=a.seat), a.seat, a.action)
        if _ends_deal(table) or a.n == len(actions):
            spans.append({"deal": len(spans) + 1, "first": first, "last": table.version})
            first = table.version + 1
    return spans


def _step_summary(summary: dict[str, Any], table: LiveTable) -> dict[str, Any]:
    """The table summary as a replay step shows it: the match as it stood at that version
    (playing until its last step), every seat present, nothing pending (no timer, no
    pause, no rematch to follow)."""
    out = copy.deepcopy(summary)
    out["status"] = "finished" if table.state.match_over else "playing"
    out["version"] = table.version
    out["watchers"] = 0
    out["replay"] = True
    for key in ("turn", "ready", "next"):
        if key in out:
            out[key] = None
    for seat in out.get("seats", []):
        seat["connected"] = True
        seat["claimable"] = False
        if "autoplay" in seat:
            seat["autoplay"] = False
    return out


def parse_seat(value: str | None, players: int) -> int | None:
    """The ``seat`` query parameter: absent or empty for the watchers' view, else 0..n-1."""
    if value is None or value == "" or value in ("none", "null", "watch"):
        return None
    try:
        seat = int(value)
    except ValueError:
        seat = -1
    if not 0 <= seat < players:
        raise RequestError(
            f"seat must be a seat number from 0 to {players - 1}, or absent for the"
            f" watchers' view; not {value!r}"
        )
    return seat


def replay_deal(
    row: TableRow,
    actions: list[ActionRow],
    summary: dict[str, Any],
    seat: int | None,
    deal_text: str | None,
) -> dict[str, Any]:
    """The answer of ``GET /api/tables/{id}/replay``: deal ``deal_text`` (default 1) of a
    finished match as ``seat`` saw it."""
    spans = deal_spans(row, actions)
    if deal_text is None or deal_text == "":
        deal = 1
    else:
        try:
            deal = int(deal_text)
        except ValueError:
            deal = 0
        if not 1 <= deal <= len(spans):
            raise RequestError(
                f"deal must be a deal number from 1 to {len(spans)}, not {deal_text!r}"
            )
    span = spans[deal - 1] if spans else {"deal": 1, "first": 1, "last": 0}
    start = span["first"] - 1
    table = _fresh_table(row)
    steps: list[dict[str, Any]] = []
    if start == 0:
        steps.append(_step(table, summary, seat))
    for a in actions[: span["last"]]:
        table.advance(table.state.apply(a.action, seat=a.seat), a.seat, a.action)
        if table.version >= start:
            steps.append(_step(table, summary, seat))
    return {
        "table": summary,
        "seat": seat,
        "deals": spans,
        "deal": deal,
        "steps": steps,
    }


def _step(table: LiveTable, summary: dict[str, Any], seat: int | None) -> dict[str, Any]:
    message = state_message(table, seat)
    message["table"] = _step_summary(summary, table)
    message["history"] = list(message["history"])
    return message


FINISHED_LIMIT = 20


class Replays:
    """The replay endpoint and the list of recently finished tables, for one server."""

    def __init__(self, manager: Any) -> None:
        self.manager = manager
        # A finished table's summary no longer changes (what the lobby lists of it):
        # kept here, so the lobby's polling does not replay 20 matches each time.
        self._finished: dict[str, dict[str, Any]] = {}

    def _release(self, table: LiveTable) -> None:
        """A finished table nobody is connected to leaves memory (as when its last
        socket closes); the store rebuilds it on demand."""
        if table.state.match_over and not table.conns:
            self.manager.tables.pop(table.row.id, None)

    async def finished(self) -> list[dict[str, Any]]:
        """Recently finished public tables, the most recently finished first."""
        out = []
        ids = await self.manager.store.finished_public_ids(FINISHED_LIMIT)
        for table_id in ids:
            entry = self._finished.get(table_id)
            if entry is None:
                table = await self.manager.get(table_id)
                if table is None or not table.state.match_over:
                    continue
                entry = table_summary(table)
                entry["watchers"] = 0
                entry["result"] = {
                    "winner": table.state.winner,
                    "scores": table.state.scores,
                    "games": table.state.games,
                }
                self._finished[table_id] = entry
                self._release(table)
            out.append(entry)
        for table_id in set(self._finished) - set(ids):
            del self._finished[table_id]
        return out

    async def deal(self, table_id: str, seat_text: str | None, deal_text: str | None) -> Any:
        table = await self.manager.require(table_id)  # 404, or 503 for a quarantined table
        if not table.state.match_over:
            raise RequestError(
                "a match is replayed once it is over (the replay shows every hand)",
                status=409,
                code="conflict",
            )
        seat = parse_seat(seat_text, table.row.players)
        summary = table_summary(table)
        try:
            loaded = await self.manager.store.load_table(table_id)
        except StoreError as exc:
            raise RequestError(
                "the replay cannot be loaded now (the database failed); try again",
                status=503,
                code="store_failed",
            ) from exc
        self._release(table)
        if loaded is None:
            raise RequestError("no such table", status=404, code="no_table")
        row, actions = loaded
        return await asyncio.to_thread(replay_deal, row, actions, summary, seat, deal_text)
