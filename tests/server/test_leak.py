"""No message the server sends names a card its recipient may not know.

Random matches are played over real sockets by one client per seat (acting at random,
out of turn too, now and then talking to partners) plus a watcher.  Afterwards the
table's stored actions are replayed through the engine and, at every version, the
conformance suite's per-game model (written from rules/<game>.md) says which cards each
seat and a spectator may know; every state and error message a client got at that
version must name only those.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from models import MODELS, Position, cards_named, deck_codes

import mazo
from mazo.server.store import ActionRow, Store, TableRow

from .harness import Client, create_table, running_server

CASES = [
    ("briscola", 2, {}),
    ("briscola", 3, {}),
    ("briscola", 4, {"signals_enabled": True, "match_wins_target": 2}),
    ("escoba", 2, {"target_score": 11}),
    ("escoba", 4, {"target_score": 11}),
    ("envite", 4, {}),
    ("envite", 6, {"chicos_to_win": 1, "renuncio_mode": "penalize"}),
    ("trionfetti", 4, {"games_to_win_match": 1}),
]


async def play_randomly(
    address: str,
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    spread: list[str] | None = None,
) -> tuple[str, list[Client]]:
    """Create the table at ``address`` and play it at random; seat ``i``'s socket goes
    to ``spread[i % len(spread)]`` (several server processes), the watcher's to the
    last one."""
    table = await create_table(
        address,
        {
            "game": game,
            "players": players,
            "options": options,
            "seed": seed,
            "seats": [{"kind": "human", "name": f"p{i}"} for i in range(players)],
        },
    )
    rules = mazo.load_game(game, players, **options)
    talk = {rules.action_to_string(a) for a in rules.info.message_actions}
    where = spread or [address]
    clients = [
        await Client.open(where[i % len(where)], table["id"], s["token"])
        for i, s in enumerate(table["seats"])
    ]
    watcher = await Client.open(where[-1], table["id"])
    rng = random.Random(seed)
    done = asyncio.Event()

    async def drive(client: Client) -> None:
        acted = -1
        while not done.is_set():
            message = client.latest
            assert message is not None
            obs = message["observation"]
            if obs["match_over"]:
                done.set()
                return
            legal = obs["legal_actions"]
            moves = [a for a in legal if a not in talk]
            if legal and message["version"] != acted:
                mine = obs["to_act"] == client.seat
                if mine or rng.random() < 0.1:
                    pool = moves if moves and rng.random() < 0.9 else legal
                    acted = message["version"]
                    await client.act(rng.choice(pool))
            with contextlib.suppress(TimeoutError):
                await client.receive(timeout=0.5)

    async def watch() -> None:
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                await watcher.receive(timeout=0.5)

    await asyncio.wait_for(asyncio.gather(*(drive(c) for c in clients), watch()), 240)
    for c in [*clients, watcher]:
        await c.close()
    return table["id"], [*clients, watcher]


Knowledge = list[dict[int | None, set[str]]]


def knowledge(db: Path, table_id: str) -> tuple[Knowledge, Knowledge]:
    loaded = Store(db).load_table(table_id)
    assert loaded is not None
    return knowledge_of(*loaded)


def knowledge_of(row: TableRow, actions: list[ActionRow]) -> tuple[Knowledge, Knowledge]:
    """Per version, per seat (None: a spectator): the cards it may know; and the cards
    the action that made the version showed it in passing: plays are face up in every
    game, and partners show each other their hands (Trionfetti's sharing) -- which a deal's
    end may have made old news by the next version."""
    game = mazo.load_game(row.game, row.players, **row.options)
    model = MODELS[row.game]
    memory = model.new_memory()
    codes = deck_codes(game)
    state = game.new_match(seed=row.seed)
    out = []
    seats: list[int | None] = [*range(row.players), None]
    shown: Knowledge = [{s: set() for s in seats}]
    for i in range(len(actions) + 1):
        if i:
            a = actions[i - 1]
            before = len(state.events)
            state = state.apply(a.action, seat=a.seat)
            passing: dict[int | None, set[str]] = {s: set() for s in seats}
            for e in state.events[before:]:
                if e["type"] == "play" and "audience" not in e:
                    for s in seats:
                        passing[s] |= cards_named(json.dumps(e), codes)
                elif e["type"] == "share":
                    # A hand shown to partners only: the sharer's team, nobody else.
                    team = {s for s in range(row.players) if s % 2 == e["seat"] % 2}
                    assert set(e["audience"]) == team, e
                    for s in team:
                        passing[s] |= set(e["cards"])
            shown.append(passing)
        obs = {s: state.observation(s) for s in seats}
        named = {s: cards_named(json.dumps(obs[s]), codes) for s in seats}
        pos = Position(state, state.events, obs, named)
        model.check_position(pos, memory)
        out.append({s: model.may_know(pos, s, memory) for s in seats})
    assert state.match_over
    return out, shown


@pytest.mark.parametrize("seed", [31, 32, 33])
@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=lambda v: str(v))
def test_no_message_names_a_card_its_seat_may_not_know(
    tmp_path: Path, game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    db = tmp_path / "tables.sqlite3"
    codes = deck_codes(mazo.load_game(game, players, **options))
    with running_server(db) as address:
        table_id, clients = asyncio.run(play_randomly(address, game, players, options, seed))
    allowed, shown = knowledge(db, table_id)
    check_messages(table_id, clients, allowed, shown, codes)


def check_messages(
    table_id: str, clients: list[Client], allowed: Knowledge, shown: Knowledge, codes: Any
) -> None:
    """Every state and error each client got names only cards its seat may know."""
    checked = 0
    for client in clients:
        seat = client.seat
        for text in client.texts:
            message = json.loads(text)
            if message["type"] != "state":
                continue  # errors: checked below
            v = message["version"]
            # The view of the table now: only what the seat may know now.
            now = {k: message[k] for k in ("observation", "table", "history")}
            # The table's id is random URL-safe text: "x-3E_q" would read as a card.
            text = json.dumps(now).replace(table_id, "<table id>")
            leaked = cards_named(text, codes) - allowed[v][seat]
            assert not leaked, f"seat {seat} was shown {sorted(leaked)} at version {v}"
            # The report of the action that made this version (its events, as the seat
            # saw them, and the action): what the seat knew just before or knows now, and
            # what that action showed it in passing (a deal's last card, a partner's hand
            # shown at a deal's end, which the next deal's view no longer holds).
            report = {k: message[k] for k in ("events", "last")}
            known = allowed[v][seat] | shown[v][seat] | (allowed[v - 1][seat] if v else set())
            text = json.dumps(report).replace(table_id, "<table id>")
            leaked = cards_named(text, codes) - known
            assert not leaked, f"seat {seat} was told {sorted(leaked)} at version {v}: {report}"
            checked += 1
        assert client.texts, "every client heard from the table"
    assert checked >= len(allowed)
    # Refusals only ever answer stale versions here (every action was legal when chosen).
    for client in clients:
        assert all(e["code"] in ("stale_version", "illegal_action") for e in client.errors)
        for e in client.errors:
            assert not cards_named(e["message"], codes) - allowed[e["version"]][client.seat]
