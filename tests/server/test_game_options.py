"""What the lobby form learns about options from ``GET /api/games``: named choices for an
open option (Trionfetti's starting ranking), and the first dealer, a 0-based seat or the
default, which the Envite rules also spell ``"random"``."""

from __future__ import annotations

from typing import Any

import pytest

import mazo
from mazo.games.trionfetti import PRESETS

from .harness import new_table


def option(client: Any, game: str, name: str) -> dict[str, Any]:
    games = client.get("/api/games").json()["games"]
    spec = next(g for g in games if g["name"] == game)
    found: dict[str, Any] = next(o for o in spec["options"] if o["name"] == name)
    return found


def test_the_starting_ranking_lists_the_presets_by_id(client: Any) -> None:
    spec = option(client, "trionfetti", "initial_ranking")
    assert spec["allowed"] is None  # any valid list of levels is allowed too
    assert spec["choices"] == list(PRESETS)
    assert spec["default"] in spec["choices"]
    # options without named choices say so
    assert option(client, "briscola", "first_dealer")["choices"] is None
    assert option(client, "envite", "first_dealer")["choices"] is None


@pytest.mark.parametrize("game,players", [("envite", 4), ("briscola", 2), ("escoba", 3)])
def test_first_dealer_random_is_the_default_spelled_out(game: str, players: int) -> None:
    drawn = mazo.load_game(game, players=players, first_dealer="random")
    assert drawn.options["first_dealer"] is None
    plain = mazo.load_game(game, players=players)
    for seed in (1, 2, 3):
        a = drawn.new_match(seed=seed).observation(None)["dealer"]
        assert a == plain.new_match(seed=seed).observation(None)["dealer"]
    with pytest.raises(mazo.RulesError, match="random"):
        mazo.load_game(game, players=players, first_dealer="somebody")


def test_a_table_takes_the_lobby_values(client: Any) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 3
    t = new_table(
        client,
        game="trionfetti",
        players=4,
        seats=seats,
        options={"initial_ranking": "bomba", "first_dealer": 1},
    )
    view = client.get(f"/api/tables/{t['id']}").json()
    assert view["observation"]["dealer"] == 1 and view["observation"]["ranking_name"] == "bomba"
    t = new_table(client, game="envite", players=4, seats=seats, options={"first_dealer": "random"})
    assert client.get(f"/api/tables/{t['id']}").json()["observation"]["dealer"] in range(4)
