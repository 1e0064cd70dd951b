"""Plain-text rendering of Trionfetti observations, choices and events.

:mod:`mazo.render` finds this file through the game registry.  Like the other
renderers it reads one seat's observation or its share of the log, never a state, so it
cannot name a card the viewer may not know.

The ranking in force decides every trick and changes with each smazzata, so it is on
every screen, written strongest level first and separated by ``>``: a bare rank is all
four suits, ``KE`` one suit, ``K(OCB)`` several suits of one rank (equal strength).
Trionfetti is a Venetian game: unless the user picks another language the cards read in
Italian (``KE (re di spade)``).

The table (:func:`render_trionfetti_observation`) fits a terminal of 80×24 with the
choices and the prompt under it, as Envite's does, even late in a smazzata (deal 4, the
four cards left shown, a vega, two tricks done, the partner's cards of this deal and the
earlier ones, messages).  So its lines say things short, and the log says them in full:
seats are "you" and "Seat 3" (the names with the bot's kind are in the log), teams "us"
and "them" (the games line says which seats are "us"; a spectator reads "team 0" and
"team 1" and their seats), cards in lists by code (the hand too: the choices name its
cards), the partner's cards from earlier deals by deal number, a vega our team must answer
in a few words (the choices say what accept and refuse do), the latest four messages, and
the talk window on the line of whose turn it is.  The ranking keeps its whole order.

>>> from mazo.render import View
>>> view = View(players=4, side_of=(0, 1, 0, 1), viewer=0, lang="it", game="trionfetti")
>>> from mazo.games.trionfetti import PRESETS, ranking_levels
>>> ranking_text(ranking_levels(PRESETS["bomba"]), view)
'KE > QE > JE > 3 > 4 > 2 > 1 > 10 > 9 > 8 > 7 > 6 > 5 > K(OCB) > Q(OCB) > J(OCB)'
>>> render_trionfetti_event({"type": "play", "seat": 2, "card": "QC"}, view)
'Seat 2 plays QC (cavallo di coppe).'
>>> custom_ranking_action("KE QE JE > 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)")[:61]
'rank [{"rank": "K", "suits": "E"}, {"rank": "Q", "suits": "E"'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mazo.games.trionfetti import PRESETS, ranking_levels
from mazo.render.common import GameText, View, rank_name
from mazo.render.common import brief_seat as _who
from mazo.render.common import brief_team as _team

__all__ = [
    "CLAIM_TEXT",
    "PRESET_NAMES",
    "annotate_events",
    "custom_ranking_action",
    "is_message",
    "level_text",
    "ordered_actions",
    "ranking_name",
    "ranking_text",
    "render_trionfetti_event",
    "render_trionfetti_observation",
    "talk_text",
    "trionfetti_action_label",
]

JSON = Mapping[str, Any]

PRESET_NAMES = {
    "piu_ponto_e_piu_figure": "Più ponto e più figure",
    "manco_ponto": "Manco ponto",
    "piu_ponto": "Più ponto",
    "manco_e_cavalli": "Manco e cavalli",
    "bomba": "Bomba",
}
"""The table names of the five presets (rules §3.3)."""

CLAIM_TEXT = {
    "have": "I have it",
    "nothing": "I have nothing",
    "strong": "my cards are strong",
    "weak": "my cards are weak",
    "want_vega": "let's call vega",
}
"""What the word claims say; a card or a rank claims "I hold ...".  Never checked."""

WORD_CLAIMS = tuple(CLAIM_TEXT)
_MESSAGE_TYPES = ("signal", "announce", "tell", "say")
_SYMBOLS = {"O": "♦", "C": "♥", "E": "♠", "B": "♣"}
_RECENT = 4  # messages of the deal the table repeats (the log has them all)
_LEVEL = re.compile(r"(10|[1-9]|[AJQK])(?:\(([OCEB]+)\)|([OCEB]+))?")


def is_message(action: str) -> bool:
    """Talk, not a move of the game: ``signal``/``announce`` claims, ``tell``/``say`` text.

    >>> is_message("signal KE"), is_message("say hello"), is_message("vega")
    (True, True, False)
    """
    return action.startswith(("signal ", "announce ", "tell ", "say "))


def ordered_actions(legal: Sequence[str], levels: Sequence[JSON] = ()) -> list[str]:
    """The numbered choices: cards (strongest first under ``levels``, the ranking in
    force) and calls, then the claims made with a word (``signal have``...), which the
    ``m`` menu lists.  Card and rank claims (70 per audience) are typed, not numbered.

    >>> ordered_actions(["1O", "KB", "vega", "signal KB", "signal have"], [{"rank": "1",
    ...                 "suits": "OCEB"}, {"rank": "K", "suits": "OCEB"}])
    ['1O', 'KB', 'vega', 'signal have']
    """
    moves = [a for a in legal if not is_message(a)]
    if levels:
        strength = _strength(levels)
        moves.sort(key=lambda a: strength.get(a, len(strength) + 1))
    words = [a for a in legal if is_message(a) and a.split(" ", 1)[1] in WORD_CLAIMS]
    return moves + words


# -- rankings ------------------------------------------------------------------------------


def level_text(level: JSON, view: View | None = None) -> str:
    """One level: ``K`` (four suits), ``KE`` (one suit), ``K(OCB)`` (several)."""
    rank, suits = str(level["rank"]), str(level["suits"])
    if len(suits) == 4:
        return rank
    if view is not None and view.style == "symbol":
        suits = "".join(_SYMBOLS.get(s, s) for s in suits)
    return rank + suits if len(suits) == 1 else f"{rank}({suits})"


# The longest ranking text whose status line ("Ranking in force (custom), strongest
# first: ...") fits one row of 80 columns.
_ONE_ROW_RANKING = 80 - len("Ranking in force (custom), strongest first: ")


_RANK_NOTE_SHORT = "  or type rank <levels, strongest first> (K four suits, KE one, K(BCO) several)"


def ranking_text(levels: Sequence[JSON], view: View | None = None) -> str:
    """A ranking on one line, strongest level first."""
    return " > ".join(level_text(level, view) for level in levels)


def ranking_name(name: str | None) -> str:
    """``Bomba`` for ``bomba``; ``custom`` for an order that is no preset."""
    if not name or name == "custom":
        return "custom"
    return PRESET_NAMES.get(name, name)


def _strength(levels: Sequence[JSON]) -> dict[str, int]:
    """Card code -> level number, 1 the strongest."""
    out: dict[str, int] = {}
    for i, level in enumerate(levels, 1):
        for suit in str(level["suits"]):
            out[f"{level['rank']}{suit}"] = i
    return out


def custom_ranking_action(text: str) -> str:
    """The ``rank ...`` action string for what a person typed after ``rank``.

    A preset id or a JSON list passes through; otherwise the words (separated by spaces,
    commas or ``>``) are levels strongest first, as the rules write them: ``K`` a rank in
    all four suits, ``KE`` one suit, ``K(BCO)`` or ``KBCO`` several.  A word that is none
    of these is passed on as it is, so the engine's own check says what is wrong.

    >>> custom_ranking_action("bomba"), custom_ranking_action('["K"]')
    ('rank bomba', 'rank ["K"]')
    >>> custom_ranking_action("ae, 7 > x")
    'rank [{"rank": "1", "suits": "E"}, {"rank": "7", "suits": "OCEB"}, "x"]'
    """
    rest = text.strip()
    if rest.lower() in PRESETS or rest.startswith("[") or not rest:
        return f"rank {rest}".rstrip()
    levels: list[Any] = []
    for word in (w for w in re.split(r"[\s,>]+", rest) if w):
        match = _LEVEL.fullmatch(word.upper())
        if match is None:
            levels.append(word)
            continue
        rank = "1" if match.group(1) == "A" else match.group(1)
        levels.append({"rank": rank, "suits": match.group(2) or match.group(3) or "OCEB"})
    return "rank " + json.dumps(levels)


def _preset_line(preset: str, view: View) -> str:
    return f"{ranking_name(preset)}: {ranking_text(ranking_levels(PRESETS[preset]), view)}"


# -- observation ---------------------------------------------------------------------------


def render_trionfetti_observation(obs: JSON, view: View, show_hand: bool = True) -> str:
    """The table as one seat sees it: smazzata and deal, points and games, the ranking in
    force, the bottom card, the cards left at deal 4, the vega, tricks, partner's known
    cards, messages, whose turn and the talk window, and the hand.

    It fits a terminal of 80×24 with the choices under it: teams are "us" and "them"
    (the games line says which seats are "us"; "team 1" for a spectator), seats by number,
    cards in lists by code, the vega line short when the choices explain the answer, and
    only the latest messages (the log has the full names and everything said).
    """
    phase = obs.get("phase")
    levels = list(obs.get("ranking") or [])
    lines: list[str] = []
    deal = obs.get("deal", 1)
    head = f"Smazzata {obs.get('smazzata', '?')}"
    if phase != "ranking":  # before the deal, the cutter's line says which deal comes
        head += f" · deal {deal} of 4"
    head += (  # the three roles of the smazzata, one row with "you" among them
        f" · dealer: {_who(obs.get('dealer'), view)}"
        f", cutter: {_who(obs.get('cutter'), view)}"
        f", mano (leads): {_who(obs.get('eldest'), view)}"
    )
    lines.append(head)
    target = obs.get("points_to_win_game", 20)
    lines.append(f"Points ({target} win a game): {_per_team(obs.get('scores'), view)}")
    lines.append(
        f"Games (first to {obs.get('games_to_win_match', 3)} wins the match): "
        f"{_per_team(obs.get('games'), view)} ({_teams_key(view)})"
    )
    lines.append(
        f"Ranking in force ({ranking_name(obs.get('ranking_name'))}), strongest first: "
        f"{ranking_text(levels, view)}"
    )
    lines.append(_bottom_line(obs, view))
    if phase == "ranking":
        cutter = obs.get("cutter")
        lines.append(
            f"{_who(cutter, view).capitalize()} {view.verb(cutter, 'cut', 'cuts')} and "
            f"{view.verb(cutter, 'choose', 'chooses')} the ranking before deal {deal} of 4 "
            "(keep it, a preset or custom)"
        )
    else:
        lines.append(_vega_line(obs, view))
        lines.extend(_trick_lines(obs, view, levels))
        lines.extend(_partner_lines(obs, view))
        said = [_message_brief(m, view) for m in obs.get("messages") or []]
        if said:
            more = f" (+{len(said) - _RECENT} earlier)" if len(said) > _RECENT else ""
            lines.append(f"Messages this deal{more}: " + " · ".join(said[-_RECENT:]))
    turn = _turn_line(obs, view)
    if turn is not None:
        lines.append(turn)
    if show_hand and obs.get("seat") is not None and phase != "ranking":
        lines.append(f"Your hand: {_hand(obs, view, levels)}")
    return "\n".join(lines)


def _team_scores(team: int, view: View) -> str:
    """A team as the subject of "score(s) 1 point": "we score", "they score"."""
    name = {"us": "we", "them": "they"}.get(_team(team, view))
    return f"{name} score" if name else f"{_team(team, view)} scores"


def _per_team(values: Any, view: View) -> str:
    return " · ".join(f"{_team(t, view)} {v}" for t, v in enumerate(list(values or [0, 0])))


def _teams_key(view: View) -> str:
    """Which seats "us" (or each team, for a spectator) are."""
    seats = [[s for s in range(view.players) if view.side_of[s] == t] for t in (0, 1)]
    named = [f"{_team(t, view)}: seats {' & '.join(map(str, s))}" for t, s in enumerate(seats)]
    if view.viewer is None:
        return ", ".join(named)
    return named[view.side_of[view.viewer]]


def _bottom_line(obs: JSON, view: View) -> str:
    bottom = obs.get("bottom_card")
    left = list(obs.get("leftover") or [])
    if not bottom:
        text = "Bottom card: not shown (any player may ask to see it: show_bottom)"
    elif not left:
        return f"Bottom card (never dealt this smazzata): {view.card(bottom)}"
    else:
        text = f"Bottom card (never dealt): {_short(bottom, view)}"
    if left:
        who = "shown to all" if obs.get("leftover_public") else "seen only by you (dealer)"
        text += f" · left after deal 4, {who}: {_codes(left, view)}"
    return text


def _vega_value(obs: JSON) -> int:
    scores = list(obs.get("scores") or [0, 0])
    return int(obs.get("points_to_win_game", 20)) - int(max(scores))


def _vega_line(obs: JSON, view: View) -> str:
    vega = obs.get("vega") or {}
    pending = vega.get("pending")
    if pending:
        team, seat = int(pending["team"]), pending["seat"]
        value = _points(pending["value"])
        text = (
            f"Vega pending: {_who(seat, view).capitalize()} "
            f"{view.verb(seat, 'call', 'calls')} vega for {_team(team, view)}, worth {value}."
        )
        if obs.get("team_must_answer"):
            return text + " We must answer"  # the choices say what accept and refuse do
        answering = _team(1 - team, view)
        answer = {"us": "We", "them": "They"}.get(answering, answering.capitalize())
        return (
            f"{text} {answer} must answer: accept (the deal is played for {value}) or refuse "
            f"({_team_scores(team, view)} 1 point, the deal ends)"
        )
    if vega.get("used"):
        stake = int(vega.get("stake") or 1)
        return f"Vega accepted: the deal is worth {_points(stake)} (no other vega this deal)"
    return (
        "Vega: not called, deal worth 1 point; the seat to play may call it for "
        f"{_points(_vega_value(obs))}"
    )


def _points(n: Any) -> str:
    return f"{n} point{'s' * (n != 1)}"


def _short(code: str, view: View) -> str:
    return view.card(code) if view.style == "symbol" else code


def _codes(codes: Sequence[str], view: View) -> str:
    """Cards in a status line: codes (symbols in that style), or ``none``."""
    return " ".join(_short(c, view) for c in codes) if codes else "none"


def _trick_lines(obs: JSON, view: View, levels: Sequence[JSON]) -> list[str]:
    """The tricks each team won, with the tricks done this deal, and the trick in progress."""
    won = f"Tricks (two win the deal): {_per_team(obs.get('tricks_won'), view)}"
    done = [e for e in obs.get("deal_log") or [] if e.get("type") == "trick"]
    parts = [
        f"{i}) {_who(int(t.get('leader', 0)), view)} led "
        f"{_codes(list(t.get('cards') or []), view)} → {_who(t['winner'], view)}"
        for i, t in enumerate(done, 1)
    ]
    lines = [won + (" — " + " · ".join(parts) if parts else "")]
    number = len(done) + 1
    trick = list(obs.get("trick") or [])
    if trick:
        strength = _strength(levels)
        played = "; ".join(f"{_who(t['seat'], view)} {_short(t['card'], view)}" for t in trick)
        best = min(trick, key=lambda t: strength.get(t["card"], 99))  # first among equals
        lines.append(
            f"Trick {number} so far: {played} — best so far: {_short(best['card'], view)} "
            f"({_who(best['seat'], view)})"
        )
    elif not obs.get("match_over") and obs.get("to_play") is not None:
        lines.append(view.nothing_played(number, obs["to_play"]))
    return lines


def _partner_lines(obs: JSON, view: View) -> list[str]:
    """What the partner's shares told this seat, this smazzata: this deal's cards (those
    played since apart), then the earlier deals' by deal number."""
    seat = obs.get("seat")
    if seat is None:
        return []
    partner = (int(seat) + 2) % 4
    current = obs.get("deal")
    deal = 0
    played: set[str] = set()
    live: list[str] = []
    earlier: dict[int, list[str]] = {}
    for e in obs.get("smazzata_log") or []:
        kind = e.get("type")
        if kind == "deal":
            deal = e.get("deal", 0)
        elif kind == "play" and e.get("seat") == partner and deal == current:
            played.add(e["card"])
        elif kind == "share" and e.get("seat") == partner:
            cards = list(e.get("cards") or [])
            reason = e.get("reason", "")
            if deal == current and reason in ("vega_pending", "vega_accepted", "shown"):
                live += [c for c in cards if c not in live]
            else:
                # shown_previous: the cards of the deal before, shown during this one
                of = deal - 1 if reason == "shown_previous" and deal == current else deal
                known = earlier.setdefault(of, [])
                known += [c for c in cards if c not in known]
    out = []
    name = _who(partner, view).capitalize()
    if live:
        still = [c for c in live if c not in played]
        text = f"{name} has shown you this deal: {_codes(still, view)}"
        gone = [c for c in live if c in played]
        if gone:
            text += f" (played since: {_codes(gone, view)})"
        out.append(text)
    if earlier:
        by_deal = " · ".join(f"deal {d}: {_codes(c, view)}" for d, c in sorted(earlier.items()))
        out.append(f"{name}'s cards in earlier deals: {by_deal}")
    return out


