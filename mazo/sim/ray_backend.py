"""Play simulation and tournament matches on a Ray cluster (``--backend ray``).

Every match of ``mazo sim`` (:class:`mazo.sim.runner.SimJob`) and of ``mazo tournament``
(:class:`mazo.sim.tournament.MatchJob`) is a self-contained job: the game, its options,
the bot on each seat and every seed.  This module ships those jobs, a chunk at a time,
as Ray tasks and brings back only what the tallies need (and the records, when asked),
so the results are exactly the local backend's for the same seed: the tallies are
always added up in job order, on the caller's side.

Ray is imported only here, and only when the backend is used (``pip install
'mazo[ray]'``).  Where the cluster is:

* ``address=None``: what ``ray.init()`` does by itself: the cluster named by the
  ``RAY_ADDRESS`` environment variable, else one started on this machine by
  ``ray start --head``, else a new Ray instance for this run;
* ``"local"``: always a new Ray instance on this machine, stopped at the end;
* ``"auto"``, ``"HOST:PORT"``, ``"ray://HOST:10001"``: an existing cluster.

If this process is already connected to Ray (a notebook, a test fixture, an
application that called ``ray.init`` itself), that connection is used as it is and the
address is not looked at; otherwise the connection made here is closed at the end.
Workers must be able to import mazo, and any plugin bot module
(``package.module:factory``): on a local instance they run in this directory with this
Python; on a cluster, install them on every node.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any, TypeVar

from mazo.core.errors import RulesError
from mazo.sim.jobs import (
    MatchJob,
    MatchOutcome,
    MatchSummary,
    Progress,
    SimJob,
    match_summary,
    play_chunk,
    play_sim_job,
)

__all__ = [
    "RayNotInstalledError",
    "import_ray",
    "play_sim_jobs",
    "play_tournament_jobs",
    "ray_session",
    "run_chunks",
]

J = TypeVar("J")
R = TypeVar("R")

INSTALL_HINT = "pip install 'mazo[ray]'"


class RayNotInstalledError(RulesError, ImportError):
    """``--backend ray`` without Ray installed."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayNotInstalledError` saying how to get it."""
    try:
        import ray
    except ImportError as err:
        raise RayNotInstalledError(
            f"the ray backend needs Ray, which is not installed ({err}): {INSTALL_HINT}"
        ) from None
    return ray


@contextmanager
def ray_session(address: str | None = None) -> Iterator[ModuleType]:
    """Ray, connected: the connection this process already has, else a new one to
    ``address`` (see the module docstring), closed when the block ends."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address:
        _probe(address)
    try:
        ray.init(address=address or None)
    except ConnectionError as err:
        raise RulesError(f"cannot reach the Ray cluster at {address!r}: {err}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


_HOST_PORT = re.compile(r"^(?:ray://)?\[?([^\[\]/]+?)\]?:(\d+)/?$")


def _probe(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a HOST:PORT nobody listens on (``ray.init`` would retry for minutes)."""
    match = _HOST_PORT.match(address.strip())
    if match is None:
        return  # "local", "auto" and the like: Ray resolves them
    host, port = match.group(1), int(match.group(2))
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as err:
        raise RulesError(
            f"cannot reach the Ray cluster at {address}: {err.strerror or err} "
            "(start one with 'ray start --head', or give --address local)"
        ) from None


def _chunk_size(total: int, cpus: int) -> int:
    """Chunks small enough to balance the load and move the progress bar, big enough
    for a task's overhead (a few ms) not to matter; at most 16 matches."""
    return max(1, min(16, total // (max(1, cpus) * 8)))


def run_chunks(
    fn: Callable[[Sequence[J]], list[R]],
    items: Sequence[J],
    progress: Progress | None = None,
    address: str | None = None,
) -> list[R]:
    """``fn`` over ``items`` in chunks, each chunk a Ray task; the results in item order.

    ``fn`` must be a module-level function (workers import it by name) that returns one
    result per item.  ``progress(done, total)`` is called here as chunks finish.
    """
    total = len(items)
    if total == 0:
        return []
    with ray_session(address) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = _chunk_size(total, cpus)
        chunks = [list(items[k : k + size]) for k in range(0, total, size)]
        task = ray.remote(fn)
        refs = [task.remote(chunk) for chunk in chunks]
        index = {ref: k for k, ref in enumerate(refs)}
        results: list[list[R] | None] = [None] * len(chunks)
        pending = list(refs)
        done = 0
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for ref in finished:
                    k = index[ref]
                    results[k] = ray.get(ref)
                    done += len(chunks[k])
                    if progress is not None:
                        progress(done, total)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
    return [result for chunk in results if chunk is not None for result in chunk]


# -- the two kinds of job ---------------------------------------------------------------


def play_tournament_jobs(
    jobs: Sequence[MatchJob], progress: Progress | None = None, address: str | None = None
) -> list[MatchOutcome]:
    """Every tournament match played on Ray; outcomes in job order."""
    return run_chunks(play_chunk, jobs, progress, address)


SimOutcome = tuple[MatchSummary, dict[str, Any] | None]


def _play_sim_chunk(jobs: Sequence[tuple[SimJob, bool]]) -> list[SimOutcome]:
    """On a worker: play simulation matches; each one's summary, and its record if
    asked (records are JSON data: they travel where a state's long log would not)."""
    out: list[SimOutcome] = []
    for job, keep in jobs:
        state = play_sim_job(job)
        out.append((match_summary(state), state.record() if keep else None))
    return out


def play_sim_jobs(
    jobs: Sequence[SimJob],
    progress: Progress | None = None,
    address: str | None = None,
    records: bool = False,
) -> list[SimOutcome]:
    """Every simulation match played on Ray: ``(summary, record or None)`` in job order."""
    return run_chunks(_play_sim_chunk, [(job, records) for job in jobs], progress, address)
