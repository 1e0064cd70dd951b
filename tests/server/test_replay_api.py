"""Replays of finished matches (``GET /api/tables/{id}/replay``), the list of recently
finished tables (``GET /api/tables?status=finished``) and the replay page's route.

A replay's steps must be the very states the seat was sent at the table (observation,
events, last action, history), for every seat and the watchers, and name no card the
seat could not know at that version (the leak test's per-game models say which)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from models import cards_named, deck_codes
from starlette.testclient import TestClient

import mazo
from mazo.server.store import Store

from .harness import new_table
from .test_leak import knowledge

FAST = {"dwell": 0}
QUICK: dict[str, tuple[int, dict[str, Any]]] = {
    "briscola": (2, {"match_wins_target": 2}),
    "escoba": (2, {"target_score": 6}),
    "envite": (4, {"chicos_to_win": 1}),
    "trionfetti": (4, {"games_to_win_match": 1, "points_to_win_game": 4}),
}
REPORT = ("observation", "events", "last", "history")


def first_choice(obs: dict[str, Any]) -> str:
    """A plain move for the person: a card when one is legal, else the first action."""
    legal: list[str] = obs["legal_actions"]
    cards = [a for a in legal if a[-1:] in "OCEB" and " " not in a]
    return (cards or legal)[0]


def play_out(
    client: TestClient, game: str, seed: int, *, public: bool = False, watch: bool = False
) -> tuple[str, dict[int | None, dict[int, dict[str, Any]]]]:
    """A match of one person (seat 0, playing ``first_choice``) and ``normal`` bots,
    played to its end through the socket; the table id and, per socket (seat 0, and the
    watchers' when ``watch``), the last state message it got at each version."""
    players, options = QUICK[game]
    table = new_table(
        client,
        game=game,
        players=players,
        seed=seed,
        options=options,
        public=public,
        title=f"{game} {seed}",
        settings=FAST,
        seats=[{"kind": "human", "name": "Ana"}]
        + [{"kind": "bot", "level": "normal"}] * (players - 1),
    )
    seen: dict[int | None, dict[int, dict[str, Any]]] = {0: {}, None: {}}
    token = table["seats"][0]["token"]
    watcher = client.websocket_connect(f"/ws/tables/{table['id']}") if watch else None
    try:
        if watcher is not None:
            watcher.__enter__()
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            while True:
                message = ws.receive_json()
                if message["type"] != "state":
                    continue
                seen[0][message["version"]] = message
                obs = message["observation"]
                if obs["match_over"]:
                    break
                if obs["to_act"] == 0:
                    ws.send_json(
                        {"type": "act", "version": message["version"], "action": first_choice(obs)}
                    )
        if watcher is not None:
            while True:
                message = watcher.receive_json()
                if message["type"] == "state":
                    seen[None][message["version"]] = message
                    if message["observation"]["match_over"]:
                        break
    finally:
        if watcher is not None:
            watcher.__exit__(None, None, None)
    return table["id"], seen


def replay(client: TestClient, table_id: str, seat: int | None, deal: int) -> dict[str, Any]:
    query = f"deal={deal}" + ("" if seat is None else f"&seat={seat}")
    r = client.get(f"/api/tables/{table_id}/replay?{query}")
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def every_step(client: TestClient, table_id: str, seat: int | None) -> dict[int, dict[str, Any]]:
    """The steps of every deal, by version (a deal's first step is its dealing, which is
    also the previous deal's last step: the same message)."""
    first = replay(client, table_id, seat, 1)
    steps: dict[int, dict[str, Any]] = {}
    for span in first["deals"]:
        answer = first if span["deal"] == 1 else replay(client, table_id, seat, span["deal"])
        assert answer["deal"] == span["deal"] and answer["seat"] == seat
        versions = [s["version"] for s in answer["steps"]]
        assert versions == list(range(span["first"] - 1, span["last"] + 1))
        for step in answer["steps"]:
            assert step["type"] == "state" and step["seat"] == seat
            if step["version"] in steps:
                assert step == steps[step["version"]]
            steps[step["version"]] = step
    return steps


def engine_states(db: Path, table_id: str) -> list[Any]:
    """The match's state at every version, rebuilt from the store by the engine."""
    loaded = Store(db).load_table(table_id)
    assert loaded is not None
    row, actions = loaded
    state = mazo.load_game(row.game, row.players, **row.options).new_match(seed=row.seed)
    states = [state]
    for a in actions:
        state = state.apply(a.action, seat=a.seat)
        states.append(state)
    return states


def test_replay_steps_are_the_states_the_seat_was_sent(client: TestClient, db: Path) -> None:
    table_id, seen = play_out(client, "envite", 3, watch=True)
    states = engine_states(db, table_id)
    final = len(states) - 1
    for seat in (0, None):
        steps = every_step(client, table_id, seat)
        assert sorted(steps) == list(range(final + 1))  # every version, once
        assert len(seen[seat]) > final // 2  # the sockets saw most versions (bots may move first)
        for version, sent in seen[seat].items():
            step = steps[version]
            for key in REPORT:
                assert step[key] == sent[key], f"seat {seat}, version {version}: {key} differs"
            assert step["table"]["status"] == ("finished" if version == final else "playing")
    # Seats nobody watched over a socket: each step is the engine's observation then.
    for seat in (1, 2, 3, None):
        steps = every_step(client, table_id, seat)
        for version, step in steps.items():
            assert step["observation"] == states[version].observation(seat), (seat, version)


@pytest.mark.parametrize("game", sorted(QUICK))
def test_no_replay_step_names_a_card_its_seat_may_not_know(
    client: TestClient, db: Path, game: str
) -> None:
    table_id, _ = play_out(client, game, 11)
    allowed, shown = knowledge(db, table_id)
    players, options = QUICK[game]
    codes = deck_codes(mazo.load_game(game, players, **options))
    checked = 0
    for seat in [*range(players), None]:
        for v, step in every_step(client, table_id, seat).items():
            now = json.dumps({k: step[k] for k in ("observation", "table", "history")})
            leaked = cards_named(now.replace(table_id, "<id>"), codes) - allowed[v][seat]
            assert not leaked, f"seat {seat} would be shown {sorted(leaked)} at version {v}"
            report = json.dumps({k: step[k] for k in ("events", "last")})
            known = allowed[v][seat] | shown[v][seat] | (allowed[v - 1][seat] if v else set())
            leaked = cards_named(report.replace(table_id, "<id>"), codes) - known
            assert not leaked, f"seat {seat} would be told {sorted(leaked)} at version {v}"
            checked += 1
    assert checked >= (players + 1) * len(allowed)


def test_a_replay_waits_for_the_end_of_the_match(client: TestClient) -> None:
    table = new_table(client, seed=2, seats=[{"kind": "human"}, {"kind": "human"}])
    r = client.get(f"/api/tables/{table['id']}/replay?seat=0")
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404


def test_bad_seats_and_deals_are_refused_saying_what_is_allowed(client: TestClient) -> None:
    table_id, _ = play_out(client, "briscola", 5)
    deals = replay(client, table_id, None, 1)["deals"]
    for query, words in [
        ("seat=2", "seat must be a seat number from 0 to 1"),
        ("seat=-1", "from 0 to 1"),
        ("seat=one", "from 0 to 1"),
        (f"deal={len(deals) + 1}", f"deal must be a deal number from 1 to {len(deals)}"),
        ("deal=0", "deal must be"),
        ("deal=x", "deal must be"),
    ]:
        r = client.get(f"/api/tables/{table_id}/replay?{query}")
        assert r.status_code == 400, query
        assert words in r.json()["error"], (query, r.json())
    # The watchers' view is the default; deal 1 starts at the dealing (version 0).
    r = client.get(f"/api/tables/{table_id}/replay")
    assert r.status_code == 200
    body = r.json()
    assert body["seat"] is None and body["deal"] == 1 and body["steps"][0]["version"] == 0
    assert body["steps"][0]["last"] is None and body["table"]["status"] == "finished"


def test_recently_finished_public_tables_newest_first(client: TestClient, db: Path) -> None:
    first, _ = play_out(client, "briscola", 6, public=True)
    private, _ = play_out(client, "briscola", 7, public=False)
    new_table(client, public=True, seats=[{"kind": "human", "name": "A"}, {"kind": "human"}])
    r = client.get("/api/tables?status=finished")
    assert r.status_code == 200
    listed = r.json()["tables"]
    assert [t["id"] for t in listed] == [first]
    entry = listed[0]
    assert entry["status"] == "finished" and entry["result"]["winner"] in (0, 1)
    assert entry["seats"][0]["name"] == "Ana"
    # 21 more finished public tables (copies of the first, stored one after another):
    # the newest 20 are listed, most recently finished first.
    store = Store(db)
    loaded = store.load_table(first)
    assert loaded is not None
    row, actions = loaded
    copies = []
    for i in range(21):
        row.id = f"copy{i:02d}"
        store.create_table(row)
        for a in actions:
            store.append_action(row.id, a.n, a.seat, a.action)
        store.mark_finished(row.id, time.time())
        copies.append(row.id)
        time.sleep(0.002)
    listed = client.get("/api/tables?status=finished").json()["tables"]
    assert [t["id"] for t in listed] == copies[::-1][:20]
    assert private not in {t["id"] for t in listed}
    # The open list is unchanged; other statuses are refused, saying which exist.
    assert all(t["status"] == "playing" for t in client.get("/api/tables").json()["tables"])
    r = client.get("/api/tables?status=over")
    assert r.status_code == 400 and "'finished'" in r.json()["error"]


def test_the_replay_page_is_the_table_page(client: TestClient) -> None:
    r = client.get("/replay/anything")
    assert r.status_code == 200 and 'src="/static/js/table.js"' in r.text
