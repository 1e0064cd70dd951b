"""The terminal client as a new user meets it (issue 19): what it says during play.

Tests that need a real terminal (line editing, single-key replay steps) run ``mazo``
under a pseudo-terminal (stdlib :mod:`pty`); the others pipe input through
:func:`conftest.run_cli`.
"""

from __future__ import annotations

import itertools
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

pytestmark = pytest.mark.usefixtures("plain_terminal")

# Briscola's order within a suit, weakest first (rules/briscola.md): the oracle below.
_BRISCOLA_ORDER = ["2", "4", "5", "6", "7", "J", "Q", "K", "3", "1"]
CHOICE = re.compile(r"^\s+(\d+)\) ([1-7JQK][OCEB])\b", re.M)
# The heading of the numbered choices, with the hand among them or not.
CHOICES = re.compile(r"Your (?:hand — your )?choices:")


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


@pytest.mark.parametrize("game", ["briscola", "escoba", "envite", "trionfetti"])
def test_every_game_numbers_the_hand_in_the_order_it_came(game: str) -> None:
    """One mechanism for all four games, not a flag one game sets: the cards in hand are
    numbered in the order they came, whatever order the engine keeps them in."""
    import mazo
    from mazo.cli.common import Output
    from mazo.cli.play import Session

    g = mazo.load_game(game)
    names = {s: "random" for s in range(1, g.players)}
    session = Session(g, 0, {}, names, 1, Output(color=False))
    session.hand = ["KB", "1O"]  # 1O came after KB (a draw): the engine lists it first
    obs = {"hand": ["1O", "KB"], "legal_actions": ["1O", "KB"]}
    assert session.choices(obs) == ["KB", "1O"]
    # The hand line shows the same order as the numbers.
    assert (
        session._table_lines(obs)
        == session.text.observation({**obs, "hand": ["KB", "1O"]}, session.view).splitlines()
    )


