"""``mazo play escoba`` and ``mazo replay`` on Escoba records, in-process with a fake stdin.

Positions at the first prompt are found
from the engine directly: with ``--seed S`` the CLI plays ``game.new_match(seed=S)``, so
when seat 0 acts first its first observation is ``new_match(seed=S).observation(0)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
import mazo.games
from mazo.games.escoba import EscobaGame
from mazo.record import load_record

PROMPT = "Your move ["
CARD = re.compile(r"\b([1-7JQK][OCEB])\b")
ALWAYS_FIRST = "1\n" * 2000
VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}


pytestmark = pytest.mark.usefixtures("plain_terminal")


def play_args(tmp_path: Path, *extra: str, seed: int = 3, players: int = 2) -> list[str]:
    return [
        "play",
        "escoba",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--cards",
        "code",
        "--save",
        str(tmp_path / "match.json"),
        *extra,
    ]


def first_position(want: Callable[[dict[str, Any]], bool], players: int = 2) -> tuple[int, Any]:
    """A seed whose match starts with seat 0 to act in a position ``want`` accepts."""
    game = EscobaGame(players)
    for seed in range(500):
        state = game.new_match(seed=seed)
        if state.to_act == 0 and want(state.observation(0)):
            return seed, state.observation(0)
    raise AssertionError("no seed gives such a position")


def by_card(obs: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for action in obs["legal_actions"]:
        out.setdefault(action.split("+")[0], []).append(action)
    return out


def label(action: str, table: list[str]) -> str:
    """The choice text the CLI is expected to print (card style ``code``)."""
    card, *taken = action.split("+")
    if not taken:
        return f"lay {card} on the table"
    return f"{card} takes {' '.join(taken)}" + (" — ESCOBA!" if set(taken) == set(table) else "")


# -- the human's turn ------------------------------------------------------------------------


def test_table_hand_and_numbered_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, obs = first_position(lambda o: any("+" in a for a in o["legal_actions"]))
    code, out, err = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, "q\n")
    assert code == 0, err
    table = obs["table"]
    total = sum(VALUES[c[0]] for c in table)
    shown = ", ".join(f"{c} ({VALUES[c[0]]})" for c in table)
    assert f"Table ({len(table)} cards, sum {total}): {shown}" in out
    hand = ", ".join(f"{c} ({VALUES[c[0]]})" for c in obs["hand"])
    assert f"Your hand: {hand}" in out
    assert "Match score (points, first to 21): You 0 · Seat 1 (heuristic) 0" in out
    for i, action in enumerate(obs["legal_actions"], 1):
        assert f"{i:>3}) {label(action, table)}\n" in out
    assert PROMPT in out
    assert "You left the match." in out


def test_card_names_and_symbols_styles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, obs = first_position(lambda o: any("+" in a for a in o["legal_actions"]))
    argv = ["play", "escoba", "--seed", str(seed)]
    _, named, _ = run_cli([*argv, "--lang", "en"], capsys, monkeypatch, "q\n")
    capture = next(a for a in obs["legal_actions"] if "+" in a)
    card = capture.split("+")[0]
    assert re.search(rf"\d\) {card} \([^)]* of [a-z]+\) takes ", named)
    # The Spanish pack (deck_style's default) names its cards in Spanish unless told not to.
    _, spanish, _ = run_cli(argv, capsys, monkeypatch, "q\n")
    assert re.search(r" de (oros|copas|espadas|bastos)\)", spanish)
    _, french, _ = run_cli(
        [*argv, "--option", "deck_style=french_faces"], capsys, monkeypatch, "q\n"
    )
    assert not re.search(r" de (oros|copas|espadas|bastos)\)", french)
    _, symbols, _ = run_cli([*argv, "--cards", "symbol"], capsys, monkeypatch, "q\n")
    assert re.search(r"Table \(\d+ cards, sum \d+\): [1-7JQK][♦♥♠♣] \(\d+\)", symbols)


def test_notation_in_any_order_and_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, obs = first_position(
        lambda o: any(len(a.split("+")) >= 3 for a in o["legal_actions"]),
    )
    action = next(a for a in obs["legal_actions"] if len(a.split("+")) >= 3)
    typed = "+".join(reversed(action.lower().split("+")))  # played card last
    code, out, _ = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, f"{typed}\nq\n")
    assert code == 0
    card, *taken = action.split("+")
    assert f"You play {card} and take {' '.join(taken)}" in out
    assert {"seat": 0, "action": action} in load_record(tmp_path / "match.json")["actions"]


def test_a_bare_card_with_one_choice_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def one_capture(o: dict[str, Any]) -> bool:
        return any(len(v) == 1 and "+" in v[0] for v in by_card(o).values())

    seed, obs = first_position(one_capture)
    action = next(v[0] for v in by_card(obs).values() if len(v) == 1 and "+" in v[0])
    card = action.split("+")[0]
    code, out, _ = run_cli(
        play_args(tmp_path, seed=seed), capsys, monkeypatch, f"{card.lower()}\nq\n"
    )
    assert code == 0
    assert f"You play {card} and take " in out
    assert {"seat": 0, "action": action} in load_record(tmp_path / "match.json")["actions"]


def test_a_bare_card_with_several_choices_lists_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, obs = first_position(lambda o: any(len(v) >= 2 for v in by_card(o).values()))
    card, actions = next((c, v) for c, v in by_card(obs).items() if len(v) >= 2)
    number = obs["legal_actions"].index(actions[-1]) + 1
    stdin = f"{card.lower()}\n{number}\nq\n"
    code, out, _ = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, stdin)
    assert code == 0
    assert f"{card} can be played {len(actions)} ways; choose one by number:" in out
    listing = out.split("ways; choose one by number:")[1].split(PROMPT)[0]
    for action in actions:
        i = obs["legal_actions"].index(action) + 1
        assert f"{i:>3}) {label(action, obs['table'])}" in listing
    # The prompt came back, and the number then played the last of those choices.
    first_turn = out.split("You play")[0]
    assert first_turn.count(PROMPT) == 2
    assert {"seat": 0, "action": actions[-1]} in load_record(tmp_path / "match.json")["actions"]


def test_bad_input_says_why_and_asks_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, obs = first_position(lambda o: any(VALUES[c[0]] >= 5 for c in o["hand"]))
    seen = obs["hand"] + obs["table"]
    not_held = next(c for c in ("1O", "1C", "1E", "1B", "2O") if c not in seen)
    held = next(c for c in obs["hand"] if VALUES[c[0]] >= 5)
    # A capture making 15 with a card that is not on the table: the rules explain.
    absent = next(
        r + s
        for s in "OCEB"
        for r in VALUES
        if r + s not in seen and VALUES[r] + VALUES[held[0]] == 15
    )
    typed = [
        "zz",
        "9",
        "0",
        "",
        not_held,
        f"{held}+{held}",
        "7o+5c",
        f"{held.lower()}+{absent.lower()}",
        "?",
        "t",
        "show",
        "q",
    ]
    stdin = "\n".join(typed) + "\n"
    code, out, err = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, stdin)
    assert code == 0
    assert "Traceback" not in out + err
    assert "Not understood: 'zz'" in out
    assert f"There is no choice 9: type 1 to {len(obs['legal_actions'])}" in out
    assert "There is no choice 0" in out
    assert f"You do not hold {not_held}" in out
    assert "names a card twice" in out
    assert "add up to 12, and a capture must make exactly 15" in out
    assert f"Not allowed: {held}+{absent}: those cards are not all on the table" in out
    assert "7o+5c+3b" in out  # the help names the capture notation
    assert "Nobody has played in this hand yet." in out
    assert out.count(PROMPT) == len(typed)
    assert load_record(tmp_path / "match.json")["actions"] == []


# -- whole matches -----------------------------------------------------------------------


@pytest.mark.parametrize("target", [3, 6])
def test_whole_match_answering_1(
    target: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = play_args(tmp_path, "--option", f"target_score={target}", seed=5)
    code, out, err = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0, err
    assert f"Options: target_score={target}" in out
    assert f"Match score (points, first to {target})" in out
    final = mazo.replay(load_record(tmp_path / "match.json"))
    assert final.match_over and final.game.target == target
    winner = final.winner
    assert max(final.scores) >= target
    ends = [e for e in final.events if e["type"] == "hand_end"]
    assert out.count("Hand over. Points this hand:") == len(ends)
    if target == 6:  # two hands with this seed: the score between them is printed
        assert len(ends) == 2
        first = ends[0]["points"]
        assert f"Match score: You {first[0]} · Seat 1 (heuristic) {first[1]}.\nHand 2: " in out
    blocks = out.split("Hand over. Points this hand:")[1:]
    for event, block in zip(ends, blocks, strict=True):
        d = event["detail"]
        rows = {line.split()[0]: line for line in block.splitlines()[2:9] if line.strip()}
        assert re.search(r"\bYou\s+Seat 1 \(heuristic\)$", block.splitlines()[1])
        assert rows["escobas"].split()[-2:] == [str(v) for v in d["escobas"]]
        assert f"cards ({d['card_counts'][0]}-{d['card_counts'][1]})" in rows["cards"]
        assert f"oros ({d['oros_counts'][0]}-{d['oros_counts'][1]})" in rows["oros"]
        assert rows["siete"].startswith("  siete de velo (7O)")
        assert rows["setenta"].split()[-2:] == [str(v) for v in d["prime"]]
        assert "prime" not in block  # Escoba's sevens point is the setenta
        assert rows["total"].split()[-2:] == [str(v) for v in d["total"]]
    name = "You win" if winner == 0 else "Seat 1 (heuristic) wins"
    scores = f"You {final.scores[0]} · Seat 1 (heuristic) {final.scores[1]}"
    assert f"Match over: {name} the match. Final score: {scores}." in out
    assert "End of input" not in out
    # Every play was announced: the human's and the bot's, captures with what they took.
    plays = [e for e in final.events if e["type"] == "play"]
    announced = re.findall(r"^(You lay|You play|Seat 1 \(heuristic\) (?:lays|plays)) ", out, re.M)
    assert len(announced) == len(plays)
    for e in plays:
        if e["escoba"]:
            assert f"{e['card']} and take{'s' * (e['seat'] == 1)} " in out
    if any(e["escoba"] for e in plays):
        assert "*** ESCOBA! ***" in out


def test_four_players_with_a_partner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = play_args(tmp_path, "--seat", "1", "--vs", "random", "-o", "target_score=2", players=4)
    code, out, err = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0, err
    assert "Seat 3 (random, your partner)" in out
    assert re.search(r"^\s+Team 0 \(seats 0 & 2\)\s+Your team \(seats 1 & 3\)$", out, re.M)
    assert "Match over:" in out
    assert "deal 1 of 3" in out


def test_nothing_hidden_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every card named before a prompt was public or in the human's hand by then: never a
    card of another hand or of the stock."""
    argv = play_args(tmp_path, "-o", "target_score=2", seed=9, players=3)
    code, out, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    segments = out.split(PROMPT)
    record = load_record(tmp_path / "match.json")
    state: Any = mazo.replay({**record, "actions": []})
    hidden = _hidden(state, 0)
    shown_once = set()
    prompts = 0
    for step in record["actions"]:
        if state.to_act == 0:
            named = set(CARD.findall(segments[prompts]))
            assert not named & hidden, f"prompt {prompts}: {sorted(named & hidden)} leaked"
            shown_once |= named
            prompts += 1
        state = state.apply(step["action"], seat=step["seat"])
        hidden = _hidden(state, 0) & hidden  # once seen, a card stays known
    assert prompts == len(segments) - 1
    assert len(shown_once) > 10


