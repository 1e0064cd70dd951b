"""``mazo play envite``, ``mazo replay`` on Envite records and the Envite renderers.

The play tests run ``mazo play`` in-process with a fake stdin and read the saved record
back: with ``--seed S`` the deals and the bots' choices are reproducible.  Expected values
come from the rules file (``rules/envite-canario.md``: the §3.3 hierarchies, the §9.1
ladder, the §11.1 counting), not from the renderer under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
from mazo.record import load_record
from mazo.render import View, default_language, render_choices, render_event, render_observation
from mazo.render.envite import envite_action_label, group_messages

PROMPT = "Your move ["
PAUSE = "Call or continue ["
CARD = re.compile(r"\b([1-7JQK][OCEB])\b")
CARD_LINE = re.compile(r"^\s+(\d+)\) ([1-7JQK][OCEB])\b", re.M)
ALWAYS_FIRST = "1\n" * 3000
# Numbers 1, 2, 3 in turn, one a prompt: where card 1 cannot be played now (renuncio_mode
# prevent: a card that does not follow is listed, numbered, but not choosable) the prompt
# reads on to 2 or 3, one of which can.  For matches that must reach their end.
IN_TURN = "1\n2\n3\n" * 1000

pytestmark = pytest.mark.usefixtures("plain_terminal")


def play_args(tmp_path: Path, *extra: str, seed: int = 5, players: int = 4) -> list[str]:
    return [
        "play",
        "envite",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--vs",
        "random",
        "--cards",
        "code",
        "--save",
        str(tmp_path / "match.json"),
        *extra,
    ]


def record_of(tmp_path: Path) -> dict[str, Any]:
    return load_record(tmp_path / "match.json")


def final_state(tmp_path: Path) -> Any:
    return mazo.replay(record_of(tmp_path))


def view4(viewer: int | None = 0, style: str = "code", lang: str = "es") -> View:
    return View(
        players=4,
        side_of=(0, 1, 0, 1),
        viewer=viewer,
        style=style,
        lang=lang,
        game="envite",
    )


# -- help -------------------------------------------------------------------------------


def test_help_mentions_envite(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["--help"], capsys, monkeypatch)
    assert code == 0
    assert "envite" in out and "Envite Canario" in out
    code, out, _ = run_cli(["play", "--help"], capsys, monkeypatch)
    assert code == 0
    assert "mazo play envite --players 8" in out
    assert "--setup JSON" in out and "--pause {trick,card,never}" in out
    assert "envio" in out and "tumbo_decline" in out
    code, out, _ = run_cli(["play", "envite", "--list-options"], capsys, monkeypatch)
    assert code == 0
    for option in mazo.load_game("envite").describe_options():
        assert f"  {option['name']} = {option['default']!r}" in out


# -- whole matches -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(4, 5), (8, 5)])
def test_whole_match_against_random_bots(
    players: int,
    seed: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = run_cli(
        play_args(tmp_path, seed=seed, players=players), capsys, monkeypatch, IN_TURN
    )
    assert code == 0, err
    assert "Traceback" not in out + err
    final = final_state(tmp_path)
    assert final.match_over and max(final.games) == 2
    assert f"Envite, {players} players: you are seat 0" in out
    ends = [e for e in final.events if e["type"] == "hand_end"]
    assert out.count("\nDeal over") == len(ends)
    deals = [e for e in final.events if e["type"] == "deal"]
    for deal in deals:
        assert f"Deal {deal['deal']}: " in out
        assert f"Vira: {deal['vira']} — " in out
    team = "Your team" if final.winner == 0 else "Team 1"
    assert f"Match over: {team} (seats " in out and "wins the match. Chicos: " in out
    assert out.count("wins a chico! ***") == sum(final.games)
    assert "End of input" not in out
    # Every card play was announced.
    plays = [e for e in final.events if e["type"] == "play"]
    announced = re.findall(r"^(?:You play|Seat \d+ \(random[^)]*\) plays) ", out, re.M)
    assert len(announced) == len(plays)
    # The human answered every proposal made to its team (any member may answer).
    for event in final.events:
        if event["type"] in ("accept", "fold", "raise") and event["team"] == 0:
            assert event["seat"] == 0, event


def test_eight_players_screen_shows_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first prompt's screen: vira, the §3.3 hierarchy with the exempt card, the bet,
    stones, chicos, tricks; the saved record stops exactly at that prompt."""
    code, out, err = run_cli(
        play_args(tmp_path, "--pause", "never", seed=11, players=8), capsys, monkeypatch, "q\n"
    )
    assert code == 0, err
    state = final_state(tmp_path)
    obs = state.observation(0)
    vira = obs["vira"]
    suit = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}[vira[-1]]
    assert f"Vira: {vira} — {suit} are trumps, strongest first: " in out
    table = {
        "O": "5O 3B QB JO 2O KO QO 1O 7O 6O 4O 3O",
        "C": "5O 3B QB JO 2C KC QC JC 1C 7C 6C 5C 4C 3C",
        "E": "5O 3B QB JO 2E KE QE JE 1E 7E 6E 5E 4E 3E",
        "B": "5O 3B QB JO 2B KB JB 1B 7B 6B 5B 4B",
    }[vira[-1]]
    line = next(x for x in out.splitlines() if " are trumps, strongest first: " in x)
    shown = [part.split(" (")[0] for part in line.split("strongest first: ", 1)[1].split(" > ")]
    assert shown == table.split()
    assert "JO (Perica)" in line
    if vira != "2" + vira[-1] and vira[-1] != "O":
        assert f"2{vira[-1]} (Mala)" in line
    assert f"{vira} (the vira, out of play)" in line or vira not in table.split()
    assert "Exempt card: 5O — held as the only trump, it need not answer a trump lead" in out
    assert "Bet: none — the deal is worth 2 stones; either team may propose envío (4)" in out
    assert "Stones (12 win a chico, 11 is tumbo): us 0 · them 0" in out
    assert "Chicos (first to 2 wins): us 0 · them 0 (us: seats 0 & 2 & 4 & 6)" in out
    assert "Tricks won (two win the deal): us 0 · them 0" in out
    hand = obs["hand"]
    for card in hand:
        assert re.search(rf"^\s+\d+\) {card}\b", out, re.M)
    assert re.search(
        r"^\s+\d+\) envio — propose envío: the deal would be worth 4 stones$", out, re.M
    )
    assert "  m) messages to your team (signs and consultation)" in out
    assert "signal mala —" not in out  # messages are listed on demand only


