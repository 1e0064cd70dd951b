"""Simulations: bots play many matches with seat rotation; results with 95% intervals.

The runner needs only the engine and the bots (no third-party packages); the ``mazo sim``
command in :mod:`mazo.cli.sim` adds the progress bar and the table.  Round-robin
tournaments on duplicate deals, with Elo ratings, are in :mod:`mazo.sim.tournament`
(``mazo tournament``); :mod:`mazo.sim.plot` draws them (matplotlib, optional).
"""

from mazo.sim.elo import fit_elo
from mazo.sim.runner import SimResult, lineup, play_match, run
from mazo.sim.stats import BotStats, RunningMean, mean_interval, wilson_interval
from mazo.sim.tournament import TournamentResult, run_tournament

__all__ = [
    "BotStats",
    "RunningMean",
    "SimResult",
    "TournamentResult",
    "fit_elo",
    "lineup",
    "mean_interval",
    "play_match",
    "run",
    "run_tournament",
    "wilson_interval",
]
