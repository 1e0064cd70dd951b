"""Simulations: bots play many matches with seat rotation; results with 95% intervals.

The runner needs only the engine and the bots (no third-party packages); the ``mazo sim``
command in :mod:`mazo.cli.sim` adds the progress bar and the table.
"""

from mazo.sim.runner import SimResult, lineup, play_match, run
from mazo.sim.stats import BotStats, wilson_interval

__all__ = ["BotStats", "SimResult", "lineup", "play_match", "run", "wilson_interval"]
