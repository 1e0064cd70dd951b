"""A PNG picture of a tournament: win rates with 95% intervals, and the Elo ratings.

matplotlib is optional (``pip install 'mazo[plot]'``) and imported only when a plot is
drawn.  The figure is drawn with the Agg canvas directly (no pyplot, no window, no
global backend switch), so it works on servers and in worker-less scripts alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mazo.core.errors import RulesError
from mazo.sim.elo import ANCHOR
from mazo.sim.tournament import TournamentResult

__all__ = ["INSTALL_HINT", "check_plotting", "plot_tournament"]

INSTALL_HINT = "pip install 'mazo[plot]'"


def check_plotting() -> None:
    """Raise :class:`mazo.RulesError` saying how to install matplotlib if it is missing
    (call it before a long tournament, not after)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise RulesError(f"plots need matplotlib: {INSTALL_HINT}") from None


def plot_tournament(result: TournamentResult, path: str | Path) -> Path:
    """Write the tournament's figure as a PNG to ``path``; return the path.

    Left: for every pair, each bot's win rate per side played against the other, with
    its 95% Wilson interval and the 1/sides baseline.  Right: the Elo ratings.
    """
    check_plotting()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    palette = [f"C{k % 10}" for k in range(len(result.bots))]  # one colour per bot
    colour = {b.label: palette[k] for k, b in enumerate(result.bots)}
    rows: list[tuple[str, float, float, float, str]] = []  # label, rate, below, above, colour
    for pair in result.pairs:
        for me, other in ((pair.a, pair.b), (pair.b, pair.a)):
            s = pair.stats[me]
            lo, hi = s.win_ci95
            rows.append(
                (f"{me}\nvs {other}", s.win_rate, s.win_rate - lo, hi - s.win_rate, colour[me])
            )
    elo = result.elo_table()

    height = max(3.0, 0.45 * len(rows) + 1.5, 0.4 * len(elo) + 1.5)
    fig = Figure(figsize=(11.0, height), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    _win_rates(left, rows, result)
    _ratings(right, elo, colour)
    fig.suptitle(
        f"{result.game}, {result.players} players: {result.games} deal sets per pair, "
        f"{len(result.rotations)} rotations, {result.matches} matches, seed {result.seed}"
    )
    out = Path(path)
    fig.savefig(out, format="png", dpi=100)
    return out


def _win_rates(
    ax: Any, rows: list[tuple[str, float, float, float, str]], result: TournamentResult
) -> None:
    ys = list(range(len(rows)))[::-1]  # first pair on top
    ax.barh(
        ys,
        [r[1] for r in rows],
        xerr=[[r[2] for r in rows], [r[3] for r in rows]],
        color=[r[4] for r in rows],
        capsize=4,
        height=0.7,
    )
    ax.axvline(1.0 / result.sides, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8)
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(f"win rate per side played (95% Wilson interval; dashed: 1/{result.sides})")
    ax.set_title("head to head")


def _ratings(ax: Any, elo: list[tuple[str, float]], colour: dict[str, str]) -> None:
    ys = list(range(len(elo)))[::-1]  # best on top
    ratings = [r for _, r in elo]
    ax.barh(
        ys,
        [r - ANCHOR for r in ratings],
        left=ANCHOR,
        color=[colour[label] for label, _ in elo],
        height=0.7,
    )
    for y, rating in zip(ys, ratings, strict=True):
        ax.annotate(
            f"{rating:.0f}",
            (rating, y),
            xytext=(4 if rating >= ANCHOR else -4, 0),
            textcoords="offset points",
            ha="left" if rating >= ANCHOR else "right",
            va="center",
            fontsize=8,
        )
    ax.axvline(ANCHOR, color="grey", linewidth=1)
    spread = max([abs(r - ANCHOR) for r in ratings] + [50.0])
    ax.set_xlim(ANCHOR - 1.3 * spread, ANCHOR + 1.3 * spread)
    ax.set_yticks(ys, [label for label, _ in elo], fontsize=8)
    ax.set_xlabel(f"Elo (mean {ANCHOR:.0f})")
    ax.set_title("ratings")
