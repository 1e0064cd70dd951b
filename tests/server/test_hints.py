"""Hints on the table socket (``{"type": "hint"}``): only at tables whose settings allow
them, only for a seat with a move to make, answered to that connection alone with the
``normal`` bot's very choice (same observation, same seed) and one line of why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mazo
from mazo.bots import make_bot
from mazo.server.bots import bot_seed

from .harness import new_table

DICTIONARIES = {
    lang: json.loads((Path(mazo.__file__).parent / "web" / "i18n" / f"{lang}.json").read_text())
    for lang in ("en", "es", "it", "ja")
}
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "briscola": (4, {"match_wins_target": 2}),
    "escoba": (2, {"target_score": 6}),
    "envite": (4, {"chicos_to_win": 1}),
    "trionfetti": (4, {"games_to_win_match": 1, "points_to_win_game": 4}),
}


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind or message["type"] == "error":
            return message


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hint_is_the_normal_bots_legal_choice_with_a_reason(
    client: TestClient, game: str
) -> None:
    players, options = GAMES[game]
    seed = 40
    table = new_table(
        client,
        game=game,
        players=players,
        seed=seed,
        options=options,
        settings={"hints": True, "dwell": 0},
        seats=[{"kind": "human", "name": "Ana"}]
        + [{"kind": "bot", "level": "normal"}] * (players - 1),
    )
    rules = mazo.load_game(game, players, **options)
    token = table["seats"][0]["token"]
    hints = 0
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        state = next_of(ws, "state")
        while hints < 12:
            obs = state["observation"]
            if obs["match_over"]:
                break
            if obs["to_act"] != 0:
                state = next_of(ws, "state")
                continue
            ws.send_json({"type": "hint"})
            answer = next_of(ws, "hint")
            # a state for the same version may come first (a seat's connection, a name)
            assert answer["type"] == "hint", answer
            assert answer["version"] == state["version"]
            action = answer["action"]
            assert action in obs["legal_actions"]
            bot = make_bot("normal", rules, seed=bot_seed(seed, state["version"], 0))
            assert action == rules.action_to_string(bot.choose(obs))
            reason = answer["reason"]
            assert reason["key"].startswith(f"hint.{game}.")
            assert (reason["key"], reason["params"]) == tuple(bot.explain(obs, action))
            assert all(reason["key"] in words for words in DICTIONARIES.values())
            hints += 1
            ws.send_json({"type": "act", "version": state["version"], "action": action})
            version = state["version"]
            while state["version"] == version:
                state = next_of(ws, "state")
    assert hints >= 3


def test_hints_off_and_nothing_to_hint_are_refused(client: TestClient) -> None:
    # Hints off (the default): refused, saying so.
    table = new_table(client, seed=3, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(
        f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    ) as ws:
        next_of(ws, "state")
        ws.send_json({"type": "hint"})
        error = next_of(ws, "hint")
        assert error["type"] == "error" and error["code"] == "hints_off"
    # Hints on: the seat not to play has nothing to hint; a watcher gets none.
    table = new_table(
        client, seed=3, settings={"hints": True}, seats=[{"kind": "human"}, {"kind": "human"}]
    )
    waiting = 1 - client.get(f"/api/tables/{table['id']}").json()["observation"]["to_act"]
    token = table["seats"][waiting]["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        next_of(ws, "state")
        ws.send_json({"type": "hint"})
        error = next_of(ws, "hint")
        assert error["type"] == "error" and error["code"] == "not_your_turn"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        next_of(ws, "state")
        ws.send_json({"type": "hint"})
        error = next_of(ws, "hint")
        assert error["type"] == "error" and error["code"] == "spectator"
