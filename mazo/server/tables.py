"""Live tables: the engine state of each table, its connections, its bots.

One ``asyncio.Lock`` per table orders every change: check the version, let the engine
check the action, commit it to the store, then queue the new state for every connection
(each connection has its own outbound queue and sender task, so a slow client never holds
up the table).  Bots are asked only when the seat to act is a bot; the move they bring
back goes through the same checks as a person's, and is dropped (and thought again) if
the table moved on meanwhile (an Envite envío called out of turn, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, State
from mazo.games import GAMES, list_games, load_game
from mazo.server.bots import SERVER_BOTS, BotRunner, bot_seed
from mazo.server.store import SeatRow, Store, TableRow, token_digest
from mazo.server.views import state_message

__all__ = ["Connection", "LiveTable", "RequestError", "TableManager", "check_name"]

log = logging.getLogger("mazo.server")

MAX_NAME = 40
MAX_TITLE = 80
OUTBOX_LIMIT = 256  # queued messages a connection may fall behind before it is dropped


class RequestError(Exception):
    """Bad input: ``status`` for HTTP, ``code`` for the socket, and a message that says
    what was wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400, code: str = "bad_message") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


def check_name(value: Any, what: str = "name", limit: int = MAX_NAME) -> str:
    if not isinstance(value, str):
        raise RequestError(f"{what} must be text of 1 to {limit} characters")
    text = " ".join(value.split())
    if not 1 <= len(text) <= limit or not text.isprintable():
        raise RequestError(f"{what} must be 1 to {limit} printable characters, not {value!r}")
    return text


