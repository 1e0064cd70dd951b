"""Plain-text rendering of Envite Canario observations, choices and events.

:mod:`mazo.render` finds this file through the game registry.  Like the rest of the
renderers this reads one seat's observation or its share of the log and never a state,
so it cannot name a card the viewer may not know.  The one thing it adds is public rules
knowledge: the trump hierarchy and the exempt card in force for the vira on the table
(:func:`mazo.games.envite.trump_order`, :func:`~mazo.games.envite.exempt_card`), which
observations leave out on purpose.

Envite is a Spanish game: unless the user picks another language the cards read in
Spanish (``2O (dos de oros)``), and the bets keep their table names (envío, siete,
nueve, chico).

>>> from mazo.render import View
>>> view = View(players=4, side_of=(0, 1, 0, 1), viewer=0, lang="es", game="envite")
>>> render_envite_event({"type": "envio", "seat": 1, "team": 1, "level": 1,
...                      "name": "envio"}, view)
'Seat 1 proposes envío for team 1 (seats 1 & 3): the deal would be worth 4 stones.'
>>> render_envite_event({"type": "trick", "winner": 3, "team": 1, "leader": 2,
...                      "cards": ["KC", "2C", "1C", "7C"], "points": 0}, view)
'Seat 3 wins the trick with 2C (dos de copas) for team 1 (seats 1 & 3).'
>>> trumps_text(6, "4B", view)
'3B > QB > JO (Perica) > 2B (Mala) > KB > JB > 1B > 7B > 6B > 5B > 4B (the vira, out of play)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mazo.games.envite import DECK, FIXED_TRUMPS, exempt_card, trick_winner, trump_order
from mazo.render.common import GameText, View, suit_name
from mazo.render.common import brief_seat as _who
from mazo.render.common import brief_team as _team

__all__ = [
    "BET_LABELS",
    "CONSULT_TEXT",
    "SIGNAL_TEXT",
    "envite_action_label",
    "group_messages",
    "is_message",
    "ordered_actions",
    "render_envite_event",
    "render_envite_observation",
    "trumps_text",
]

JSON = Mapping[str, Any]

BET_LABELS = ("no bet", "envío", "siete", "nueve", "chico")
"""The ladder's levels 0-4 as players say them."""
_VALUES = (2, 4, 7, 9)
_TUMBO_VALUE = 3

SIGNAL_TEXT = {
    "top_trump": "I hold the top trump",
    "mala": "I hold the Mala (the 2 of the vira suit)",
    "rey_of_vira": "I hold the rey of the vira suit",
    "perica": "I hold the Perica (JO, sota de oros)",
    "caballo_de_bastos": "I hold the caballo de bastos (QB)",
    "tres_de_bastos": "I hold the tres de bastos (3B)",
    "cinco_de_oros": "I hold the cinco de oros (5O)",
    "dos_de_oros": "I hold the dos de oros (2O)",
    "as_de_oros": "I hold the as de oros (1O)",
    "small_trumps": "I hold small trumps",
    "no_trump": "I have no trump (ciego)",
    "three_trumps": "I hold three trumps (flus)",
    "want_envio": "I want to bet: let's propose envío",
}
"""What each sign says (§14.2); signs may be false, nobody checks them."""

CONSULT_TEXT = {
    "propose": "let's propose envío",
    "accept": "let's accept",
    "fold": "let's fold",
    "raise": "let's raise",
    "play_on": "let's play on without betting",
}
"""What each consultation suggests to the team (never which cards are held)."""

_RECENT = 4  # the team's latest messages the table repeats (the log has them all)


def is_message(action: str) -> bool:
    """A team message (``signal <kind>``, ``consult <intent>``), not a move of the game.

    >>> is_message("signal mala"), is_message("consult fold"), is_message("envio")
    (True, True, False)
    """
    return action.startswith(("signal ", "consult "))


def ordered_actions(legal: Sequence[str]) -> list[str]:
    """The legal actions as numbered on screen: cards and calls first, then messages."""
    return [a for a in legal if not is_message(a)] + [a for a in legal if is_message(a)]


