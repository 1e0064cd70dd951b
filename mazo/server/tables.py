"""Live tables: the engine state of each table, its connections, its bots.

One ``asyncio.Lock`` per table orders every change: check the version, let the engine
check the action, commit it to the store, then queue the new state for every connection
(each connection has its own outbound queue and sender task, so a slow client never holds
up the table).  Bots are asked only when the seat to act is a bot; the move they bring
back goes through the same checks as a person's, and is dropped (and thought again) if
the table moved on meanwhile (an Envite envío called out of turn, say).

Each live table has one driver task (:meth:`TableManager._drive`), its clockwork: it
moves the bots (and the bots playing for timed-out people: autoplay), ends the pause
after a deal when its time is up, and hands a person's seat to a bot when the turn timer
runs out.  Everything that changes the table wakes it; it never changes the table but
through the same commit path as a person (store first, then broadcast).  Pauses, timers
and autoplay live in memory: after a restart a table starts without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, State
from mazo.games import GAMES, list_games, load_game
from mazo.server.bots import SERVER_BOTS, BotRunner, bot_seed
from mazo.server.settings import SettingsError, check_settings, resolve_settings
from mazo.server.store import (
    ActionRow,
    LeaseLost,
    SeatRow,
    StoreError,
    TableRow,
    TableStore,
    token_digest,
)
from mazo.server.views import seats_message, state_message

__all__ = ["Connection", "Elsewhere", "LiveTable", "RequestError", "TableManager", "check_name"]

log = logging.getLogger("mazo.server")

MAX_NAME = 40
MAX_TITLE = 80
MAX_MARKS = 2  # combining marks on one character of a name (after NFC)
OUTBOX_LIMIT = 256  # queued messages a connection may fall behind before it is dropped
SEATS_DELAY = 0.05  # seconds a `seats` message waits for more changes to go with it
# Seconds, before the manager's timer_scale:
NOBODY_PAUSE = 4.0  # the pause after a deal when no person is at the table
DEFER = 8.0  # a bot's wait before answering a bet that a person teammate may answer
RETRY = 1.0  # seconds before the driver tries again after a failure (the database, a bot)
ANSWER = "accept"  # the action that marks a pending bet (Trionfetti's vega, Envite's bets)
# Keys of a hand_end's detail that name cards: the history is card-free.
CARD_DETAIL = frozenset({"revealed", "card"})


class _Unplayable(Exception):
    """A stored table the engine cannot rebuild; the message says why."""


class Elsewhere(Exception):
    """Scale-out mode: another live process runs this table (holds its lease)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is run by another process")
        self.table_id = table_id


