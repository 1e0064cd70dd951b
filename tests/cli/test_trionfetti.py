"""``mazo play trionfetti``, ``mazo replay`` on Trionfetti records and the Trionfetti
renderers.

The play tests run ``mazo play`` in-process with a fake stdin and read the saved record
back: with ``--seed S`` the deals and the random bots' choices are reproducible.
Expected values come from the rules file (``rules/trionfetti.md``: the §3.3 presets, the
§5 deal, the §8 vega value, the §11 information table), not from the renderer under test.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
from mazo.record import load_record
from mazo.render import View, default_language, render_choices, render_event, render_observation
from mazo.render.trionfetti import annotate_events, custom_ranking_action, ranking_text

PROMPT = "Your move ["
CHOICE = "Your choice ["
CARD = re.compile(r"\b((?:10|[1-9JQK])[OCEB])\b")
ALWAYS_FIRST = "1\n" * 3000
SHORT = ("-o", "points_to_win_game=3", "-o", "games_to_win_match=1")

# §3.3, strongest first, written as the screen writes them: levels joined by " > ", a
# rank alone for its four suits, suit letters in the order O C E B.
PRESET_ORDERS = {
    "piu_ponto_e_piu_figure": "K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1",
    "manco_ponto": "1 > 2 > 3 > 4 > 5 > 6 > 7 > 8 > 9 > 10 > J > Q > K",
    "piu_ponto": "10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > K > Q > J",
    "manco_e_cavalli": "Q > 1 > 2 > 3 > 4 > 5 > 6 > 7 > 8 > 9 > 10 > J > K",
    "bomba": "KE > QE > JE > 3 > 4 > 2 > 1 > 10 > 9 > 8 > 7 > 6 > 5 > K(OCB) > Q(OCB) > J(OCB)",
}
PRESET_NAMES = {
    "piu_ponto_e_piu_figure": "Più ponto e più figure",
    "manco_ponto": "Manco ponto",
    "piu_ponto": "Più ponto",
    "manco_e_cavalli": "Manco e cavalli",
    "bomba": "Bomba",
}
MESSAGE_LINE = (
    " announces to the table: ",
    " signals to ",
    " says to the table: ",
    "Messages this deal",
)

pytestmark = pytest.mark.usefixtures("plain_terminal")


def play_args(tmp_path: Path, *extra: str, seed: int = 6, bots: str = "random") -> list[str]:
    return [
        "play",
        "trionfetti",
        "--seed",
        str(seed),
        "--vs",
        bots,
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


def cutter_seed(seat: int = 0) -> int:
    """A seed whose first smazzata the given seat cuts (it chooses the ranking first)."""
    game = mazo.load_game("trionfetti")
    return next(s for s in range(200) if game.new_match(seed=s).to_act == seat)


def view4(viewer: int | None = 0, style: str = "code") -> View:
    return View(
        players=4, side_of=(0, 1, 0, 1), viewer=viewer, style=style, lang="it", game="trionfetti"
    )


def tables(out: str) -> list[str]:
    """The table blocks printed before each prompt (from the head line to the hand)."""
    return re.findall(r"^Smazzata \d+ · deal \d of 4.*?(?=^Your choices:)", out, re.M | re.S)


# -- help -------------------------------------------------------------------------------


def test_help_mentions_trionfetti(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(["play", "--help"], capsys, monkeypatch)
    assert code == 0
    assert "mazo play trionfetti" in out
    words = " ".join(out.split())  # the notes are filled to the terminal's width
    assert "keep, rank <preset or levels>, vega, accept, refuse" in words
    code, out, _ = run_cli(["play", "trionfetti", "--list-options"], capsys, monkeypatch)
    assert code == 0
    for option in mazo.load_game("trionfetti").describe_options():
        assert f"  {option['name']} = {option['default']!r}" in out


# -- whole matches -----------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_whole_match_against_bots(
    bots: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        play_args(tmp_path, *SHORT, seed=2, bots=bots), capsys, monkeypatch, ALWAYS_FIRST
    )
    assert code == 0, err
    assert "Traceback" not in out + err and "End of input" not in out
    final = final_state(tmp_path)
    assert final.match_over and max(final.games) == 1
    assert "Trionfetti, 4 players: you are seat 0" in out
    assert "Options: points_to_win_game=3, games_to_win_match=1" in out
    head = next(x for x in out.splitlines() if x.startswith("Trionfetti, 4 players"))
    named = re.findall(r"seat \d (\w+)", head)
    try:
        mazo.make_bot(bots, final.game, seed=1)
    except (ImportError, mazo.RulesError):
        assert f"Note: the {bots} bot" in out and named == ["random"] * 3
    else:
        assert named == [bots] * 3
    events = final.events
    ends = [e for e in events if e["type"] == "hand_end"]
    assert len(re.findall(r"^Deal [1-4] over: ", out, re.M)) == len(ends)
    for deal in (e for e in events if e["type"] == "deal"):
        assert f"Smazzata {deal['smazzata']}, deal {deal['deal']} of 4: " in out
    for smazzata in (e for e in events if e["type"] == "smazzata"):
        assert f"Smazzata {smazzata['smazzata']}: " in out
        assert f"Bottom card shown at the cut: {smazzata['bottom_card']} — " in out
    team = "Your team" if final.winner == 0 else "Team 1"
    assert f"Match over: {team} (seats " in out and "wins the match. Games: " in out
    assert out.count("wins a game! ***") == sum(final.games)
    plays = [e for e in events if e["type"] == "play"]
    announced = re.findall(r"^(?:You play|Seat \d \([^)]*\) plays) ", out, re.M)
    assert len(announced) == len(plays)
    # Every vega against the human's team was answered by the human.
    for e in events:
        if e["type"] in ("accept", "refuse") and e["team"] == 0:
            assert e["seat"] == 0, e
    # The ranking in force is on every table, with its name, and it is the right one.
    blocks = tables(out)
    assert blocks
    for block in blocks:
        line = next(x for x in block.splitlines() if x.startswith("Ranking in force ("))
        assert "), strongest first: " in line


def test_bot_messages_are_shown_and_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random bots talk; each says at most one thing between two moves of the game, the
    partner's signals reach the screen and the opponents' never do."""
    code, out, _ = run_cli(play_args(tmp_path, *SHORT, seed=3), capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    actions = record_of(tmp_path)["actions"]
    talk = ("signal ", "announce ", "tell ", "say ")
    said: dict[int, int] = {}
    for a in actions:
        if a["action"].startswith(talk):
            said[a["seat"]] = said.get(a["seat"], 0) + 1
            assert a["seat"] == 0 or said[a["seat"]] <= 1, a
        else:
            said = {}
    final = final_state(tmp_path)
    announces = [e for e in final.events if e["type"] == "announce" and e["seat"] % 2]
    assert announces
    assert len(re.findall(r"^Seat [13] \(random\) announces to the table: ", out, re.M)) == len(
        announces
    )
    assert re.search(r"^Seat [13] \(random\) announces to the table: I hold ", out, re.M)
    partner = [e for e in final.events if e["type"] == "signal" and e["seat"] == 2]
    if partner:
        assert re.search(r"^Seat 2 \(random, your partner\) signals to you: ", out, re.M)
    assert not re.search(r"^Seat [13] \(random\) (signals|tells) ", out, re.M)


# -- the cutter's ranking ----------------------------------------------------------------


def test_the_cutter_sees_the_presets_and_chooses_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = cutter_seed()
    code, out, err = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, "6\nq\n")
    assert code == 0, err
    first = out.split(CHOICE)[0]
    assert ", cutter: you," in first
    assert (
        "Ranking in force (Più ponto e più figure), strongest first: "
        + PRESET_ORDERS["piu_ponto_e_piu_figure"]
    ) in first
    # Nothing is dealt yet: the cutter chooses before deal 1.
    assert (
        "You cut and choose the ranking before deal 1 of 4 (keep it, a preset or custom)" in first
    )
    # The ranking kept is the one on the table's ranking line, above.
    assert "  1) keep — keep the ranking in force (Più ponto e più figure), as above" in first
    for i, (preset, order) in enumerate(PRESET_ORDERS.items(), 2):
        assert f"  {i}) rank {preset} — {PRESET_NAMES[preset]}: {order}" in first
    assert "  or type rank <levels, strongest first>" in first
    assert "Your hand" not in first  # nothing is dealt before the ranking is chosen
    assert record_of(tmp_path)["actions"][0] == {"seat": 0, "action": "rank bomba"}
    assert f"You set the ranking Bomba for this smazzata: {PRESET_ORDERS['bomba']}" in out
    after = out.split("You set the ranking Bomba")[1]
    assert f"Ranking in force (Bomba), strongest first: {PRESET_ORDERS['bomba']}" in after


