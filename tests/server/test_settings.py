"""Table settings (docs/protocol.md): validation that says what is allowed, resolved
defaults in every summary, the settings column added to old database files, the finished
time, and the card-free deal reports in the history."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mazo
from mazo.server.app import create_app
from mazo.server.schema import SCHEMA_VERSION
from mazo.server.store import SCHEMA, Store
from mazo.server.tables import LiveTable

from .harness import new_table

DEFAULTS = {"dwell": 1.5, "turn_timer": 0, "takeover": "normal", "hints": False}


def test_defaults_are_resolved_and_sent_in_every_summary(client: TestClient) -> None:
    private = new_table(client)
    view = client.get(f"/api/tables/{private['id']}").json()
    assert view["settings"] == DEFAULTS
    assert view["turn"] is None and view["ready"] is None
    assert view["next"] is None and view["finished"] is None
    assert view["seats"][0]["autoplay"] is False
    public = new_table(client, public=True)
    listed = client.get("/api/tables").json()["tables"]
    assert [t["settings"] for t in listed] == [{**DEFAULTS, "turn_timer": 60}]
    assert listed[0]["id"] == public["id"]
    url = f"/ws/tables/{private['id']}?token={private['seats'][0]['token']}"
    with client.websocket_connect(url) as ws:
        assert ws.receive_json()["table"]["settings"] == DEFAULTS


def test_given_settings_are_kept_and_survive_a_restart(db: Path) -> None:
    chosen = {"dwell": 0.8, "turn_timer": 120, "takeover": "expert", "hints": True}
    app = create_app(db, bot_delay=0, bot_processes=False)
    with TestClient(app) as c:
        table = new_table(c, settings=chosen)
        assert c.get(f"/api/tables/{table['id']}").json()["settings"] == chosen
        partly = new_table(c, public=True, settings={"dwell": 3.0, "turn_timer": 30})
    with TestClient(create_app(db, bot_delay=0, bot_processes=False)) as c:
        assert c.get(f"/api/tables/{table['id']}").json()["settings"] == chosen
        got = c.get(f"/api/tables/{partly['id']}").json()["settings"]
        assert got == {**DEFAULTS, "dwell": 3, "turn_timer": 30}
        assert json.dumps(got["dwell"]) == "3"  # 3.0 is stored as the allowed 3


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ([], "settings must be a JSON object"),
        (
            {"speed": 1},
            "unknown setting(s) speed; settings are: dwell, turn_timer, takeover, hints",
        ),
        (
            {"dwell": 2},
            "settings.dwell must be one of 0, 0.8, 1.5, 3 (seconds; 0 is instant), not 2",
        ),
        ({"dwell": "1.5"}, "settings.dwell must be one of 0, 0.8, 1.5, 3"),
        ({"dwell": True}, "settings.dwell must be one of"),
        (
            {"turn_timer": 45},
            "settings.turn_timer must be one of 0, 30, 60, 120 (seconds; 0 is off)",
        ),
        ({"turn_timer": None}, "settings.turn_timer must be one of"),
        (
            {"takeover": "random"},
            "settings.takeover must be one of 'easy', 'normal', 'hard', 'expert', not 'random'",
        ),
        ({"hints": "yes"}, "settings.hints must be one of false, true, not 'yes'"),
        ({"hints": 1}, "settings.hints must be one of false, true"),
    ],
)
def test_bad_settings_are_refused_with_what_is_allowed(
    client: TestClient, settings: Any, says: str
) -> None:
    r = client.post("/api/tables", json={"game": "briscola", "settings": settings})
    assert r.status_code == 400, r.text
    assert says in r.json()["error"]
    assert Store(client.app.state.manager.store.path).table_ids() == []  # type: ignore[attr-defined]


def test_a_public_table_needs_a_turn_timer(client: TestClient) -> None:
    """Anyone may sit down at a public table and leave: it must never wait forever."""
    r = client.post(
        "/api/tables", json={"game": "briscola", "public": True, "settings": {"turn_timer": 0}}
    )
    assert r.status_code == 400, r.text
    assert "a public table needs a turn timer" in r.json()["error"]
    assert "30, 60 or 120" in r.json()["error"]
    assert Store(client.app.state.manager.store.path).table_ids() == []  # type: ignore[attr-defined]
    private = client.post("/api/tables", json={"game": "briscola", "settings": {"turn_timer": 0}})
    assert private.status_code == 201, private.text


def old_database(path: Path) -> tuple[str, str, float]:
    """A database as an earlier mazo serve wrote it (no settings column, user_version 0):
    one finished table (a whole match) and one still playing. Returns their ids and the
    time of the finished table's last action."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    rng = random.Random(4)
    game = mazo.load_game("briscola", 2, match_wins_target=2)
    state = game.new_match(seed=9)
    rows = []
    at = 1_700_000_000.0
    while not state.match_over:
        seat = state.to_act
        action = state.action_to_string(rng.choice(state.legal_actions()))
        state = state.apply(action, seat=seat)
        at += 1
        rows.append(("done", len(rows) + 1, seat, action, at))
    for table_id, finished in (("done", 1), ("open", 0)):
        db.execute(
            "INSERT INTO tables VALUES (?, 'briscola', 2, ?, 9, '', 0, ?, ?)",
            (table_id, json.dumps({"match_wins_target": 2}), at - 1000, finished),
        )
        db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            [(table_id, 0, "human", None, "Ana", "x" * 64), (table_id, 1, "bot", "easy", "", None)],
        )
    db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    return "done", "open", at