def test_nothing_hidden_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """During each deal, the screen never names a card of another hand that is not played
    in that deal, nor a card of the unused stock.  Rules text is left out: the trump
    hierarchy, the exempt card and the signs' meanings name cards without placing them."""
    players = 6
    code, out, _ = run_cli(
        play_args(tmp_path, seed=4, players=players), capsys, monkeypatch, IN_TURN
    )
    assert code == 0
    record = record_of(tmp_path)
    final = mazo.replay(record)
    events = final.events
    played: dict[int, set[str]] = {}
    number = 0
    for e in events:
        if e["type"] == "deal":
            number = e["deal"]
            played[number] = set()
        elif e["type"] == "play":
            played[number].add(e["card"])
    segments = re.split(r"^Deal (\d+): ", out, flags=re.M)[1:]
    assert len(segments) == 2 * len(record["deals"])
    rules_lines = ("Vira: ", "Exempt card:", "Team messages this deal:")
    checked = 0
    for deal, (num, text) in zip(
        record["deals"], zip(segments[::2], segments[1::2], strict=True), strict=True
    ):
        assert int(num) == deal["deal"]
        deck, dealer = deal["deck"], deal["dealer"]
        hidden = set(deck[3 * players + 1 :])
        for k in range(players):
            seat = (dealer + 1 + k) % players
            if seat != 0:
                hidden |= set(deck[3 * k : 3 * k + 3]) - played[deal["deal"]]
        visible = "\n".join(
            line
            for line in text.splitlines()
            if not line.startswith(rules_lines)
            and " tells your team: " not in line
            and " signs to your team: " not in line
            and " — tell your team: " not in line
        )
        named = set(CARD.findall(visible))
        assert not named & hidden, f"deal {num}: {sorted(named & hidden)} leaked"
        checked += len(named)
    assert checked > 20
    # Opponents' team messages never reach the screen (signals="team").
    assert not re.search(r"^Seat [135] \(random\) (tells|signs|suggests)", out, re.M)


# -- calls: envío, answers, tumbo -------------------------------------------------------------


def test_human_calls_envio_and_a_bot_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(play_args(tmp_path, seed=3), capsys, monkeypatch, "e\nq\n")
    assert code == 0, err
    actions = record_of(tmp_path)["actions"]
    calls = [a for a in actions if a["action"] in ("envio", "accept", "fold", "raise")]
    assert calls[0] == {"seat": 0, "action": "envio"}
    answer = calls[1]
    assert answer["seat"] % 2 == 1  # a bot of the other team answered
    assert "You propose envío for your team (seats 0 & 2): the deal would be worth 4 stones." in out
    who = f"Seat {answer['seat']} \\(random\\)"
    expected = {
        "accept": f"{who} accepts envío for team 1 \\(seats 1 & 3\\): the deal is now worth 4",
        "fold": f"{who} folds at envío for team 1 \\(seats 1 & 3\\): your team \\(seats 0 & 2\\) "
        "scores 2 stones",
        "raise": f"{who} raises to siete for team 1 \\(seats 1 & 3\\), accepting envío",
    }[answer["action"]]
    assert re.search(expected, out)