# The talk window, by what the observation says: (in full, for "No talk now: ..." and
# the menu; in a few words, for the table's line of whose turn it is).
_TALK = {
    "all": (
        "open — to your partner (signal, tell) and to the table (announce, say)",
        "open to your partner and the table",
    ),
    "partner": ("partner only (signal, tell)", "your partner only"),
    "vega_pending": (
        "none — only the answering team may confer while the vega waits",
        "none while the vega waits (answering team only)",
    ),
    "none": ("none — no talk in the first trick", "none in the first trick"),
}


def _talk_window(obs: JSON) -> tuple[str, str]:
    talk = obs.get("talk")
    if talk in ("all", "partner"):
        return _TALK[talk]
    return _TALK["vega_pending" if obs.get("phase") == "vega_pending" else "none"]


def talk_text(obs: JSON) -> str:
    """What the talk window allows this seat now, in words."""
    return _talk_window(obs)[0]


def _talk_brief(obs: JSON) -> str:
    """The talk window in a few words (the ``m`` menu lists what may be said)."""
    return _talk_window(obs)[1]


def _turn_line(obs: JSON, view: View) -> str | None:
    """Whose turn it is, and the talk window of a player."""
    turn = None
    if obs.get("match_over"):
        return "The match is over."
    if obs.get("to_act") is not None:
        turn = f"Waiting for: {_who(obs['to_act'], view)}"
    if obs.get("seat") is None or obs.get("phase") == "ranking":
        return turn
    talk = f"talk now: {_talk_brief(obs)}"
    return f"{turn} · {talk}" if turn else talk[0].upper() + talk[1:]


