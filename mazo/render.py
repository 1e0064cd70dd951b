"""Plain-text rendering of observations and events, for the terminal and for logs.

Everything here reads one seat's observation (or that seat's share of the event log) and
returns plain strings: no colour, no terminal codes, standard library only.  Front ends
add colour on top (``mazo.cli`` uses rich).  Because the input is an observation, a
renderer cannot print a card the viewer may not know.

Display names belong here, never in the notation: ``7O`` stays the code a player types,
and ``7 of coins`` / ``sette di denari`` / ``siete de oros`` is how it reads.

>>> view = View(players=2, side_of=(0, 1), viewer=0, seat_names=("Ana", "Seat 1 (random)"))
>>> card_label("7O", "name")
'7O (7 of coins)'
>>> card_label("JE", "name", "es")
'JE (sota de espadas)'
>>> card_label("1C", "symbol")
'1♥'
>>> render_event({"type": "play", "seat": 1, "card": "KB"}, view)
'Seat 1 (random) plays KB (king of batons).'
>>> render_event({"type": "trick", "trick": 1, "leader": 1, "cards": ["KB", "3B"],
...               "winner": 0, "points": 14}, view)
'Trick 1: you win it with 3B (3 of batons), 14 points.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CARD_STYLES",
    "LANGUAGES",
    "View",
    "card_label",
    "card_name",
    "card_value",
    "escoba_action_label",
    "prepare_events",
    "rank_labels",
    "rank_name",
    "render_choices",
    "render_event",
    "render_observation",
    "suit_name",
]

JSON = Mapping[str, Any]

CARD_STYLES = ("name", "code", "symbol")
"""``name``: ``7O (7 of coins)``; ``code``: ``7O``; ``symbol``: ``7♦`` (French suit)."""

LANGUAGES = ("en", "it", "es")

_SUITS: dict[str, dict[str, str]] = {
    "en": {"O": "coins", "C": "cups", "E": "swords", "B": "batons"},
    "it": {"O": "denari", "C": "coppe", "E": "spade", "B": "bastoni"},
    "es": {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"},
}
_RANKS: dict[str, dict[str, str]] = {
    "en": {"1": "ace", "J": "jack", "Q": "knight", "K": "king"},
    "it": {
        "1": "asso",
        "2": "due",
        "3": "tre",
        "4": "quattro",
        "5": "cinque",
        "6": "sei",
        "7": "sette",
        "8": "otto",
        "9": "nove",
        "10": "dieci",
        "J": "fante",
        "Q": "cavallo",
        "K": "re",
    },
    "es": {
        "1": "as",
        "2": "dos",
        "3": "tres",
        "4": "cuatro",
        "5": "cinco",
        "6": "seis",
        "7": "siete",
        "8": "ocho",
        "9": "nueve",
        "10": "diez",
        "J": "sota",
        "Q": "caballo",
        "K": "rey",
    },
}
_OF = {"en": "of", "it": "di", "es": "de"}
# The seed's French substitutes (rules/briscola.md 2.1): O diamonds, C hearts, E spades,
# B clubs.  Latin suits have no Unicode symbols of their own.
_SYMBOLS = {"O": "♦", "C": "♥", "E": "♠", "B": "♣"}


def _split(code: str) -> tuple[str, str]:
    code = code.strip().upper()
    return code[:-1], code[-1:]


def suit_name(suit: str, lang: str = "en") -> str:
    """``O`` -> ``coins`` (en), ``denari`` (it), ``oros`` (es)."""
    return _SUITS.get(lang, _SUITS["en"]).get(suit.upper(), suit)


def rank_name(rank: str, lang: str = "en") -> str:
    """A rank in words where it has a name: ``K`` -> ``king``, ``re``, ``rey``; ``7``
    stays ``7`` in English.

    >>> rank_name("K", "it"), rank_name("1"), rank_name("7")
    ('re', 'ace', '7')
    """
    rank = rank.strip().upper()
    return _RANKS.get(lang, _RANKS["en"]).get(rank, rank)


def card_name(code: str, lang: str = "en") -> str:
    """The card's name in words: ``7O`` -> ``7 of coins``, ``sette di denari``..."""
    rank, suit = _split(code)
    table = _RANKS.get(lang, _RANKS["en"])
    return f"{table.get(rank, rank)} {_OF.get(lang, 'of')} {suit_name(suit, lang)}"