def test_envio_out_of_turn_at_a_pause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before each trick a bot leads, the human may call envío out of turn (choice 2)."""
    seed = next(
        s for s in range(50) if mazo.load_game("envite").new_match(seed=s).to_act not in (0, None)
    )
    code, out, err = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, "2\nq\n")
    assert code == 0, err
    assert out.index(PAUSE) < out.index(PROMPT) if PROMPT in out else PAUSE in out
    assert "You may call now (out of turn), or go on:" in out
    assert re.search(r"^  1\) continue — let Seat \d \(random[^)]*\) play$", out, re.M)
    assert "  2) envio — propose envío: the deal would be worth 4 stones" in out
    state = mazo.replay({**record_of(tmp_path), "actions": []})
    first = record_of(tmp_path)["actions"][0]
    assert first == {"seat": 0, "action": "envio"}
    assert state.to_act != 0  # it was not the human's turn


@pytest.mark.parametrize(("pause", "fewer"), [("never", True), ("card", False)])
def test_pause_modes(
    pause: str,
    fewer: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = play_args(tmp_path, "-o", "chicos_to_win=1", seed=8)
    _, default, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    code, out, _ = run_cli([*argv, "--pause", pause], capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0 and "Match over:" in out
    if fewer:
        assert out.count(PAUSE) == 0 < default.count(PAUSE)
    else:
        assert out.count(PAUSE) > default.count(PAUSE) > 0


def test_human_answers_for_the_team_out_of_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proposal to the human's team asks the seat after the proposer first (a partner
    bot); the human is offered the answer all the same and gives it."""
    for seed in range(40):
        code, out, _ = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, ALWAYS_FIRST)
        if "is asked first, but you may answer for your team:" in out:
            break
    else:
        raise AssertionError("no seed gave a proposal answered out of turn")
    assert code == 0
    final = final_state(tmp_path)
    answers = [
        e for e in final.events if e["type"] in ("accept", "fold", "raise") and e["team"] == 0
    ]
    assert answers and all(e["seat"] == 0 for e in answers)
    block = out.split("is asked first, but you may answer for your team:")[1].split(PROMPT)[0]
    assert re.search(r"Proposal: Seat [13] \(random\) proposes \w+", block)
    assert "We must answer: accept, fold (them +" in block
    assert "  1) accept — play on for " in block
    assert "  2) fold — refuse " in block
    assert re.search(r"^You (accept|raise to) ", out, re.M)


def test_with_a_captain_the_bot_captain_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """bet_responder=captain: seat 0 answers for team 0, so the human at seat 2 never does."""
    argv = play_args(tmp_path, "--seat", "2", "-o", "bet_responder=captain", seed=2)
    code, out, _ = run_cli(argv, capsys, monkeypatch, IN_TURN)
    assert code == 0 and "Match over:" in out
    final = final_state(tmp_path)
    answers = [
        e for e in final.events if e["type"] in ("accept", "fold", "raise") and e["team"] == 0
    ]
    assert answers and all(e["seat"] == 0 for e in answers)
    assert "you may answer for your team" not in out


