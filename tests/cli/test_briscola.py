"""The ``mazo`` command line: play, replay, bench and the help of every command.

Most tests call :func:`mazo.cli.main.main` in-process with a fake stdin; one runs the
real ``python -m mazo`` through pipes.  Bots are seeded from ``--seed``, so each
transcript is reproducible.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
from mazo.record import load_record
from mazo.render import suit_name

PROMPT = "Your move ["
CARD = re.compile(r"\b([1-7JQK][OCEB])\b")


pytestmark = pytest.mark.usefixtures("plain_terminal")


def play_args(tmp_path: Path, *extra: str, seed: int = 7, players: int = 2) -> list[str]:
    return [
        "play",
        "briscola",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--save",
        str(tmp_path / "match.json"),
        *extra,
    ]


ALWAYS_FIRST = "1\n" * 500


# -- play ------------------------------------------------------------------------------


def test_play_shows_hand_trump_and_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(play_args(tmp_path), capsys, monkeypatch, stdin="q\n")
    assert code == 0
    # The saved record stops at the first prompt: its observation is what was shown.
    state = mazo.replay(load_record(tmp_path / "match.json"))
    assert state.to_act == 0
    obs = state.observation(0)
    assert f"Trump indicator: {obs['trump']}" in out
    assert f"Trump: {suit_name(obs['trump_suit'])}" in out
    for i, card in enumerate(obs["hand"], 1):
        assert f"{i}) {card} (" in out
    assert f"({obs['stock_size']} cards left)" in out
    assert PROMPT in out
    assert "You left the match." in out
    assert "Record saved to" in out


def test_bot_moves_are_announced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(
        play_args(tmp_path, "--vs", "random", "--seat", "1"), capsys, monkeypatch, ALWAYS_FIRST
    )
    assert code == 0
    assert re.search(r"^Seat 0 \(random\) plays [1-7JQK][OCEB] \(", out, re.M)
    assert re.search(r"^You play [1-7JQK][OCEB] \(", out, re.M)
    assert re.search(r"^Trick \d+: .* wins? it with .*, \d+ points?\.$", out, re.M)


def test_bad_input_says_why_and_asks_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path), capsys, monkeypatch, stdin="q\n")
    hand = mazo.replay(load_record(tmp_path / "match.json")).observation(0)["hand"]
    not_held = next(c for c in ("1O", "1C", "1E", "1B", "2O") if c not in hand)
    typed = ["zz", "9", "0", "", not_held, "signal trump_ace", "?", "show", "tricks", "q"]
    code, out, err = run_cli(play_args(tmp_path), capsys, monkeypatch, "\n".join(typed) + "\n")
    assert code == 0
    assert "Traceback" not in out + err
    assert "Not understood: 'zz'" in out
    assert "There is no choice 9" in out
    assert "There is no choice 0" in out
    assert f"You do not hold {not_held}" in out
    assert "signal trump_ace is not allowed now" in out
    assert "Commands at your turn" in out
    assert "No trick has been completed" in out
    assert out.count(PROMPT) == len(typed)


def test_card_codes_are_accepted_in_any_case_with_a_for_ace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path, seed=3), capsys, monkeypatch, stdin="q\n")
    hand = mazo.replay(load_record(tmp_path / "match.json")).observation(0)["hand"]
    card = hand[-1]
    typed = ("a" + card[1:] if card[0] == "1" else card).lower()
    code, out, _ = run_cli(play_args(tmp_path, seed=3), capsys, monkeypatch, f"{typed}\nq\n")
    assert code == 0
    assert f"You play {card} (" in out
    record = load_record(tmp_path / "match.json")
    assert {"seat": 0, "action": card} in record["actions"]


def test_whole_match_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(play_args(tmp_path), capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0, err
    assert "Deal over after 20 tricks" in out
    assert re.search(r"^Match over: .* wins? the match\. Deals won: ", out, re.M)
    final = mazo.replay(load_record(tmp_path / "match.json"))
    assert final.match_over
    assert max(final.scores) == 3
    assert "End of input" not in out


def test_match_with_options_and_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = play_args(tmp_path, "--variant", "open_hands", "-o", "match_wins_target=2")
    code, out, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    assert "Options: match_wins_target=2, open_variant='open_hands'" in out
    assert "Known in Seat 1 (heuristic)'s hand: " in out  # open hands: the bot's cards
    final = mazo.replay(load_record(tmp_path / "match.json"))
    assert max(final.scores) == 2
    assert final.game.options["open_variant"] == "open_hands"


def test_four_players_with_partner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = play_args(tmp_path, "--seat", "2", "--vs", "random", players=4)
    code, out, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    assert "Seat 0 (random, your partner)" in out
    assert "Your team (seats 0 & 2)" in out
    assert "Match over:" in out


def test_one_bot_per_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = play_args(tmp_path, "--vs", "random,heuristic", players=3)
    code, out, _ = run_cli(argv, capsys, monkeypatch, stdin="q\n")
    assert code == 0
    assert "seat 1 random, seat 2 heuristic" in out
    code, _, err = run_cli(
        play_args(tmp_path, "--vs", "random,random,random", players=3), capsys, monkeypatch
    )
    assert code == 2
    assert "--vs lists 3 bots" in err


def test_heuristic_falls_back_to_random(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = mazo.make_bot

    def no_heuristic(name: str, game: Any, seed: int | None = None, **kw: Any) -> Any:
        if name == "heuristic":
            raise ImportError("no heuristic bot yet")
        return real(name, game, seed=seed, **kw)

    monkeypatch.setattr(mazo, "make_bot", no_heuristic)
    code, out, _ = run_cli(play_args(tmp_path), capsys, monkeypatch, stdin="q\n")
    assert code == 0
    assert "playing against random instead" in out
    assert "seat 1 random" in out


def test_end_of_input_leaves_cleanly_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(play_args(tmp_path), capsys, monkeypatch, stdin="1\n1\n")
    assert code == 0
    assert "End of input: leaving the match." in out
    assert "Traceback" not in err
    state = mazo.replay(load_record(tmp_path / "match.json"))
    assert not state.match_over
    assert sum(1 for a in state.record()["actions"] if a["seat"] == 0) == 2


def test_same_seed_same_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "briscola", "--players", "2", "--seed", "11"]
    first = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    again = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    other = run_cli([*argv[:-1], "12"], capsys, monkeypatch, ALWAYS_FIRST)
    assert first == again
    assert first[1] != other[1]


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (4, 1)])
def test_nothing_hidden_is_printed(
    players: int,
    seat: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every card named before a prompt was known to the human's seat by then."""
    argv = play_args(tmp_path, "--seat", str(seat), "--cards", "code", seed=5, players=players)
    code, out, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    segments = out.split(PROMPT)
    record = load_record(tmp_path / "match.json")
    state = mazo.replay({**record, "actions": []})
    known = _known(state, seat)
    prompts = 0
    for step in record["actions"]:
        if state.to_act == seat:
            named = set(CARD.findall(segments[prompts]))
            assert named <= known, f"prompt {prompts}: {sorted(named - known)} leaked"
            prompts += 1
        state = state.apply(step["action"], seat=step["seat"])
        known |= _known(state, seat)
    assert prompts == len(segments) - 1