def _hand(obs: JSON, view: View, levels: Sequence[JSON]) -> str:
    hand = list(obs.get("hand") or [])
    if not hand:
        return "empty"
    strength = _strength(levels)
    n = len(levels)
    hand.sort(key=lambda c: strength.get(c, 99))
    return ", ".join(f"{_short(c, view)} [level {strength.get(c, '?')}/{n}]" for c in hand)


def _claim(claim: str, view: View) -> str:
    if claim in CLAIM_TEXT:
        return CLAIM_TEXT[claim]
    if claim[-1:] in "OCEB" and len(claim) >= 2:
        return f"I hold {view.card(claim)}"
    name = rank_name(claim, view.lang)
    article = "an" if claim == "8" else "a"
    return f"I hold {article} {claim}" + (f" ({name})" if name != claim else "")


def _message_brief(m: JSON, view: View) -> str:
    """One message of the deal in a status line: ``Seat 3 to the table: I hold QB``."""
    kind = m.get("type")
    seat = m.get("seat")
    to = _who((int(seat or 0) + 2) % 4, view) if kind in ("signal", "tell") else "the table"
    if kind in ("tell", "say"):
        what = f'"{m.get("text", "")}"'
    else:
        claim = str(m.get("claim", ""))
        if claim in CLAIM_TEXT:
            what = CLAIM_TEXT[claim]
        elif claim[-1:] in "OCEB" and len(claim) >= 2:
            what = f"I hold {_short(claim, view)}"
        else:
            what = f"I hold {'an' if claim == '8' else 'a'} {claim}"
    return f"{_who(seat, view).capitalize()} to {to}: {what}"


