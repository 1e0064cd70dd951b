"""What every game's text shares: card names, the viewer's :class:`View`, and
:class:`GameText`, the hooks each ``mazo/render/<game>.py`` fills in.

Everything here is plain strings from one seat's observation (or that seat's share of
the event log): no colour, no terminal codes, standard library only.  Front ends add
colour on top (``mazo.cli`` decides it).  Because the input is an observation, a
renderer cannot print a card the viewer may not know.

Display names belong here, never in the notation: ``7O`` stays the code a player types,
and ``7 of coins`` / ``sette di denari`` / ``siete de oros`` is how it reads.

>>> card_label("7O", "name")
'7O (7 of coins)'
>>> card_label("JE", "name", "es")
'JE (sota de espadas)'
>>> card_label("1C", "symbol")
'1♥'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

__all__ = [
    "CARD_STYLES",
    "LANGUAGES",
    "GameText",
    "View",
    "brief_seat",
    "brief_team",
    "card_label",
    "card_name",
    "is_card",
    "rank_name",
    "seat_at",
    "split_code",
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


def split_code(code: str) -> tuple[str, str]:
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
    rank, suit = split_code(code)
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
        rank, suit = split_code(code)
        return (ranks or {}).get(rank, rank) + _SYMBOLS.get(suit, suit)
    return f"{code} ({card_name(code, lang)})"


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

    # -- sentences every trick game says the same way ----------------------------------

    def plays(self, seat: int | None, card: str) -> str:
        """``Seat 1 plays 7O (7 of coins).``: a ``play`` event."""
        return f"{self.seat(seat)} {self.verb(seat, 'play', 'plays')} {self.card(card)}."

    def nothing_played(self, number: int, leader: int) -> str:
        """The status line of a trick not yet led."""
        return (
            f"Trick {number}: nothing played yet ({self.seat(leader, False)} "
            f"{self.verb(leader, 'lead', 'leads')})"
        )

    def trick_taken(self, event: JSON) -> tuple[str, int | None]:
        """A ``trick`` event's winning card as `` with <card>`` (empty when the event has
        no cards) and the side that took it (the event's ``team``, else the winner's)."""
        winner = int(event["winner"])
        cards = list(event.get("cards") or [])
        pos = (winner - int(event.get("leader", 0))) % max(len(cards), 1)
        card = f" with {self.card(cards[pos])}" if pos < len(cards) else ""
        team = event.get("team", self.side_of[winner] if winner < len(self.side_of) else None)
        return card, team

    def match_score(self, unit: str, obs: JSON) -> str:
        """``Match score (points, first to 21): You 3 · Seat 1 0``."""
        target = obs.get("target")
        first_to = f", first to {target}" if target else ""
        return f"Match score ({unit}{first_to}): {self.per_side(obs['scores'])}"

    def turn(self, obs: JSON, label: str = "To act") -> str | None:
        """The status line of whose turn it is (``label: Seat 2``), or that the match is
        over; None when nobody is to act."""
        if obs.get("match_over"):
            return "The match is over."
        if obs.get("to_act") is not None:
            return f"{label}: {self.seat(obs['to_act'], False)}"
        return None

    def match_result(self, winner: int | None) -> str:
        """``Team 0 (seats 0 & 2) wins the match`` or ``no side wins``."""
        if winner is None:
            return "no side wins"
        return f"{self.side(winner, False)} {self.side_verb(winner, 'win', 'wins')} the match"


def brief_seat(seat: int | None, view: View) -> str:
    """A seat in a status line that must fit 80×24 (Envite's, Trionfetti's): "you" or
    "Seat 3" (the log has the full names)."""
    if seat is None:
        return "nobody"
    return "you" if seat == view.viewer else f"Seat {seat}"


def brief_team(team: int | None, view: View) -> str:
    """A team in such a status line: "us" and "them" for a player, "team 1" for a
    spectator."""
    if team is None:
        return "nobody"
    if view.viewer is None:
        return f"team {team}"
    return "us" if view.side_of[view.viewer] == team else "them"


def seat_at(view: View, seats: Sequence[int], leader: int, pos: int) -> int:
    """The seat that played the ``pos``-th card of a trick led by ``leader``."""
    if leader in seats:
        return seats[(list(seats).index(leader) + pos) % len(seats)]
    return (leader + pos) % view.players


def is_card(text: str) -> bool:
    return " " not in text and 2 <= len(text) <= 3 and text[-1] in "OCEB"


class GameText:
    """One game's text: the hooks :mod:`mazo.render` and the terminal client call.

    Each ``mazo/render/<game>.py`` defines ``TEXT``, an instance of a subclass, and is
    found through the game registry (:func:`mazo.render.text_for`), so generic code never
    names a game.  The defaults suit a plain trick game; the three rendering methods
    (:meth:`event`, :meth:`observation`, :meth:`choice_label`) are the game's own.
    """

    aliases: ClassVar[Mapping[str, str]] = {}
    """Short words the prompt accepts beside the action strings (``e`` for ``envio``)."""
    help: str = ""
    """The game's own lines of the in-game help (``?``), after the common commands."""
    messages_behind_m: bool = False
    """Messages (:meth:`is_message`) are listed by the ``m`` command, not among the choices."""
    hand_in_choices: bool = False
    """When every card in hand is among the numbered choices (playable, or numbered by its
    place: :attr:`cards_are_moves`), the hand is shown as the choices only."""
    cards_are_moves: bool = True
    """A card in hand is played by the action its code names alone.  Then, whenever a card
    may be played, the choices number every card in hand by its place in the hand (``1``
    is always the first card), those the rules forbid now listed but not choosable
    (:meth:`unplayable` says why).  False for Escoba, whose captures name several cards."""
    bold_prefixes: tuple[str, ...] = ("Your hand",)
    """Table lines printed in bold (the first line always is)."""
    pause_prefixes: tuple[str, ...] = ("Your hand",)
    """Table lines repeated when play stops for an out-of-turn call."""
    pause_offer: str = "You may call now (out of turn), or go on:"
    hold_messages: bool = False
    """Messages wait for the next move of the game and print grouped
    (:meth:`group_messages`)."""
    bot_messages: int | None = None
    """At most this many messages a bot sends between two moves (None: no limit)."""
    choices_after_talk: bool = False
    """After the human sends a message, print the choices again, not the whole table."""

    sim_columns: tuple[str, str] = ("points/deal", "final score")
    """``mazo sim``'s last two columns: what a deal's points and the final score are."""

    tricks_help: str = "the tricks played so far in this deal"
    """What the ``t`` command lists (see :meth:`tricks`), for the in-game help."""

    def language(self, options: Mapping[str, Any]) -> str:
        """The language of card names when the user chose none."""
        return "en"

    def rank_labels(self, options: Mapping[str, Any]) -> dict[str, str]:
        """How the pack options relabel figures on French-suited cards (labels only)."""
        return {}

    def prepare_events(self, events: Sequence[JSON]) -> list[dict[str, Any]]:
        """A seat's log ready for :meth:`event` (a game may annotate it)."""
        return [dict(e) for e in events]

    def event(self, event: JSON, view: View, seats: Sequence[int] | None = None) -> str | None:
        """One log event as a sentence, or None for bookkeeping."""
        raise NotImplementedError

    def observation(self, obs: JSON, view: View, show_hand: bool = True) -> str:
        """The table as one seat sees it."""
        raise NotImplementedError

    def is_message(self, action: str) -> bool:
        """A message to partners or the table: never a move the game waits for."""
        return action.startswith("signal ")

    def ordered_actions(self, legal: Sequence[str], obs: JSON) -> list[str]:
        """The legal actions in the order they are numbered on screen."""
        return list(legal)

    def action_label(self, action: str, obs: JSON, view: View) -> str:
        """One choice as it reads (a card by its name)."""
        return view.card(action) if is_card(action) else action

    def choice_label(self, action: str, obs: JSON, view: View) -> str:
        """One numbered line's text; by default :meth:`action_label`."""
        return self.action_label(action, obs, view)

    def choices(self, obs: JSON, view: View) -> list[str]:
        """Every legal action numbered, one line each: ``  1) 7O (7 of coins)``."""
        actions = self.ordered_actions(list(obs.get("legal_actions") or []), obs)
        return [f"{i:>3}) {self.choice_label(a, obs, view)}" for i, a in enumerate(actions, 1)]

    def unplayable(self, card: str, obs: JSON, view: View) -> str | None:
        """Why a card in hand cannot be played now (the rules of following), or None."""
        return None

    def choice_style(self, line: str) -> str | None:
        """A style for a choice line (the front end's names, e.g. ``cyan``), or None."""
        return "cyan" if "[trump" in line else None

    def group_messages(self, events: Sequence[JSON]) -> list[JSON]:
        """Held messages as they print (see :attr:`hold_messages`)."""
        return list(events)

    def read_text(self, text: str, obs: JSON) -> str | None:
        """An action string for typed text outside the action ids (free talk...), or None."""
        return None

    def prompt(self, obs: JSON, numbers: str) -> str:
        """The prompt at the human's turn; ``numbers`` is the range of choices shown."""
        return f"Your move [{numbers}, card code, ? help, q quit]: "

    def messages_line(self, obs: JSON) -> str:
        """The ``m)`` line under the choices when messages may be sent."""
        return "  m) messages to your team (signs and consultation)"

    def messages_head(self, obs: JSON) -> str:
        return "Messages to your team (type the number or the words):"

    def messages_extra(self, obs: JSON, view: View) -> list[str]:
        """Lines after the numbered messages (what may be typed besides)."""
        return []

    def no_messages(self, obs: JSON) -> str | None:
        """What ``m`` says when no message may be sent now; None: ``m`` is not a command."""
        return None

    def refused(self, label: str, obs: JSON) -> str | None:
        """Why a message typed is not allowed now, when the game can say more."""
        return None

    def refused_hint(self, text: str, obs: JSON) -> str | None:
        """A hint after the rules refuse ``text`` (how to write it), or None."""
        return None

    def notes_before_choices(self, obs: JSON) -> list[str]:
        return []

    def notes_after_choices(self, obs: JSON, pause: bool) -> list[str]:
        return []

    def tricks(self, obs: JSON, view: View) -> list[str]:
        """The ``t`` command: the tricks of this deal, one line each."""
        tricks = obs.get("tricks") or []
        if not tricks:
            return ["No trick has been completed in this deal yet."]
        seats = list(obs.get("seats") or range(view.players))
        lines = []
        for i, t in enumerate(tricks, 1):
            lead = seats.index(t["leader"]) if t["leader"] in seats else 0
            plays = ", ".join(
                f"{view.seat(seats[(lead + j) % len(seats)])} {c}" for j, c in enumerate(t["cards"])
            )
            points = f", {t['points']} pts" if "points" in t else ""
            lines.append(f"  {i:>2}. {plays} -> {view.seat(t['winner'], False)}{points}")
        return lines

    def draws(self, event: JSON) -> bool:
        """Whether the event refills hands from the stock (the front end then says which
        cards the viewer got: the event itself names none)."""
        return False

    def paragraph(self, event: JSON) -> bool:
        """Whether a blank line goes before the event (a new deal, a result)."""
        return event.get("type") in ("deal", "hand_end", "match_end")

    def event_style(self, event: JSON, ours: bool) -> str | None:
        """A style for an event line; ``ours``: the event's seat or winner is on the
        viewer's side."""
        kind = event.get("type")
        if kind == "deal":
            return "bold cyan"
        if kind == "trick":
            return "green" if ours else "yellow"
        if kind in ("hand_end", "match_end"):
            return "bold magenta"
        if kind in ("signal", "consult", "messages", "announce", "tell", "say"):
            return "blue"
        return None