def _hidden(state: Any, seat: int) -> set[str]:
    """Cards the seat may not know: the other hands and the stock (omniscient views)."""
    cards = set(state.stock())
    for s in range(state.game.players):
        if s != seat:
            cards |= set(state.hand(s))
    return cards


# -- replay ----------------------------------------------------------------------------


def test_replay_a_saved_escoba_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = play_args(tmp_path, "-o", "target_score=3", seed=5)
    run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    path = str(tmp_path / "match.json")
    final = mazo.replay(load_record(path))
    code, out, err = run_cli(
        ["replay", path, "--seat", "0", "--cards", "code"], capsys, monkeypatch
    )
    assert code == 0, err
    assert "escoba, 2 players" in out and "seen by seat 0" in out
    assert "Options: target_score=3" in out
    assert "Your hand: " in out
    assert re.search(r"Table \(\d+ cards?, sum \d+\): ", out)
    assert "-- action 1 of " in out
    assert out.count("Hand over. Points this hand:") == sum(
        1 for e in final.events if e["type"] == "hand_end"
    )
    assert "Match over:" in out
    assert "End of record: the match is over." in out

    code, spectator, _ = run_cli(["replay", path, "--all", "--brief"], capsys, monkeypatch)
    assert code == 0
    assert "seen by a spectator" in spectator
    assert "Your hand" not in spectator
    assert re.search(r"^Seat 0 \(human\) (lays|plays) ", spectator, re.M)
    assert re.search(r"^Seat 1 \(heuristic\) (lays|plays) ", spectator, re.M)
    assert "End of the hand: " in spectator and "the last to capture" in spectator
