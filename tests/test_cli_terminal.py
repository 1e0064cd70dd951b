"""The terminal client as a new user meets it (issue 19): what it says during play.

Tests that need a real terminal (line editing, single-key replay steps) run ``mazo``
under a pseudo-terminal (stdlib :mod:`pty`); the others pipe input through
:func:`conftest.run_cli`.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from conftest import run_cli

pytestmark = pytest.mark.usefixtures("plain_terminal")

# Briscola's order within a suit, weakest first (rules/briscola.md): the oracle below.
_BRISCOLA_ORDER = ["2", "4", "5", "6", "7", "J", "Q", "K", "3", "1"]
CHOICE = re.compile(r"^\s+(\d+)\) ([1-7JQK][OCEB])\b", re.M)


def _briscola(tmp_path: Path, *extra: str, seed: int = 7, players: int = 2) -> list[str]:
    return ["play", "briscola", "--players", str(players), "--seed", str(seed), *extra]


def _blocks(out: str) -> list[list[tuple[int, str]]]:
    """The numbered card choices of each prompt, in order."""
    blocks = []
    for chunk in out.split("Your hand — your choices:")[1:]:
        block = chunk.split("Your move [")[0]
        blocks.append([(int(n), card) for n, card in CHOICE.findall(block)])
    return blocks


def _briscola_winner(cards: list[str], trump: str) -> int:
    def key(code: str) -> tuple[int, int]:
        strength = _BRISCOLA_ORDER.index(code[:-1])
        if code[-1] == trump:
            return (2, strength)
        return (1, strength) if code[-1] == cards[0][-1] else (0, 0)

    return max(range(len(cards)), key=lambda i: (key(cards[i]), -i))


def test_briscola_says_the_card_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(_briscola(tmp_path), capsys, monkeypatch, "1\n" * 6 + "q\n")
    assert code == 0
    drawn = re.findall(r"^You draw ([1-7JQK][OCEB]) \(", out, re.M)
    assert len(drawn) >= 4
    # Each card said is in the next hand shown, and was not in the one before.
    blocks = _blocks(out)
    for card in drawn[:4]:
        after = next(i for i, b in enumerate(blocks) if card in dict((c, n) for n, c in b))
        assert after > 0 and card not in [c for _, c in blocks[after - 1]]


def test_briscola_numbers_do_not_jump_after_a_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cards kept keep their order; the drawn card is numbered last."""
    _, out, _ = run_cli(_briscola(tmp_path, seed=11), capsys, monkeypatch, "1\n" * 15 + "q\n")
    blocks = _blocks(out)
    assert len(blocks) >= 10
    for before, after in itertools.pairwise(blocks):
        kept = [c for _, c in before if c in [c2 for _, c2 in after]]
        cards = [c for _, c in after]
        assert cards[: len(kept)] == kept, (before, after)


def test_briscola_marks_the_card_winning_the_trick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run_cli(
        _briscola(tmp_path, "--players", "4", "--cards", "code"),
        capsys,
        monkeypatch,
        "1\n" * 12 + "q\n",
    )
    marked = 0
    for table in out.split("\nDeal ")[1:]:  # each table names the trump in force
        trump = re.search(r"^Trump: \w+ — indicator [1-7JQK]([OCEB])", table, re.M)
        found = re.search(r"^Trick so far: (.*) — best so far: (\w+) \(", table, re.M)
        if trump and found:
            cards = [p.rsplit(" ", 1)[1] for p in found.group(1).split("; ")]
            assert found.group(2) == cards[_briscola_winner(cards, trump.group(1))]
            marked += 1
    assert marked >= 5


def test_envite_marks_the_card_winning_the_trick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import mazo.games.envite as envite

    argv = ["play", "envite", "-n", "6", "--seed", "3", "--vs", "random", "--cards", "code"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n" * 40 + "q\n")
    marked = 0
    for deal in out.split("Vira: ")[1:]:
        vira = deal[:2]
        for played, best in re.findall(
            r"^Trick \d+ so far: (.*) — best so far: (\w+) \(", deal, re.M
        ):
            cards = tuple(envite.DECK.parse(p.rsplit(" ", 1)[1]) for p in played.split("; "))
            pos = envite.trick_winner(cards, 6, envite.DECK.parse(vira) // 10)
            assert best == envite.DECK.format(cards[pos])
            marked += 1
    assert marked >= 3