def _worth(level: int) -> str:
    """What a deal pays at a level of the ladder."""
    return "the whole chico" if level >= 4 else f"{_VALUES[level]} stones"


def _bet(level: int) -> str:
    return BET_LABELS[level] if 0 <= level < len(BET_LABELS) else str(level)


def _short(code: str, view: View) -> str:
    """A card as a code (or a symbol in the symbol style): lists stay readable."""
    return view.card(code) if view.style == "symbol" else code


def _nickname(code: str, players: int, vira: str) -> str:
    """``Perica`` for ``JO`` when it is a trump, ``Mala`` for the 2 of the vira suit
    unless it is already a fixed trump (10 or 12 players, vira oros: no separate Mala)."""
    if code == "JO" and players >= 6:
        return "Perica"
    if code == "2" + vira[-1] and code not in FIXED_TRUMPS.get(players, ()):
        return "Mala"
    return ""


def trumps_text(players: int, vira: str, view: View) -> str:
    """The trumps in force, strongest first, naming the Mala, the Perica and the vira
    (which keeps its place but is out of play, §3.2)."""
    parts = []
    for code in trump_order(players, vira):
        text = _short(code, view)
        notes = [n for n in (_nickname(code, players, vira),) if n]
        if code == vira:
            notes.append("the vira, out of play")
        parts.append(text + (f" ({', '.join(notes)})" if notes else ""))
    return " > ".join(parts)


def _is_card(action: str) -> bool:
    return " " not in action and 2 <= len(action) <= 3 and action[-1] in "OCEB"


# -- observation ---------------------------------------------------------------------------