@pytest.mark.parametrize("choice", ["tumbo_play", "decline"])
def test_tumbo_decision_from_a_setup(
    choice: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = {"scores": [11, 3], "games": [1, 0]}
    argv = play_args(tmp_path, "--setup", json.dumps(setup), seed=6)
    code, out, err = run_cli(argv, capsys, monkeypatch, f"{choice}\nq\n")
    assert code == 0, err
    assert 'Starting position: {"scores": [11, 3], "games": [1, 0]}' in out
    assert "Your team (seats 0 & 2) is at tumbo (11 stones) and decides: play the deal for 3" in out
    assert "Stones (12 win a chico, 11 is tumbo): us 11 (tumbo) · them " in out
    assert "Chicos (first to 2 wins): us 1 · them 0 (us: seats 0 & 2)" in out
    assert "  1) tumbo_play — play this deal for 3 stones: winning it wins the chico" in out
    assert "  2) tumbo_decline — do not play it: team 1 (seats 1 & 3) scores 1 stone" in out
    record = record_of(tmp_path)
    assert record["setup"] == setup
    first = record["actions"][0]
    if choice == "decline":
        assert first == {"seat": 0, "action": "tumbo_decline"}
        assert "You decline the tumbo for your team (seats 0 & 2): team 1 (seats 1 & 3) " in out
        assert "Team 1 (seats 1 & 3): 3 + 1 stone = 4." in out
    else:
        assert first == {"seat": 0, "action": "tumbo_play"}
        assert (
            "You choose to play the tumbo for your team (seats 0 & 2): the deal is worth 3" in out
        )
        assert "Tumbo deal: worth 3 stones; no envío while a team is at 11" in out
        assert "envio —" not in out.split("You choose to play the tumbo")[1]


def test_bad_setup_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(play_args(tmp_path, "--setup", "{oops"), capsys, monkeypatch, "q\n")
    assert code == 2 and "--setup must be JSON" in err
    code, _, err = run_cli(
        play_args(tmp_path, "--setup", '{"scores": [12, 0]}'), capsys, monkeypatch, "q\n"
    )
    assert code == 2 and "setup scores must be two ints 0..11" in err


def test_messages_menu_and_a_sign_to_partners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "m\nsignal mala\nq\n"
    code, out, err = run_cli(play_args(tmp_path, "--pause", "never"), capsys, monkeypatch, stdin)
    assert code == 0, err
    assert "Messages to your team (type the number or the words):" in out
    assert re.search(
        r"^\s+\d+\) signal mala — tell your team: I hold the Mala \(the 2 of the vira suit\)$",
        out,
        re.M,
    )
    assert re.search(r"^\s+\d+\) consult fold — suggest to your team: let's fold$", out, re.M)
    assert "You sign to your team: I hold the Mala (the 2 of the vira suit)." in out
    assert record_of(tmp_path)["actions"][-1] == {"seat": 0, "action": "signal mala"}


def test_bad_input_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = ["tumbo_play", "zz", "99", "?", "t", "s", "q"]
    argv = play_args(tmp_path, "--pause", "never")
    code, out, err = run_cli(argv, capsys, monkeypatch, "\n".join(typed) + "\n")
    assert code == 0 and "Traceback" not in out + err
    assert "tumbo_play is not allowed now; choose from the list (" in out
    assert "signal" not in out.split("tumbo_play is not allowed now")[1].split("\n")[0]
    assert "Not understood: 'zz'" in out
    assert "There is no choice 99" in out
    # '?' lists the commands of the game being played, not every game's (issue 19).
    assert "envio (e)          propose envío" in out
    assert "7o+5c+3b" not in out and "vega" not in out and "exchange" not in out
    assert out.count(PROMPT) == len(typed)


def _session(hand: list[str]) -> Any:
    """A Session at seat 0 of a 4-player Envite whose hand came in the order given."""
    from mazo.cli.common import Output
    from mazo.cli.play import Session

    game = mazo.load_game("envite", players=4)
    names = {s: "random" for s in range(1, 4)}
    session = Session(game, 0, {}, names, 1, Output(color=False), style="code", lang="en")
    session.hand = list(hand)
    return session


# Seat 3 led 5E (swords); seat 0 holds 1E, 6B and 3C and must follow swords (prevent mode).
FOLLOW = {
    "players": 4,
    "vira": "4B",
    "hand": ["3C", "1E", "6B"],  # the engine's order; the session's is the order they came
    "trick": [{"seat": 3, "card": "5E"}],
    "legal_actions": ["1E", "envio", "signal mala"],
}


def test_cards_are_numbered_by_their_place_in_the_hand() -> None:
    """renuncio_mode=prevent leaves the cards that do not follow out of the legal actions:
    they are still numbered, by their place in the hand, and marked, so "1" is always the
    first card of the hand and a number never moves to another card (issue 19)."""
    session = _session(["1E", "6B", "3C"])
    assert session.entries(FOLLOW) == [
        ("1E", True),
        ("6B", False),
        ("3C", False),
        ("envio", True),
        ("signal mala", True),
    ]
    lines = session._choices(FOLLOW)
    assert lines[0] == "  1) 1E"
    assert lines[1] == "  2) 6B  [trump]  (not now: you must follow swords)"
    assert lines[2] == "  3) 3C  (not now: you must follow swords)"
    assert lines[3].startswith("  4) envio — propose envío")
    # The same card keeps its number when another is the one that may be played.
    session.hand = ["6B", "1E", "3C"]
    assert [a for a, _ in session.entries(FOLLOW)][:3] == ["6B", "1E", "3C"]


def test_a_card_that_cannot_be_played_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = _session(["1E", "6B", "3C"])
    typed = iter(["2", "6b", "1"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    session.read = read
    session.echo = False
    assert session.ask(FOLLOW) is None
    assert session.ask(FOLLOW) is None
    assert session.ask(FOLLOW) == session.game.string_to_action("1E")
    out = capsys.readouterr().out
    assert "6B cannot be played now: you must follow swords; choose another." in out
    assert (
        "6B cannot be played now: you must follow swords; choose from the list (1E, envio)" in out
    )
    # The range counts the numbered lines shown: three cards and envio (messages behind m).
    assert prompts[0].startswith("Your move [1-4, ")


def test_whole_match_numbers_cards_by_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a whole match: every list of choices numbers the hand's cards 1, 2, ... in
    a row, cards that may not be played among them, marked."""
    code, out, _ = run_cli(
        play_args(tmp_path, "--pause", "never", seed=3), capsys, monkeypatch, IN_TURN
    )
    assert code == 0 and "Match over:" in out
    blocks = [b.split(PROMPT)[0] for b in out.split("Your hand — your choices:")[1:]]
    assert len(blocks) >= 10
    for block in blocks:
        numbers = [int(n) for n, _ in CARD_LINE.findall(block)]
        assert numbers == list(range(1, len(numbers) + 1)), block
    assert sum("(not now: you must " in b for b in blocks) >= 2
    assert "cannot be played now: you must" in out


# -- replay ------------------------------------------------------------------------------------


def test_replay_a_saved_envite_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path, "-o", "chicos_to_win=1", seed=5), capsys, monkeypatch, IN_TURN)
    path = str(tmp_path / "match.json")
    final = mazo.replay(load_record(path))
    assert final.match_over
    code, out, err = run_cli(
        ["replay", path, "--seat", "0", "--cards", "code"], capsys, monkeypatch
    )
    assert code == 0, err
    assert "envite, 4 players" in out and "seen by seat 0" in out
    assert "Options: chicos_to_win=1" in out
    assert " are trumps, strongest first: " in out and "Exempt card: " in out
    assert "Your hand: " in out
    ends = [e for e in final.events if e["type"] == "hand_end"]
    assert out.count("Deal over") == len(ends)
    assert "Match over: " in out and "End of record: the match is over." in out
    # Seat 0 sees its team's messages; a spectator sees none and no hand.
    code, spectator, _ = run_cli(["replay", path, "--all", "--brief"], capsys, monkeypatch)
    assert code == 0
    assert "Your hand" not in spectator
    assert " tell" not in spectator and " signs to " not in spectator
    assert re.search(r"^Seat 0 \(human\) plays [1-7JQK][OCEB] \(", spectator, re.M)
    assert re.search(r"^Seat 1 \(random\) plays ", spectator, re.M)
    mates = [e for e in final.events if e["type"] in ("signal", "consult") and e["seat"] == 2]
    if mates:
        assert re.search(r"^Seat 2 \(random\) (signs|suggests) to your team: ", out, re.M)


# -- the renderers, event by event ------------------------------------------------------


def _real_events() -> list[dict[str, Any]]:
    """Real engine events: a tumbo declined, a sign caught by the other team, a deal with
    both teams at tumbo ended by a renuncio (a card that does not follow), the chico."""
    game = mazo.load_game("envite", players=4, renuncio_mode="penalize", signals="team_leaky")
    state = game.new_match(seed=1, dealer=3, setup={"scores": [10, 11], "games": [0, 0]})
    state = state.apply("tumbo_decline", seat=1)  # team 1 at tumbo declines: team 0 +1 -> 11
    state = state.apply("signal mala", seat=2)
    for _ in range(8):  # both at 11: play until some seat may break the follow rule
        seat = state.to_act
        offences = [a for a in state.observation(seat)["offences"] if a != "envio"]
        if offences:
            return list(state.apply(offences[0], seat=seat).events)
        state = state.apply(state.legal_actions()[0])
    raise AssertionError("no renuncio came up")


def test_every_event_type_renders() -> None:
    view = view4()
    game = mazo.load_game("envite", players=4)
    state = game.new_match(seed=2, dealer=3)
    state = state.apply("envio", seat=1)
    state = state.apply("raise", seat=2)
    state = state.apply("consult accept", seat=3)
    state = state.apply("accept", seat=3)
    state = state.apply("envio", seat=1)  # team 1 accepted siete: it may raise to nueve
    state = state.apply("fold", seat=0)
    events = state.events
    text = [render_event(e, view) or "" for e in events]
    assert text[0].startswith("Deal 1: Seat 3 deals; you lead first.\nVira: ")
    assert "You" not in text[1] and "Seat 1 proposes envío for team 1 (seats 1 & 3)" in text[1]
    assert text[2] == (
        "Seat 2 raises to siete for your team (seats 0 & 2), accepting envío: 7 stones if accepted."
    )
    assert text[3] == "Seat 3 suggests to team 1: let's accept."
    assert (
        text[4] == "Seat 3 accepts siete for team 1 (seats 1 & 3): the deal is now worth 7 stones."
    )
    assert text[5] == (
        "Seat 1 proposes nueve for team 1 (seats 1 & 3): the deal would be worth 9 stones."
    )
    assert (
        text[6]
        == "You fold at nueve for your team (seats 0 & 2): team 1 (seats 1 & 3) scores 7 stones."
    )
    assert text[7] == (
        "Deal over: the proposal was refused; Team 1 (seats 1 & 3) wins it.\n"
        "Team 1 (seats 1 & 3): 0 + 7 stones = 7.\n"
        "Stones: Your team (seats 0 & 2) 0 · Team 1 (seats 1 & 3) 7 · "
        "Chicos: Your team (seats 0 & 2) 0 · Team 1 (seats 1 & 3) 0."
    )
    # Tumbo, a sign caught by the other team, a renuncio, the chico.
    real = _real_events()
    seen = {e["type"] for e in real}
    assert {"deal", "tumbo_decline", "hand_end", "signal", "play", "renuncio", "chico"} <= seen
    by_kind: dict[str, list[str]] = {}
    for e in real:
        line = render_event(e, view4(viewer=1))
        assert line, e
        by_kind.setdefault(e["type"], []).append(line)
    assert by_kind["tumbo_decline"] == [
        "You decline the tumbo for your team (seats 1 & 3): team 0 (seats 0 & 2) scores 1 stone."
    ]
    assert "Team 0 (seats 0 & 2): 10 + 1 stone = 11 (tumbo)." in by_kind["hand_end"][0]
    assert by_kind["signal"] == [
        "Seat 2 signs to team 0: I hold the Mala (the 2 of the vira suit). "
        "(a sign your team caught)"
    ]
    assert by_kind["deal"][0].count("is at tumbo (11 stones) and decides") == 1
    assert by_kind["deal"][1].endswith(
        "Both teams are at tumbo: the deal is played for 3 stones and its winner takes the chico."
    )
    renuncio = next(e for e in real if e["type"] == "renuncio")
    assert by_kind["renuncio"][0].startswith("Renuncio! ")
    assert by_kind["renuncio"][0].endswith(
        f"{renuncio['action']} without following as the rules require: the deal ends at once."
    )
    offender = "You" if renuncio["seat"] == 1 else f"Seat {renuncio['seat']}"
    assert f"Deal over by renuncio ({offender}" in by_kind["hand_end"][1]
    assert "the chico." in by_kind["hand_end"][1]  # 11 + 4 -> chico
    assert by_kind["chico"][0].startswith("*** ")


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {"type": "play", "seat": 2, "card": "5O"},
            "Seat 2 plays 5O (cinco de oros).",
        ),
        (
            {
                "type": "trick",
                "winner": 0,
                "team": 0,
                "leader": 3,
                "cards": ["KC", "2C", "1C", "7C"],
                "points": 0,
            },
            "You win the trick with 2C (dos de copas) for your team (seats 0 & 2).",
        ),
        (
            {"type": "tumbo_play", "seat": 3, "team": 1},
            "Seat 3 chooses to play the tumbo for team 1 (seats 1 & 3): the deal is worth 3 "
            "stones, no envío.",
        ),
        (
            {
                "type": "renuncio",
                "seat": 1,
                "team": 1,
                "action": "envio",
                "offence": "envio_at_tumbo",
            },
            "Renuncio! Seat 1 proposes envío while a team is at tumbo: the deal ends at once.",
        ),
        (
            {"type": "renuncio", "seat": 0, "team": 0, "action": "3C", "offence": "follow"},
            "Renuncio! You play 3C (tres de copas) without following as the rules require: "
            "the deal ends at once.",
        ),
        (
            {"type": "consult", "seat": 2, "team": 0, "intent": "raise", "audience": [0, 2]},
            "Seat 2 suggests to your team: let's raise.",
        ),
        (
            {"type": "chico", "team": 1, "games": [0, 1]},
            "*** Team 1 (seats 1 & 3) wins a chico! *** Chicos: Your team (seats 0 & 2) 0 · "
            "Team 1 (seats 1 & 3) 1. Stones go back to 0.",
        ),
        (
            {"type": "match_end", "winner": 0, "scores": [0, 0], "games": [2, 1]},
            "Match over: Your team (seats 0 & 2) wins the match. Chicos: Your team (seats 0 & 2) "
            "2 · Team 1 (seats 1 & 3) 1.",
        ),
    ],
)
def test_event_sentences(event: dict[str, Any], expected: str) -> None:
    assert render_event(event, view4(style="name")) == expected


def _end(**detail: Any) -> dict[str, Any]:
    base = {"tumbo_deal": False, "bet_level": 0, "tricks_won": [0, 0], "chico": None}
    base.update(detail)
    return {"type": "hand_end", "points": [0, 0], "detail": base}


@pytest.mark.parametrize(
    ("detail", "lines"),
    [
        (  # §11.1: 10 + 2 = 12 stays 11 (tumbo)
            {
                "reason": "tricks",
                "team": 0,
                "award": 2,
                "tricks_won": [2, 1],
                "stones_before": [10, 4],
                "scores": [11, 4],
                "games": [0, 0],
            },
            [
                "Deal over: Your team (seats 0 & 2) wins it, 2 tricks to 1.",
                "Your team (seats 0 & 2): 10 + 2 stones = 12, one stone off above 11 → 11 (tumbo).",
            ],
        ),
        (  # 9 + 4 = 13 -> chico
            {
                "reason": "tricks",
                "team": 1,
                "award": 4,
                "bet_level": 1,
                "tricks_won": [0, 2],
                "stones_before": [3, 9],
                "scores": [0, 0],
                "games": [0, 1],
                "chico": 1,
            },
            [
                "Deal over: Team 1 (seats 1 & 3) wins it, 2 tricks to 0, at envío.",
                "Team 1 (seats 1 & 3): 9 + 4 stones = 13: the chico.",
            ],
        ),
        (  # 4 + 7 = 11, no reduction
            {
                "reason": "tricks",
                "team": 1,
                "award": 7,
                "bet_level": 2,
                "tricks_won": [1, 2],
                "stones_before": [0, 4],
                "scores": [0, 11],
                "games": [0, 0],
            },
            [
                "Deal over: Team 1 (seats 1 & 3) wins it, 2 tricks to 1, at siete.",
                "Team 1 (seats 1 & 3): 4 + 7 stones = 11 (tumbo).",
            ],
        ),
        (  # the chico bet played out
            {
                "reason": "tricks",
                "team": 0,
                "award": "chico",
                "bet_level": 4,
                "tricks_won": [2, 0],
                "stones_before": [1, 2],
                "scores": [0, 0],
                "games": [1, 0],
                "chico": 0,
            },
            [
                "Deal over: Your team (seats 0 & 2) wins it, 2 tricks to 0, at chico.",
                "The bet was chico: your team (seats 0 & 2) takes the chico itself.",
            ],
        ),
        (  # a tumbo deal won by the team at 11
            {
                "reason": "tricks",
                "team": 0,
                "award": 3,
                "tumbo_deal": True,
                "tricks_won": [2, 0],
                "stones_before": [11, 5],
                "scores": [0, 0],
                "games": [1, 0],
                "chico": 0,
            },
            [
                "Deal over: Your team (seats 0 & 2) wins it, 2 tricks to 0, a tumbo deal.",
                "Your team (seats 0 & 2): 11 + 3 stones = 14: the chico.",
            ],
        ),
        (
            {
                "reason": "tumbo_decline",
                "team": 1,
                "award": 1,
                "stones_before": [11, 5],
                "scores": [11, 6],
                "games": [0, 0],
            },
            [
                "Deal over: the tumbo was declined; Team 1 (seats 1 & 3) wins it.",
                "Team 1 (seats 1 & 3): 5 + 1 stone = 6.",
            ],
        ),
        (
            {
                "reason": "renuncio",
                "team": 1,
                "award": 4,
                "offender": 2,
                "offence": "follow",
                "card": "3C",
                "stones_before": [0, 0],
                "scores": [0, 4],
                "games": [0, 0],
                "revealed": [["1O"], ["2O", "KB"], [], ["7E"]],
            },
            [
                "Deal over by renuncio (Seat 2, not following with 3C); "
                "Team 1 (seats 1 & 3) wins it.",
                "Team 1 (seats 1 & 3): 0 + 4 stones = 4.",
                "Stones: Your team (seats 0 & 2) 0 · Team 1 (seats 1 & 3) 4 · Chicos: Your team "
                "(seats 0 & 2) 0 · Team 1 (seats 1 & 3) 0.",
                "Cards left in hand: You 1O · Seat 1 2O, KB · Seat 2 - · Seat 3 7E",
            ],
        ),
    ],
)
def test_deal_end_and_stone_counting(detail: dict[str, Any], lines: list[str]) -> None:
    text = render_event(_end(**detail), view4())
    assert text is not None
    for line in lines:
        assert line in text.splitlines(), text


def test_messages_fold_into_one_line() -> None:
    events = [
        {"type": "signal", "seat": 2, "team": 0, "kind": "mala", "audience": [0, 2]},
        {"type": "consult", "seat": 2, "team": 0, "intent": "propose", "audience": [0, 2]},
        {"type": "play", "seat": 2, "card": "5O"},
        {"type": "signal", "seat": 2, "team": 0, "kind": "perica", "audience": [0, 2]},
    ]
    grouped = group_messages(events)
    assert [e["type"] for e in grouped] == ["messages", "play", "signal"]
    assert render_event(grouped[0], view4()) == (
        "Seat 2 tells your team: signal mala; consult propose."
    )
    assert render_event(grouped[2], view4()) == (
        "Seat 2 signs to your team: I hold the Perica (JO, sota de oros)."
    )


def test_observation_screen_from_a_position() -> None:
    """A fixed deal (§5: three cards each from the seat after the dealer, then the vira):
    the table shows the §3.3 hierarchy, the exempt card and the bet as it stands."""
    game = mazo.load_game("envite", players=6)
    hands = {
        1: ["5C", "KB", "7O"],
        2: ["3B", "2C", "1E"],
        3: ["QB", "4O", "6E"],
        4: ["JO", "KC", "1C"],
        5: ["7C", "4E", "6O"],
        0: ["2O", "3O", "5E"],
    }
    deck = [c for s in range(1, 7) for c in hands[s % 6]] + ["4C"]
    rest = [r + s for s in "OCEB" for r in "1234567JQK" if r + s not in deck]
    state = game.new_match(deck=deck + rest, dealer=0, setup={"scores": [5, 11], "games": [1, 0]})
    assert state.observation(0)["phase"] == "tumbo_decision"
    state = state.apply("tumbo_play", seat=1)
    obs = state.observation(0)
    text = render_observation(
        obs, View(players=6, side_of=(0, 1) * 3, viewer=0, style="code", lang="es", game="envite")
    )
    lines = text.splitlines()
    assert lines[0] == "Deal 1 · dealer: you · mano (leads first): Seat 1"
    assert lines[1] == "Stones (12 win a chico, 11 is tumbo): us 5 · them 11 (tumbo)"
    assert lines[2] == "Chicos (first to 2 wins): us 1 · them 0 (us: seats 0 & 2 & 4)"
    assert lines[3] == (
        "Vira: 4C — copas are trumps, strongest first: 3B > QB > JO (Perica) > 2C (Mala) > KC "
        "> QC > JC > 1C > 7C > 6C > 5C > 4C (the vira, out of play) > 3C"
    )
    assert lines[4] == ("Exempt card: 3B — held as the only trump, it need not answer a trump lead")
    assert lines[5] == "Tumbo deal: worth 3 stones; no envío while a team is at 11"
    assert "Your hand: 2O, 3O, 5E" in lines
    assert "Waiting for: Seat 1" in lines
    placed = "\n".join(x for x in lines if not x.startswith(("Vira", "Exempt")))
    assert not set(CARD.findall(placed)) & {"5C", "KB", "7O", "1E", "4O", "6E", "KC", "7C", "4E"}
    # The choices for seat 1 (to lead): its cards, trumps marked; no envío at tumbo.
    choices = render_choices(
        state.observation(1),
        View(players=6, side_of=(0, 1) * 3, viewer=1, style="code", game="envite"),
    )
    assert choices[:3] == ["  1) 7O", "  2) 5C  [trump]", "  3) KB"]
    assert not any(") envio" in c for c in choices)


def test_bet_lines_pending_and_accepted() -> None:
    game = mazo.load_game("envite", players=4)
    state = game.new_match(seed=4, dealer=3)
    state = state.apply("envio", seat=1)
    view = view4()
    text = render_observation(state.observation(0), view)
    assert "Bet: none — the deal is worth 2 stones" in text
    assert (
        "Proposal: Seat 1 proposes envío (4 stones) for them. We must answer: accept, fold "
        "(them +2), or raise to siete"
    ) in text
    choices = render_choices(state.observation(0), view)
    assert choices[:3] == [
        "  1) accept — play on for envío (4 stones)",
        "  2) fold — refuse envío: them +2 stones, the deal ends",
        "  3) raise — accept envío and raise to siete (7 stones)",
    ]
    # The fold choice speaks as the status line does ("fold (them +2)"); a spectator
    # reads the team's number.
    label = envite_action_label("fold", state.observation(None), view4(viewer=None))
    assert label == "fold — refuse envío: team 1 +2 stones, the deal ends"
    state = state.apply("accept", seat=2)
    text = render_observation(state.observation(1), view4(viewer=1))
    assert (
        "Bet: envío accepted — the deal is worth 4 stones; next raise (siete, 7 stones): "
        "your team (seats 0 & 2), which accepted last"
    ).replace("your team (seats 0 & 2)", "team 0 (seats 0 & 2)") in text


def test_spanish_is_the_default_language() -> None:
    assert default_language("envite", {}) == "es"
    view = view4(style="name")
    assert render_event({"type": "play", "seat": 1, "card": "JO"}, view) == (
        "Seat 1 plays JO (sota de oros)."
    )