# -- choices -------------------------------------------------------------------------------


def trionfetti_action_label(action: str, obs: JSON, view: View) -> str:
    """A choice as a person reads it: the card and its level, or the call and its effect.

    >>> from mazo.render import View
    >>> v = View(players=4, side_of=(0, 1, 0, 1), viewer=0, style="code", game="trionfetti")
    >>> obs = {"ranking": [{"rank": "K", "suits": "OCEB"}, {"rank": "1", "suits": "OCEB"}],
    ...        "scores": [12, 15], "points_to_win_game": 20}
    >>> trionfetti_action_label("1O", obs, v)
    '1O  [level 2 of 2]'
    >>> trionfetti_action_label("vega", obs, v)
    'vega — accepted, the deal is worth 5 points; refused, your team scores 1'
    """
    levels = list(obs.get("ranking") or [])
    word, _, rest = action.partition(" ")
    if " " not in action and action[-1:] in "OCEB" and len(action) >= 2:
        level = _strength(levels).get(action)
        return view.card(action) + (f"  [level {level} of {len(levels)}]" if level else "")
    if action == "keep":
        # The order is on the table's ranking line, just above.
        return (
            f"keep — keep the ranking in force ({ranking_name(obs.get('ranking_name'))}), as above"
        )
    if word == "rank" and rest in PRESETS:
        return f"{action} — {_preset_line(rest, view)}"
    if action == "vega":
        return (
            f"vega — accepted, the deal is worth {_points(_vega_value(obs))}; refused, your "
            "team scores 1"
        )
    pending = (obs.get("vega") or {}).get("pending") or {}
    if action == "accept":
        return f"accept — play the deal for {_points(pending.get('value', '?'))}"
    if action == "refuse":
        team = pending.get("team")
        who = _team_scores(team, view) if team is not None else "the callers score"
        return f"refuse — {who} 1 point and the deal ends"
    if action == "show_bottom":
        return "show_bottom — ask to see the bottom card (everyone sees it then)"
    if action == "peek":
        return "peek — look at the four cards left (only you, the dealer)"
    if action == "show":
        cards = list(obs.get("showable") or [])
        return f"show — show your partner: {' '.join(cards) if cards else 'your cards'}"
    if word == "signal":
        return f"{action} — to your partner: {_claim(rest, view)}"
    if word == "announce":
        return f"{action} — to the table: {_claim(rest, view)}"
    return action