def test_the_cutter_keeps_the_ranking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(play_args(tmp_path, seed=cutter_seed()), capsys, monkeypatch, "k\nq\n")
    assert code == 0
    assert record_of(tmp_path)["actions"][0] == {"seat": 0, "action": "keep"}
    assert "You keep the ranking in force (Più ponto e più figure)." in out


@pytest.mark.parametrize(
    "typed",
    [
        "rank KE KB KC KO Q J 10 9 8 7 6 5 4 3 2 1",
        "rank ke, kb > kc > ko q j 10 9 8 7 6 5 4 3 2 a",
        'rank [{"rank": "K", "suits": "E"}, "K(B)", "K(C)", "K(O)", "Q", "J", "10", "9", "8", '
        '"7", "6", "5", "4", "3", "2", "1"]',
    ],
)
def test_a_custom_ranking_after_refused_ones(
    typed: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§3.2: every card exactly once, one rank per level; the engine's reasons are shown
    and the cutter is asked again."""
    refused = [
        "rank K Q J",  # cards missing
        "rank K K Q J 10 9 8 7 6 5 4 3 2 1",  # cards twice
        "rank KQ Q J 10 9 8 7 6 5 4 3 2 1",  # two ranks in a level
    ]
    stdin = "\n".join([*refused, typed, "q"]) + "\n"
    code, out, err = run_cli(play_args(tmp_path, seed=cutter_seed()), capsys, monkeypatch, stdin)
    assert code == 0, err
    assert "Not allowed: rank: invalid ranking: cards in no level: " in out
    assert "Not allowed: rank: invalid ranking: a card in two levels: KO (levels 1 and 2)" in out
    assert "Not allowed: rank: level 1: 'KQ' is not one rank" in out
    assert out.count("A ranking lists every card once") == 3
    assert out.count(CHOICE) == 4
    order = "KE > KB > KC > KO > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1"
    assert f"You set a custom ranking for this smazzata: {order}" in out
    assert f"Ranking in force (custom), strongest first: {order}" in out
    action = record_of(tmp_path)["actions"][0]
    assert action["seat"] == 0 and action["action"].startswith("rank [")
    levels = json.loads(action["action"][5:])
    assert levels[:4] == [{"rank": "K", "suits": s} for s in "EBCO"]
    state = final_state(tmp_path)
    assert state.ranking[:4] == [{"rank": "K", "suits": s} for s in "EBCO"]
    hand = state.observation(0)["hand"]
    for card in hand:  # each card's level under the custom ranking is shown
        level = next(
            i
            for i, lv in enumerate(state.ranking, 1)
            if card[-1] in lv["suits"] and lv["rank"] == card[:-1]
        )
        assert f"{card}  [level {level} of 16]" in out


def test_custom_ranking_words() -> None:
    assert custom_ranking_action("manco_ponto") == "rank manco_ponto"
    assert json.loads(custom_ranking_action("K(BCO) kebc 10o A")[5:]) == [
        {"rank": "K", "suits": "BCO"},
        {"rank": "K", "suits": "EBC"},
        {"rank": "10", "suits": "O"},
        {"rank": "1", "suits": "OCEB"},
    ]


# -- vega ------------------------------------------------------------------------------------


def test_human_calls_vega_and_a_bot_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        play_args(tmp_path, seed=cutter_seed()), capsys, monkeypatch, "1\nv\nq\n"
    )
    assert code == 0, err
    actions = record_of(tmp_path)["actions"]
    i = actions.index({"seat": 0, "action": "vega"})
    answer = next(a for a in actions[i + 1 :] if a["action"] in ("accept", "refuse"))
    assert answer["seat"] % 2 == 1
    # §8: V = 20 - max(scores) = 20 at 0-0.
    assert (
        "You call vega for your team (seats 0 & 2): accepted, the deal is worth 20 points; "
        "refused, your team (seats 0 & 2) scores 1 point."
    ) in out
    who = f"Seat {answer['seat']} (random)"
    if answer["action"] == "accept":
        assert (
            f"{who} accepts the vega for team 1 (seats 1 & 3): the deal is now worth 20 points."
        ) in out
        assert "Vega accepted: the deal is worth 20 points (no other vega this deal)" in out
    else:
        assert (
            f"{who} refuses the vega for team 1 (seats 1 & 3): your team (seats 0 & 2) scores "
            "1 point and the deal ends."
        ) in out
        assert "Deal 1 over: the vega was refused; your team (seats 0 & 2) wins it." in out
        assert "Your team (seats 0 & 2): 0 + 1 point = 1." in out


def test_human_answers_a_vega_for_the_team_out_of_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vega by the opponents asks the next seat first; when that is the partner bot the
    human is offered the answer all the same, and gives it."""
    for seed in range(60):
        code, out, _ = run_cli(
            play_args(tmp_path, *SHORT, seed=seed), capsys, monkeypatch, ALWAYS_FIRST
        )
        if "is asked first, but you may answer for your team:" in out:
            break
    else:
        raise AssertionError("no seed gave a vega answered out of turn")
    assert code == 0
    block = out.split("is asked first, but you may answer for your team:")[1].split(PROMPT)[0]
    # Seat 2 is asked; the human's team must answer, and may talk only between partners.
    assert "Waiting for: Seat 2 · talk now: your partner only" in block
    assert re.search(
        r"^Vega pending: Seat [13] calls vega for them, worth \d+ points?\. We must answer$",
        block,
        re.M,
    )
    assert re.search(r"^  1\) accept — play the deal for \d+ points?$", block, re.M)
    assert "  2) refuse — they score 1 point and the deal ends" in block
    # While the vega waits the answering team sees both hands (§11.1).
    assert re.search(r"^Seat 2 has shown you this deal: ", block, re.M)
    answers = [
        e
        for e in final_state(tmp_path).events
        if e["type"] in ("accept", "refuse") and e["team"] == 0
    ]
    assert answers and all(e["seat"] == 0 for e in answers)
    assert re.search(r"^You accept the vega for your team \(seats 0 & 2\)", out, re.M)


# -- talk --------------------------------------------------------------------------------------


def test_talk_menu_and_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In trick 1 nobody talks; from trick 2 on the human signals, announces, tells and
    says (§11.2), each once between two moves."""
    typed = ["m", "tell hello partner", "say hello table", "signal KE", "announce 8", "6", "m", "s"]
    done = (
        'You say to the table: "hello table"',
        "You signal to Seat 2 (random, your partner): my cards are strong.",
    )
    for seed in range(80):
        stdin = "1\n" * 2 + "\n".join(typed) + "\nq\n"
        code, out, _ = run_cli(play_args(tmp_path, seed=seed), capsys, monkeypatch, stdin)
        if all(line in out for line in done):
            break
    else:
        raise AssertionError("no seed reached a talk window open to all at the third prompt")
    assert 'You tell Seat 2 (random, your partner): "hello partner"' in out
    assert code == 0
    assert "Talk (claims and talk are never checked; type the number or the words):" in out
    assert re.search(r"^\s+\d+\) signal strong — to your partner: my cards are strong$", out, re.M)
    assert re.search(r"^\s+\d+\) announce want_vega — to the table: let's call vega$", out, re.M)
    assert "  tell <text>            — say anything to Seat 2 (random, your partner)" in out
    assert 'You say to the table: "hello table"' in out
    assert "You signal to Seat 2 (random, your partner): I hold KE." in out
    assert "You announce to the table: I hold an 8 (otto)." in out
    assert "You signal to Seat 2 (random, your partner): my cards are strong." in out
    assert "· talk now: open to your partner and the table" in out
    actions = [a for a in record_of(tmp_path)["actions"] if a["seat"] == 0]
    assert [a["action"] for a in actions[-5:]] == [
        "tell hello partner",
        "say hello table",
        "signal KE",
        "announce 8",
        "signal strong",
    ]
    assert "Messages this deal: " in out and 'You to the table: "hello table"' in out


def test_no_talk_in_the_first_trick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "1\nm\ntell hi\nsignal KE\nq\n"
    code, out, _ = run_cli(play_args(tmp_path, seed=cutter_seed()), capsys, monkeypatch, stdin)
    assert code == 0
    assert "· talk now: none in the first trick" in out
    assert "No talk now: none — no talk in the first trick." in out
    assert "Not allowed: tell: no talk in the first trick (§11.2)" in out
    assert "signal KE is not allowed now (talk now: none)" in out
    assert all(a["seat"] != 0 for a in record_of(tmp_path)["actions"][1:])


def test_opt_in_options_from_the_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """bottom_card_shown=on_request: the cutter asks for the bottom card at the prompt."""
    argv = play_args(tmp_path, "-o", "bottom_card_shown=on_request", seed=cutter_seed())
    code, out, _ = run_cli(argv, capsys, monkeypatch, "show_bottom\nq\n")
    assert code == 0
    assert "The bottom card is not shown (any player may ask: show_bottom)." in out
    assert "  7) show_bottom — ask to see the bottom card (everyone sees it then)" in out
    record = record_of(tmp_path)
    bottom = record["deals"][0]["deck"][-1]
    assert record["actions"][0] == {"seat": 0, "action": "show_bottom"}
    assert f"You ask to see the bottom card: {bottom}; it will not be dealt this smazzata." in out
    assert f"Bottom card (never dealt this smazzata): {bottom}" in out


def test_show_to_the_partner_at_a_pause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """partner_sharing=opt_in: after the human's refused vega the cards left may be shown
    to the partner (§11.1) until the next deal's first card: the game pauses before the
    partner leads, and the typed word ``show`` shares rather than redrawing the table."""
    game = mazo.load_game("trionfetti")
    for seed in (s for s in range(200) if game.new_match(seed=s).to_act == 0):
        argv = play_args(tmp_path, "-o", "partner_sharing=opt_in", seed=seed)
        code, out, _ = run_cli(argv, capsys, monkeypatch, "1\nv\nshow\nq\n")
        if "Your partner sees your cards" in out:
            break
    else:
        raise AssertionError("no seed gave a refused vega followed by a pause")
    assert code == 0
    assert "refuses the vega for team 1 (seats 1 & 3)" in out
    assert "You may act now (out of turn), or go on:" in out or "You may call now" in out
    shown = re.search(r"^  2\) show — show your partner: (.+)$", out, re.M)
    assert shown is not None
    assert (
        "Your partner sees your cards left at the end of the previous deal, as you chose: "
        + ", ".join(shown.group(1).split())
    ) in out
    actions = record_of(tmp_path)["actions"]
    assert {"seat": 0, "action": "show"} in actions


# -- what the screen shows ---------------------------------------------------------------


def test_nothing_hidden_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In each deal the screen names no card of another hand that was neither played nor
    shared with the human in that deal, and no card of the stock (the bottom card is
    public; the four cards left only once shown, or to the human as dealer).  Rankings
    and claims name cards without placing them, so their lines are left out."""
    argv = play_args(tmp_path, "-o", "points_to_win_game=6", "-o", "games_to_win_match=1", seed=5)
    code, out, _ = run_cli(argv, capsys, monkeypatch, ALWAYS_FIRST)
    assert code == 0
    record = record_of(tmp_path)
    final = mazo.replay(record)
    packs = {d["deal"]: (d["deck"], d["dealer"]) for d in record["deals"]}
    seen: dict[tuple[int, int], set[str]] = {}  # (smazzata, deal) -> played or shown to seat 0
    left_shown: set[tuple[int, int]] = set()
    key = (0, 0)
    for e in final.events_for(0):
        if e["type"] == "deal":
            key = (e["smazzata"], e["deal"])
            seen[key] = set()
        elif e["type"] == "play":
            seen[key].add(e["card"])
        elif e["type"] == "share":
            seen[key] |= set(e["cards"])
        elif e["type"] == "leftover":
            left_shown.add(key)
    parts = re.split(r"^(Smazzata \d+(?:, deal \d of 4)?: )", out, flags=re.M)[1:]
    checked = 0
    deals = 0
    for head, text in zip(parts[::2], parts[1::2], strict=True):
        numbers = [int(n) for n in re.findall(r"\d+", head)]
        deck, dealer = packs[numbers[0]]
        if len(numbers) == 1:  # the cut and the ranking choice: only the bottom card
            hidden = set(deck[:-1])
            later = ""
        else:
            smazzata, k = numbers[:2]
            deals += 1
            hidden = set(deck[12 * k : 51])
            for j in range(4):
                seat = (dealer + 1 + j) % 4
                if seat != 0:
                    hidden |= set(deck[12 * (k - 1) + 3 * j : 12 * (k - 1) + 3 * j + 3])
            hidden -= seen[(smazzata, k)]
            later = ""
            if k == 4 and dealer == 0:
                hidden -= set(deck[48:])  # the dealer looks at them (automatic peek)
            elif (smazzata, k) in left_shown:
                text, later = text.split("the dealer lays the four cards left face up")
        for part, secret in ((text, hidden), (later, hidden - set(deck[48:]))):
            visible = "\n".join(
                line
                for line in part.splitlines()
                if "rank" not in line.lower() and not any(m in line for m in MESSAGE_LINE)
            )
            named = set(CARD.findall(visible))
            assert not named & secret, f"{head}: {sorted(named & secret)} leaked"
            checked += len(named)
    assert deals == sum(1 for e in final.events if e["type"] == "deal")
    assert checked > 30


def test_the_table_during_a_deal() -> None:
    """A fixed pack (§5.3: packets of three from the dealer's right; the last card is the
    bottom card): the head, scores, ranking, bottom card, vega, trick and hand lines."""
    game = mazo.load_game("trionfetti", first_dealer=3)
    hands = {
        0: ["KE", "3O", "7C"],
        1: ["QB", "1O", "10E"],
        2: ["2C", "JO", "9B"],
        3: ["5E", "6O", "8C"],
    }
    first = [c for s in (0, 1, 2, 3) for c in hands[s]]
    ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    rest = [r + s for s in "OCEB" for r in ranks if r + s not in first]
    rest.remove("4B")
    state = game.new_match(
        deck=[*first, *rest, "4B"], dealer=3, setup={"scores": [12, 15], "games": [1, 0]}
    )
    state = state.apply("rank bomba", seat=2)
    state = state.apply("3O", seat=0)
    obs = state.observation(0)
    text = render_observation(obs, view4())
    lines = text.splitlines()
    assert (
        lines[0] == "Smazzata 1 · deal 1 of 4 · dealer: Seat 3, cutter: Seat 2, mano (leads): you"
    )
    # Teams are "us" and "them"; the games line says which seats are "us".
    assert lines[1] == "Points (20 win a game): us 12 · them 15"
    assert lines[2] == "Games (first to 3 wins the match): us 1 · them 0 (us: seats 0 & 2)"
    assert lines[3] == f"Ranking in force (Bomba), strongest first: {PRESET_ORDERS['bomba']}"
    assert lines[4] == "Bottom card (never dealt this smazzata): 4B"
    # §8: 20 - max(12, 15) = 5.
    assert lines[5] == (
        "Vega: not called, deal worth 1 point; the seat to play may call it for 5 points"
    )
    assert "Tricks (two win the deal): us 0 · them 0" in lines
    assert "Trick 1 so far: you 3O — best so far: 3O (you)" in lines
    assert "Waiting for: Seat 1 · talk now: none in the first trick" in lines
    # Bomba: KE level 1 of 16, 7C level 11 (KE QE JE 3 4 2 1 10 9 8 7); the hand by code
    # (the choices name the cards), the bottom card by name.
    named = render_observation(obs, view4(style="name")).splitlines()
    assert "Your hand: KE [level 1/16], 7C [level 11/16]" in named
    assert "Bottom card (never dealt this smazzata): 4B (quattro di bastoni)" in named
    assert all(len(line) <= 80 for line in lines[4:])  # below the head and the ranking
    assert not set(CARD.findall(text.replace(lines[3], ""))) & {
        "QB",
        "1O",
        "10E",
        "2C",
        "JO",
        "9B",
        "5E",
        "6O",
        "8C",
    }
    # Seat 1 calls vega: seat 0's team must answer; both see each other's hands.
    state = state.apply("vega", seat=1)
    obs = state.observation(0)
    text = render_observation(obs, view4())
    # The answering team's line is short: its choices say what accept and refuse do.
    assert "Vega pending: Seat 1 calls vega for them, worth 5 points. We must answer" in text
    assert "Seat 2 has shown you this deal: JO 2C 9B" in text
    assert "Waiting for: Seat 2 · talk now: your partner only" in text
    assert render_choices(obs, view4()) == [
        "  1) accept — play the deal for 5 points",
        "  2) refuse — they score 1 point and the deal ends",
        "  3) signal have — to your partner: I have it",
        "  4) signal nothing — to your partner: I have nothing",
        "  5) signal strong — to your partner: my cards are strong",
        "  6) signal weak — to your partner: my cards are weak",
        "  7) signal want_vega — to your partner: let's call vega",
    ]
    # The opponents see nothing of it; the callers and a spectator read what each answer
    # does, and that only the answering team may talk.
    callers = render_observation(state.observation(1), view4(viewer=1))
    assert "2C" not in callers
    assert (
        "Vega pending: You call vega for us, worth 5 points. They must answer: accept (the "
        "deal is played for 5 points) or refuse (we score 1 point, the deal ends)"
    ) in callers
    assert "Waiting for: Seat 2 · talk now: none while the vega waits (answering team only)" in (
        callers
    )
    spectator = render_observation(state.observation(None), view4(viewer=None))
    assert (
        "Vega pending: Seat 1 calls vega for team 1, worth 5 points. Team 0 must answer: accept "
        "(the deal is played for 5 points) or refuse (team 1 scores 1 point, the deal ends)"
    ) in spectator
    assert "(team 0: seats 0 & 2, team 1: seats 1 & 3)" in spectator
    assert "talk now" not in spectator and "Your hand" not in spectator
    state = state.apply("accept", seat=2)
    text = render_observation(state.observation(0), view4())
    assert "Vega accepted: the deal is worth 5 points (no other vega this deal)" in text


# -- replay ------------------------------------------------------------------------------------


def test_replay_a_saved_trionfetti_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(play_args(tmp_path, *SHORT, seed=4), capsys, monkeypatch, ALWAYS_FIRST)
    path = str(tmp_path / "match.json")
    final = mazo.replay(load_record(path))
    assert final.match_over
    code, out, err = run_cli(
        ["replay", path, "--seat", "0", "--cards", "code"], capsys, monkeypatch
    )
    assert code == 0, err
    assert "trionfetti, 4 players" in out and "seen by seat 0" in out
    assert "Options: points_to_win_game=3, games_to_win_match=1" in out
    assert "Drawing for the first dealer" in out
    assert "Ranking in force (" in out and "Your hand: " in out
    ends = [e for e in final.events if e["type"] == "hand_end"]
    assert len(re.findall(r"^Deal [1-4] over: ", out, re.M)) == len(ends)
    assert "Match over: " in out and "End of record: the match is over." in out
    # A spectator sees no hand, no partner's share, no partner signal.
    code, spectator, _ = run_cli(["replay", path, "--all", "--brief"], capsys, monkeypatch)
    assert code == 0
    assert "Your hand" not in spectator and "shows you" not in spectator
    assert " signals to " not in spectator and " tells " not in spectator
    assert re.search(r"^Seat 0 \(human\) plays (10|[1-9JQK])[OCEB] \(", spectator, re.M)
    assert re.search(r"^Seat 1 \(random\) plays ", spectator, re.M)


def test_sim_and_bench_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["sim", "trionfetti", "--games", "3", "--bots", "random,random", "--seed", "1"]
    code, out, err = run_cli([*argv, "-o", "points_to_win_game=5"], capsys, monkeypatch)
    assert code == 0, err
    assert "trionfetti, 4 players, 3 matches" in out
    assert "points/d" in out and "games" in out
    code, out, err = run_cli(["bench", "trionfetti", "--seconds", "0.3"], capsys, monkeypatch)
    assert code == 0, err
    assert "trionfetti" in out


# -- the renderers, event by event ------------------------------------------------------


def _drive(game: Any, seed: int) -> Any:
    """A match where every seat acts at random: the seat to act or any other seat, and
    now and then free talk, so opt-in shows, peeks and answers by either seat occur."""
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.match_over:
        moves: list[tuple[int, int]] = []
        talk: list[tuple[int, int]] = []
        for seat in range(4):
            for a in state.legal_actions(seat):
                (talk if a >= 64 else moves).append((seat, a))
        if talk and rng.random() < 0.15:
            seat, action = rng.choice(talk)
            word = "say" if action >= 134 else "tell"  # announce ids: the table may hear
            try:
                if rng.random() < 0.5:
                    raise mazo.IllegalActionError("a claim this time")
                state = state.apply(f"{word} hello from {seat}", seat=seat)
            except mazo.IllegalActionError:  # or said already since the last move
                state = state.apply(action, seat=seat)
            continue
        extra = [(seat, a) for seat, a in moves if 61 <= a <= 63]  # show_bottom, peek, show
        if extra and rng.random() < 0.5:
            moves = extra
        seat, action = rng.choice(moves)
        state = state.apply(action, seat=seat)
    return state


EVENT_TYPES = {
    "dealer_draw",
    "smazzata",
    "ranking",
    "deal",
    "play",
    "trick",
    "vega",
    "accept",
    "refuse",
    "share",
    "peek",
    "leftover",
    "bottom_card",
    "signal",
    "announce",
    "tell",
    "say",
    "hand_end",
    "game_end",
    "match_end",
}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "bottom_card_shown": "on_request",
            "partner_sharing": "opt_in",
            "dealer_peek_deal4": "opt_in",
        },
    ],
)
def test_every_event_type_renders(options: dict[str, Any]) -> None:
    game = mazo.load_game("trionfetti", points_to_win_game=8, games_to_win_match=2, **options)
    wanted = EVENT_TYPES - ({"bottom_card"} if not options else set())
    for seed in range(40):
        state = _drive(game, seed)
        if wanted <= {e["type"] for e in state.events}:
            break
    else:
        raise AssertionError("no seed produced every event type")
    for viewer in range(4):
        events = annotate_events(state.events_for(viewer))
        view = view4(viewer, style="name")
        for e in events:
            text = render_event(e, view)
            if e["type"] == "share" and not e["cards"]:
                assert text is None
                continue
            assert text, e
            _check_sentence(e, text, viewer)
    # A spectator sees the public events only, each readable.
    for e in annotate_events(state.events_for(None)):
        assert "audience" not in e
        if e["type"] != "share":
            assert render_event(e, view4(None))