@pytest.mark.parametrize(("game", "players"), [("envite", 6), ("trionfetti", 4)])
def test_hand_order_is_stable_through_a_deal(
    game: str, players: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games that deal every card at once: the cards kept keep their order (and the
    hand line's) from one prompt to the next, so a card's number never moves up."""
    argv = ["play", game, "-n", str(players), "--seed", "5", "--vs", "random"]
    argv += ["--cards", "code", "--pause", "never"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n2\n3\n" * 14 + "q\n")
    hands = []
    for block in CHOICES.split(out)[1:]:
        cards = [
            c
            for _, c in re.findall(
                r"^\s+(\d+)\) (10[OCEB]|[1-9JQK][OCEB])\b", block.split("Your move [")[0], re.M
            )
        ]
        if cards:
            hands.append(cards)
    assert len(hands) >= 6
    for before, after in itertools.pairwise(hands):
        kept = [c for c in before if c in after]
        assert [c for c in after if c in before] == kept, (before, after)


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


@pytest.mark.parametrize("game", ["envite", "trionfetti"])
def test_prompt_range_counts_what_is_shown(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Messages wait behind 'm': the prompt's range ends at the last choice on screen."""
    argv = ["play", game, "--seed", "3", "--vs", "random", "--pause", "never"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n" * 30 + "q\n")
    checked = 0
    for block in re.split(r"^Your choices:$", out, flags=re.M)[1:]:
        shown = [int(n) for n in re.findall(r"^\s+(\d+)\) ", block.split("Your ")[0], re.M)]
        top = re.search(r"Your (?:move|choice) \[1(?:-(\d+))?,", block)
        assert top and shown
        assert int(top.group(1) or 1) == max(shown), block
        checked += 1
    assert checked >= 5


# -- under a pseudo-terminal --------------------------------------------------------------

ESC = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def in_pty(
    argv: list[str],
    steps: list[tuple[bytes, bytes]],
    cols: int = 80,
    env: dict[str, str] | None = None,
    timeout: float = 20.0,
    keys_mode: bool = False,
) -> bytes:
    """``mazo ARGV`` on a pseudo-terminal ``cols`` wide: for each step, wait until its
    text appears (after the previous step's) and type its keys.  Returns all output;
    a step that never comes leaves the rest untyped (the assertions then fail).
    ``keys_mode``: also wait until the program has turned line buffering off (a key
    typed before that would sit in the terminal's line buffer)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    child_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    child_env.update({"TERM": "xterm-256color", **(env or {})})
    code = "import sys; from mazo.cli.main import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=child_env,
        start_new_session=True,
    )
    os.close(slave)
    out = b""
    mark = 0

    def read(until: bytes | None) -> bool:
        nonlocal out
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if until is not None and until in out[mark:]:
                return True
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    return until is None
                if not chunk:
                    return until is None
                out += chunk
        return False

    try:
        for wait, keys in steps:
            if not read(wait):
                break
            mark = out.index(wait, mark) + len(wait)
            deadline = time.monotonic() + timeout
            while keys_mode and termios.tcgetattr(master)[3] & termios.ICANON:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            os.write(master, keys)
        read(None)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(master)
    return out


def _plain(raw: bytes) -> str:
    return ESC.sub(b"", raw).decode("utf-8", "replace").replace("\r", "")


PLAY = ["play", "briscola", "-n", "2", "--seed", "7", "--vs", "random"]
TURN = b"Your move ["


def test_arrow_keys_edit_the_line_and_recall_history() -> None:
    """readline at the prompt: left/right move in the line, up recalls the last one."""
    raw = in_pty(
        PLAY,
        [
            (TURN, b"s\r"),  # show the table
            (TURN, b"\x1b[A\r"),  # up: 's' again
            (TURN, b"q\x1b[D\x1b[C\r"),  # q, left, right: still 'q'
        ],
    )
    text = _plain(raw)
    assert "^[[" not in text and "Not understood" not in text
    assert text.count("Your hand — your choices:") == 3
    assert "You left the match." in text


def test_lines_wrap_between_words_at_the_terminal_width() -> None:
    raw = in_pty(PLAY, [(TURN, b"1\r"), (TURN, b"q\r")], cols=50)
    lines = _plain(raw).split("\n")
    assert max(len(line) for line in lines) <= 50
    # The trump line is longer than 50: it is on two lines, broken between words.
    assert any(re.match(r"Trump: \w+ — indicator", line) for line in lines)
    assert "You left the match." in _plain(raw)
    # Errors too (stderr), and a line typed that is not understood.
    raw = in_pty(["play", "brscola"], [], cols=40)
    lines = _plain(raw).split("\n")
    assert max(len(line) for line in lines) <= 40 and "did you mean" in _plain(raw)


def test_wrapped_lines_continue_indented() -> None:
    """A line wider than the terminal goes on indented (rich alone would start its second
    line at column 0): Envite's list of team messages at 60 columns."""
    argv = ["play", "envite", "--seed", "3", "--vs", "random", "--pause", "never"]
    raw = in_pty(argv, [(b"quit]: ", b"m\r"), (b"quit]: ", b"q\r")], cols=60)
    block = _plain(raw).split("Messages to your team")[1].split("Your move [")[0]
    lines = block.split("\n")[1:-1]
    assert len(lines) > 18 and max(len(line) for line in lines) <= 60, block
    wrapped = [line for line in lines if not re.match(r"^ +\d+\) ", line)]
    assert wrapped and all(line.startswith("     ") for line in wrapped), block


def test_a_long_prompt_breaks_between_words() -> None:
    """Envite's pause prompt is longer than 50 columns: its last words go on a line of
    their own instead of the terminal breaking 'q quit' in the middle."""
    argv = ["play", "envite", "--seed", "1", "--vs", "random", "--pause", "card"]
    raw = in_pty(argv, [(b"quit]: ", b"s\r"), (b"quit]: ", b"q\r")], cols=50)
    lines = _plain(raw).split("\n")
    assert "You left the match." in lines
    prompts = [line for line in lines if "quit]: " in line]
    assert prompts and all(line.startswith("quit]: ") or " q quit]: " in line for line in prompts)
    assert max(len(line) for line in lines) <= 50


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["tournament"]])
def test_help_wraps_between_words(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The examples and notes after the options fit the terminal (argparse's width), so
    the terminal breaks no word; the text is the same."""
    monkeypatch.setenv("COLUMNS", "500")
    _, wide, _ = run_cli([*command, "--help"], capsys, monkeypatch)
    for columns in (80, 50):
        monkeypatch.setenv("COLUMNS", str(columns))
        _, out, _ = run_cli([*command, "--help"], capsys, monkeypatch)
        assert max(len(line) for line in out.splitlines()) <= columns, out
        assert "".join(out.split()) == "".join(wide.split())  # the same text


def test_result_tables_cut_no_number_at_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """mazo tournament's table at 80 columns: headers wrap, "51.0-100.0%" is not cut
    to "51.0-100…" (rich's way of making a table fit)."""
    pytest.importorskip("rich")
    from mazo.cli.common import Output, print_table

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr("mazo.cli.common.isatty", lambda stream: True)  # lines wrap
    headers = ["bot", "wins", "win rate", "95% CI", "card pts/deal ±95%"]
    headers += ["deals won ±95%", "dup b/e/w"]
    rows = [
        ["heuristic", "4", "100.0%", "51.0-100.0%", "84.4 ±15.0", "3.00 ±0.00", "2/0/0"],
        ["random", "0", "0.0%", "0.0-49.0%", "35.6 ±15.0", "0.50 ±0.57", "0/0/2"],
    ]
    print_table(Output(), "random vs heuristic", headers, rows, rich=True)
    out = capsys.readouterr().out
    assert "51.0-100.0%" in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_suits_in_colour_on_a_terminal_unless_no_color() -> None:
    # A card code right after a foreground colour (31 red ... 34 blue), bold or not.
    card = re.compile(rb"\x1b\[(?:[0-9;]*;)?3[1-4]m[1-7JQK][OCEB]\b")
    coloured = in_pty(PLAY, [(TURN, b"q\r")])
    assert card.search(coloured)
    plain = in_pty(PLAY, [(TURN, b"q\r")], env={"NO_COLOR": "1"})
    assert b"You left the match." in plain and not card.search(plain)


def test_replay_steps_on_a_single_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "match.json"
    run_cli([*PLAY, "--save", str(saved)], capsys, monkeypatch, "1\n" * 6 + "q\n")
    argv = ["replay", str(saved), "--seat", "0", "--brief"]
    raw = in_pty(
        argv,
        [(b"-- action 1 of", b"n"), (b"-- action 2 of", b" "), (b"-- action 3 of", b"q")],
        keys_mode=True,
    )
    text = _plain(raw)
    assert "-- action 2 of" in text and "-- action 3 of" in text and "\nn" not in text
    assert "-- action 4 of" not in text and "Replay stopped." in text


# -- errors ----------------------------------------------------------------------------


def test_an_unknown_bot_option_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv in (
        ["play", "briscola", "--vs", "random,ismcts:foo=1,random"],
        ["sim", "briscola", "--bots", "random,ismcts:foo=1", "--games", "1"],
    ):
        code, _, err = run_cli(argv, capsys, monkeypatch, "q\n")
        assert code == 2 and "has no option foo; options are: iterations" in err, err


def test_sim_lists_bots_without_a_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["sim", "--list-bots"], capsys, monkeypatch)
    assert code == 0 and re.search(r"^random\s", out, re.M)
    code, _, err = run_cli(["sim"], capsys, monkeypatch)
    assert code == 2 and "GAME is required" in err


def test_an_unknown_flag_prints_the_subcommands_usage(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(["play", "briscola", "--bogus"], capsys, monkeypatch)
    assert code == 2
    assert err.startswith("usage: mazo play ") and "--seat" in err
    assert "mazo play: error: unrecognized arguments: --bogus" in err


def test_a_misspelt_game_gets_a_suggestion(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(["play", "brscola"], capsys, monkeypatch)
    assert code == 2 and "did you mean briscola?" in err
    _, _, err = run_cli(["play", "chess"], capsys, monkeypatch)
    assert "did you mean" not in err
    code, _, err = run_cli(["play", "briscola", "--vs", "heuristc"], capsys, monkeypatch)
    assert code == 2 and "unknown bot 'heuristc'; did you mean heuristic?" in err


def test_a_misspelt_command_gets_a_suggestion(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(["plya", "briscola"], capsys, monkeypatch)
    assert code == 2 and err.startswith("usage: mazo ")
    assert "unknown command 'plya'; did you mean play? commands are: play, sim," in err
    _, _, err = run_cli(["chess"], capsys, monkeypatch)
    assert "unknown command 'chess'; commands are: play" in err and "did you mean" not in err
    code, out, _ = run_cli(["--help", "plya"], capsys, monkeypatch)  # help comes first
    assert code == 0 and "examples:" in out


def test_bench_takes_n_for_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    argv = ["bench", "briscola", "-n", "2", "--seconds", "0.05", "--json"]
    code, out, _ = run_cli(argv, capsys, monkeypatch)
    assert code == 0
    assert {r["players"] for r in json.loads(out)["results"]} == {2}


def test_bench_bots_take_options_as_tournaments_do(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--bots hard:iterations=20``: the level at a fixed sample count (no clock, so no
    budget), named as given; a bad option is refused before any timing."""
    import json

    argv = ["bench", "briscola", "-n", "2", "--bots", "hard:iterations=20,normal"]
    code, out, _ = run_cli([*argv, "--moves", "3", "--json"], capsys, monkeypatch)
    assert code == 0
    hard, normal = json.loads(out)["results"]
    assert hard["bot"] == "hard" and hard["options"] == {"iterations": 20}
    assert hard["spec"] == "hard:iterations=20" and hard["moves"] == 3
    assert hard["samples_per_cpu_s"] > 0 and normal["samples_per_cpu_s"] is None
    # A sample count replaces the level's clock, so there is no budget to be within.
    assert hard["budget_ms"] is None and hard["within_budget_plus_20pct"] is None
    clocked = ["bench", "briscola", "-n", "2", "--bots", "hard:think_ms=50", "--moves", "1"]
    code, out, _ = run_cli([*clocked, "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["results"][0]["budget_ms"] == 50
    code, out, _ = run_cli([*argv, "--moves", "2"], capsys, monkeypatch)
    assert code == 0 and "hard:iterations=20 " in out
    bad = ["bench", "briscola", "-n", "2", "--bots", "hard:iterations=0", "--moves", "2"]
    code, _, err = run_cli(bad, capsys, monkeypatch)
    assert code == 2 and "ismcts iterations must be a positive int, not 0" in err


@pytest.mark.parametrize("players", [4, 6, 8, 12])
def test_envite_status_fits_80_by_24(
    players: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table shown at the human's turn, its choices and the prompt: at most 24 rows
    of 80 columns, lines broken between words."""
    import textwrap

    argv = ["play", "envite", "-n", str(players), "--seed", "3", "--vs", "random"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n2\n3\n" * 20 + "q\n")
    tables = [
        block.split("Your move [")[0]
        for block in out.split("\n\n")[1:]
        if CHOICES.search(block) and block.startswith("Deal ")
    ]
    assert len(tables) >= 5
    for table in tables:
        rows = sum(len(textwrap.wrap(line, 80)) or 1 for line in table.splitlines()) + 1
        assert rows <= 24, table


def _rows(table: str, columns: int = 80) -> int:
    """The rows a block takes on a terminal ``columns`` wide, each line broken between
    words as the terminal breaks it (continuation lines indented: under a choice's text,
    else two columns in), +1 for the prompt."""
    import textwrap

    rows = 1
    for line in table.splitlines():
        numbered = re.match(r" *(?:\d+|[a-z])\) ", line)
        indent = " " * numbered.end() if numbered else line[: len(line) - len(line.lstrip())] + "  "
        wrapped = textwrap.wrap(
            line, columns, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
        rows += len(wrapped) or 1
    return rows


@pytest.mark.parametrize(
    ("seed", "bots"), [(3, "random"), (7, "random"), (3, "normal"), (6, "normal")]
)
def test_trionfetti_status_fits_80_by_24(
    seed: int, bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table shown at the human's turn (the cutter's choice of ranking too), its
    choices and the prompt: at most 24 rows of 80 columns.  These matches reach the
    longest tables: a vega pending, the partner's cards known from earlier deals, the four
    cards left after deal 4, messages."""
    argv = ["play", "trionfetti", "--seed", str(seed), "--vs", bots]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n2\n3\n" * 30 + "q\n")
    tables = [
        re.split(r"Your (?:move|choice) \[", block)[0]
        for block in out.split("\n\n")[1:]
        if CHOICES.search(block) and block.startswith("Smazzata ")
    ]
    assert len(tables) >= 10
    seen = "\n".join(tables)
    for part in ("Vega pending: ", "earlier deals: ", "Messages this deal", "keep — "):
        assert part in seen, part
    assert "left after deal 4" in seen
    for table in tables:
        assert _rows(table) <= 24, table


@pytest.mark.parametrize(("seed", "bots"), [(3, "normal"), (6, "normal"), (6, "random")])
def test_trionfetti_fits_80_by_24_under_the_longest_custom_ranking(
    seed: int, bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every card a level of its own (52 levels: the ranking line takes three rows): the
    cutter's choice and the play still fit 24 rows (the ranking note shortened)."""
    import json

    ranks = ["1", "3", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2"]
    levels = json.dumps([{"rank": r, "suits": s} for r in ranks for s in "OCEB"])
    argv = ["play", "trionfetti", "--seed", str(seed), "--vs", bots]
    argv += ["-o", f"initial_ranking={levels}"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "1\n2\n3\n" * 30 + "q\n")
    tables = [
        re.split(r"Your (?:move|choice) \[", block)[0]
        for block in out.split("\n\n")[1:]
        if CHOICES.search(block) and block.startswith("Smazzata ")
    ]
    assert any("choose the ranking" in t for t in tables)
    custom = [t for t in tables if "Ranking in force (custom)" in t]
    assert custom and all("> 2E > 2B" in t for t in custom)  # the whole order is shown
    for table in tables:
        assert _rows(table) <= 24, table


# Commands only one game has, as the in-game help words them.
_OWN_COMMANDS = {
    "briscola": "exchange, decline",
    "escoba": "7o+5c+3b",
    "envite": "tumbo_play, tumbo_decline",
    "trionfetti": "vega (v)",
}


@pytest.mark.parametrize("game", sorted(_OWN_COMMANDS))
def test_help_lists_the_commands_of_the_game_played(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", game, "--seed", "1", "--vs", "random", "--pause", "never"]
    _, out, _ = run_cli(argv, capsys, monkeypatch, "?\nq\n")
    help_text = out.split("Commands at your turn:")[1].split("You left the match.")[0]
    assert _OWN_COMMANDS[game] in help_text
    for other, words in _OWN_COMMANDS.items():
        assert other == game or words not in help_text, other
    assert len(help_text.splitlines()) < 30
    # 80 columns: no line of the help wider (the terminal would break it anywhere), the
    # explanations filled under their column.
    lines = help_text.split("\nYour move [")[0].splitlines()
    assert max(len(line) for line in lines) <= 79, help_text
    assert all(not line.strip() or line.startswith("  ") for line in lines[1:]), help_text


@pytest.mark.parametrize("cols", [60, 80])
def test_help_fills_the_terminal_width(cols: int) -> None:
    """On a terminal, '?' is filled to its width, continuation lines under the
    explanations' column (Trionfetti's help is the longest)."""
    argv = ["play", "trionfetti", "--seed", "1", "--vs", "random", "--pause", "never"]
    out = in_pty(argv, [(b"q quit]: ", b"?\r"), (b"q quit]: ", b"q\r")], cols=cols)
    text = ESC.sub(b"", out).decode("utf-8", "replace")
    block = text.split("Commands at your turn:")[1].split("Your move [")[0]
    lines = [line.rstrip("\r") for line in block.splitlines()]
    assert max(len(line) for line in lines) < cols, block
    hang = [line for line in lines if line.startswith(" " * 21)]
    assert len(hang) >= 5 and all(line[21] != " " for line in hang), block
    assert all(not line or line[2] != " " or line in hang for line in lines), block