# -- events --------------------------------------------------------------------------------


def annotate_events(events: Sequence[JSON]) -> list[dict[str, Any]]:
    """Copies of the events with what a sentence needs from earlier ones: the ranking a
    ``keep`` kept, the vega value an answer accepts or refuses, each trick's number in
    its deal, the cards that tied the winner but lost for being played later, and whether
    a game's end is also the match's."""
    out: list[dict[str, Any]] = []
    levels: list[JSON] = []
    name: str | None = None
    value: Any = None
    trick = 0
    for i, event in enumerate(events):
        e = dict(event)
        kind = e.get("type")
        if kind == "game_end":
            e["match_over"] = i + 1 < len(events) and events[i + 1].get("type") == "match_end"
        elif kind == "smazzata":
            levels, name = list(e.get("ranking") or []), e.get("ranking_name")
        elif kind == "ranking":
            if e.get("kept"):
                e["ranking"], e["ranking_name"] = levels, name
            else:
                levels, name = list(e.get("ranking") or []), e.get("ranking_name")
        elif kind == "deal":
            trick = 0
            value = None
        elif kind == "vega":
            value = e.get("value")
        elif kind in ("accept", "refuse"):
            e.setdefault("value", value)
        elif kind == "trick":
            trick += 1
            e["trick"] = trick
            cards = list(e.get("cards") or [])
            pos = (int(e["winner"]) - int(e.get("leader", 0))) % max(len(cards), 1)
            strength = _strength(levels)
            if pos < len(cards) and strength:
                best = strength.get(cards[pos])
                e["tied"] = [c for c in cards[pos + 1 :] if strength.get(c) == best]
        out.append(e)
    return out


