"""Progress on stderr: a rich bar on a terminal, plain lines in a log, none for machines."""

from __future__ import annotations

import argparse
import io
import sys

import pytest

from mazo.cli.common import ProgressLines, progress_mode, with_progress


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_at_each_tenth_and_at_the_end() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = ProgressLines("self-play envite", stream, every=60.0, clock=clock)
    for done in range(1, 101):
        clock.now += 3.0  # 3 s a deal: 100 deals take 5 minutes
        progress(done, 100)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10  # 10%, 20%, ... 100%: one each, nothing between
    assert lines[0] == "self-play envite: 10/100 (10%), 30s elapsed, about 4m30s left"
    assert lines[4] == "self-play envite: 50/100 (50%), 2m30s elapsed, about 2m30s left"
    assert lines[-1] == "self-play envite: 100/100 (100%), 5m00s elapsed"


def test_a_quick_job_writes_its_end_only() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = ProgressLines("sim", stream, clock=clock)
    for done in range(1, 11):
        clock.now += 0.4  # a tenth every 0.4 s: within the 5 s gap
        progress(done, 10)
    assert stream.getvalue() == "sim: 10/10 (100%), 4s elapsed\n"


def test_a_slow_tenth_still_writes_every_interval_and_nothing_repeats() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = ProgressLines("train", stream, every=60.0, clock=clock)
    progress(0, 1000)  # the start is no news
    clock.now += 59.0
    progress(1, 1000)  # within the minute and the first tenth: quiet
    clock.now += 2.0
    progress(2, 1000)  # a minute since the last line: written
    progress(2, 1000)  # the same count again: not written twice
    clock.now += 3600.0
    progress(3, 1000)
    assert stream.getvalue().splitlines() == [
        "train: 2/1000 (0%), 1m01s elapsed, about 8h27m left",
        "train: 3/1000 (0%), 1h01m elapsed, about 337h57m left",
    ]


def test_modes() -> None:
    def args(**flags: bool) -> argparse.Namespace:
        return argparse.Namespace(**{"json": False, "no_progress": False, **flags})

    assert progress_mode(args(json=True)) is None  # stderr stays clean for machines
    assert progress_mode(args(no_progress=True)) is None
    assert progress_mode(args()) == "lines"  # pytest's stderr is no terminal


def test_with_progress_lines_and_none(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)

    def job(progress: object) -> str:
        assert callable(progress)
        for done in range(1, 5):
            progress(done, 4)
        return "result"

    assert with_progress("lines", "sim briscola", 4, job) == "result"
    lines = err.getvalue().splitlines()
    assert [t.split(",")[0] for t in lines] == ["sim briscola: 4/4 (100%)"]  # quick: its end
    assert with_progress(None, "quiet", 4, lambda progress: progress) is None
    assert err.getvalue().splitlines() == lines  # nothing more written
