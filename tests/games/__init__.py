"""Per-game scenario tests."""