def render_trionfetti_event(
    event: JSON, view: View, seats: Sequence[int] | None = None
) -> str | None:
    """One Trionfetti log event as a sentence (or a few lines); the four seats play every
    deal, so ``seats`` (:meth:`GameText.event`'s) is not needed."""
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "dealer_draw":
        return _draw(event, view)
    if kind == "smazzata":
        return _smazzata(event, view)
    if kind == "ranking":
        return _ranking(event, view)
    if kind == "deal":
        dealer, eldest = event.get("dealer"), event.get("eldest")
        return (
            f"Smazzata {event.get('smazzata', '?')}, deal {event.get('deal', '?')} of 4: "
            f"{view.seat(dealer, False)} {view.verb(dealer, 'deal', 'deals')} three cards "
            f"each; {view.seat(eldest, False)} {view.verb(eldest, 'lead', 'leads')}."
        )
    if kind == "play":
        return view.plays(seat, event["card"])
    if kind == "trick":
        return _trick(event, view)
    if kind == "vega":
        team = int(event.get("team", 0))
        value = event.get("value")
        return (
            f"{view.seat(seat)} {view.verb(seat, 'call', 'calls')} vega for "
            f"{view.side(team, False)}: accepted, the deal is worth {_points(value)}; refused, "
            f"{view.side(team, False)} scores 1 point."
        )
    if kind == "accept":
        team = int(event.get("team", 0))
        value = event.get("value")
        worth = f": the deal is now worth {_points(value)}" if value is not None else ""
        return (
            f"{view.seat(seat)} {view.verb(seat, 'accept', 'accepts')} the vega for "
            f"{view.side(team, False)}{worth}."
        )
    if kind == "refuse":
        team = int(event.get("team", 0))
        return (
            f"{view.seat(seat)} {view.verb(seat, 'refuse', 'refuses')} the vega for "
            f"{view.side(team, False)}: {view.side(1 - team, False)} scores 1 point and the "
            "deal ends."
        )
    if kind == "share":
        return _share(event, view)
    if kind == "peek":
        return (
            f"{view.seat(seat)} (the dealer) {view.verb(seat, 'look', 'looks')} at the four "
            f"cards left: {view.cards(list(event.get('cards') or []))}."
        )
    if kind == "leftover":
        return (
            "Second card of the first trick: the dealer lays the four cards left face up: "
            f"{view.cards(list(event.get('cards') or []))}."
        )
    if kind == "bottom_card":
        return (
            f"{view.seat(seat)} {view.verb(seat, 'ask', 'asks')} to see the bottom card: "
            f"{view.card(event['card'])}; it will not be dealt this smazzata."
        )
    if kind in _MESSAGE_TYPES:
        return _message(event, view)
    if kind == "hand_end":
        return _hand_end(event, view)
    if kind == "game_end":
        champion = event.get("team")
        text = (
            f"*** {view.side(champion)} {view.side_verb(champion, 'win', 'wins')} a game! *** "
            f"Games: {view.per_side(list(event.get('games') or []))}."
        )
        if event.get("match_over") is False:
            text += " Points go back to 0 and the next seat deals a new smazzata."
        return text
    if kind == "match_end":
        winner = event.get("winner")
        return (
            f"Match over: {view.side(winner)} {view.side_verb(winner, 'win', 'wins')} the "
            f"match. Games: {view.per_side(list(event.get('games') or []))}."
        )
    return None


def _draw(event: JSON, view: View) -> str:
    rounds = list(event.get("rounds") or [])
    lines = ["Drawing for the first dealer (the strongest card under the normal ranking):"]
    for i, rnd in enumerate(rounds, 1):
        drawn = ", ".join(f"{view.seat(d['seat'])} {view.card(d['card'])}" for d in rnd)
        label = "" if len(rounds) == 1 else ("Round 1: " if i == 1 else f"Tie, round {i}: ")
        lines.append(f"  {label}{drawn}")
    dealer = event.get("dealer")
    lines.append(f"{view.seat(dealer)} {view.verb(dealer, 'deal', 'deals')} first.")
    return "\n".join(lines)


def _smazzata(event: JSON, view: View) -> str:
    dealer, cutter = event.get("dealer"), event.get("cutter")
    lines = [
        f"Smazzata {event.get('smazzata', '?')}: {view.seat(dealer, False)} "
        f"{view.verb(dealer, 'shuffle', 'shuffles')} and {view.seat(cutter, False)} "
        f"{view.verb(cutter, 'cut', 'cuts')}."
    ]
    bottom = event.get("bottom_card")
    if bottom:
        lines.append(
            f"Bottom card shown at the cut: {view.card(bottom)} — it will not be dealt this "
            "smazzata."
        )
    else:
        lines.append("The bottom card is not shown (any player may ask: show_bottom).")
    levels = list(event.get("ranking") or [])
    lines.append(
        f"Ranking in force ({ranking_name(event.get('ranking_name'))}): "
        f"{ranking_text(levels, view)}"
    )
    if "deal" not in event or event.get("deal") == 1:
        lines.append(
            f"{view.seat(cutter)} {view.verb(cutter, 'keep', 'keeps')} it or "
            f"{view.verb(cutter, 'choose', 'chooses')} another before the deal."
        )
    return "\n".join(lines)


def _ranking(event: JSON, view: View) -> str:
    seat = event.get("seat")
    levels = list(event.get("ranking") or [])
    order = f": {ranking_text(levels, view)}" if levels else ""
    if event.get("kept"):
        name = event.get("ranking_name")
        what = f" ({ranking_name(name)})" if name else ""
        return f"{view.seat(seat)} {view.verb(seat, 'keep', 'keeps')} the ranking in force{what}."
    name = event.get("ranking_name")
    what = f"the ranking {ranking_name(name)}" if name != "custom" else "a custom ranking"
    return f"{view.seat(seat)} {view.verb(seat, 'set', 'sets')} {what} for this smazzata{order}"


