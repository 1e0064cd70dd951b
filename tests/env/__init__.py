"""Tests of the research environments (``mazo.env``)."""

from mazo.games import GAMES

# Every registered game at every player count it allows: a new game or count is tested
# without editing a list.
CONFIGS = [(name, players) for name in sorted(GAMES) for players in GAMES[name].player_counts]
IDS = [f"{g}-{p}" for g, p in CONFIGS]
