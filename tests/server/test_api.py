"""The HTTP API of docs/protocol.md: games, creating and listing tables, claiming seats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mazo
from mazo.server.app import MAX_BODY, create_app
from mazo.server.bots import SERVER_BOTS
from mazo.server.store import Store

from .harness import new_table


def error_of(client: TestClient, body: Any, status: int = 400) -> str:
    r = client.post(
        "/api/tables",
        content=body if isinstance(body, bytes) else json.dumps(body),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == status, r.text
    message: str = r.json()["error"]
    return message


def test_games_lists_every_game_with_its_player_counts_options_and_the_bot_levels(
    client: TestClient,
) -> None:
    answer = client.get("/api/games").json()
    assert [g["name"] for g in answer["games"]] == mazo.list_games()
    by_name = {g["name"]: g for g in answer["games"]}
    assert by_name["briscola"]["players"] == [2, 3, 4, 6]
    assert by_name["envite"]["players"] == [4, 6, 8, 10, 12]
    assert by_name["briscola"]["teams"] == {"2": False, "3": False, "4": True, "6": True}
    options = {o["name"]: o for o in by_name["briscola"]["options"]}
    assert options["match_wins_target"]["default"] == 3
    assert options["match_wins_target"]["allowed"] == [3, 2]
    assert answer["bots"] == list(SERVER_BOTS)


def test_a_created_table_gives_a_token_to_each_human_seat_and_none_to_bots(
    client: TestClient, db: Path
) -> None:
    answer = new_table(
        client,
        game="briscola",
        players=4,
        seats=[
            {"kind": "human", "name": "Ana"},
            {"kind": "bot", "level": "easy"},
            {"kind": "human"},
            {"kind": "bot", "level": "expert"},
        ],
        title="Friday club",
    )
    seats = answer["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human", "bot"]
    assert seats[0]["name"] == "Ana" and seats[2]["name"] == ""
    assert {s["seat"] for s in seats if "token" in s} == {0, 2}
    assert seats[0]["token"] != seats[2]["token"]
    assert seats[0]["join_url"] == f"/table/{answer['id']}#token={seats[0]['token']}"
    assert seats[3]["level"] == "expert"
    assert answer["watch_url"] == f"/table/{answer['id']}"
    # The store keeps digests, never the tokens themselves.
    text = Path(db).read_bytes()
    assert seats[0]["token"].encode() not in text


def test_the_public_view_is_the_spectators_observation(client: TestClient) -> None:
    answer = new_table(client, seed=11, seats=[{"kind": "human"}, {"kind": "human"}])
    view = client.get(f"/api/tables/{answer['id']}").json()
    expected = mazo.load_game("briscola", players=2).new_match(seed=11).observation(None)
    assert view["observation"] == expected
    assert view["version"] == 0 and view["status"] == "playing"
    assert view["history"] == [] and view["last"] is None
    assert "token" not in json.dumps(view)
    assert client.get("/api/tables/nope").status_code == 404


def test_only_public_unfinished_tables_are_listed(client: TestClient) -> None:
    public = new_table(client, public=True, seats=[{"kind": "human"}, {"kind": "bot"}])
    new_table(client, public=False, seats=[{"kind": "human"}, {"kind": "bot"}])
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [public["id"]]
    assert listed[0]["seats"][0]["claimable"] is True
    assert listed[0]["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "level": "normal",
        "name": "normal bot",
        "connected": True,
        "claimable": False,
    }


def test_claiming_an_open_seat_gives_a_token_once(client: TestClient) -> None:
    table = new_table(client, public=True, seats=[{"kind": "human"}, {"kind": "human"}])
    seats = table["seats"]
    assert all("token" not in s for s in seats), "open seats of a public table have no token yet"
    url = f"/api/tables/{table['id']}/seats/1/claim"
    r = client.post(url, json={"name": "Luis"})
    assert r.status_code == 200, r.text
    assert r.json()["join_url"] == f"/table/{table['id']}#token={r.json()['token']}"
    again = client.post(url, json={"name": "Eve"})
    assert again.status_code == 409 and "cannot be claimed" in again.json()["error"]
    view = client.get(f"/api/tables/{table['id']}").json()
    assert view["seats"][1]["name"] == "Luis" and view["seats"][1]["claimable"] is False
    assert client.post(url.replace("/1/", "/0/"), json={"name": ""}).status_code == 400
    assert client.post(url.replace("/1/", "/7/"), json={"name": "X"}).status_code == 404


def test_a_private_table_has_nothing_to_claim(client: TestClient) -> None:
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    r = client.post(f"/api/tables/{table['id']}/seats/1/claim", json={"name": "Luis"})
    assert r.status_code == 409


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "poker"}, "games are: briscola, envite, escoba, trionfetti"),
        ({"game": "briscola", "players": 5}, "2, 3, 4, 6 players"),
        ({"game": "briscola", "options": {"match_wins_target": 9}}, "match_wins_target"),
        ({"game": "briscola", "options": {"colour": "red"}}, "colour"),
        ({"game": "briscola", "options": []}, "options must be a JSON object"),
        ({"game": "briscola", "players": 2, "seats": [{"kind": "human"}]}, "a list of 2 seats"),
        (
            {
                "game": "briscola",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "ismcts"}],
            },
            "levels are: random, easy, normal, hard, expert",
        ),
        (
            {
                "game": "briscola",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "os:system"}],
            },
            "unknown bot level",
        ),
        (
            {"game": "briscola", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]},
            "at least one human",
        ),
        (
            {"game": "briscola", "players": 2, "seats": [{"kind": "alien"}, {"kind": "bot"}]},
            "kind must be",
        ),
        (
            {
                "game": "briscola",
                "players": 2,
                "seats": [{"kind": "human", "name": "x" * 41}, {"kind": "bot"}],
            },
            "1 to 40",
        ),
        ({"game": "briscola", "public": "yes"}, "public must be true or false"),
        ({"game": "briscola", "seed": -1}, "seed must be an int"),
        ({"game": "briscola", "sneaky": 1}, "unknown field(s) sneaky"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_tables_are_refused_with_what_is_allowed(
    client: TestClient, body: Any, says: str
) -> None:
    before = client.get("/api/tables").json()
    assert says in error_of(client, body)
    assert client.get("/api/tables").json() == before


def test_bodies_that_are_not_json_or_too_big_are_refused(client: TestClient) -> None:
    assert "not JSON" in error_of(client, b"{nope")
    assert "over" in error_of(client, b" " * (MAX_BODY + 1), status=413)


def test_a_seed_is_refused_unless_the_server_allows_it(db: Path) -> None:
    app = create_app(db, bot_delay=0, bot_processes=False)
    with TestClient(app) as c:
        r = c.post("/api/tables", json={"game": "briscola", "seed": 3})
        assert r.status_code == 400 and "--allow-seed" in r.json()["error"]
        assert Store(db).table_ids() == []


def test_health_and_pages(client: TestClient) -> None:
    assert client.get("/api/health").json()["ok"] is True
    table = new_table(client)
    for path in ("/", f"/table/{table['id']}"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
