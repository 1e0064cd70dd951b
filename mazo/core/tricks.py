"""What the partnership trick games share: two teams (``seat % 2``), hands packed in one
int, tricks won per team packed in one int, a legal-action cache, per-seat message bits
and a persistent log.

Envite and Trionfetti states subclass :class:`PartnershipState`.  Each keeps its own
``_play`` (the hot path of every search: the rules of a trick differ, and a shared
version would cost calls on every card) and declares its slots; the rest is here once:
starting a deal (``_new_deal``), closing a full trick (``_close_trick``, once a trick),
the winner on games (``winner``), the events of card plays and tricks (``_event``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any, Final, Self

from mazo.core.cards import DeckSpec
from mazo.core.errors import RulesError
from mazo.core.game import HAND_OVER, JSON, DealStart, EventLogState, deal_nodes, last_end

__all__ = [
    "K_PLAY",
    "K_TRICK",
    "PARTNERSHIP_KEY",
    "PartnershipState",
    "addressed",
    "check_team_setup",
    "deal_nodes",
    "last_end",
    "unsaid",
]


def check_team_setup(
    game: str, setup: Mapping[str, Any], keys: Sequence[str], tops: Mapping[str, tuple[int, str]]
) -> None:
    """Refuse a ``setup`` key outside ``keys``, and a value of ``tops``' keys that is not
    two ints from 0 to its top (``tops[key] = (top, what the numbers count)``)."""
    unknown = sorted(set(setup) - set(keys))
    if unknown:
        raise RulesError(
            f"{game} setup has no key {', '.join(unknown)}; keys are: {', '.join(keys)}"
        )
    for key, (top, what) in tops.items():
        value = setup.get(key, [0, 0])
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or any(type(v) is not int or not 0 <= v <= top for v in value)
        ):
            raise RulesError(
                f"setup {key} must be two ints 0..{top} ({what} of teams 0 and 1), not {value!r}"
            )


# The slots of a partnership state in its ``_key`` (each game adds its own and the deal's:
# ``_state_key = attrgetter(*own slots, *PARTNERSHIP_KEY)``).
PARTNERSHIP_KEY: Final = ("_h", "_trick", "_lead", "_tw", "_said", "to_act", "_m")

# The log node kinds both games give a card play, ``(previous, K_PLAY, seat, card)``, and
# a trick, ``(previous, K_TRICK, winner, cards, leader)``: PartnershipState._event reads
# them (each game numbers its other kinds around these two).
K_PLAY: Final = 3
K_TRICK: Final = 4


def _play_event(node: tuple[Any, ...], deck: DeckSpec) -> JSON:
    return {"type": "play", "seat": node[2], "card": deck.format(node[3])}


def _trick_event(node: tuple[Any, ...], deck: DeckSpec) -> JSON:
    # cards carry no points in these games: tricks count
    _p, _k, winner, trick, lead = node
    return {
        "type": "trick",
        "winner": winner,
        "team": winner % 2,
        "points": 0,
        "leader": lead,
        "cards": [deck.format(c) for c in trick],
    }


def addressed(event: JSON, audience: Sequence[int] | None) -> JSON:
    """``event`` with its ``audience`` (the seats it is for), unless everyone hears it.

    >>> addressed({"type": "signal"}, (0, 2))
    {'type': 'signal', 'audience': [0, 2]}
    """
    if audience is not None:
        event["audience"] = list(audience)
    return event


def unsaid(msgs: Sequence[int], said: int, base: int) -> Sequence[int]:
    """The message ids of ``msgs`` a seat has not sent since the last game action;
    ``said`` is that seat's bits (bit ``m - base`` for message ``m``).

    >>> unsaid((46, 47, 48), 0b010, 46)
    [46, 48]
    """
    if said:
        return [m for m in msgs if not said >> (m - base) & 1]
    return msgs


class PartnershipState(EventLogState):
    """Base of the partnership trick games' states.

    The slots: ``_g``, ``_d``, ``_h`` (every seat's hand, a fixed number of bits a seat),
    ``_trick`` (cards of the trick in progress from its leader ``_lead``),
    ``_tw`` (tricks won: team 0 in bits 0-3, team 1 in bits 4-7), ``_said`` (messages sent
    since the last game action), ``_legal`` (the cache of ``to_act``'s legal actions),
    ``_m``, ``to_act`` and ``_ev`` (the log's newest node).  A subclass adds its own
    slots (:meth:`_carry` copies them).
    """

    __slots__ = (
        "_d",
        "_ev",
        "_g",
        "_h",
        "_lead",
        "_legal",
        "_m",
        "_said",
        "_trick",
        "_tw",
        "to_act",
    )

    _h: int
    _trick: tuple[int, ...]
    _lead: int
    _tw: int
    _said: int
    _legal: list[int] | None
    _ev: Any
    to_act: int | None
    """The seat the game waits for, or None when the match is over."""

    @property
    def games(self) -> list[int]:
        """Per team, the level above the scores (Envite chicos, Trionfetti games)."""
        return list(self._d.games)

    @property
    def winner(self) -> int | None:
        """The team that won the match (on games: Envite's chicos, Trionfetti's games),
        or None while it runs."""
        if not self.match_over:
            return None
        return 0 if self._d.games[0] >= self._g.info.games_target else 1

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won per team in this deal."""
        return [self._tw & 15, self._tw >> 4]

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted action ids ``seat`` (default: the seat to act) may take now."""
        to_act = self.to_act
        if seat is None or seat == to_act:
            if to_act is None:
                return []
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal(to_act)
            return list(legal)
        if type(seat) is not int or not 0 <= seat < self._g.players:
            return []
        return self._compute_legal(seat)

    def _compute_legal(self, seat: int) -> list[int]:
        raise NotImplementedError

    def _close_trick(self, new: Self, ev: Any, trick: tuple[int, ...], best: int, tw: int) -> int:
        """Give the full ``trick`` to the seat that played its card ``best`` (counted from
        the leader) in ``new``, which is ``self`` after the trick's last card (``ev``: the
        log's newest node; ``tw``: tricks won before this one).  The winning team when it
        has now won two tricks (the deal is over), else -1.  Once a trick, not a card: the
        call costs each game's ``_play`` little."""
        lead = self._lead
        winner = (lead + best) % len(trick)
        team = winner & 1
        tw += 1 << 4 * team
        new._ev = (ev, K_TRICK, winner, trick, lead)
        new._tw = tw
        new._trick = ()
        new._lead = winner
        new.to_act = winner
        return team if tw >> 4 * team & 15 == 2 else -1

    def _derive(self) -> Self:
        """A copy to change for a move other than a card: messages cleared, the hand-over
        flag dropped, the legal cache empty."""
        new = object.__new__(type(self))
        new._g = self._g
        new._d = self._d
        new._h = self._h
        new._trick = self._trick
        new._lead = self._lead
        new._tw = self._tw
        new._said = 0
        new._legal = None
        new._m = self._m & ~HAND_OVER
        new.to_act = self.to_act
        new._ev = self._ev
        self._carry(new)
        return new

    @staticmethod
    def _key_of(*own: str) -> attrgetter[tuple[Any, ...]]:
        """The ``_state_key`` of a partnership game's state: its ``own`` slots, then the
        shared ones (:data:`PARTNERSHIP_KEY`)."""
        return attrgetter(*own, *PARTNERSHIP_KEY)

    @classmethod
    def _dealt(
        cls, game: Any, d: Any, hands: int, lead: int, mode: int, to_act: int, ev: Any
    ) -> Self:
        """A state at the start of a deal: :meth:`MatchState._made`, then
        :meth:`_new_deal`; the caller sets the game's own slots."""
        state = cls._made(game, d, hands, mode, to_act, ev)
        state._new_deal(hands, lead)
        return state

    def _new_deal(self, hands: int, lead: int) -> None:
        """Start a deal in this fresh state: ``hands`` dealt, ``lead`` to lead the first
        trick, no trick won, nothing said, the legal cache empty."""
        self._h = hands
        self._trick = ()
        self._lead = lead
        self._tw = 0
        self._said = 0
        self._legal = None

    def _carry(self, new: Self) -> None:
        """Copy the game's own slots into ``new`` (see :meth:`_derive`)."""
        raise NotImplementedError

    def _event(self, node: tuple[Any, ...]) -> JSON:
        """The event of one log node (log nodes are events one to one): card plays and
        tricks (:data:`K_PLAY`, :data:`K_TRICK`) here, the game's other kinds in
        :meth:`_game_event`."""
        kind = node[1]
        if kind == K_PLAY:
            return _play_event(node, self._g.info.deck)
        if kind == K_TRICK:
            return _trick_event(node, self._g.info.deck)
        return self._game_event(node)

    def _recorded(self) -> Iterator[DealStart | tuple[int, str]]:
        """The log as a record lists it (:meth:`MatchState._recorded`): card plays here,
        the game's other nodes through :meth:`_record_item`."""
        fmt = self._g.info.deck.format
        for node in self._nodes():
            if node[1] == K_PLAY:
                yield node[2], fmt(node[3])
            else:
                item = self._record_item(node)
                if item is not None:
                    yield item

    def _record_item(self, node: tuple[Any, ...]) -> DealStart | tuple[int, str] | None:
        """What a record lists for a log node other than a card play: a new pack
        (:meth:`DealFacts.started`), a move ``(seat, action string)``, or None."""
        raise NotImplementedError

    def _game_event(self, node: tuple[Any, ...]) -> JSON:
        """The event of a log node of the game's own kinds (see :meth:`_event`)."""
        raise NotImplementedError