def card_label(
    code: str, style: str = "name", lang: str = "en", ranks: Mapping[str, str] | None = None
) -> str:
    """A card as shown to a person, in one of :data:`CARD_STYLES`.

    ``ranks`` relabels ranks on French-suited (``symbol``) cards, per :func:`rank_labels`.

    >>> card_label("KO", "symbol", ranks={"J": "8", "Q": "9", "K": "10"})
    '10♦'
    """
    if style == "code":
        return code
    if style == "symbol":
        rank, suit = _split(code)
        return (ranks or {}).get(rank, rank) + _SYMBOLS.get(suit, suit)
    return f"{code} ({card_name(code, lang)})"


def default_language(game: str, options: Mapping[str, Any]) -> str:
    """The language of card names when the user chose none: a Spanish pack speaks Spanish
    (Escoba's default pack, and always Envite Canario's), the Venetian Trionfetti Italian.

    >>> default_language("escoba", {"deck_style": "spanish"}), default_language("briscola", {})
    ('es', 'en')
    >>> default_language("envite", {}), default_language("trionfetti", {})
    ('es', 'it')
    """
    if game == "envite":
        return "es"
    if game == "trionfetti":
        return "it"
    return "es" if game == "escoba" and options.get("deck_style") == "spanish" else "en"


