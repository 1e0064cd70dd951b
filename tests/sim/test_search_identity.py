"""bench/search_identity.py: the fingerprint that says a faster search decides the same,
and the instruction count of the searches (no timing is checked)."""

from __future__ import annotations

import shutil

import pytest

from .bench_scripts import bench_script


def test_the_fingerprint_repeats_and_sees_a_changed_search() -> None:
    script = bench_script("search_identity")
    first = script.fingerprint("briscola", 2, 3, 10, "hard")
    assert script.fingerprint("briscola", 2, 3, 10, "hard") == first
    # More playouts a move (a paired search rounds them up to whole worlds: 10 and 11
    # are both 12 here) change the rewards, the Rng draws and so the hash.
    assert script.fingerprint("briscola", 2, 3, 11, "hard") == first
    assert script.fingerprint("briscola", 2, 3, 20, "hard") != first
    assert script.fingerprint("briscola", 4, 3, 10, "hard") != first


def test_the_work_run_searches_only_when_asked() -> None:
    script = bench_script("search_identity")
    assert script.search_positions("escoba", 2, 2, 5, search=False) == 0
    assert script.search_positions("escoba", 2, 2, 5, search=True) >= 2


def test_configurations_and_reports_are_read_or_refused_with_the_reason() -> None:
    script = bench_script("search_identity")
    assert script.parse_config("envite-8") == ("envite", 8)
    with pytest.raises(ValueError, match="GAME-PLAYERS"):
        script.parse_config("envite")
    assert script.instruction_total("==1== I   refs:      3,304,123,456\n") == 3_304_123_456
    with pytest.raises(ValueError, match="I refs"):
        script.instruction_total("no report")
    with pytest.raises(SystemExit):
        script.main(["fingerprint", "--config", "nope"])


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_of_the_searches_alone() -> None:
    script = bench_script("search_identity")
    # A search's first call pays one-time costs (imports, memos built), and the two runs
    # subtracted differ by up to tens of millions of instructions on a busy machine
    # (5 samples measure about 36 million here, 600 about 960 million, 2,000 about 2.9
    # billion). So the check is that the count follows the work, with room for that noise:
    # 595 more samples a move add far more than the noise, and 5 are a small part of 600.
    small = script.count_instructions("briscola", 2, 1, 5)
    more = script.count_instructions("briscola", 2, 1, 600)
    assert more - small > 500_000_000
    assert small < more // 5