def render_envite_observation(obs: JSON, view: View, show_hand: bool = True) -> str:
    """The table as one seat sees it: deal, stones, chicos, vira, trumps, bet, tricks.

    It fits a terminal of 80×24 with the choices under it: teams are "us" and "them"
    (the chicos line says which seats are "us"), seats in the trick by number, cards in
    lists by code, and only the team's latest messages (the log keeps them all).
    """
    players = int(obs.get("players") or view.players)
    lines: list[str] = []
    head = f"Deal {obs.get('deal_number', '?')}"
    if obs.get("dealer") is not None:
        head += f" · dealer: {_who(obs['dealer'], view)}"
    if obs.get("eldest") is not None:
        head += f" · mano (leads first): {_who(obs['eldest'], view)}"
    lines.append(head)
    scores = list(obs.get("scores") or [0, 0])
    stones = " · ".join(
        f"{_team(t, view)} {s}{' (tumbo)' if s == 11 else ''}" for t, s in enumerate(scores)
    )
    lines.append(f"Stones (12 win a chico, 11 is tumbo): {stones}")
    target = obs.get("chicos_to_win")
    first_to = f" (first to {target} wins)" if target else ""
    games = list(obs.get("games") or [0, 0])
    chicos = " · ".join(f"{_team(t, view)} {g}" for t, g in enumerate(games))
    if view.viewer is not None:
        ours = view.side_of[view.viewer]
        seats = " & ".join(str(s) for s in range(players) if view.side_of[s] == ours)
        chicos += f" (us: seats {seats})"
    lines.append(f"Chicos{first_to}: {chicos}")
    vira = obs.get("vira")
    if vira:
        suit = _suit(vira, view)
        lines.append(
            f"Vira: {view.card(vira)} — {suit} are trumps, strongest first: "
            f"{trumps_text(players, vira, view)}"
        )
        exempt = exempt_card(players, vira)
        top = trump_order(players, vira)[0]
        if exempt is None:
            lines.append(
                f"Exempt card: none this deal (the top trump {_short(top, view)} is the vira)"
            )
        else:
            lines.append(
                f"Exempt card: {_short(exempt, view)} — held as the only trump, it need not "
                "answer a trump lead"
            )
    lines.extend(_bet_lines(obs, view))
    won = list(obs.get("tricks_won") or [0, 0])
    lines.append(
        "Tricks won (two win the deal): "
        + " · ".join(f"{_team(t, view)} {w}" for t, w in enumerate(won))
    )
    trick = list(obs.get("trick") or [])
    number = len(obs.get("tricks") or []) + 1
    if trick:
        played = "; ".join(f"{_who(t['seat'], view)} {_short(t['card'], view)}" for t in trick)
        text = f"Trick {number} so far: {played}"
        if vira:
            cards = tuple(DECK.parse(t["card"]) for t in trick)
            best = trick[trick_winner(cards, players, DECK.parse(vira) // 10)]
            text += f" — best so far: {_short(best['card'], view)} ({_who(best['seat'], view)})"
        lines.append(text)
    elif not obs.get("match_over") and obs.get("to_play") is not None:
        lines.append(view.nothing_played(number, obs["to_play"]))
    for shown in obs.get("shown_hands") or []:
        lines.append(
            f"Shown to you at tumbo: {view.seat(shown['seat'], False)} holds "
            f"{view.cards(shown['cards'])}"
        )
    messages = list(obs.get("messages") or [])
    if messages:
        recent = messages[-_RECENT:]
        earlier = len(messages) - len(recent)
        parts = [f"{_who(seat, view)}: {', '.join(items)}" for seat, items in _by_seat(recent)]
        more = f" (+{earlier} earlier)" if earlier else ""
        lines.append("Team messages this deal: " + " · ".join(parts) + more)
    turn = view.turn(obs, "Waiting for")
    if turn is not None:
        lines.append(turn)
    if show_hand and obs.get("seat") is not None:
        lines.append(f"Your hand: {_hand(obs, view)}")
    return "\n".join(lines)


def _suit(vira: str, view: View) -> str:
    return suit_name(vira[-1], view.lang)


def _hand(obs: JSON, view: View) -> str:
    hand = list(obs.get("hand") or [])
    vira = obs.get("vira")
    if not hand:
        return "empty"
    trumps = set(trump_order(int(obs.get("players") or view.players), vira)) if vira else set()
    return ", ".join(view.card(c) + (" [trump]" if c in trumps else "") for c in hand)


def _bet_lines(obs: JSON, view: View) -> list[str]:
    bet = obs.get("bet") or {}
    level = int(bet.get("level") or 0)
    pending = bet.get("pending")
    phase = obs.get("phase")
    scores = list(obs.get("scores") or [0, 0])
    if phase == "tumbo_decision":
        team = obs.get("tumbo_team")
        who = view.side(team)
        verb = view.side_verb(team, "decide", "decides")
        return [
            f"Tumbo: {who} (11 stones) {verb} whether to play: playing, the deal is worth "
            f"{_TUMBO_VALUE} stones (and winning it wins the chico); declining, "
            f"{view.side(1 - int(team or 0), False)} scores 1 stone"
        ]
    if obs.get("tumbo_deal"):
        if all(s == 11 for s in scores):
            return [
                f"Tumbo deal: both teams at 11; worth {_TUMBO_VALUE} stones, the winner "
                "takes the chico; no envío"
            ]
        return [f"Tumbo deal: worth {_TUMBO_VALUE} stones; no envío while a team is at 11"]
    lines = []
    right = bet.get("raise_right")
    if level == 0:
        text = "Bet: none — the deal is worth 2 stones"
        if pending is None:
            text += f"; either team may propose envío ({_VALUES[1]})"
        lines.append(text)
    else:
        text = f"Bet: {_bet(level)} accepted — the deal is worth {_worth(level)}"
        if level >= 4:
            text += " (its winner wins the chico); no more raises"
        elif right is not None and pending is None:
            text += (
                f"; next raise ({_bet(level + 1)}, {_worth(level + 1)}): "
                f"{view.side(right, False)}, which accepted last"
            )
        lines.append(text)
    if pending:
        team = pending["team"]
        proposed = int(pending["level"])
        answer = (
            "We must answer"
            if obs.get("team_must_answer")
            else f"{_team(1 - team, view).capitalize()} must answer"
        )
        raise_text = f", or raise to {_bet(proposed + 1)}" if proposed < 4 else ""
        lines.append(
            f"Proposal: {view.seat(pending['seat'])} "
            f"{view.verb(pending['seat'], 'propose', 'proposes')} {_bet(proposed)} "
            f"({_worth(proposed)}) for {_team(team, view)}. {answer}: accept, fold "
            f"({_team(team, view)} +{_VALUES[proposed - 1]}){raise_text}"
        )
    return lines


def _by_seat(messages: Sequence[JSON]) -> list[tuple[int, list[str]]]:
    """Messages grouped by seat, seats in the order they first spoke."""
    out: dict[int, list[str]] = {}
    for m in messages:
        what = m.get("kind") if m.get("type") == "signal" else m.get("intent")
        out.setdefault(int(m["seat"]), []).append(f"{m.get('type')} {what}")
    return list(out.items())


# -- choices -------------------------------------------------------------------------------


def envite_action_label(action: str, obs: JSON, view: View) -> str:
    """A choice as a person reads it: the card with its trump mark, or the call and what
    it would do.

    >>> from mazo.render import View
    >>> v = View(players=4, side_of=(0, 1, 0, 1), viewer=0, style="code", game="envite")
    >>> obs = {"players": 4, "vira": "4B", "bet": {"level": 1, "pending": None}}
    >>> envite_action_label("2B", obs, v), envite_action_label("envio", obs, v)
    ('2B  [trump: Mala, top trump]', 'envio — propose siete: the deal would be worth 7 stones')
    """
    if _is_card(action):
        text = view.card(action)
        vira = obs.get("vira")
        if vira:
            players = int(obs.get("players") or view.players)
            order = trump_order(players, vira)
            if action in order:
                name = _nickname(action, players, vira)
                if action == order[0]:
                    name = f"{name}, top trump" if name else "top trump"
                text += f"  [trump: {name}]" if name else "  [trump]"
        if action in (obs.get("offences") or []):
            text += "  (a renuncio: the opponents would score the penalty)"
        return text
    bet = obs.get("bet") or {}
    level = int(bet.get("level") or 0)
    pending = bet.get("pending") or {}
    proposed = int(pending.get("level") or level + 1)
    proposers = pending.get("team")
    if action == "envio":
        text = f"envio — propose {_bet(level + 1)}: the deal would be worth {_worth(level + 1)}"
        if action in (obs.get("offences") or []):
            text += " (a renuncio at tumbo: the opponents would score the penalty)"
        return text
    if action == "accept":
        return f"accept — play on for {_bet(proposed)} ({_worth(proposed)})"
    if action == "fold":
        # "them +2" as the status lines say it ("team 1 +2" for a spectator).
        who = _team(proposers, view) if proposers is not None else "the proposers"
        value = _VALUES[proposed - 1] if 1 <= proposed <= 4 else "?"
        return f"fold — refuse {_bet(proposed)}: {who} +{value} stones, the deal ends"
    if action == "raise":
        return (
            f"raise — accept {_bet(proposed)} and raise to {_bet(proposed + 1)} "
            f"({_worth(proposed + 1)})"
        )
    if action == "tumbo_play":
        return f"tumbo_play — play this deal for {_TUMBO_VALUE} stones: winning it wins the chico"
    if action == "tumbo_decline":
        team = obs.get("tumbo_team")
        other = view.side(1 - int(team), False) if team is not None else "the opponents"
        return f"tumbo_decline — do not play it: {other} scores 1 stone"
    word, _, what = action.partition(" ")
    if word == "signal":
        return f"{action} — tell your team: {SIGNAL_TEXT.get(what, what)}"
    if word == "consult":
        return f"{action} — suggest to your team: {CONSULT_TEXT.get(what, what)}"
    return action


# -- events --------------------------------------------------------------------------------


def group_messages(events: Sequence[JSON]) -> list[JSON]:
    """Runs of team messages from one seat folded into one ``messages`` event, so a
    partner who says five things in a row reads as one line."""
    out: list[JSON] = []
    for event in events:
        kind = event.get("type")
        if kind in ("signal", "consult"):
            item = f"{kind} {event.get('kind') if kind == 'signal' else event.get('intent')}"
            last = out[-1] if out else None
            if (
                last is not None
                and last.get("type") == "messages"
                and last["seat"] == event["seat"]
            ):
                last["items"].append(item)
                last["events"].append(event)
                continue
            out.append(
                {"type": "messages", "seat": event["seat"], "items": [item], "events": [event]}
            )
        else:
            out.append(event)
    return [
        e["events"][0] if e.get("type") == "messages" and len(e["items"]) == 1 else e for e in out
    ]


def render_envite_event(event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
    """One Envite log event as a sentence (or a few lines); every seat plays each deal,
    so ``seats`` (:meth:`GameText.event`'s) is not needed."""
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "deal":
        return _deal(event, view)
    if kind == "play":
        return view.plays(seat, event["card"])
    if kind == "trick":
        winner = int(event["winner"])
        card, team = view.trick_taken(event)
        return (
            f"{view.seat(winner)} {view.verb(winner, 'win', 'wins')} the trick{card} "
            f"for {view.side(team, False)}."
        )
    if kind in ("envio", "accept", "fold", "raise"):
        return _bet_event(event, view)
    if kind in ("tumbo_play", "tumbo_decline"):
        team = int(event.get("team", 0))
        if kind == "tumbo_play":
            return (
                f"{view.seat(seat)} {view.verb(seat, 'choose', 'chooses')} to play the tumbo "
                f"for {view.side(team, False)}: the deal is worth {_TUMBO_VALUE} stones, no envío."
            )
        return (
            f"{view.seat(seat)} {view.verb(seat, 'decline', 'declines')} the tumbo for "
            f"{view.side(team, False)}: {view.side(1 - team, False)} scores 1 stone."
        )
    if kind == "renuncio":
        if event.get("offence") == "envio_at_tumbo":
            what = f"{view.verb(seat, 'propose', 'proposes')} envío while a team is at tumbo"
        else:
            what = (
                f"{view.verb(seat, 'play', 'plays')} {view.card(event.get('action', '?'))} "
                "without following as the rules require"
            )
        return f"Renuncio! {view.seat(seat)} {what}: the deal ends at once."
    if kind == "signal":
        what = event.get("kind", "")
        text = (
            f"{view.seat(seat)} {view.verb(seat, 'sign', 'signs')} to "
            f"{_team_of(seat, view)}: {SIGNAL_TEXT.get(what, what)}."
        )
        return text + _caught(event, view)
    if kind == "consult":
        what = event.get("intent", "")
        return (
            f"{view.seat(seat)} {view.verb(seat, 'suggest', 'suggests')} to "
            f"{_team_of(seat, view)}: {CONSULT_TEXT.get(what, what)}."
        )
    if kind == "messages":
        items = list(event.get("items") or [])
        text = (
            f"{view.seat(seat)} {view.verb(seat, 'tell', 'tells')} {_team_of(seat, view)}: "
            f"{'; '.join(items)}."
        )
        return text + _caught(event["events"][0], view)
    if kind == "hand_end":
        return _hand_end(event, view)
    if kind == "chico":
        chico = event.get("team")
        return (
            f"*** {view.side(chico)} {view.side_verb(chico, 'win', 'wins')} a chico! *** "
            f"Chicos: {view.per_side(list(event.get('games') or []))}. Stones go back to 0."
        )
    if kind == "match_end":
        champion = event.get("winner")
        games = list(event.get("games") or [])
        return (
            f"Match over: {view.side(champion)} "
            f"{view.side_verb(champion, 'win', 'wins')} the match. "
            f"Chicos: {view.per_side(games)}."
        )
    return None


def _team_of(seat: int | None, view: View) -> str:
    if seat is None or seat >= len(view.side_of):
        return "the team"
    if view.viewer is not None and view.side_of[view.viewer] == view.side_of[seat]:
        return "your team"
    return "team " + str(view.side_of[seat])


def _caught(event: JSON, view: View) -> str:
    """A sign seen by a viewer outside its team: the option ``team_leaky`` shows it."""
    seat = event.get("seat")
    if (
        event.get("type") == "signal"
        and view.viewer is not None
        and seat is not None
        and view.side_of[seat] != view.side_of[view.viewer]
    ):
        return " (a sign your team caught)"
    return ""


def _deal(event: JSON, view: View) -> str:
    dealer = event.get("dealer")
    eldest = event.get("eldest")
    vira = str(event.get("vira", ""))
    lines = [
        f"Deal {event.get('deal', '?')}: {view.seat(dealer, False)} "
        f"{view.verb(dealer, 'deal', 'deals')}; {view.seat(eldest, False)} "
        f"{view.verb(eldest, 'lead', 'leads')} first."
    ]
    if vira:
        lines.append(f"Vira: {view.card(vira)} — {_suit(vira, view)} are trumps.")
    tumbo = list(event.get("tumbo") or [])
    if len(tumbo) == 2 and all(tumbo):
        lines.append(
            f"Both teams are at tumbo: the deal is played for {_TUMBO_VALUE} stones and its "
            "winner takes the chico."
        )
    elif any(tumbo):
        team = tumbo.index(True)
        lines.append(
            f"{view.side(team)} {view.side_verb(team, 'are', 'is')} at tumbo (11 stones) and "
            f"{view.side_verb(team, 'decide', 'decides')}: play the deal for {_TUMBO_VALUE} "
            f"stones, or decline it ({view.side(1 - team, False)} scores 1)."
        )
    return "\n".join(lines)


def _bet_event(event: JSON, view: View) -> str:
    kind = event["type"]
    seat = event.get("seat")
    team = int(event.get("team", 0))
    level = int(event.get("level", 0))
    who = f"{view.seat(seat)}"
    side = view.side(team, False)
    if kind == "envio":
        return (
            f"{who} {view.verb(seat, 'propose', 'proposes')} {_bet(level)} for {side}: the "
            f"deal would be worth {_worth(level)}."
        )
    if kind == "accept":
        return (
            f"{who} {view.verb(seat, 'accept', 'accepts')} {_bet(level)} for {side}: the deal "
            f"is now worth {_worth(level)}."
        )
    if kind == "raise":
        return (
            f"{who} {view.verb(seat, 'raise', 'raises')} to {_bet(level)} for {side}, "
            f"accepting {_bet(level - 1)}: {_worth(level)} if accepted."
        )
    value = _VALUES[level - 1] if 1 <= level <= 4 else "?"
    return (
        f"{who} {view.verb(seat, 'fold', 'folds')} at {_bet(level)} for {side}: "
        f"{view.side(1 - team, False)} scores {value} stones."
    )


def _hand_end(event: JSON, view: View) -> str:
    detail = event.get("detail") or {}
    reason = detail.get("reason")
    team = int(detail.get("team", 0))
    award = detail.get("award")
    side = view.side(team)
    wins = view.side_verb(team, "win", "wins")
    if reason == "tricks":
        tw = list(detail.get("tricks_won") or [0, 0])
        at = ""
        if detail.get("tumbo_deal"):
            at = ", a tumbo deal"
        elif detail.get("bet_level"):
            at = f", at {_bet(int(detail['bet_level']))}"
        head = f"Deal over: {side} {wins} it, {tw[team]} tricks to {tw[1 - team]}{at}"
    elif reason == "fold":
        head = f"Deal over: the proposal was refused; {side} {wins} it"
    elif reason == "tumbo_decline":
        head = f"Deal over: the tumbo was declined; {side} {wins} it"
    elif reason == "renuncio":
        offender = detail.get("offender")
        offence = (
            "an envío at tumbo"
            if detail.get("offence") == "envio_at_tumbo"
            else f"not following with {detail.get('card')}"
        )
        head = f"Deal over by renuncio ({view.seat(offender, False)}, {offence}); {side} {wins} it"
    else:
        head = f"Deal over: {side} {wins} it"
    lines = [head + "."]
    before = list(detail.get("stones_before") or [0, 0])
    after = list(detail.get("scores") or [0, 0])
    if award == "chico":
        lines.append(f"The bet was chico: {view.side(team, False)} takes the chico itself.")
    elif isinstance(award, int):
        total = before[team] + award
        unit = "stone" if award == 1 else "stones"
        text = f"{side}: {before[team]} + {award} {unit}"
        if detail.get("chico") == team:
            text += f" = {total}: the chico"
        elif total != after[team]:
            if total == after[team] + 1:
                text += f" = {total}, one stone off above 11 → {after[team]}"
            else:
                text += f" = {total}, capped → {after[team]}"
            text += " (tumbo)" if after[team] == 11 else ""
        else:
            text += f" = {after[team]}" + (" (tumbo)" if after[team] == 11 else "")
        lines.append(text + ".")
    games = list(detail.get("games") or [])
    lines.append(f"Stones: {view.per_side(after)} · Chicos: {view.per_side(games)}.")
    revealed = detail.get("revealed")
    if revealed:
        shown = " · ".join(f"{view.seat(s)} {', '.join(c) or '-'}" for s, c in enumerate(revealed))
        lines.append(f"Cards left in hand: {shown}")
    return "\n".join(lines)


# -- the terminal's hooks --------------------------------------------------------------------


class EnviteText(GameText):
    """Envite's hooks: Spanish names, calls out of turn, team messages behind ``m``."""

    sim_columns = ("stones/deal", "chicos")

    aliases: ClassVar[Mapping[str, str]] = {
        "e": "envio",
        "a": "accept",
        "f": "fold",
        "r": "raise",
        "play": "tumbo_play",
        "decline": "tumbo_decline",
    }
    help = """\
  envio (e)          propose envío, or the next raise (also out of turn)
  accept (a), fold (f), raise (r)
                     answer a proposal made to your team
  tumbo_play, tumbo_decline (play, decline)
                     your team's decision at tumbo (11 stones)
  signal <kind>, consult <intent>
                     a message to your partners; m lists them by number
  Enter, c           at a pause: let the game go on"""
    messages_behind_m = True
    hand_in_choices = True
    bold_prefixes = ("Your hand", "Proposal", "Tumbo")
    pause_prefixes = ("Bet:", "Proposal:", "Tumbo", "Tricks won", "Your hand")
    hold_messages = True

    def language(self, options: Mapping[str, Any]) -> str:
        return "es"  # a Spanish pack, always

    event = staticmethod(render_envite_event)
    observation = staticmethod(render_envite_observation)
    is_message = staticmethod(is_message)
    action_label = staticmethod(envite_action_label)
    group_messages = staticmethod(group_messages)

    def ordered_actions(self, legal: Sequence[str], obs: JSON) -> list[str]:
        return ordered_actions(legal)

    def unplayable(self, card: str, obs: JSON, view: View) -> str | None:
        """The obligation to follow (rules section 7) that the led card sets.

        >>> from mazo.render import View
        >>> v = View(players=4, side_of=(0, 1, 0, 1), viewer=0, style="code", game="envite")
        >>> obs = {"players": 4, "vira": "4B", "trick": [{"seat": 3, "card": "5C"}]}
        >>> TEXT.unplayable("6O", obs, v), TEXT.unplayable("6O", {**obs, "trick": []}, v)
        ('you must follow cups', None)
        >>> TEXT.unplayable("6O", {**obs, "trick": [{"seat": 3, "card": "5B"}]}, v)
        'a trump was led: you must play a trump'
        """
        trick = obs.get("trick") or []
        vira = obs.get("vira")
        if not trick or not vira:
            return None
        led = str(trick[0]["card"])
        if led in trump_order(int(obs.get("players") or view.players), vira):
            return "a trump was led: you must play a trump"
        return f"you must follow {suit_name(led[-1], view.lang)}"

    def event_style(self, event: JSON, ours: bool) -> str | None:
        kind = event.get("type")
        if kind in ("envio", "raise", "accept", "fold", "tumbo_play", "tumbo_decline"):
            return "bold yellow"
        if kind in ("chico", "renuncio"):
            return "bold magenta"
        return super().event_style(event, ours)


TEXT = EnviteText()
