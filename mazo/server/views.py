"""The only place where the server turns a table into something that leaves it.

Everything here is built from one seat's observation (``state.observation(seat)``, or
``None`` for watchers and the public API) plus facts that name no card: seat names, bot
levels, who is connected, versions, and per-deal points.  A message for a seat is
therefore exactly as secret as that seat's observation; the leak tests check that no
message names a card the seat may not know.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any, Protocol

from mazo.core.game import State
from mazo.server.store import TableRow

__all__ = ["TableView", "public_view", "seats_message", "state_message", "table_summary"]


# What this module reads of a table, as protocols: ``mazo.server.tables.LiveTable`` fits
# them, and this module need not import tables (which imports it: they were a cycle).


class _Turn(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def deadline(self) -> float: ...
    @property
    def limit(self) -> float: ...


class _Pause(Protocol):
    @property
    def waiting(self) -> Collection[int]: ...
    @property
    def deadline(self) -> float | None: ...


class TableView(Protocol):
    """A live table as the views read it (:class:`mazo.server.tables.LiveTable`)."""

    @property
    def row(self) -> TableRow: ...
    @property
    def state(self) -> State: ...
    @property
    def version(self) -> int: ...
    @property
    def history(self) -> list[dict[str, Any]]: ...
    @property
    def last(self) -> dict[str, Any] | None: ...
    @property
    def fresh(self) -> list[dict[str, Any]]: ...
    @property
    def connected(self) -> dict[int | None, int]: ...
    @property
    def autoplay(self) -> Collection[int]: ...
    @property
    def pause(self) -> _Pause | None: ...
    @property
    def turn(self) -> _Turn | None: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    def claimable(self, seat: int) -> bool: ...


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def seat_views(table: TableView) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in table.row.seats:
        view: dict[str, Any] = {"seat": s.seat, "kind": s.kind}
        if s.kind == "bot":
            view.update(level=s.level, name=f"{s.level} bot", connected=True, claimable=False)
        else:
            view.update(
                name=s.name,
                connected=table.connected.get(s.seat, 0) > 0,
                claimable=table.claimable(s.seat),
                autoplay=s.seat in table.autoplay,
            )
        out.append(view)
    return out


def _left(deadline: float | None) -> float | None:
    """Seconds until a ``time.monotonic()`` deadline (None: no deadline)."""
    if deadline is None:
        return None
    return round(max(0.0, deadline - time.monotonic()), 1)


def table_summary(table: TableView) -> dict[str, Any]:
    row = table.row
    turn, pause = table.turn, table.pause
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "title": row.title,
        "public": row.public,
        "status": "finished" if table.state.match_over else "playing",
        "version": table.version,
        "created": _iso(row.created),
        "seats": seat_views(table),
        "options": row.options,
        "watchers": table.connected.get(None, 0),
        "settings": table.settings,
        "turn": None
        if turn is None
        else {"seat": turn.seat, "remaining": _left(turn.deadline), "limit": turn.limit},
        "ready": None
        if pause is None
        else {"waiting": sorted(pause.waiting), "remaining": _left(pause.deadline)},
        "next": row.next,
        "finished": None if row.finished_at is None else _iso(row.finished_at),
    }


def events_for(table: TableView, seat: int | None) -> list[dict[str, Any]]:
    """What the last action logged, as ``seat`` saw it: the engine marks private events
    with an ``audience`` and those go to that audience only (``State.events_for``)."""
    return [
        e
        for e in table.fresh
        if e.get("audience") is None or (seat is not None and seat in e["audience"])
    ]


def last_for(table: TableView, seat: int | None) -> dict[str, Any] | None:
    """The action that made this version, as ``seat`` may know it: an action whose log
    has an audience that leaves the seat out (a partner's ``tell``, a team signal) is
    reported without its text."""
    last = table.last
    if last is None or last["action"] is None:
        return last
    for e in table.fresh:
        audience = e.get("audience")
        if audience is not None and (seat is None or seat not in audience):
            return {"seat": last["seat"], "action": None}
    return last


def state_message(table: TableView, seat: int | None) -> dict[str, Any]:
    return {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "observation": table.state.observation(seat),
        "table": table_summary(table),
        "history": table.history,
        "last": last_for(table, seat),
        "events": events_for(table, seat),
    }


def seats_message(table: TableView) -> dict[str, Any]:
    """Who sits where and who is connected, for a change of names, connections or claims:
    the same for every socket and naming no card (no observation, no events), so one
    message serves players and watchers alike. ``version`` is the table's now: a client
    merges it into its state of that version, or asks ``sync``."""
    return {
        "type": "seats",
        "version": table.version,
        "seats": seat_views(table),
        "watchers": table.connected.get(None, 0),
    }


def public_view(table: TableView) -> dict[str, Any]:
    view = table_summary(table)
    view["observation"] = table.state.observation(None)
    view["history"] = table.history
    view["last"] = last_for(table, None)
    view["events"] = events_for(table, None)
    return view