def _check_sentence(e: dict[str, Any], text: str, viewer: int) -> None:
    kind = e["type"]
    seat = e.get("seat")
    who = "You" if seat == viewer else f"Seat {seat}"
    if kind == "play":
        assert text.startswith(f"{who} play") and e["card"] in text
    elif kind == "trick":
        winner = "You" if e["winner"] == viewer else f"Seat {e['winner']}"
        assert text.startswith(f"{winner} win") and f"trick {e['trick']} with " in text
    elif kind == "vega":
        assert f"the deal is worth {e['value']} point" in text
    elif kind == "accept":
        assert f"the deal is now worth {e['value']} point" in text
    elif kind == "refuse":
        assert "scores 1 point and the deal ends" in text
    elif kind == "ranking":
        assert text.startswith(who)
        assert ("keep" in text) == e["kept"]
        if not e["kept"]:
            assert ranking_text(e["ranking"]) in text
    elif kind == "share":
        assert all(c in text for c in e["cards"])
        assert text.startswith("Your partner sees your cards" if seat == viewer else who)
    elif kind == "peek":
        assert seat == viewer and text.startswith("You (the dealer) look at the four cards left")
    elif kind == "leftover":
        assert text.startswith("Second card of the first trick: the dealer lays the four cards")
    elif kind in ("signal", "tell"):
        assert viewer in e["audience"]
        assert text.startswith(who)
    elif kind in ("announce", "say"):
        assert "to the table: " in text
    elif kind == "hand_end":
        assert text.startswith(f"Deal {e['detail']['deal']} over: ")
    elif kind == "smazzata":
        assert text.startswith(f"Smazzata {e['smazzata']}: ") and "Ranking in force (" in text
    elif kind == "deal":
        assert text.startswith(f"Smazzata {e['smazzata']}, deal {e['deal']} of 4: ")
    elif kind == "dealer_draw":
        assert text.startswith("Drawing for the first dealer")
    elif kind == "game_end":
        assert "wins a game! ***" in text
    elif kind == "match_end":
        assert text.startswith("Match over: ")


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {
                "type": "trick",
                "winner": 3,
                "team": 1,
                "leader": 2,
                "cards": ["2E", "7B", "7C", "3O"],
                "points": 0,
                "trick": 2,
                "tied": ["7C"],
            },
            "Seat 3 wins trick 2 with 7B (sette di bastoni) for team 1 (seats 1 & 3) (7C ties "
            "with it but came later).",
        ),
        (
            {"type": "accept", "seat": 2, "team": 0, "value": 8},
            "Seat 2 accepts the vega for your team (seats 0 & 2): the deal is now worth 8 points.",
        ),
        (
            {"type": "refuse", "seat": 0, "team": 0, "value": 8},
            "You refuse the vega for your team (seats 0 & 2): team 1 (seats 1 & 3) scores 1 "
            "point and the deal ends.",
        ),
        (
            {"type": "signal", "seat": 2, "team": 0, "claim": "K", "audience": [2, 0]},
            "Seat 2 signals to you: I hold a K (re).",
        ),
        (
            {"type": "announce", "seat": 1, "team": 1, "claim": "want_vega"},
            "Seat 1 announces to the table: let's call vega.",
        ),
        (
            {"type": "tell", "seat": 2, "team": 0, "text": "play low", "audience": [2, 0]},
            'Seat 2 tells you: "play low"',
        ),
        (
            {"type": "share", "seat": 2, "cards": ["1O"], "reason": "tricks", "audience": [0, 2]},
            "Seat 2 shows you the card left in their hand at the end of the deal: 1O (asso di "
            "denari).",
        ),
        (
            {"type": "bottom_card", "seat": 3, "card": "9C"},
            "Seat 3 asks to see the bottom card: 9C (nove di coppe); it will not be dealt this "
            "smazzata.",
        ),
        (
            {"type": "ranking", "seat": 1, "kept": True, "ranking": None, "ranking_name": None},
            "Seat 1 keeps the ranking in force.",
        ),
        (
            {"type": "game_end", "team": 0, "games": [2, 1], "match_over": False},
            "*** Your team (seats 0 & 2) wins a game! *** Games: Your team (seats 0 & 2) 2 · Team "
            "1 (seats 1 & 3) 1. Points go back to 0 and the next seat deals a new smazzata.",
        ),
        (
            {"type": "match_end", "winner": 1, "scores": [0, 0], "games": [1, 3]},
            "Match over: Team 1 (seats 1 & 3) wins the match. Games: Your team (seats 0 & 2) 1 · "
            "Team 1 (seats 1 & 3) 3.",
        ),
    ],
)
def test_event_sentences(event: dict[str, Any], expected: str) -> None:
    assert render_event(event, view4(style="name")) == expected