@dataclass(eq=False)
class Connection:
    """One socket: the seat it plays (None: watching) and its outbound queue."""

    seat: int | None
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    dropped: bool = False

    def send(self, message: Mapping[str, Any] | str) -> None:
        if self.dropped:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # Too far behind: stop feeding it; the sender closes the socket and the
            # client reconnects to the current state.
            self.dropped = True
            self.outbox.put_nowait("")
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    game: Game
    state: State
    version: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] | None = None
    fresh: list[dict[str, Any]] = field(default_factory=list)  # the last action's events
    conns: set[Connection] = field(default_factory=set)
    connected: dict[int | None, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None

    def seat_for_token(self, token: str) -> int | None:
        digest = token_digest(token)
        for s in self.row.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def claimable(self, seat: int) -> bool:
        s = self.row.seats[seat]
        return self.row.public and s.kind == "human" and not s.name and not self.state.match_over

    def advance(self, new: State, seat: int, action: str) -> None:
        """Take the engine's new state as version + 1 (already committed)."""
        before = len(self.state.events)
        talk = self.game.info.message_actions
        try:
            said = self.state.string_to_action(action) in talk
        except ValueError:
            said = False  # a custom Trionfetti ranking: public
        self.state = new
        self.version += 1
        # Partners' talk reaches its audience through the observations' messages only.
        self.last = {"seat": seat, "action": None if said else action}
        self.fresh = new.events[before:]
        for event in self.fresh:
            if event.get("type") == "hand_end":
                detail = event.get("detail") or {}
                self.history.append(
                    {
                        "deal": len(self.history) + 1,
                        "points": list(event.get("points", [])),
                        "scores": list(detail.get("scores", new.scores)),
                    }
                )


class TableManager:
    """Creates, loads, changes and serves tables."""

    def __init__(
        self,
        store: Store,
        bots: BotRunner,
        bot_delay: float = 0.6,
        allow_seed: bool = False,
    ) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- loading ---------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loaded = self.store.load_table(table_id)
        if loaded is None:
            return None
        row, actions = loaded
        game = load_game(row.game, row.players, **row.options)
        table = LiveTable(row=row, game=game, state=game.new_match(seed=row.seed))
        for a in actions:
            # Every stored action was legal when it was made; replaying checks it again.
            table.advance(table.state.apply(a.action, seat=a.seat), a.seat, a.action)
        self.tables[table_id] = table
        return table

    def resume_all(self) -> int:
        """Load every unfinished table and set its bots going (after a restart)."""
        ids = self.store.table_ids(unfinished_only=True)
        for table_id in ids:
            table = self.get(table_id)
            if table is not None:
                self.kick_bots(table)
        return len(ids)

    # -- creating --------------------------------------------------------------------

    def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise RequestError("the request body must be a JSON object")
        unknown = sorted(
            set(body) - {"game", "players", "options", "seats", "public", "title", "seed"}
        )
        if unknown:
            raise RequestError(
                f"unknown field(s) {', '.join(unknown)}; fields are: game, players, options,"
                " seats, public, title, seed"
            )
        name = body.get("game")
        if name not in GAMES:
            raise RequestError(f"unknown game {name!r}; games are: {', '.join(list_games())}")
        players = body.get("players", GAMES[name].default_players)
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise RequestError("options must be a JSON object of the game's options")
        try:
            game = load_game(name, players, **options)
        except (RulesError, TypeError) as exc:
            raise RequestError(str(exc)) from exc
        seats = self._check_seats(body.get("seats"), game.players)
        public = body.get("public", False)
        if type(public) is not bool:
            raise RequestError("public must be true or false")
        title = body.get("title", "")
        title = check_name(title, "title", MAX_TITLE) if title else ""
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        elif not self.allow_seed:
            raise RequestError(
                "this server does not accept a seed (a known seed tells every card);"
                " start it with --allow-seed for tests and demos"
            )
        elif type(seed) is not int or not 0 <= seed < 2**63:
            raise RequestError(f"seed must be an int from 0 to 2**63-1, not {seed!r}")

        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for i, (kind, level, seat_name) in enumerate(seats):
            token_hash = None
            # A public table leaves its unnamed human seats open for anyone to claim.
            if kind == "human" and not (public and not seat_name):
                tokens[i] = secrets.token_urlsafe(16)
                token_hash = token_digest(tokens[i])
            rows.append(SeatRow(i, kind, level, seat_name, token_hash))
        table_id = self._new_id()
        row = TableRow(
            id=table_id,
            game=name,
            players=game.players,
            options=dict(options),
            seed=seed,
            title=title,
            public=public,
            created=time.time(),
            finished=False,
            seats=rows,
        )
        self.store.create_table(row)
        table = LiveTable(row=row, game=game, state=game.new_match(seed=seed))
        self.tables[table_id] = table
        self.kick_bots(table)
        answer_seats: list[dict[str, Any]] = []
        for s in rows:
            entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind}
            if s.kind == "bot":
                entry["level"] = s.level
            else:
                entry["name"] = s.name
                entry["claimable"] = table.claimable(s.seat)
                if s.seat in tokens:
                    entry["token"] = tokens[s.seat]
                    entry["join_url"] = f"/table/{table_id}#token={tokens[s.seat]}"
            answer_seats.append(entry)
        return {
            "id": table_id,
            "version": 0,
            "seats": answer_seats,
            "watch_url": f"/table/{table_id}",
        }

    def _check_seats(self, seats: Any, players: int) -> list[tuple[str, str | None, str]]:
        if seats is None:
            return [("human", None, "")] + [("bot", "normal", "")] * (players - 1)
        if not isinstance(seats, list) or len(seats) != players:
            raise RequestError(f"seats must be a list of {players} seats, one per player")
        out: list[tuple[str, str | None, str]] = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict):
                raise RequestError(f"seat {i} must be an object like {{'kind': 'human'}}")
            kind = seat.get("kind")
            if kind == "bot":
                level = seat.get("level", "normal")
                if level not in SERVER_BOTS:
                    raise RequestError(
                        f"seat {i}: unknown bot level {level!r}; levels are: "
                        + ", ".join(SERVER_BOTS)
                    )
                out.append(("bot", level, ""))
            elif kind == "human":
                name = seat.get("name") or ""
                out.append(("human", None, check_name(name, f"seat {i} name") if name else ""))
            else:
                raise RequestError(f"seat {i}: kind must be 'human' or 'bot', not {kind!r}")
        if not any(kind == "human" for kind, _, _ in out):
            raise RequestError("a table needs at least one human seat (use mazo sim for bots only)")
        return out

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and self.store.load_table(table_id) is None:
                return table_id

    # -- seats -----------------------------------------------------------------------

    def claim(self, table: LiveTable, seat: int, body: Any) -> dict[str, Any]:
        if not 0 <= seat < table.row.players:
            raise RequestError(f"seat must be 0..{table.row.players - 1}", status=404)
        if not isinstance(body, dict):
            raise RequestError('the request body must be a JSON object like {"name": "Ana"}')
        name = check_name(body.get("name"))
        if not table.claimable(seat):
            raise RequestError(
                f"seat {seat} cannot be claimed: only unnamed human seats of public tables"
                " that are still playing can",
                status=409,
                code="conflict",
            )
        token = secrets.token_urlsafe(16)
        s = table.row.seats[seat]
        s.name, s.token_hash = name, token_digest(token)
        self.store.set_seat(table.row.id, seat, name, s.token_hash)
        self.broadcast(table)
        return {"seat": seat, "token": token, "join_url": f"/table/{table.row.id}#token={token}"}

    def rename(self, table: LiveTable, seat: int, value: Any) -> None:
        name = check_name(value)
        s = table.row.seats[seat]
        s.name = name
        self.store.set_seat(table.row.id, seat, name, s.token_hash)
        self.broadcast(table)

    def attach(self, table: LiveTable, conn: Connection) -> None:
        table.conns.add(conn)
        table.connected[conn.seat] = table.connected.get(conn.seat, 0) + 1
        if conn.seat is None:
            conn.send(state_message(table, None))
        else:
            self.broadcast(table)  # everyone sees the seat come online

    def detach(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.conns:
            table.conns.discard(conn)
            table.connected[conn.seat] -= 1
            if conn.seat is not None:
                self.broadcast(table)
        if table.state.match_over and not table.conns:
            # A finished table nobody watches leaves memory; the store rebuilds it on demand.
            self.tables.pop(table.row.id, None)

    # -- acting ----------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int | None, version: Any, action: Any) -> None:
        """A person's action; RequestError (nothing changed) when it cannot be taken."""
        if seat is None:
            raise RequestError("watchers cannot act; open a seat's join link", code="spectator")
        if type(version) is not int:
            raise RequestError("act needs an int version (the latest state's)")
        if isinstance(action, bool) or not isinstance(action, (str, int)):
            raise RequestError('act needs an action: a string such as "7O", or an action id')
        async with table.lock:
            if version != table.version:
                raise RequestError(
                    f"stale version {version}: the table is at version {table.version};"
                    " act on the latest state",
                    code="stale_version",
                )
            self._commit(table, seat, action)

    def _commit(self, table: LiveTable, seat: int, action: str | int) -> None:
        state = table.state
        if state.match_over:
            raise RequestError("the match is over", code="illegal_action")
        try:
            if isinstance(action, str) and len(action) > 2000:
                raise InvalidActionError("an action is at most 2000 characters")
            text = action if isinstance(action, str) else state.action_to_string(action)
            new = state.apply(action, seat=seat)
        except IllegalActionError as exc:
            raise RequestError(str(exc), code="illegal_action") from exc
        except (InvalidActionError, RulesError, ValueError, TypeError) as exc:
            raise RequestError(str(exc), code="invalid_action") from exc
        text = self._canonical(state, text)
        self.store.append_action(table.row.id, table.version + 1, seat, text)
        if new.match_over:
            self.store.mark_finished(table.row.id)
            table.row.finished = True
        table.advance(new, seat, text)
        self.broadcast(table)
        self.kick_bots(table)

    @staticmethod
    def _canonical(state: State, text: str) -> str:
        """The engine's spelling of an action where it has one (``7o`` -> ``7O``)."""
        try:
            return state.action_to_string(state.string_to_action(text))
        except (InvalidActionError, ValueError):
            return text  # outside the int space (a custom Trionfetti ranking): as given

    def broadcast(self, table: LiveTable) -> None:
        cache: dict[int | None, str] = {}
        for conn in list(table.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = json.dumps(state_message(table, conn.seat))
            conn.send(text)

    # -- bots ------------------------------------------------------------------------

    def kick_bots(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot is to act and none is thinking."""
        seat = table.state.to_act
        if seat is None or table.row.seats[seat].kind != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (building the app): resume_all starts them
        task = loop.create_task(self._bot_loop(table))
        table.bot_task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_loop(self, table: LiveTable) -> None:
        while True:
            state, version = table.state, table.version
            seat = state.to_act
            if seat is None or table.row.seats[seat].kind != "bot":
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            level = table.row.seats[seat].level or "normal"
            try:
                action = await self.bots.choose(
                    table.row.game,
                    table.row.players,
                    table.row.options,
                    level,
                    bot_seed(table.row.seed, version, seat),
                    state.observation(seat),
                )
            except Exception:
                log.exception(
                    "bot %s at table %s failed; playing its first legal move", level, table.row.id
                )
                action = state.action_to_string(state.legal_actions()[0])
            async with table.lock:
                if table.version != version:
                    continue  # someone acted while the bot thought: think again
                try:
                    self._commit(table, seat, action)
                except RequestError:
                    log.exception("bot %s at table %s chose %r", level, table.row.id, action)
                    return

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