def _trick(event: JSON, view: View) -> str:
    winner = int(event["winner"])
    card, team = view.trick_taken(event)
    number = f" trick {event['trick']}" if "trick" in event else " the trick"
    text = (
        f"{view.seat(winner)} {view.verb(winner, 'win', 'wins')}{number}{card} for "
        f"{view.side(team, False)}"
    )
    tied = list(event.get("tied") or [])
    if tied:
        ties = " ".join(_short(c, view) for c in tied)
        text += f" ({ties} {'ties' if len(tied) == 1 else 'tie'} with it but came later)"
    return text + "."


def _share(event: JSON, view: View) -> str | None:
    if not event.get("cards"):
        return None  # nothing left in that hand to share
    seat = event.get("seat")
    cards = view.cards(list(event.get("cards") or []))
    reason = event.get("reason", "")
    if seat == view.viewer:
        why = {
            "vega_pending": "while the vega waits",
            "vega_accepted": "after the vega is accepted",
            "tricks": "at the end of the deal",
            "refused": "after the refused vega",
            "shown": "as you chose",
            "shown_previous": "left at the end of the previous deal, as you chose",
        }.get(reason, reason)
        return f"Your partner sees your cards {why}: {cards}."
    what = {
        "vega_pending": "shows you their hand while the vega waits",
        "vega_accepted": "shows you their hand now that the vega is accepted",
        "tricks": "shows you the card left in their hand at the end of the deal",
        "refused": "shows you their unplayed cards after the refused vega",
        "shown": "shows you their cards",
        "shown_previous": "shows you the cards left in their hand at the end of the previous deal",
    }.get(reason, "shows you their cards")
    return f"{view.seat(seat)} {what}: {cards}."


def _message(event: JSON, view: View) -> str:
    kind = event.get("type")
    seat = event.get("seat")
    partner = (int(seat or 0) + 2) % 4
    if kind in ("tell", "say"):
        text = event.get("text", "")
        if kind == "tell":
            to = view.seat(partner, False)
            return f'{view.seat(seat)} {view.verb(seat, "tell", "tells")} {to}: "{text}"'
        return f'{view.seat(seat)} {view.verb(seat, "say", "says")} to the table: "{text}"'
    claim = _claim(str(event.get("claim", "")), view)
    if kind == "signal":
        return (
            f"{view.seat(seat)} {view.verb(seat, 'signal', 'signals')} to "
            f"{view.seat(partner, False)}: {claim}."
        )
    return f"{view.seat(seat)} {view.verb(seat, 'announce', 'announces')} to the table: {claim}."


def _hand_end(event: JSON, view: View) -> str:
    detail = event.get("detail") or {}
    team = int(detail.get("team", 0))
    award = detail.get("award", 1)
    side = view.side(team)
    wins = view.side_verb(team, "win", "wins")
    deal = detail.get("deal", "?")
    if detail.get("reason") == "refused":
        head = f"Deal {deal} over: the vega was refused; {view.side(team, False)} {wins} it"
    else:
        tw = list(detail.get("tricks_won") or [0, 0])
        at = f", with the vega accepted at {detail['vega']}" if detail.get("vega") else ""
        head = (
            f"Deal {deal} over: {view.side(team, False)} {wins} it, {tw[team]} tricks to "
            f"{tw[1 - team]}{at}"
        )
    before = list(detail.get("scores_before") or [0, 0])
    total = before[team] + int(award)
    text = f"{side}: {before[team]} + {_points(award)} = {total}"
    if detail.get("game_won") == team:
        text += ": the game"
    scores = list(detail.get("scores") or [0, 0])
    games = list(detail.get("games") or [0, 0])
    return "\n".join(
        [
            head + ".",
            text + ".",
            f"Points: {view.per_side(scores)} · Games: {view.per_side(games)}.",
        ]
    )


# -- the terminal's hooks --------------------------------------------------------------------

_RANK_HINT = (
    "A ranking lists every card once, in levels of one rank, strongest first: e.g. rank K Q "
    "J 10 9 8 7 6 5 4 3 2 1, or rank KE QE JE 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)."
)


