"""Bot tests: per-game heuristics (``test_<game>.py``), search, solver, levels, plugins."""