def rank_labels(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """How a game's pack options relabel the figures on French-suited cards (labels only).

    Escoba ``deck_style="french_numeric"`` prints the figures as 8, 9, 10; Briscola
    ``french_face_labels="south"`` swaps the jack and the queen.

    >>> rank_labels("escoba", {"deck_style": "french_numeric"})
    {'J': '8', 'Q': '9', 'K': '10'}
    >>> rank_labels("briscola", {"french_face_labels": "south"})
    {'J': 'Q', 'Q': 'J'}
    """
    if game == "escoba" and options.get("deck_style") == "french_numeric":
        return {"J": "8", "Q": "9", "K": "10"}
    if game == "briscola" and options.get("french_face_labels") == "south":
        return {"J": "Q", "Q": "J"}
    return {}


@dataclass(frozen=True)
class View:
    """Who is looking and how seats are called: the context every renderer needs.

    ``viewer`` is the seat whose observation is shown (``None``: a spectator); that seat
    is called "you".  ``side_of`` maps seats to sides (teams in partnership games).
    ``game`` names the game whose events are rendered (events do not say it themselves).
    """

    players: int
    side_of: tuple[int, ...]
    viewer: int | None = None
    seat_names: tuple[str, ...] = ()
    style: str = "name"
    lang: str = "en"
    game: str = ""
    ranks: Mapping[str, str] = field(default_factory=dict)

    def card(self, code: str) -> str:
        return card_label(code, self.style, self.lang, self.ranks)

    def cards(self, codes: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in codes) if codes else "none"

    def seat(self, seat: int | None, capital: bool = True) -> str:
        """``You`` for the viewer, else the seat's name (``Seat 2`` by default)."""
        if seat is None:
            return "Nobody" if capital else "nobody"
        if seat == self.viewer:
            return "You" if capital else "you"
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Seat {seat}"

    def verb(self, seat: int | None, plural: str, singular: str) -> str:
        """``plural`` for "you", else ``singular``: "you play" but "Seat 1 plays"."""
        return plural if seat is not None and seat == self.viewer else singular

    @property
    def teams(self) -> bool:
        return len(set(self.side_of)) < self.players

    def side(self, side: int | None, capital: bool = True) -> str:
        """A side's name: a seat's name, or a team listed by its seats."""
        if side is None:
            return "Nobody" if capital else "nobody"
        seats = [s for s in range(self.players) if self.side_of[s] == side]
        if not self.teams and len(seats) == 1:
            return self.seat(seats[0], capital)
        members = " & ".join(str(s) for s in seats)
        if self.viewer is not None and self.side_of[self.viewer] == side:
            return f"{'Your' if capital else 'your'} team (seats {members})"
        return f"{'Team' if capital else 'team'} {side} (seats {members})"

    def side_verb(self, side: int | None, plural: str, singular: str) -> str:
        if side is None or self.viewer is None or self.teams:
            return singular
        return plural if self.side_of[self.viewer] == side else singular

    def per_side(self, values: Sequence[Any], unit: str = "") -> str:
        """``You 3 · Seat 1 0`` for a per-side list."""
        suffix = f" {unit}" if unit else ""
        return " · ".join(f"{self.side(i)} {v}{suffix}" for i, v in enumerate(values))


def _seat_at(view: View, seats: Sequence[int], leader: int, pos: int) -> int:
    """The seat that played the ``pos``-th card of a trick led by ``leader``."""
    if leader in seats:
        return seats[(list(seats).index(leader) + pos) % len(seats)]
    return (leader + pos) % view.players


def prepare_events(events: Sequence[JSON], game: str) -> list[dict[str, Any]]:
    """A seat's log ready for :func:`render_event`: Trionfetti's events gain what their
    sentences need from earlier ones (the ranking kept, the vega value answered, trick
    numbers and ties); other games' events are returned as they are."""
    if game == "trionfetti":
        from mazo.render_trionfetti import annotate_events

        return annotate_events(events)
    return [dict(e) for e in events]


def render_event(event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
    """One log event as a sentence, or None for bookkeeping the viewer need not read.

    ``seats`` are the seats playing the current deal (the ``deal`` event's ``seats``),
    needed only when some seats sit a deal out.
    """
    kind = event.get("type")
    if _escoba_event(event, view):
        return _render_escoba_event(event, view)
    if view.game == "envite":
        from mazo.render_envite import render_envite_event

        return render_envite_event(event, view)
    if view.game == "trionfetti":
        from mazo.render_trionfetti import render_trionfetti_event

        return render_trionfetti_event(event, view)
    if kind == "play":
        seat = event["seat"]
        return f"{view.seat(seat)} {view.verb(seat, 'play', 'plays')} {view.card(event['card'])}."
    if kind == "trick":
        winner = event["winner"]
        cards = list(event.get("cards", []))
        seats = list(seats) if seats else list(range(view.players))
        card = next(
            (
                c
                for i, c in enumerate(cards)
                if _seat_at(view, seats, event.get("leader", 0), i) == winner
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
        result = (
            "no side wins"
            if winner is None
            else f"{view.side(winner, False)} {view.side_verb(winner, 'win', 'wins')} the match"
        )
        return f"Match over: {result}. Deals won: {view.per_side(scores)}."
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


def render_choices(obs: JSON, view: View) -> list[str]:
    """The numbered legal actions, one line each: ``  1) 7O (7 of coins)  [trump]``.

    Escoba: ``  1) lay 4C (4 of cups) on the table`` or ``  2) 7O (7 of coins) takes 5C 3B
    — ESCOBA!`` when the capture empties the table.
    """
    if obs.get("game") == "escoba":
        table = list(obs.get("table") or [])
        return [
            f"{i:>3}) {escoba_action_label(a, table, view)}"
            for i, a in enumerate(obs.get("legal_actions", []), 1)
        ]
    if obs.get("game") == "envite":
        from mazo.render_envite import envite_choices

        return envite_choices(obs, view, messages=True)
    if obs.get("game") == "trionfetti":
        from mazo.render_trionfetti import trionfetti_choices

        return trionfetti_choices(obs, view, messages=True)
    trump_suit = obs.get("trump_suit")
    out = []
    for i, action in enumerate(obs.get("legal_actions", []), 1):
        text = _action_label(action, view)
        if trump_suit and _is_card(action) and action[-1] == trump_suit:
            text += "  [trump]"
        out.append(f"{i:>3}) {text}")
    return out


def _is_card(text: str) -> bool:
    return " " not in text and 2 <= len(text) <= 3 and text[-1] in "OCEB"


def _action_label(action: str, view: View) -> str:
    return view.card(action) if _is_card(action) else action


def render_observation(obs: JSON, view: View, show_hand: bool = True) -> str:
    """The table as one seat sees it: score, trump, stock, trick, known cards, hand.

    ``show_hand=False`` leaves out the hand line (a front end listing it as choices).
    Escoba shows the table with card values, the captured piles and the hand instead.
    """
    if obs.get("game") == "escoba":
        return _render_escoba_observation(obs, view, show_hand)
    if obs.get("game") == "envite":
        from mazo.render_envite import render_envite_observation

        return render_envite_observation(obs, view, show_hand)
    if obs.get("game") == "trionfetti":
        from mazo.render_trionfetti import render_trionfetti_observation

        return render_trionfetti_observation(obs, view, show_hand)
    lines: list[str] = []
    seats = list(obs.get("seats") or range(view.players))
    players = len(seats)
    deal = obs.get("deal")
    tricks_done = len(obs.get("tricks", []))
    head = f"Deal {deal}" if deal is not None else "Match"
    removed = obs.get("removed") or []
    if "hand_sizes" in obs and "stock_size" in obs and players:
        in_play = 40 - len(removed) if obs.get("game") == "briscola" else None
        if in_play:
            head += f" · trick {min(tricks_done + 1, in_play // players)} of {in_play // players}"
    if obs.get("dealer") is not None:
        head += f" · dealer: {view.seat(obs['dealer'], False)}"
    lines.append(head)
    if "scores" in obs:
        target = obs.get("target")
        first_to = f", first to {target}" if target else ""
        lines.append(f"Match score (deals won{first_to}): {view.per_side(obs['scores'])}")
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
        lines.append(f"Trick so far: {played}")
    elif obs.get("to_act") is not None and not obs.get("match_over"):
        lines.append(f"Trick so far: empty ({view.seat(obs['to_act'], False)} to lead)")
    if obs.get("match_over"):
        lines.append("The match is over.")
    elif obs.get("to_act") is not None:
        to_act = obs["to_act"]
        lines.append(f"To act: {view.seat(to_act, False)}")
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


# -- Escoba -------------------------------------------------------------------------------

_ESCOBA_VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
_ESCOBA_ONLY = ("opening_escoba", "redeal", "table_taken")


def card_value(code: str) -> int:
    """A card's value toward 15 in Escoba: pips 1-7, ``J`` 8, ``Q`` 9, ``K`` 10.

    >>> card_value("KB"), card_value("jo"), card_value("7O")
    (10, 8, 7)
    """
    return _ESCOBA_VALUES[_split(code)[0]]


def _valued(code: str, view: View) -> str:
    """``KB (10)``: the card (its symbol in the symbol style) and its value."""
    shown = card_label(code, "symbol", ranks=view.ranks) if view.style == "symbol" else code
    return f"{shown} ({card_value(code)})"


def _short(codes: Sequence[str], view: View) -> str:
    """Cards as plain codes (or symbols), space separated: ``5C 3B``."""
    style = "symbol" if view.style == "symbol" else "code"
    return " ".join(card_label(c, style, ranks=view.ranks) for c in codes)


def escoba_action_label(action: str, table: Sequence[str], view: View) -> str:
    """A readable Escoba choice: ``lay 4C (4 of cups) on the table``, ``7O (...) takes 5C
    3B — ESCOBA!`` (``table`` tells whether the capture sweeps it).

    >>> v = View(players=2, side_of=(0, 1), style="code")
    >>> escoba_action_label("7O+5C+3B", ["5C", "3B"], v)
    '7O takes 5C 3B — ESCOBA!'
    >>> escoba_action_label("4C", ["5C", "3B"], v)
    'lay 4C on the table'
    """
    card, *taken = action.split("+")
    if not taken:
        return f"lay {view.card(card)} on the table"
    text = f"{view.card(card)} takes {_short(taken, view)}"
    if set(taken) == set(table):
        text += " — ESCOBA!"
    return text


def _escoba_event(event: JSON, view: View) -> bool:
    if view.game:
        return view.game == "escoba"
    kind = event.get("type")
    if kind in _ESCOBA_ONLY or (kind == "play" and "captured" in event):
        return True
    return (kind == "deal" and "table" in event) or (
        kind == "hand_end" and "escobas" in (event.get("detail") or {})
    )


def _render_escoba_event(event: JSON, view: View) -> str | None:
    kind = event.get("type")
    if kind == "play":
        seat = event["seat"]
        card = view.card(event["card"])
        taken = list(event.get("captured") or [])
        if not taken:
            return f"{view.seat(seat)} {view.verb(seat, 'lay', 'lays')} {card} on the table."
        text = (
            f"{view.seat(seat)} {view.verb(seat, 'play', 'plays')} {card} and "
            f"{view.verb(seat, 'take', 'takes')} {_short(taken, view)}"
        )
        if event.get("escoba"):
            return text + " — *** ESCOBA! *** The table is swept clean."
        return text + "."
    if kind == "deal":
        dealer = event.get("dealer")
        lines = []
        scores = event.get("scores")
        if scores and event.get("deal", 1) != 1:
            lines.append(f"Match score: {view.per_side(scores)}.")
        table = list(event.get("table") or [])
        total = sum(card_value(c) for c in table)
        lines.append(
            f"Hand {event.get('deal', '?')}: {view.seat(dealer, False)} "
            f"{view.verb(dealer, 'deal', 'deals')}. Table: "
            f"{', '.join(_valued(c, view) for c in table)} (sum {total})."
        )
        return "\n".join(lines)
    if kind == "opening_escoba":
        seat = event["seat"]
        cards = list(event.get("cards") or [])
        count = event.get("escobas", 1)
        total = sum(card_value(c) for c in cards)
        what = "an escoba" if count == 1 else f"{count} escobas"
        return (
            f"The table adds up to {total}: {view.seat(seat, False)} "
            f"{view.verb(seat, 'take', 'takes')} {_short(cards, view)} for {what} "
            "— *** ESCOBA! ***"
        )
    if kind == "redeal":
        deals = 36 // (3 * view.players) if view.players else 0
        of = f" of {deals}" if deals else ""
        return f"Three more cards to each player (deal {event.get('round', 0) + 1}{of})."
    if kind == "table_taken":
        seat = event["seat"]
        return (
            f"End of the hand: {view.seat(seat, False)}, the last to capture, "
            f"{view.verb(seat, 'take', 'takes')} what is left on the table: "
            f"{_short(event.get('cards') or [], view)} (not an escoba)."
        )
    if kind == "hand_end":
        return _render_escoba_hand_end(event, view)
    if kind == "match_end":
        winner = event.get("winner")
        scores = list(event.get("scores") or [])
        result = (
            "no side wins"
            if winner is None
            else f"{view.side(winner, False)} {view.side_verb(winner, 'win', 'wins')} the match"
        )
        return f"Match over: {result}. Final score: {view.per_side(scores)}."
    return None


def _render_escoba_hand_end(event: JSON, view: View) -> str:
    """The labelled breakdown: one row per category, one column per side."""
    detail = event.get("detail") or {}
    points = list(event.get("points") or [])
    sides = len(points)
    heads = [view.side(s) for s in range(sides)]

    def counts(key: str) -> str:
        values = detail.get(key)
        return f" ({'-'.join(str(v) for v in values)})" if values else ""

    keys = detail.get("prime_keys") or []
    prime_note = ""
    if detail.get("prime_method") in ("seed_counts", None) and keys and None not in keys:
        sevens = [k[0] if isinstance(k, list | tuple) else k for k in keys]
        prime_note = f" (sevens {'-'.join(str(v) for v in sevens)})"
    elif detail.get("prime_method") == "sevens_only" and keys:
        prime_note = f" (sevens {'-'.join(str(v) for v in keys)})"
    rows: list[tuple[str, list[Any]]] = [
        ("escobas", list(detail.get("escobas") or [0] * sides)),
        ("cards" + counts("card_counts"), list(detail.get("cards") or [0] * sides)),
        ("oros" + counts("oros_counts"), list(detail.get("oros") or [0] * sides)),
        ("siete de velo (7O)", list(detail.get("velo") or [0] * sides)),
        ("prime" + prime_note, list(detail.get("prime") or [0] * sides)),
    ]
    for key, label in (("bonus_all_sevens", "all four sevens"), ("bonus_all_oros", "all oros")):
        values = list(detail.get(key) or [])
        if any(values):
            rows.append((label, values))
    rows.append(("total", list(detail.get("total") or points)))
    label_w = max(len(r[0]) for r in rows)
    widths = [max(len(h), 3) for h in heads]
    lines = ["Hand over. Points this hand:"]
    lines.append(
        "  " + " " * label_w + "".join(f"  {h:>{w}}" for h, w in zip(heads, widths, strict=True))
    )
    for label, values in rows:
        cells = "".join(f"  {v!s:>{w}}" for v, w in zip(values, widths, strict=False))
        lines.append(f"  {label:<{label_w}}{cells}")
    unawarded = detail.get("unawarded") or []
    if unawarded:
        lines.append(f"Nobody captured this hand: {_short(unawarded, view)} score for nobody.")
    return "\n".join(lines)


def _render_escoba_observation(obs: JSON, view: View, show_hand: bool) -> str:
    players = view.players or int(obs.get("players") or 0)
    deals = 36 // (3 * players) if players else 0
    head = f"Hand {obs.get('hand_number', '?')}"
    if deals:
        head += f" · deal {int(obs.get('round') or 0) + 1} of {deals}"
    if obs.get("dealer") is not None:
        head += f" · dealer: {view.seat(obs['dealer'], False)}"
    lines = [head]
    if "scores" in obs:
        target = obs.get("target")
        first_to = f", first to {target}" if target else ""
        lines.append(f"Match score (points{first_to}): {view.per_side(obs['scores'])}")
    sizes = list(obs.get("hand_sizes") or [])
    if sizes:
        in_hands = " · ".join(f"{view.seat(s)} {n}" for s, n in enumerate(sizes))
        lines.append(f"Stock: {obs.get('stock_size', 0)} cards · in hand: {in_hands}")
    piles = list(obs.get("captured") or [])
    escobas = list(obs.get("escobas") or [0] * len(piles))
    parts = []
    for side, pile in enumerate(piles):
        oros = sum(1 for c in pile if c.endswith("O"))
        sevens = sum(1 for c in pile if c.startswith("7"))
        text = (
            f"{view.side(side)} {len(pile)} card{'s' * (len(pile) != 1)}, {oros} oros, "
            f"{sevens} seven{'s' * (sevens != 1)}"
        )
        if "7O" in pile:
            text += " (7O)"
        esc = escobas[side] if side < len(escobas) else 0
        if esc:
            text += f", {esc} escoba{'s' * (esc != 1)}"
        parts.append(text)
    if any(piles):
        lines.append("Captured: " + " · ".join(parts))
    elif piles:
        lines.append("Captured: nothing yet")
    if obs.get("last_capturer") is not None:
        lines.append(
            f"Last to capture: {view.seat(obs['last_capturer'], False)} "
            "(takes what is left at the end of the hand)"
        )
    table = list(obs.get("table") or [])
    if table:
        total = sum(card_value(c) for c in table)
        shown = ", ".join(_valued(c, view) for c in table)
        count = f"{len(table)} card{'s' * (len(table) != 1)}"
        lines.append(f"Table ({count}, sum {total}): {shown}")
    else:
        lines.append("Table: empty")
    if obs.get("match_over"):
        lines.append("The match is over.")
    elif obs.get("to_act") is not None:
        lines.append(f"To act: {view.seat(obs['to_act'], False)}")
    if show_hand and obs.get("seat") is not None:
        hand = list(obs.get("hand") or [])
        shown = ", ".join(_valued(c, view) for c in hand) if hand else "empty"
        lines.append(f"Your hand: {shown}")
    return "\n".join(lines)