@pytest.mark.parametrize(
    ("detail", "lines"),
    [
        (
            {
                "reason": "tricks",
                "team": 0,
                "award": 1,
                "vega": None,
                "tricks_won": [2, 0],
                "deal": 2,
                "scores_before": [4, 7],
                "game_won": None,
                "scores": [5, 7],
                "games": [0, 0],
            },
            [
                "Deal 2 over: your team (seats 0 & 2) wins it, 2 tricks to 0.",
                "Your team (seats 0 & 2): 4 + 1 point = 5.",
                "Points: Your team (seats 0 & 2) 5 · Team 1 (seats 1 & 3) 7 · Games: Your team "
                "(seats 0 & 2) 0 · Team 1 (seats 1 & 3) 0.",
            ],
        ),
        (  # §8: an accepted vega at 12-15 is worth 5 and takes the leader to 20
            {
                "reason": "tricks",
                "team": 1,
                "award": 5,
                "vega": 5,
                "tricks_won": [1, 2],
                "deal": 4,
                "scores_before": [12, 15],
                "game_won": 1,
                "scores": [0, 0],
                "games": [0, 1],
            },
            [
                "Deal 4 over: team 1 (seats 1 & 3) wins it, 2 tricks to 1, with the vega "
                "accepted at 5.",
                "Team 1 (seats 1 & 3): 15 + 5 points = 20: the game.",
            ],
        ),
        (
            {
                "reason": "refused",
                "team": 1,
                "award": 1,
                "vega": 8,
                "tricks_won": [0, 0],
                "deal": 1,
                "scores_before": [12, 3],
                "game_won": None,
                "scores": [12, 4],
                "games": [1, 1],
            },
            [
                "Deal 1 over: the vega was refused; team 1 (seats 1 & 3) wins it.",
                "Team 1 (seats 1 & 3): 3 + 1 point = 4.",
            ],
        ),
    ],
)
def test_deal_end_lines(detail: dict[str, Any], lines: list[str]) -> None:
    text = render_event({"type": "hand_end", "points": [0, 0], "detail": detail}, view4())
    assert text is not None
    for line in lines:
        assert line in text.splitlines(), text


def test_dealer_draw_with_a_tie() -> None:
    game = mazo.load_game("trionfetti")
    event = next(
        e
        for s in range(100)
        for e in game.new_match(seed=s).events[:1]
        if e["type"] == "dealer_draw" and len(e["rounds"]) > 1
    )
    text = render_event(event, view4())
    lines = text.splitlines()
    assert lines[1].startswith("  Round 1: ") and lines[2].startswith("  Tie, round 2: ")
    assert lines[-1] in (f"Seat {event['dealer']} deals first.", "You deal first.")


def test_italian_is_the_default_language() -> None:
    assert default_language("trionfetti", {}) == "it"
    view = view4(style="name")
    assert render_event({"type": "play", "seat": 1, "card": "QO"}, view) == (
        "Seat 1 plays QO (cavallo di denari)."
    )
    assert render_event({"type": "play", "seat": 1, "card": "10B"}, view) == (
        "Seat 1 plays 10B (dieci di bastoni)."
    )