def test_an_old_database_file_is_migrated_and_its_tables_still_open(db: Path) -> None:
    done, playing, last_at = old_database(db)
    store = Store(db)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    loaded = store.load_table(done)
    assert loaded is not None
    row, actions = loaded
    assert row.settings == {} and row.next is None
    assert row.finished and row.finished_at == last_at  # the last action's time
    store.close()
    Store(db).close()  # opening again migrates nothing twice
    with TestClient(create_app(db, bot_delay=0, bot_processes=False)) as c:
        view = c.get(f"/api/tables/{done}").json()
        assert view["status"] == "finished" and view["version"] == len(actions)
        assert view["finished"] == "2023-11-14T22:" + view["finished"][14:]
        assert view["settings"] == DEFAULTS
        other = c.get(f"/api/tables/{playing}").json()
        assert other["status"] == "playing" and other["finished"] is None


def test_a_finished_match_has_its_end_time(client: TestClient) -> None:
    table = new_table(
        client,
        seed=3,
        options={"match_wins_target": 2},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
        settings={"dwell": 0},
    )
    url = f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    with client.websocket_connect(url) as ws:
        while True:
            message = ws.receive_json()
            obs = message["observation"]
            if obs["match_over"]:
                break
            assert message["table"]["finished"] is None
            if obs["to_act"] == 0:
                ws.send_json(
                    {
                        "type": "act",
                        "version": message["version"],
                        "action": obs["legal_actions"][0],
                    }
                )
    finished = message["table"]["finished"]
    assert finished is not None and finished >= message["table"]["created"]
    assert client.get(f"/api/tables/{table['id']}").json()["finished"] == finished


def test_the_history_has_each_deal_report_without_card_names() -> None:
    """Envite with every hand shown at a deal's end: the event names the hands, the history
    keeps the report (reason, bet, tricks...) and leaves the cards out."""
    game = mazo.load_game("envite", 4, reveal_at_deal_end=True)
    state = game.new_match(seed=2)
    table = LiveTable(row=None, game=game, state=state)  # type: ignore[arg-type]
    rng = random.Random(1)
    ends: list[dict[str, Any]] = []
    while len(ends) < 2:
        seat = table.state.to_act
        action = table.state.action_to_string(rng.choice(table.state.legal_actions()))
        table.advance(table.state.apply(action, seat=seat), seat, action)
        ends += [e for e in table.fresh if e["type"] == "hand_end"]
    assert all(e["detail"]["revealed"] for e in ends)
    for entry, event in zip(table.history, ends, strict=True):
        detail = dict(event["detail"])
        del detail["revealed"]
        detail.pop("card", None)
        assert entry["detail"] == detail
        assert entry["detail"]["reason"] and "scores" in entry["detail"]
