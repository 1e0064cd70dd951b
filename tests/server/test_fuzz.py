"""Fuzzed input: whatever a client sends, the sender gets an error that says what was
wrong, the connection stays usable, and the table does not change."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from mazo.server.app import create_app
from mazo.server.limits import Limits

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(["type", "version", "action", "name", "extra"])
TYPES = st.sampled_from(
    ["act", "name", "ping", "sync", "ready", "back", "rematch", "ACT", "", "state", "error"]
)
MESSAGES = st.one_of(
    JSON_VALUES,
    st.dictionaries(FIELDS, JSON_VALUES, max_size=4),
    st.fixed_dictionaries(
        {"type": TYPES},
        optional={
            "version": st.one_of(st.integers(-3, 3), JSON_VALUES),
            "action": st.one_of(st.text(max_size=30), st.integers(-5, 100_000), JSON_VALUES),
            "name": st.one_of(st.text(max_size=50), JSON_VALUES),
        },
    ),
)
CODES = {
    "bad_message",
    "too_large",
    "stale_version",
    "invalid_action",
    "illegal_action",
    "spectator",
    "rate_limited",
}
FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def test_fuzzed_socket_messages_change_nothing(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0, allow_seed=True, bot_processes=False)
    with TestClient(app) as client:
        table = client.post(
            "/api/tables",
            json={"game": "escoba", "players": 2, "seed": 3, "seats": [{"kind": "human"}] * 2},
        ).json()
        view = client.get(f"/api/tables/{table['id']}").json()
        seat = view["observation"]["to_act"]
        token = table["seats"][seat]["token"]
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            first = ws.receive_json()
            assert first["type"] == "state"
            legal = first["observation"]["legal_actions"]

            def answer() -> dict[str, Any]:
                # Every message gets exactly one reply (a rename: the `seats` delta).
                message: dict[str, Any] = ws.receive_json()
                return message

            @FUZZ
            @given(MESSAGES)
            def one(message: Any) -> None:
                if isinstance(message, dict) and message.get("type") == "act":
                    if message.get("version") == 0 and message.get("action") in legal:
                        return  # a valid move: not what this test is about
                    if message.get("version") == 0 and isinstance(message.get("action"), int):
                        return  # an action id might be legal
                ws.send_text(json.dumps(message))
                reply = answer()
                if reply.get("code") == "rate_limited":
                    return  # hypothesis sends faster than anyone may
                if isinstance(message, dict) and message.get("type") in ("ping",):
                    assert reply == {"type": "pong"}
                    return
                if isinstance(message, dict) and message.get("type") in ("sync", "ready", "back"):
                    assert reply["type"] == "state" and reply["version"] == 0
                    return
                if (
                    isinstance(message, dict)
                    and message.get("type") == "name"
                    and reply["type"] == "seats"
                ):
                    assert reply["version"] == 0
                    return  # a valid name
                assert reply["type"] == "error", (message, reply)
                assert reply["code"] in CODES and reply["message"], reply
                assert reply["version"] == 0

            one()

            @FUZZ
            @given(st.binary(max_size=64) | st.text(max_size=64))
            def raw(data: bytes | str) -> None:
                try:
                    parsed = json.loads(data)
                except (ValueError, UnicodeDecodeError):
                    parsed = None
                if isinstance(parsed, dict) and parsed.get("type") in (
                    "ping",
                    "sync",
                    "name",
                    "ready",
                    "back",
                ):
                    return
                if isinstance(data, bytes):
                    ws.send_bytes(data)
                else:
                    ws.send_text(data)
                reply = answer()
                assert reply["type"] == "error" and reply["code"] in CODES

            raw()
            # Nothing changed, and the connection still plays.
            assert client.get(f"/api/tables/{table['id']}").json()["version"] == 0
            for _ in range(100):
                ws.send_json({"type": "act", "version": 0, "action": legal[0]})
                message = ws.receive_json()
                if message.get("code") != "rate_limited":
                    break
                time.sleep(0.1)  # the fuzzing spent this connection's allowance
            assert message["type"] == "state" and message["version"] == 1, message


def test_fuzzed_table_requests_are_refused_cleanly(tmp_path: Path) -> None:
    # hundreds of requests from one client: no creation limit (test_limits tests it)
    app = create_app(
        tmp_path / "t.sqlite3",
        bot_delay=0,
        bot_processes=False,
        limits=Limits(creates_per_minute=0),
    )
    with TestClient(app) as client:
        games = st.sampled_from(["briscola", "escoba", "envite", "trionfetti", "x", 3, None])
        seat = st.fixed_dictionaries(
            {"kind": st.sampled_from(["human", "bot", "robot", 1])},
            optional={
                "level": st.sampled_from(["easy", "expert", "ismcts", ""]),
                "name": JSON_VALUES,
            },
        )
        bodies = st.one_of(
            JSON_VALUES,
            st.fixed_dictionaries(
                {"game": games},
                optional={
                    "players": st.one_of(st.integers(0, 13), JSON_VALUES),
                    "options": st.one_of(
                        JSON_VALUES,
                        st.dictionaries(
                            st.sampled_from(
                                [
                                    "match_wins_target",
                                    "target_score",
                                    "chicos_to_win",
                                    "messages",
                                    "bad",
                                ]
                            ),
                            JSON_VALUES,
                            max_size=2,
                        ),
                    ),
                    "seats": st.one_of(JSON_VALUES, st.lists(seat, max_size=5)),
                    "public": JSON_VALUES,
                    "title": JSON_VALUES,
                    "settings": st.one_of(
                        JSON_VALUES,
                        st.dictionaries(
                            st.sampled_from(["dwell", "turn_timer", "takeover", "hints", "x"]),
                            st.one_of(
                                st.sampled_from([0, 0.8, 1.5, 3, 30, 60, "easy", True, False]),
                                JSON_VALUES,
                            ),
                            max_size=3,
                        ),
                    ),
                },
            ),
        )

        @FUZZ
        @given(bodies)
        def one(body: Any) -> None:
            before = len(client.get("/api/tables").json()["tables"])
            r = client.post(
                "/api/tables",
                content=json.dumps(body),
                headers={"Content-Type": "application/json"},
            )
            assert r.status_code in (201, 400), (body, r.status_code, r.text)
            if r.status_code == 400:
                assert r.json()["error"]
                assert len(client.get("/api/tables").json()["tables"]) == before

        one()