class RequestError(Exception):
    """Bad input: ``status`` for HTTP, ``code`` for the socket, and a message that says
    what was wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400, code: str = "bad_message") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


def check_name(value: Any, what: str = "name", limit: int = MAX_NAME) -> str:
    """A name or title as shown: spaces collapsed, NFC (``e`` + U+0301 is ``é``), 1 to
    ``limit`` printable characters, at most MAX_MARKS combining marks on one character
    (enough for any script's accents; zalgo text stacks dozens)."""
    if not isinstance(value, str):
        raise RequestError(f"{what} must be text of 1 to {limit} characters")
    text = unicodedata.normalize("NFC", " ".join(value.split()))
    if not 1 <= len(text) <= limit or not text.isprintable():
        raise RequestError(f"{what} must be 1 to {limit} printable characters, not {value!r}")
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise RequestError(
                f"{what} may have at most {MAX_MARKS} combining marks (accents) on one"
                f" character; {value!r} stacks more"
            )
    return text


@dataclass(eq=False)
class Connection:
    """One socket: the seat it plays (None: watching) and its outbound queue."""

    seat: int | None
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    # The close code the sender uses once it reaches the end marker ("").
    close_code: int = 4408  # fell too far behind

    def close(self, code: int) -> None:
        """Close the socket once what is queued has gone out (code: why)."""
        if not self.dropped:
            self.dropped = True
            self.close_code = code
            self.outbox.put_nowait("")

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


@dataclass
class Pause:
    """The table waits after a deal for these seats' ``ready`` (or until ``deadline``,
    a ``time.monotonic()`` instant; None: no limit)."""

    waiting: set[int]
    deadline: float | None
    persons: bool  # it waits for people (else: nobody was there, it just lasts)


@dataclass
class Turn:
    """A person's turn timer: the seat loses it to a bot at ``deadline`` (monotonic)."""

    seat: int
    deadline: float
    limit: float


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
    driver: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # something changed
    autoplay: set[int] = field(default_factory=set)  # people's seats a bot plays
    pause: Pause | None = None
    turn: Turn | None = None
    defer: float | None = None  # until when a bot waits for a person to answer a bet
    answer_id: int | None = -1  # the game's action id of ANSWER (None: none; -1: unknown)
    active: float = field(default_factory=time.time)  # the last action, socket or claim
    gone: bool = False  # this process let the table go (another one owns it now)
    seats_due: asyncio.TimerHandle | None = None  # a `seats` message is on its way
    # Sockets whose last message already shows the seats as they are (a new socket's
    # own first state): the coming `seats` message skips them.
    seats_known: set[Connection] = field(default_factory=set)

    @property
    def settings(self) -> dict[str, Any]:
        """The resolved settings (stored ones with the defaults filled in)."""
        return resolve_settings(self.row.settings, self.row.public)

    def bot_plays(self, seat: int) -> bool:
        """A bot decides for the seat: a bot seat, or a person's in autoplay."""
        return self.row.seats[seat].kind == "bot" or seat in self.autoplay

    def person_here(self, seat: int) -> bool:
        """A person plays the seat and is connected (not in autoplay)."""
        return (
            self.row.seats[seat].kind == "human"
            and seat not in self.autoplay
            and self.connected.get(seat, 0) > 0
        )

    def ends_deal(self) -> bool:
        """The last action ended a deal."""
        return any(e.get("type") == "hand_end" for e in self.fresh)

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
        old = self.state
        talk = self.game.info.message_actions
        try:
            said = self.state.string_to_action(action) in talk
        except ValueError:
            said = False  # a custom Trionfetti ranking: public
        self.state = new
        self.version += 1
        # Partners' talk reaches its audience through the observations' messages only.
        self.last = {"seat": seat, "action": None if said else action}
        # Only the new events: reading ``events`` would rebuild the whole match's log
        # (twice an action), a cost that grew with the match.
        self.fresh = new.events_since(old)
        for event in self.fresh:
            if event.get("type") == "hand_end":
                detail = event.get("detail") or {}
                self.history.append(
                    {
                        "deal": len(self.history) + 1,
                        "points": list(event.get("points", [])),
                        "scores": list(detail.get("scores", new.scores)),
                        # the deal's report (reason, bets, tricks...) without card names
                        "detail": {k: v for k, v in detail.items() if k not in CARD_DETAIL},
                    }
                )


class TableManager:
    """Creates, loads, changes and serves tables."""

    def __init__(
        self,
        store: TableStore,
        bots: BotRunner,
        bot_delay: float = 0.6,
        allow_seed: bool = False,
        timer_scale: float = 1.0,
        owner: str | None = None,
        lease_ttl: float = 0.0,
    ) -> None:
        self.store = store
        # Scale-out mode: this process's name in the tables' leases (None: one process
        # owns every table, SQLite) and how long a lease lasts unrenewed.
        self.owner = owner
        self.lease_ttl = lease_ttl
        self.bots = bots
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        # Multiplies every timer (turn timer, deal pause, defer): tests run them short.
        self.timer_scale = timer_scale
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Stored tables that cannot be rebuilt (a game, option or action the engine
        # refuses): id -> why. They stay out of play; /api/health lists them.
        self.quarantined: dict[str, str] = {}
        # Counts changes to which tables the lobby lists (created, claimed, finished,
        # closed): the lobby's cached list is built again when it moves.
        self.changes = 0
        # Unfinished tables the server closed (nobody there for too long): id -> reason.
        self.closed: dict[str, str] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        # Called with a table's id when this process starts running it (the cluster
        # subscribes to the table's channel).
        self.on_table: Callable[[str], None] | None = None

    # -- loading ---------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table; None when there is no such table or it is quarantined (see
        :meth:`require` for the reason). Loading waits on the database, not the loop;
        requests for a table being loaded share that one load."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.quarantined or table_id in self.closed:
            return None
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> LiveTable | None:
        try:
            # Scale-out: only the lease holder runs an unfinished table (a finished one
            # is read-only and any process may load it).
            if self.owner is not None and not await self.store.acquire(
                table_id, self.owner, self.lease_ttl
            ):
                if await self.store.exists(table_id):
                    raise Elsewhere(table_id)
                return None
            loaded = await self.store.load_table(table_id)
        except StoreError as exc:
            # the database failed, not this table: nothing to quarantine
            log.error("table %s could not be loaded: %s", table_id, exc)
            raise RequestError(
                f"table {table_id} cannot be loaded now (the database failed); try again",
                status=503,
                code="store_failed",
            ) from exc
        except (ValueError, TypeError) as exc:  # a stored row that is not JSON, say
            self._quarantine(table_id, f"its stored row cannot be read: {exc}")
            return None
        if loaded is None:
            return None
        if loaded[0].closed:
            self.closed[table_id] = loaded[0].closed
            return None
        try:
            table = self._rebuild(*loaded)
        except _Unplayable as exc:
            self._quarantine(table_id, str(exc))
            return None
        self._set_turn(table)
        self._own(table)
        return table

    def _own(self, table: LiveTable) -> None:
        """The table is this process's to run (created, loaded, a rematch)."""
        self.tables[table.row.id] = table
        if self.on_table is not None:
            self.on_table(table.row.id)

    @staticmethod
    def _rebuild(row: TableRow, actions: list[ActionRow]) -> LiveTable:
        """Replay the stored table through the engine; _Unplayable says what is wrong."""
        try:
            game = load_game(row.game, row.players, **row.options)
            table = LiveTable(row=row, game=game, state=game.new_match(seed=row.seed))
        except Exception as exc:  # an unknown game or option, a bad player count
            raise _Unplayable(f"its game cannot be set up: {exc}") from exc
        if [s.seat for s in row.seats] != list(range(game.players)):
            raise _Unplayable(
                f"its seats are {[s.seat for s in row.seats]}, not 0..{game.players - 1}"
            )
        for s in row.seats:
            if s.kind not in ("human", "bot") or (s.kind == "bot" and s.level not in SERVER_BOTS):
                raise _Unplayable(f"seat {s.seat} is a {s.kind!r} of level {s.level!r}")
        for i, a in enumerate(actions, start=1):
            if a.n != i:
                raise _Unplayable(
                    f"stored action {i} is missing (the actions go from {i - 1} to {a.n})"
                )
            try:
                # Every stored action was legal when it was made; replaying checks it again.
                table.advance(table.state.apply(a.action, seat=a.seat), a.seat, a.action)
            except Exception as exc:
                what = f"stored action {a.n} ({a.action!r} by seat {a.seat})"
                raise _Unplayable(f"{what} cannot be replayed: {exc}") from exc
        return table

    def _quarantine(self, table_id: str, reason: str) -> None:
        self.quarantined[table_id] = reason
        log.error("table %s is quarantined (kept out of play): %s", table_id, reason)

    async def require(self, table_id: str) -> LiveTable:
        """The live table, or RequestError: 404 for no such table, 503 (code
        ``table_unavailable``) with the reason for a quarantined one (``store_failed``
        when the database fails)."""
        table = await self.get(table_id)
        if table is not None:
            return table
        closed = self.closed.get(table_id)
        if closed is not None:
            raise RequestError(
                f"table {table_id} was closed ({closed}: nobody played or watched it for a"
                " long time); it is kept, but it cannot be played or watched any more",
                status=410,
                code="table_closed",
            )
        reason = self.quarantined.get(table_id)
        if reason is not None:
            raise RequestError(
                f"table {table_id} is unavailable: {reason}",
                status=503,
                code="table_unavailable",
            )
        raise RequestError("no such table", status=404, code="no_table")

    async def resume_all(self) -> int:
        """Load every unfinished table and set its bots going (after a restart). A table
        that cannot be rebuilt is quarantined (logged, listed by /api/health) and the
        others start anyway. Returns the number of tables resumed."""
        resumed = 0
        if self.owner is None:
            ids = await self.store.table_ids(unfinished_only=True)
        else:  # scale-out: those no live process runs (the others are theirs)
            ids = await self.store.orphans(limit=100_000)
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except Elsewhere:
                continue  # another process took it meanwhile
            if table is not None and not table.state.match_over:
                self.kick_bots(table)
                resumed += 1
        return resumed

    async def expire(self, idle: float, now: float | None = None) -> list[str]:
        """Close every unfinished table that nobody has been connected to (no player, no
        watcher) and that saw no action, socket or claim for ``idle`` seconds: marked
        closed ("abandoned") and finished in the store, its driver stopped, dropped from
        memory and the lobby. Returns their ids. (A restart counts as activity: a table
        loaded again gets ``idle`` seconds afresh.)"""
        now = time.time() if now is None else now
        closed = []
        for table_id, table in list(self.tables.items()):
            if table.state.match_over or table.conns or now - table.active < idle:
                continue
            async with table.lock:
                if table.conns or now - table.active < idle or table.state.match_over:
                    continue  # someone came while the lock was awaited
                try:
                    await self.store.mark_closed(table_id, "abandoned", now)
                except StoreError as exc:
                    log.error("table %s could not be closed (tried later): %s", table_id, exc)
                    continue
            table.row.finished, table.row.finished_at = True, now
            table.row.closed = "abandoned"
            if table.driver is not None:
                table.driver.cancel()
            del self.tables[table_id]
            self.closed[table_id] = "abandoned"
            closed.append(table_id)
        if closed:
            self.changes += 1
            log.info("closed %d abandoned table(s): %s", len(closed), ", ".join(closed))
        return closed

    # -- creating --------------------------------------------------------------------

    async def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise RequestError("the request body must be a JSON object")
        unknown = sorted(
            set(body)
            - {"game", "players", "options", "seats", "public", "title", "seed", "settings"}
        )
        if unknown:
            raise RequestError(
                f"unknown field(s) {', '.join(unknown)}; fields are: game, players, options,"
                " seats, public, title, seed, settings"
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
        try:
            settings = check_settings(body.get("settings"), public)
        except SettingsError as exc:
            raise RequestError(str(exc)) from exc
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
        table_id = await self._new_id()
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
            settings=settings,
        )
        try:
            await self.store.create_table(row, owner=self.owner, ttl=self.lease_ttl)
        except StoreError as exc:
            log.error("a new %s table could not be stored: %s", name, exc)
            raise RequestError(
                "the table could not be stored (the database failed); try again",
                status=503,
                code="store_failed",
            ) from exc
        table = LiveTable(row=row, game=game, state=game.new_match(seed=seed))
        self._set_turn(table)
        self._own(table)
        self.changes += 1
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

    async def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                try:
                    if not await self.store.exists(table_id):
                        return table_id
                except StoreError as exc:
                    log.error("a new table id could not be checked: %s", exc)
                    raise RequestError(
                        "the table could not be stored (the database failed); try again",
                        status=503,
                        code="store_failed",
                    ) from exc

    # -- seats -----------------------------------------------------------------------

    async def claim(self, table: LiveTable, seat: int, body: Any) -> dict[str, Any]:
        if not 0 <= seat < table.row.players:
            raise RequestError(f"seat must be 0..{table.row.players - 1}", status=404)
        if not isinstance(body, dict):
            raise RequestError('the request body must be a JSON object like {"name": "Ana"}')
        name = check_name(body.get("name"))
        async with table.lock:  # two claims of one seat: the second finds it taken
            return await self._claim(table, seat, name)

    async def _claim(self, table: LiveTable, seat: int, name: str) -> dict[str, Any]:
        if not table.claimable(seat):
            raise RequestError(
                f"seat {seat} cannot be claimed: only unnamed human seats of public tables"
                " that are still playing can",
                status=409,
                code="conflict",
            )
        token = secrets.token_urlsafe(16)
        s = table.row.seats[seat]
        # Stored first: a seat is claimed in memory only once the database has it (a
        # failed write leaves the seat open, and no token nobody received works).
        await self._store_seat(table, seat, name, token_digest(token))
        s.name, s.token_hash = name, token_digest(token)
        self.changes += 1
        table.active = time.time()
        if seat in table.autoplay:  # the timer gave the open seat to a bot: the claimer plays
            table.autoplay.discard(seat)
            self._set_turn(table, acted=seat)
            self.broadcast(table)  # the turn and autoplay changed: a full state
        else:
            self.broadcast_seats(table)  # a name and the seat's claimable flag
        self.kick_bots(table)
        return {"seat": seat, "token": token, "join_url": f"/table/{table.row.id}#token={token}"}

    async def rename(self, table: LiveTable, seat: int, value: Any) -> None:
        name = check_name(value)
        s = table.row.seats[seat]
        async with table.lock:
            await self._store_seat(table, seat, name, s.token_hash)
            s.name = name
        self.broadcast_seats(table)

    async def _store_seat(
        self, table: LiveTable, seat: int, name: str, token_hash: str | None
    ) -> None:
        try:
            await self.store.set_seat(table.row.id, seat, name, token_hash)
        except StoreError as exc:
            log.error("table %s seat %d: the seat could not be stored: %s", table.row.id, seat, exc)
            raise RequestError(
                "the seat could not be stored (the database failed); nothing changed, try again",
                status=503,
                code="store_failed",
            ) from exc

    def lose(self, table: LiveTable) -> None:
        """Another process owns the table now (its lease was taken): stop running it and
        close its sockets with 1012 (service restart) so the pages reconnect, to whichever
        process will serve it."""
        table.gone = True
        table.wake.set()
        if self.tables.get(table.row.id) is table:
            del self.tables[table.row.id]
        for conn in list(table.conns):
            conn.close(1012)
        self.changes += 1

    def attach(self, table: LiveTable, conn: Connection) -> None:
        table.active = time.time()
        table.conns.add(conn)
        table.connected[conn.seat] = table.connected.get(conn.seat, 0) + 1
        conn.send(state_message(table, conn.seat))  # its own full view first
        self.broadcast_seats(table, told=conn)  # the others: the seat online, a watcher
        if conn.seat is not None:
            self.kick_bots(table)  # a person here may hold a bot's answer (defer)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        table.active = time.time()
        if conn in table.conns:
            table.conns.discard(conn)
            table.connected[conn.seat] -= 1
            seat = conn.seat
            pause = table.pause
            if (
                seat is not None
                and pause is not None
                and not table.connected[seat]
                and seat in pause.waiting
            ):
                # A person who left is not waited for; the pause may end: a full state.
                self._unwait(table, seat)
            else:
                self.broadcast_seats(table)  # the seat offline, one watcher fewer
                if seat is not None:
                    self.kick_bots(table)  # a bot may stop waiting for this person (defer)
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
            # A person who plays their own turn is back (as if they had sent "back").
            auto = seat in table.autoplay
            table.autoplay.discard(seat)
            try:
                await self._commit(table, seat, action)
            except RequestError:
                if auto:
                    table.autoplay.add(seat)
                raise

    async def _commit(self, table: LiveTable, seat: int, action: str | int) -> None:
        """Check, store, then apply and broadcast one action (the caller holds the lock).
        Memory never runs ahead of the database: a failed write changes nothing."""
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
        now = time.time()
        finished_at = now if new.match_over else None
        try:
            await self.store.append_action(
                table.row.id, table.version + 1, seat, text, finished_at, owner=self.owner
            )
        except LeaseLost as exc:
            log.error("table %s: another process owns it now; letting it go", table.row.id)
            self.lose(table)
            raise RequestError(
                "this table moved to another server process; reconnect",
                status=503,
                code="table_moved",
            ) from exc
        except StoreError as exc:
            log.error(
                "table %s seat %d: action %d (%r) could not be stored: %s",
                table.row.id,
                seat,
                table.version + 1,
                text,
                exc,
            )
            raise RequestError(
                "the action could not be stored (the database failed); it was not taken, try again",
                status=503,
                code="store_failed",
            ) from exc
        if finished_at is not None:
            table.row.finished, table.row.finished_at = True, finished_at
            self.changes += 1
        table.advance(new, seat, text)
        table.active = time.time()
        self._after_action(table, seat)
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
        if table.seats_due is not None:  # this state shows the seats too: no delta after it
            table.seats_due.cancel()
            table.seats_due = None
        cache: dict[int | None, str] = {}
        for conn in list(table.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = json.dumps(state_message(table, conn.seat))
            conn.send(text)

    def broadcast_seats(self, table: LiveTable, told: Connection | None = None) -> None:
        """Tell every socket of the table who sits where and who is connected (a name, a
        connection, a claim changed): one ``seats`` message, no cards, the same text for
        all. Changes within SEATS_DELAY make one message: a reconnect storm would
        otherwise send every socket a full state per connect and per disconnect.
        ``told``: a socket that has just been sent a full state (it needs no delta unless
        something else changes before the message goes)."""
        table.seats_known = {told} if told is not None else set()
        if table.seats_due is not None:
            return  # already on its way; it reads the table when it goes
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._send_seats(table)  # no loop (building the app): nobody to wait for
            return
        table.seats_due = loop.call_later(SEATS_DELAY, self._send_seats, table)

    @staticmethod
    def _send_seats(table: LiveTable) -> None:
        table.seats_due = None
        known, table.seats_known = table.seats_known, set()
        if not table.conns:
            return
        # The version is the table's now: every state queued before it is no newer, every
        # state queued after it no older (each outbox is FIFO), so a client merges it
        # into its newest state when the versions match.
        text = json.dumps(seats_message(table))
        for conn in list(table.conns):
            if conn not in known:
                conn.send(text)

    # -- pause, timer, autoplay, rematch -------------------------------------------

    def _after_action(self, table: LiveTable, seat: int) -> None:
        """The pause and the turn timer after ``seat``'s action (not yet broadcast)."""
        if table.pause is not None and seat in table.pause.waiting:
            self._unwait(table, seat, broadcast=False)
        if table.last is None or table.last["action"] is not None:
            table.defer = None  # a move (not partners' talk): a later bet waits afresh
        if table.state.match_over:
            table.pause = None
        elif table.ends_deal() and table.settings["dwell"] > 0:
            self._start_pause(table)
        self._set_turn(table, acted=seat)

    def _start_pause(self, table: LiveTable) -> None:
        """A deal ended: wait for every connected person's ``ready``; with nobody there,
        just a few seconds; never longer than the turn timer."""
        waiting = {s.seat for s in table.row.seats if table.person_here(s.seat)}
        now = time.monotonic()
        timer = table.settings["turn_timer"]
        if waiting:
            deadline = now + timer * self.timer_scale if timer else None
        else:
            deadline = now + NOBODY_PAUSE * self.timer_scale
        table.pause = Pause(waiting, deadline, persons=bool(waiting))

    def _unwait(self, table: LiveTable, seat: int, broadcast: bool = True) -> None:
        """``seat`` is no longer waited for; the pause ends when nobody is."""
        pause = table.pause
        assert pause is not None
        pause.waiting.discard(seat)
        if pause.persons and not pause.waiting:
            table.pause = None
            self._set_turn(table)
        if broadcast:
            self.broadcast(table)
            self.kick_bots(table)

    def _end_pause(self, table: LiveTable) -> None:
        table.pause = None
        self._set_turn(table)
        self.broadcast(table)
        self.kick_bots(table)

    def _set_turn(self, table: LiveTable, acted: int | None = None) -> None:
        """Start, keep or stop the turn timer for the seat to act now. It restarts when
        the seat to act changes or has just acted (a new decision)."""
        seat = table.state.to_act
        limit = table.settings["turn_timer"] * self.timer_scale
        if (
            not limit
            or seat is None
            or table.state.match_over
            or table.pause is not None
            or table.row.seats[seat].kind != "human"
            or seat in table.autoplay
        ):
            table.turn = None
        elif table.turn is None or table.turn.seat != seat or acted == seat:
            table.turn = Turn(seat, time.monotonic() + limit, limit)
        table.wake.set()

    def _take_over(self, table: LiveTable, seat: int) -> None:
        """The seat's timer ran out: a bot of the table's takeover level plays it."""
        log.info("table %s: seat %d timed out; a bot plays it", table.row.id, seat)
        table.autoplay.add(seat)
        table.turn = None
        self.broadcast(table)

    def ready(self, table: LiveTable, seat: int | None) -> bool:
        """``{"type": "ready"}``: the seat has read the deal's result. False: nothing to
        do (the table was not waiting for it)."""
        if seat is None:
            raise RequestError("watchers are not waited for", code="spectator")
        if table.pause is None or seat not in table.pause.waiting:
            return False
        self._unwait(table, seat)
        return True

    def back(self, table: LiveTable, seat: int | None) -> bool:
        """``{"type": "back"}``: the person plays the seat again (ends autoplay). False:
        nothing to do (the seat was not in autoplay)."""
        if seat is None:
            raise RequestError("watchers have no seat to come back to", code="spectator")
        if seat not in table.autoplay:
            return False
        table.autoplay.discard(seat)
        self._set_turn(table, acted=seat)
        self.broadcast(table)
        self.kick_bots(table)
        return True

    async def rematch(self, table: LiveTable, seat: int | None) -> str:
        """``{"type": "rematch"}`` once the match is over: a new table with the same game,
        options, settings, title, publicity and seats (the same token digests: every
        link works with the new id), and a new seed. Made once; later requests get the
        same table. Returns its id."""
        if seat is None:
            raise RequestError("watchers cannot ask for a rematch", code="spectator")
        if not table.state.match_over:
            raise RequestError(
                "rematch: the match is not over yet; ask once it has ended",
                code="illegal_action",
            )
        async with table.lock:  # two requests at once make one rematch
            if table.row.next is None:
                await self._make_rematch(table)
        self.broadcast(table)
        assert table.row.next is not None
        return table.row.next

    async def _make_rematch(self, table: LiveTable) -> None:
        old = table.row
        row = TableRow(
            id=await self._new_id(),
            game=old.game,
            players=old.players,
            options=dict(old.options),
            seed=self._rematch_seed(old.seed),
            title=old.title,
            public=old.public,
            created=time.time(),
            finished=False,
            seats=[SeatRow(s.seat, s.kind, s.level, s.name, s.token_hash) for s in old.seats],
            settings=dict(table.settings),
        )
        try:
            await self.store.create_table(
                row, rematch_of=old.id, owner=self.owner, ttl=self.lease_ttl
            )
        except StoreError as exc:
            log.error("table %s: the rematch could not be stored: %s", old.id, exc)
            raise RequestError(
                "the rematch could not be stored (the database failed); try again",
                status=503,
                code="store_failed",
            ) from exc
        old.next = row.id
        game = load_game(row.game, row.players, **row.options)
        new = LiveTable(row=row, game=game, state=game.new_match(seed=row.seed))
        self._set_turn(new)
        self._own(new)
        self.changes += 1
        self.kick_bots(new)
        log.info("table %s: rematch at %s", old.id, row.id)

    def _rematch_seed(self, seed: int) -> int:
        """A random seed; a server that accepts seeds (tests, demos) derives it from the
        old one, so a seeded match's rematch is reproducible too."""
        if not self.allow_seed:
            return secrets.randbits(63)
        digest = hashlib.sha256(f"{seed}:rematch".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    # -- the driver: bots, autoplay, the pause's and the timer's deadlines -------------

    def kick_bots(self, table: LiveTable) -> None:
        """Wake the table's driver (start it if it is not running)."""
        table.wake.set()
        if table.state.match_over:
            return
        if table.driver is not None and not table.driver.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (building the app): resume_all starts them
        task = loop.create_task(self._drive(table))
        table.driver = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, table: LiveTable) -> None:
        """Until the match ends: look at the table, do what is due (a bot's move, the
        end of a pause, a takeover), else sleep until the next deadline or a change."""
        while not table.state.match_over and not table.gone:
            table.wake.clear()
            wait: float | None = None  # None: until something changes
            try:
                now = time.monotonic()
                pause, turn, seat = table.pause, table.turn, table.state.to_act
                if pause is not None:
                    if pause.deadline is not None:
                        if pause.deadline <= now:
                            self._end_pause(table)
                            continue
                        wait = pause.deadline - now
                elif seat is not None and table.bot_plays(seat):
                    hold = self._defer(table, seat, now)
                    if hold <= 0:
                        await self._bot_move(table, seat)
                        continue
                    wait = hold
                elif turn is not None:
                    if turn.deadline <= now:
                        self._take_over(table, turn.seat)
                        continue
                    wait = turn.deadline - now
            except RequestError as exc:
                # The database failed (logged where it did): the move was not taken;
                # try again soon rather than leave the table stuck until a change.
                if table.gone:
                    return
                log.warning("table %s: %s; trying again in %g s", table.row.id, exc, RETRY)
                wait = RETRY
            except Exception:
                log.exception("table %s: the driver failed; trying again soon", table.row.id)
                wait = RETRY
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.wake.wait(), wait)

    def _defer(self, table: LiveTable, seat: int, now: float) -> float:
        """Seconds the bot at ``seat`` waits before answering a bet that a connected person
        of its team may answer too (Trionfetti's vega, Envite's bets): the person gets
        the first say, for DEFER seconds from the bet (partners' talk meanwhile does not
        restart it); 0: no wait."""
        state = table.state
        if table.answer_id == -1:  # once per table: the game's id of "accept", if it has one
            try:
                table.answer_id = state.string_to_action(ANSWER)
            except (InvalidActionError, ValueError):
                table.answer_id = None
        answer = table.answer_id
        if answer is None or answer not in state.legal_actions(seat):
            return 0.0
        if not any(
            other != seat and table.person_here(other) and answer in state.legal_actions(other)
            for other in range(table.row.players)
        ):
            return 0.0
        if table.defer is None:
            table.defer = now + DEFER * self.timer_scale
        return table.defer - now

    def _may_move(self, table: LiveTable, seat: int, version: int) -> bool:
        return (
            table.version == version
            and table.pause is None
            and not table.state.match_over
            and table.state.to_act == seat
            and table.bot_plays(seat)
        )

    async def _bot_move(self, table: LiveTable, seat: int) -> None:
        """One bot move for ``seat`` (dropped if the table moved on meanwhile)."""
        state, version = table.state, table.version
        if self.bot_delay > 0:
            await asyncio.sleep(self.bot_delay)
            if not self._may_move(table, seat, version):
                return
        s = table.row.seats[seat]
        level = (s.level if s.kind == "bot" else table.settings["takeover"]) or "normal"
        try:
            action = await self.bots.choose(
                table.row.game,
                table.row.players,
                table.row.options,
                level,
                bot_seed(table.row.seed, version, seat),
                state.observation(seat),
                where=f"table {table.row.id} seat {seat}",
            )
        except Exception:
            log.exception(
                "bot %s at table %s seat %d failed; playing its first legal move",
                level,
                table.row.id,
                seat,
            )
            action = state.action_to_string(state.legal_actions()[0])
        async with table.lock:
            if not self._may_move(table, seat, version):
                return  # someone acted (or came back) while the bot thought: look again
            try:
                await self._commit(table, seat, action)
            except RequestError as exc:
                if exc.code in ("store_failed", "table_moved"):
                    raise  # the driver waits and tries again (or the table is gone)
                log.exception(
                    "bot %s at table %s seat %d chose %r", level, table.row.id, seat, action
                )
                first = state.action_to_string(state.legal_actions()[0])
                await self._commit(table, seat, first)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
