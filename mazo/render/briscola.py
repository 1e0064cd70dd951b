"""Briscola's text: events, the table and the choices, as one seat sees them.

>>> from mazo.render import View
>>> view = View(players=2, side_of=(0, 1), viewer=0, seat_names=("Ana", "Seat 1 (random)"),
...             game="briscola")
>>> TEXT.event({"type": "play", "seat": 1, "card": "KB"}, view)
'Seat 1 (random) plays KB (king of batons).'
>>> TEXT.event({"type": "trick", "trick": 1, "leader": 1, "cards": ["KB", "3B"],
...             "winner": 0, "points": 14}, view)
'Trick 1: you win it with 3B (3 of batons), 14 points.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mazo.games.briscola import DECK, STRENGTH
from mazo.render.common import GameText, View, is_card, seat_at, suit_name

__all__ = ["TEXT", "BriscolaText", "best_so_far"]

JSON = Mapping[str, Any]


def _event(event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
    """One log event as a sentence, or None for bookkeeping the viewer need not read.

    ``seats`` are the seats playing the current deal (the ``deal`` event's ``seats``),
    needed only when some seats sit a deal out.
    """
    kind = event.get("type")
    if kind == "play":
        return view.plays(event["seat"], event["card"])
    if kind == "trick":
        winner = event["winner"]
        cards = list(event.get("cards", []))
        seats = list(seats) if seats else list(range(view.players))
        card = next(
            (
                c
                for i, c in enumerate(cards)
                if seat_at(view, seats, event.get("leader", 0), i) == winner
            ),
            None,
        )
        with_card = f" with {view.card(card)}" if card else ""
        pts = event.get("points", 0)
        return (
            f"Trick {event.get('trick', '?')}: {view.seat(winner, False)} "
            f"{view.verb(winner, 'win', 'wins')} it{with_card}, {pts} point{'s' * (pts != 1)}."
        )
    if kind == "draw":
        holder = event.get("indicator_to")
        if holder is None:
            return None
        return (
            f"Last draw: {view.seat(holder, False)} {view.verb(holder, 'take', 'takes')} "
            "the face-up trump indicator."
        )
    if kind == "deal":
        dealer = event.get("dealer")
        lines = [
            f"Deal {event.get('deal', '?')}: {view.seat(dealer, False)} "
            f"{view.verb(dealer, 'deal', 'deals')}."
        ]
        if "trump" in event:
            trump = event["trump"]
            lines.append(
                f"Trump indicator: {view.card(trump)} — {suit_name(trump[-1], view.lang)} "
                "are trumps."
            )
        playing = list(event.get("seats") or [])
        if playing and len(playing) < view.players:
            names = " and ".join(view.seat(p, False) for p in playing)
            lines.append(f"Only {names} play this deal.")
        if event.get("removed"):
            lines.append(f"Out of the pack: {', '.join(event['removed'])}.")
        if "scores" in event:
            lines.append(f"Match score (deals won): {view.per_side(event['scores'])}.")
        return "\n".join(lines)
    if kind == "signal":
        seat = event["seat"]
        gesture = event.get("gesture") or event.get("meaning")
        return (
            f"{view.seat(seat)} {view.verb(seat, 'signal', 'signals')}: "
            f"{event.get('meaning')} ({gesture})."
        )
    if kind == "exchange":
        seat = event["seat"]
        return (
            f"{view.seat(seat)} {view.verb(seat, 'swap', 'swaps')} {view.card(event['card'])} "
            f"for the indicator {view.card(event['took'])}."
        )
    if kind == "decline":
        seat = event["seat"]
        return f"{view.seat(seat)} {view.verb(seat, 'keep', 'keeps')} the 2 of trumps."
    if kind == "hand_end":
        return _render_hand_end(event, view)
    if kind == "match_end":
        winner = event.get("winner")
        scores = event.get("scores", [])
        return f"Match over: {view.match_result(winner)}. Deals won: {view.per_side(scores)}."
    return None


def _render_hand_end(event: JSON, view: View) -> str:
    points = list(event.get("points", []))
    detail = event.get("detail", {})
    tricks = detail.get("tricks")
    head = f"Deal over{f' after {tricks} tricks' if tricks else ''}"
    lines = [f"{head}. Card points: {view.per_side(points)}."]
    outcome = detail.get("outcome")
    winner = detail.get("winner")
    wins = detail.get("deal_wins")
    if outcome == "draw":
        lines.append("The deal is drawn: no deal win is scored.")
    elif winner is not None:
        lines.append(f"{view.side(winner)} {view.side_verb(winner, 'win', 'wins')} the deal.")
    elif wins:
        lines.append(f"Deal wins scored: {view.per_side(wins)}.")
    return "\n".join(lines)


def _observation(obs: JSON, view: View, show_hand: bool = True) -> str:
    """The table as one seat sees it: score, trump, stock, trick, known cards, hand.

    ``show_hand=False`` leaves out the hand line (a front end listing it as choices).
    Escoba shows the table with card values, the captured piles and the hand instead.
    """
    lines: list[str] = []
    seats = list(obs.get("seats") or range(view.players))
    players = len(seats)
    deal = obs.get("deal")
    tricks_done = len(obs.get("tricks", []))
    head = f"Deal {deal}" if deal is not None else "Match"
    removed = obs.get("removed") or []
    if "hand_sizes" in obs and "stock_size" in obs and players:
        in_play = 40 - len(removed)
        if in_play:
            head += f" · trick {min(tricks_done + 1, in_play // players)} of {in_play // players}"
    if obs.get("dealer") is not None:
        head += f" · dealer: {view.seat(obs['dealer'], False)}"
    lines.append(head)
    if "scores" in obs:
        lines.append(view.match_score("deals won", obs))
    if obs.get("trump"):
        trump = obs["trump"]
        lines.append(_trump_line(obs, trump, view))
    if obs.get("stock_top"):
        lines.append(f"Top of the stock (face up): {view.card(obs['stock_top'])}")
    if removed:
        lines.append(f"Out of the pack: {', '.join(removed)}")
    if "deal_points" in obs:
        lines.append(f"Card points this deal: {view.per_side(obs['deal_points'])}")
    if "hand_sizes" in obs:
        sizes = obs["hand_sizes"]
        lines.append("Cards in hand: " + " · ".join(f"{view.seat(s)} {sizes[s]}" for s in seats))
    for seat_text, cards in sorted((obs.get("known_cards") or {}).items()):
        seat = int(seat_text)
        lines.append(f"Known in {view.seat(seat, False)}'s hand: {view.cards(cards)}")
    if obs.get("exchange"):
        ex = obs["exchange"]
        lines.append(
            f"Before play, {view.seat(ex['seat'], False)} swapped {ex['gave']} for "
            f"the indicator {ex['took']}"
        )
    signals = obs.get("signals") or []
    current = [s for s in signals if s.get("trick") == tricks_done + 1]
    for sig in current:
        lines.append(f"Signal this trick: {view.seat(sig['seat'])} — {sig['meaning']}")
    trick = obs.get("trick") or []
    if trick:
        played = "; ".join(f"{view.seat(t['seat'])} {view.card(t['card'])}" for t in trick)
        best = trick[best_so_far([t["card"] for t in trick], obs.get("trump_suit"))]
        lines.append(
            f"Trick so far: {played} — best so far: {view.card(best['card'])} "
            f"({view.seat(best['seat'], False)})"
        )
    elif obs.get("to_act") is not None and not obs.get("match_over"):
        lines.append(f"Trick so far: empty ({view.seat(obs['to_act'], False)} to lead)")
    turn = view.turn(obs)
    if turn is not None:
        lines.append(turn)
    if show_hand and obs.get("seat") is not None:
        lines.append(f"Your hand: {view.cards(obs.get('hand', []))}")
    return "\n".join(lines)


def _trump_line(obs: JSON, trump: str, view: View) -> str:
    suit = suit_name(obs.get("trump_suit") or trump[-1], view.lang)
    stock = obs.get("stock_size")
    holder = obs.get("indicator_holder")
    text = f"Trump: {suit} — indicator {view.card(trump)}"
    if stock:
        text += f", face up under the stock ({stock} card{'s' * (stock != 1)} left)"
    elif holder is not None:
        text += f", drawn by {view.seat(holder, False)}; the stock is empty"
    elif stock == 0:
        text += "; the stock is empty"
    return text


def best_so_far(cards: Sequence[str], trump_suit: str | None) -> int:
    """The position of the card winning the trick so far: the strongest trump, else the
    strongest card of the suit led (public rules, nothing hidden).

    >>> best_so_far(["KB", "3B", "2O"], "O"), best_so_far(["KB", "1C"], "E")
    (2, 0)
    """

    def key(code: str) -> int:
        strength = STRENGTH[DECK.parse(code)]
        if code[-1] == trump_suit:
            return 20 + strength
        return strength if code[-1] == cards[0][-1] else 0

    return max(range(len(cards)), key=lambda i: (key(cards[i]), -i))


class BriscolaText(GameText):
    """Briscola's hooks."""

    sim_columns = ("card pts/deal", "deals won")

    hand_in_choices = True
    help = """\
  signal <meaning>   a partner signal, when offered (also by number)
  exchange, decline  swap (or keep) the 2 of trumps, when offered"""

    def rank_labels(self, options: Mapping[str, Any]) -> dict[str, str]:
        """``french_face_labels="south"`` swaps the jack and the queen.

        >>> TEXT.rank_labels({"french_face_labels": "south"})
        {'J': 'Q', 'Q': 'J'}
        """
        return {"J": "Q", "Q": "J"} if options.get("french_face_labels") == "south" else {}

    def event(self, event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
        return _event(event, view, seats)

    def observation(self, obs: JSON, view: View, show_hand: bool = True) -> str:
        return _observation(obs, view, show_hand)

    def choice_label(self, action: str, obs: JSON, view: View) -> str:
        text = self.action_label(action, obs, view)
        trump_suit = obs.get("trump_suit")
        if trump_suit and is_card(action) and action[-1] == trump_suit:
            text += "  [trump]"
        return text

    def draws(self, event: JSON) -> bool:
        return event.get("type") == "draw"

    def notes_before_choices(self, obs: JSON) -> list[str]:
        if obs.get("phase") == "exchange":
            return ["You hold the 2 of trumps: exchange it for the indicator, or decline?"]
        return []


TEXT = BriscolaText()