class TrionfettiText(GameText):
    """Trionfetti's hooks: Italian names, the ranking on every screen, talk behind ``m``."""

    sim_columns = ("points/deal", "games")
    tricks_help = "the tricks of this smazzata so far"

    aliases: ClassVar[Mapping[str, str]] = {"k": "keep", "v": "vega", "a": "accept"}
    help = """\
  8 9 10             card ranks besides 1-7 J Q K
  keep (k)           as the cutter: keep the ranking in force
  rank <preset>      as the cutter: set a preset ranking
  rank K Q J 10 9 8 7 6 5 4 3 2 1
                     a custom ranking, levels strongest first; a rank alone is its four
                     suits, KE one suit, K(BCO) several suits (equal); every card
                     exactly once; or rank [levels as JSON]
  vega (v)           call vega on your turn, before playing your card
  accept, refuse     answer a vega for your team (also out of turn; a = accept)
  signal, announce   a claim to your partner (signal) or to the table (announce): a
                     card (KE), a rank (K), have, nothing, strong, weak, want_vega
  tell, say <text>   free talk to your partner, or to the table (m: what the talk
                     window allows now)
  show_bottom, peek, show
                     with the opt-in options: see the bottom card, look at the four
                     cards left (dealer, deal 4), show your partner your cards (when
                     show is offered it shares; s shows the table)
  Enter, c           at a pause: let the game go on"""
    messages_behind_m = True
    bold_prefixes = ("Your hand", "Ranking", "Vega pending")
    pause_prefixes = ("Tricks (", "Your hand", "Ranking", "Vega")
    pause_offer = "You may act now (out of turn), or go on:"
    bot_messages = 1  # the engine lets a seat send each of its 140 claims once per move
    choices_after_talk = True

    def language(self, options: Mapping[str, Any]) -> str:
        return "it"  # a Venetian game

    prepare_events = staticmethod(annotate_events)
    event = staticmethod(render_trionfetti_event)
    observation = staticmethod(render_trionfetti_observation)
    is_message = staticmethod(is_message)

    def ordered_actions(self, legal: Sequence[str], obs: JSON) -> list[str]:
        return ordered_actions(legal, list(obs.get("ranking") or []))

    action_label = staticmethod(trionfetti_action_label)

    def choice_style(self, line: str) -> str | None:
        return None

    def read_text(self, text: str, obs: JSON) -> str | None:
        """Free talk (``tell``/``say``) and a custom ranking are not among the ids."""
        head, _, rest = text.strip().partition(" ")
        head = head.lower()
        if head in ("tell", "say") and rest.strip():
            return f"{head} {rest.strip()}"
        if head == "rank" and rest.strip() and rest.strip().lower() not in PRESETS:
            return custom_ranking_action(rest)
        return None

    def prompt(self, obs: JSON, numbers: str) -> str:
        if obs.get("phase") == "ranking":
            return f"Your choice [{numbers}, rank <levels>, ? help, q quit]: "
        return super().prompt(obs, numbers)

    def messages_line(self, obs: JSON) -> str:
        what = (
            "to your partner or the table" if obs.get("talk") == "all" else "to your partner only"
        )
        return f"  m) talk {what}: claims (signal, announce) and free text"

    def messages_head(self, obs: JSON) -> str:
        return "Talk (claims and talk are never checked; type the number or the words):"

    def messages_extra(self, obs: JSON, view: View) -> list[str]:
        allowed = list(obs.get("legal_actions") or [])
        seat = obs.get("seat")
        partner = view.seat((seat + 2) % 4 if seat is not None else None, False)
        lines = []
        if any(a.startswith("signal ") for a in allowed):
            lines.append(f"  signal <card or rank>  — claim to {partner}, e.g. signal KE, signal 3")
            lines.append(f"  tell <text>            — say anything to {partner}")
        if any(a.startswith("announce ") for a in allowed):
            lines.append("  announce <card or rank> — the same claim to the whole table")
            lines.append("  say <text>             — say anything to the whole table")
        return lines

    def no_messages(self, obs: JSON) -> str | None:
        return f"No talk now: {talk_text(obs)}."

    def refused(self, label: str, obs: JSON) -> str | None:
        return f"{label} is not allowed now (talk now: {obs.get('talk')})"

    def refused_hint(self, text: str, obs: JSON) -> str | None:
        if text.startswith("rank ") and obs.get("phase") == "ranking":
            return _RANK_HINT
        return None

    def notes_after_choices(self, obs: JSON, pause: bool) -> list[str]:
        if obs.get("phase") == "ranking" and not pause:
            if len(ranking_text(list(obs.get("ranking") or []))) > _ONE_ROW_RANKING:
                # A long custom ranking takes rows of the table above: the note keeps to
                # one row (choice 6, Bomba, shows mixed levels written the same way).
                return [_RANK_NOTE_SHORT]
            return [
                "  or type rank <levels, strongest first> (K: four suits, KE: one, K(BCO): "
                "several), e.g. rank KE QE JE 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)"
            ]
        return []

    def tricks(self, obs: JSON, view: View) -> list[str]:
        """The tricks of this smazzata, deal by deal (its cards stay known)."""
        deal = 0
        lines = []
        for event in annotate_events(obs.get("smazzata_log") or []):
            if event.get("type") == "deal":
                deal = event.get("deal", 0)
            elif event.get("type") == "trick":
                leader = int(event.get("leader", 0))
                plays = ", ".join(
                    f"{view.seat((leader + j) % 4)} {c}"
                    for j, c in enumerate(event.get("cards") or [])
                )
                lines.append(
                    f"  deal {deal}, trick {event.get('trick')}: {plays} -> "
                    f"{view.seat(event['winner'], False)}"
                )
        return lines or ["No trick has been completed in this smazzata yet."]

    def paragraph(self, event: JSON) -> bool:
        return event.get("type") in ("smazzata", "game_end") or super().paragraph(event)

    def event_style(self, event: JSON, ours: bool) -> str | None:
        kind = event.get("type")
        if kind == "game_end":
            return "bold magenta"
        if kind == "smazzata":
            return "bold cyan"
        if kind in ("vega", "refuse", "ranking"):
            return "bold yellow"
        if kind in ("share", "peek", "leftover", "bottom_card", "dealer_draw"):
            return "cyan"
        return super().event_style(event, ours)


TEXT = TrionfettiText()
