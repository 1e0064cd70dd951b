import mazo


def test_list_games_has_briscola() -> None:
    assert "briscola" in mazo.list_games()