def _known(state: Any, seat: int) -> set[str]:
    """Cards the seat may know in this state: its observation and its share of the log."""
    obs = state.observation(seat)
    cards = {*obs["hand"], obs["trump"], *obs["removed"]}
    cards |= {t["card"] for t in obs["trick"]}
    cards |= {c for t in obs["tricks"] for c in t["cards"]}
    cards |= {c for held in obs["known_cards"].values() for c in held}
    for event in state.events_for(seat):
        cards |= set(event.get("cards", []))
        for key in ("card", "trump", "took"):
            if isinstance(event.get(key), str):
                cards.add(event[key])
    return cards


# -- replay ----------------------------------------------------------------------------


def test_replay_a_saved_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path), capsys, monkeypatch, ALWAYS_FIRST)
    path = str(tmp_path / "match.json")
    code, out, _ = run_cli(["replay", path, "--seat", "0"], capsys, monkeypatch)
    assert code == 0
    assert "seen by seat 0" in out
    assert "Your hand: " in out
    assert "-- action 1 of " in out
    assert "Match over:" in out
    assert "End of record: the match is over." in out

    code, spectator, _ = run_cli(["replay", path, "--all", "--brief"], capsys, monkeypatch)
    assert code == 0
    assert "seen by a spectator" in spectator
    assert "Your hand" not in spectator
    assert "Seat 0 (human) plays" in spectator


def test_replay_steps_and_quits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path), capsys, monkeypatch, ALWAYS_FIRST)
    path = str(tmp_path / "match.json")
    code, out, _ = run_cli(["replay", path, "--step"], capsys, monkeypatch, stdin="\n\nq\n")
    assert code == 0
    assert "-- action 3 of " in out
    assert "-- action 4 of " not in out
    assert "Replay stopped." in out


