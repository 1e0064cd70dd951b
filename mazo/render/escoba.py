"""Escoba's text: the table with card values toward 15, captures and the hand's tally.

>>> from mazo.render import View
>>> view = View(players=2, side_of=(0, 1), viewer=0, style="code", game="escoba")
>>> TEXT.event({"type": "play", "seat": 1, "card": "7O", "captured": ["5C", "3B"],
...             "escoba": True}, view)
'Seat 1 plays 7O and takes 5C 3B — *** ESCOBA! *** The table is swept clean.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mazo.render.common import GameText, View, card_label, split_code

__all__ = ["TEXT", "EscobaText", "card_value", "escoba_action_label"]

JSON = Mapping[str, Any]

_ESCOBA_VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}


def card_value(code: str) -> int:
    """A card's value toward 15 in Escoba: pips 1-7, ``J`` 8, ``Q`` 9, ``K`` 10.

    >>> card_value("KB"), card_value("jo"), card_value("7O")
    (10, 8, 7)
    """
    return _ESCOBA_VALUES[split_code(code)[0]]


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
        return f"Match over: {view.match_result(winner)}. Final score: {view.per_side(scores)}."
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
        # The point is the setenta in Spanish ("prime" is Italian Scopa's primiera).
        ("setenta" + prime_note, list(detail.get("prime") or [0] * sides)),
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
        lines.append(view.match_score("points", obs))
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
    turn = view.turn(obs)
    if turn is not None:
        lines.append(turn)
    if show_hand and obs.get("seat") is not None:
        hand = list(obs.get("hand") or [])
        shown = ", ".join(_valued(c, view) for c in hand) if hand else "empty"
        lines.append(f"Your hand: {shown}")
    return "\n".join(lines)


class EscobaText(GameText):
    """Escoba's hooks: the hand always shown with values; a choice says what it takes."""

    sim_columns = ("points/hand", "final score")
    tricks_help = "this hand's plays so far"
    cards_are_moves = False  # a capture names the card and what it takes

    help = """\
  7o+5c+3b           play 7O and take 5C and 3B (any order, any case); a card with
                     several captures lists them to choose from"""

    def language(self, options: Mapping[str, Any]) -> str:
        """The Spanish pack speaks Spanish.

        >>> TEXT.language({"deck_style": "spanish"}), TEXT.language({"deck_style": "french"})
        ('es', 'en')
        """
        return "es" if options.get("deck_style") == "spanish" else "en"

    def rank_labels(self, options: Mapping[str, Any]) -> dict[str, str]:
        """``deck_style="french_numeric"`` prints the figures as 8, 9, 10.

        >>> TEXT.rank_labels({"deck_style": "french_numeric"})
        {'J': '8', 'Q': '9', 'K': '10'}
        """
        if options.get("deck_style") == "french_numeric":
            return {"J": "8", "Q": "9", "K": "10"}
        return {}

    def event(self, event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
        return _render_escoba_event(event, view)

    def observation(self, obs: JSON, view: View, show_hand: bool = True) -> str:
        return _render_escoba_observation(obs, view, show_hand)

    def action_label(self, action: str, obs: JSON, view: View) -> str:
        return escoba_action_label(action, list(obs.get("table") or []), view)

    def tricks(self, obs: JSON, view: View) -> list[str]:
        """This hand's plays so far, from the observation's ``history``."""
        plays = obs.get("history") or []
        if not plays:
            return ["Nobody has played in this hand yet."]
        return [
            f"  {i:>2}. {self.event({'type': 'play', **play}, view)}"
            for i, play in enumerate(plays, 1)
        ]

    def event_style(self, event: JSON, ours: bool) -> str | None:
        kind = event.get("type")
        if kind == "opening_escoba" or (kind == "play" and event.get("escoba")):
            return "bold green" if ours else "bold red"
        return super().event_style(event, ours)


TEXT = EscobaText()