def test_replay_bad_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = run_cli(["replay", str(missing)], capsys, monkeypatch)
    assert code == 2
    assert "cannot read record" in err
    assert err.count(str(missing)) == 1

    not_json = tmp_path / "bad.json"
    not_json.write_text("{not json")
    code, _, err = run_cli(["replay", str(not_json)], capsys, monkeypatch)
    assert code == 2
    assert "is not JSON" in err
    assert err.count(str(not_json)) == 1

    run_cli(play_args(tmp_path), capsys, monkeypatch, stdin="1\n1\nq\n")
    record = load_record(tmp_path / "match.json")
    record["actions"][0]["action"] = "signal carico"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    code, _, err = run_cli(["replay", str(tampered)], capsys, monkeypatch)
    assert code == 2
    # Numbered from 1, as the replay numbers them; the path once.
    assert re.search(r"record action 1 of \d+ ", err)
    assert err.count(str(tampered)) == 1

    code, _, err = run_cli(
        ["replay", str(tmp_path / "match.json"), "--seat", "7"], capsys, monkeypatch
    )
    assert code == 2
    assert "--seat must be 0..1" in err


# -- bench -----------------------------------------------------------------------------


def test_bench_json_shape(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["bench", "briscola", "--json", "--seconds", "0.2"], capsys, monkeypatch)
    assert code == 0
    report = json.loads(out)
    assert report["mazo"] == mazo.__version__
    rows = report["results"]
    assert [r["players"] for r in rows] == [2, 3, 4, 6]
    for row in rows:
        assert row["game"] == "briscola"
        assert row["actions"] > 0 and row["matches"] >= 1 and row["deals"] >= row["matches"]
        for key in ("actions_per_s", "deals_per_s", "matches_per_s"):
            assert row[key] > 0
        for key in ("apply_us", "legal_actions_us", "observation_us"):
            assert isinstance(row[key], float) and row[key] >= 0


def test_bench_table_and_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["bench", "briscola", "-p", "2", "-s", "0.1"], capsys, monkeypatch)
    assert code == 0
    assert "actions/s" in out and "apply µs" in out and "briscola" in out
    code, _, err = run_cli(["bench", "briscola", "-p", "5", "-s", "0.1"], capsys, monkeypatch)
    assert code == 2
    assert "not 5" in err


# -- help, version, errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("play", ["--players", "--seat", "--vs", "--seed", "--variant", "--option", "--save"]),
        ("replay", ["--seat", "--step", "--all"]),
        ("bench", ["--seconds", "--seed", "--json", "--players"]),
        ("sim", ["--seed"]),
    ],
)
def test_help_of_each_command(
    command: str,
    flags: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = run_cli([command, "--help"], capsys, monkeypatch)
    assert code == 0
    assert f"usage: mazo {command}" in out
    assert "examples:" in out
    for flag in flags:
        assert flag in out


def test_top_level_help_and_version(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["--help"], capsys, monkeypatch)
    assert code == 0
    for command in ("play", "sim", "replay", "bench"):
        assert command in out
    code, out, _ = run_cli(["--version"], capsys, monkeypatch)
    assert code == 0
    assert out.strip() == f"mazo {mazo.__version__}"
    code, out, _ = run_cli([], capsys, monkeypatch)
    assert code == 2
    assert "usage: mazo" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "chess"],
            "unknown game 'chess'; games are: briscola, envite, escoba, trionfetti",
        ),
        (["bench", "chess"], "unknown game 'chess'"),
        (["play", "briscola", "--players", "5"], "not 5"),
        (["play", "briscola", "--players", "4", "--variant", "scoperta"], "2 players only"),
        (["play", "briscola", "-n", "2", "--vs", "grandmaster"], "unknown bot 'grandmaster'"),
        (["play", "briscola", "-n", "2", "--seat", "2"], "--seat must be a seat 0..1"),
        (["play", "briscola", "-n", "2", "-o", "no_such=1"], "has no option no_such"),
        (["play", "briscola", "-n", "2", "-o", "deal_packet_size=2"], "allowed: 3, 1"),
        (["play", "briscola", "-n", "2", "-o", "deal_packet_size"], "name=value"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_list_options(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli(["play", "briscola", "--list-options"], capsys, monkeypatch)
    assert code == 0
    assert "open_variant = 'none'" in out
    assert "--variant NAME is short for --option open_variant=NAME" in out


def test_python_dash_m_mazo_plays_through_pipes(tmp_path: Path) -> None:
    """The real entry point, with stdin and stdout as pipes (no terminal)."""
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "TERM": "dumb"}
    version = subprocess.run(
        [sys.executable, "-m", "mazo", "--version"], capture_output=True, text=True, env=env
    )
    assert version.returncode == 0
    assert version.stdout.strip() == f"mazo {mazo.__version__}"
    done = subprocess.run(
        [sys.executable, "-m", "mazo", "play", "briscola", "-n", "2", "--seed", "4"],
        input=ALWAYS_FIRST,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Match over:" in done.stdout
    # Piped answers are echoed after the prompt, so the transcript reads naturally.
    assert f"{PROMPT}1-3, card code, ? help, q quit]: 1\n" in done.stdout
