"""The game contract shared by every game module: options, the Game base, the State base.

A :class:`Game` is an immutable rules object made from validated options; it starts
matches.  A :class:`State` is an immutable value: ``apply`` returns a new state and never
touches the old one.  Each game module subclasses both and keeps its hot path on ints.
"""

from __future__ import annotations

import copy
import operator
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self

from mazo.core.cards import DeckSpec
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.rng import Rng, derive_seed, stream_seed

__all__ = [
    "FIRST_DEALER",
    "HAND_OVER",
    "OVER",
    "PHASE_MASK",
    "STOPPED",
    "DealFacts",
    "DealStart",
    "EventLogState",
    "Game",
    "GameInfo",
    "MatchStart",
    "MatchState",
    "Option",
    "State",
    "bad_action_id",
    "check_observer",
    "check_options",
    "deal_nodes",
    "fresh",
    "int_at_least",
    "last_end",
    "log_nodes",
    "log_since",
    "observer_of",
]

# A state's mode bits (``_m`` of :class:`MatchState`): the phase in bits 0-1 (0 is card
# play, ``OVER`` ends the match; games name their other phases), and flags above.
# ``STOPPED`` (with ``OVER``) marks the end of a line cut at a deal's end
# (:meth:`State.stop_at_deal_end`): nothing may follow, yet the match is not over.
PHASE_MASK = 3
OVER = 2
HAND_OVER = 4
STOPPED = 16

JSON = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One rules option: its default, what is allowed, and a line of help."""

    name: str
    default: Any
    allowed: tuple[Any, ...] | None = None
    help: str = ""
    check: Callable[[Any], bool] | None = None
    """False for a value it refuses; it may raise :class:`RulesError` instead, whose
    message (what is wrong with the value) the refusal then carries."""
    describe: str = ""
    choices: tuple[Any, ...] | None = None
    """Where ``allowed`` is open (a check), the values a form offers as a list (a
    Trionfetti ranking: its presets' ids; any valid list of levels is allowed too)."""

    def allowed_text(self) -> str:
        """Human text listing what values are allowed."""
        if self.allowed is not None:
            return ", ".join(repr(v) for v in self.allowed)
        return self.describe or "see the game's documentation"

    def validate(self, value: Any) -> Any:
        """Return the value if allowed, else raise :class:`RulesError` saying what is."""
        ok = True
        why = ""
        if self.allowed is not None:
            # bool is an int: keep True from passing for 1 and vice versa.
            ok = any(type(value) is type(v) and value == v for v in self.allowed)
        if ok and self.check is not None:
            try:
                ok = self.check(value)
            except RulesError as err:
                ok, why = False, f" ({err})"
        if not ok:
            shown = repr(value)
            if len(shown) > 80:  # a long list (a custom ranking) would bury the reason
                shown = shown[:60] + f"... ({len(shown)} characters)"
            raise RulesError(
                f"option {self.name}={shown} is not allowed{why}; allowed: {self.allowed_text()}"
            )
        return value


def check_options(game: str, specs: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve ``given`` against ``specs``: unknown names and bad values raise RulesError."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise RulesError(
            f"{game} has no option {', '.join(unknown)}; options are: {', '.join(by_name)}"
        )
    return {
        spec.name: spec.validate(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


def int_at_least(low: int) -> Callable[[Any], bool]:
    """An option check: a plain int (not a bool) of at least ``low``.

    >>> check = int_at_least(2)
    >>> check(2), check(1), check(True), check(2.0)
    (True, False, False, False)
    """

    def check(value: Any) -> bool:
        return type(value) is int and value >= low

    return check


def _is_seat_or_none(value: Any) -> bool:
    return value is None or value == "random" or (type(value) is int and 0 <= value < 12)


FIRST_DEALER = Option(
    "first_dealer",
    None,
    None,
    "the first dealer's seat; default: drawn from the match seed",
    check=_is_seat_or_none,
    describe="None (also spelled 'random') or a seat number",
)
"""An option every game offers; :meth:`Game.first_dealer` resolves it."""


@dataclass(frozen=True)
class GameInfo:
    """Facts about a configured game that a bot, a UI or an RL wrapper needs.

    Upper layers (search, solver, playouts, CLI, renderers, encoders, the server) read
    these instead of testing the game's name, as OpenSpiel's algorithms read
    ``GameType``: a new game declares them in its ``_describe`` call and the generic
    layers work with it unchanged.
    """

    name: str
    """The registry name (``mazo.games.GAMES`` key, also the name of the game's module
    in every layer: ``mazo/games/<name>.py``, ``mazo/bots/heuristic/<name>.py``...)."""
    players: int
    sides: int
    """How many sides score: teams in team games, seats otherwise."""
    teams: bool
    """Whether partners share a side (then ``team_seats`` lists them)."""
    num_actions: int
    """The size of the fixed int action space (ids ``0..num_actions-1``)."""
    deck: DeckSpec
    side_of: tuple[int, ...]
    """Per seat, the side it scores for."""
    message_actions: frozenset[int] = frozenset()
    """Ids of talk between partners (signs, consultation): legal beside the real moves,
    they never change the game; random policies and benchmarks leave them out."""
    team_seats: tuple[tuple[int, ...], ...] = ()
    """Per side, its seats in playing order: ``((0, 2), (1, 3))`` for two teams of two,
    ``((0,), (1,))`` for two players alone.  Every game has it (``Game.teams`` was a
    bool in some games, a tuple in others, missing in Trionfetti)."""
    score_unit: str = "points"
    """What ``state.scores`` count: ``"deals"`` (Briscola: deals won), ``"points"``
    (Escoba, Trionfetti), ``"stones"`` (Envite)."""
    score_target: int = 0
    """The score that wins the level above it: a game or chico where there is one
    (``games_unit``), else the match.  Envite 12 stones to a chico, Trionfetti
    ``points_to_win_game``, Escoba ``target_score``, Briscola ``match_wins_target``."""
    deal_unit: str = ""
    """What a deal's ``hand_end`` ``points`` count, where finer than the scores:
    ``"card points"`` in Briscola (its scores count deals won); else the score unit."""
    games_unit: str = ""
    """What ``state.games`` count (``"chicos"``, ``"games"``), ``""`` where the game has
    no level between scores and the match (``state.games`` is then all zeros)."""
    games_target: int = 0
    """The games (chicos) that win the match; 0 where there is no such level."""
    card_actions: int = 0
    """Ids below this are card plays; the ids from it up are other moves (bets, calls,
    vega, the trump exchange, talk) that a uniform rollout should not make.  Equal to
    ``num_actions`` where every move is a play (Escoba: a capture is a play too)."""
    replays_from_pack: bool = False
    """Whether a determinized sample's record replays its deal from the pack it holds
    (one deal, dealt from its deck order), so a search may replay the others' moves on
    it (ISMCTS ``infer``)."""
    signals: bool = False
    """Whether the game's heuristic signs to its partners and can take their signs as
    cards held (``heuristic.trusted(observation)``; ISMCTS ``signals``)."""


@dataclass(frozen=True)
class MatchStart:
    """What :meth:`Game.new_match` hands a game's ``_new_match`` once it has checked it:
    the match seed, the given packs (top card first, as ids), the dealer asked for (None:
    the game draws or takes its ``first_dealer`` option), the starting scores
    (:meth:`Game.check_setup`'s answer) and the whole setup (for a game's other keys)."""

    seed: int
    packs: tuple[tuple[int, ...], ...]
    dealer: int | None
    scores: tuple[int, ...]
    setup: dict[str, Any]


class Game:
    """Base of every game's rules object.  Subclasses set the class attributes."""

    name: ClassVar[str]
    rules_version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]]

    players: int
    options: dict[str, Any]
    info: GameInfo
    sides: int
    side_of: tuple[int, ...]
    target: int
    pack_size: int = 0
    """The card ids ``0..pack_size-1`` (:meth:`MatchState.apply` sends only these to the
    game's card play)."""
    stops_at_deal_end: bool = False
    """True on the twin that the lines of :meth:`State.stop_at_deal_end` play under: a
    deal's end that does not end the match deals no next deal (the game checks it once a
    deal, never on a move)."""
    _stopping_twin: Game | None = None

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.default_players
        if type(players) is not int or players not in self.player_counts:
            allowed = ", ".join(str(n) for n in self.player_counts)
            raise RulesError(f"{self.name} is played by {allowed} players, not {players!r}")
        self.players = players
        self.options = check_options(self.name, self.option_specs, options)
        chosen = self.options.get("first_dealer")
        if chosen == "random":
            # the rules' other spelling of None: drawn from the match seed
            self.options["first_dealer"] = chosen = None
        if type(chosen) is int and chosen >= players:
            raise RulesError(f"first_dealer must be a seat 0..{players - 1}, not {chosen}")
        self._configure()

    def _configure(self) -> None:
        """Work out what follows from ``players`` and the checked ``options`` (sides,
        targets, tables; :meth:`_describe` fills in ``info``): each game's own set-up."""

    def _describe(
        self,
        num_actions: int,
        deck: DeckSpec,
        teams: bool,
        message_actions: frozenset[int] = frozenset(),
        *,
        score_unit: str,
        score_target: int,
        deal_unit: str = "",
        games_unit: str = "",
        games_target: int = 0,
        card_actions: int | None = None,
        replays_from_pack: bool = False,
        signals: bool = False,
    ) -> GameInfo:
        """Fill in ``info`` once a game has worked out its sides (see :class:`GameInfo`
        for each field; ``card_actions`` defaults to the pack's size, the card ids).

        ``Game.teams`` and ``Game.target`` stay as each game set them for one release
        (deprecated: read ``info.team_seats``, ``info.score_target``/``games_target``).
        """
        side_of = self.side_of
        self.pack_size = deck.size
        self.info = GameInfo(
            name=self.name,
            players=self.players,
            sides=self.sides,
            teams=teams,
            num_actions=num_actions,
            deck=deck,
            side_of=side_of,
            message_actions=message_actions,
            team_seats=tuple(
                tuple(seat for seat in range(self.players) if side_of[seat] == side)
                for side in range(self.sides)
            ),
            score_unit=score_unit,
            score_target=score_target,
            deal_unit=deal_unit or score_unit,
            games_unit=games_unit,
            games_target=games_target,
            card_actions=deck.size if card_actions is None else card_actions,
            replays_from_pack=replays_from_pack,
            signals=signals,
        )
        return self.info

    def stopping(self) -> Game:
        """This game's twin whose matches stop at a deal's end (``stops_at_deal_end``):
        the same rules, options and caches; made once, then shared by every stopped line.
        A stopped line carries it in its states' game slot, which every ``apply`` copies,
        so the mark costs the normal line nothing."""
        twin = self._stopping_twin
        if twin is None:
            twin = copy.copy(self)
            twin.stops_at_deal_end = True
            twin._stopping_twin = twin
            self._stopping_twin = twin
        return twin

    def first_dealer(self, seed: int, dealer: int | None) -> int:
        """The first dealer: as asked, else the ``first_dealer`` option, else drawn from
        the match seed."""
        if dealer is None:
            dealer = self.options.get("first_dealer")
        if dealer is None:
            dealer = Rng(derive_seed(seed, "first dealer")).randbelow(self.players)
        return dealer

    def new_match(
        self,
        seed: int | None = None,
        *,
        deck: Sequence[str | int] | None = None,
        dealer: int | None = None,
        setup: Mapping[str, Any] | None = None,
        decks: Sequence[Sequence[str | int]] | None = None,
    ) -> State:
        """Start a match.

        ``seed`` drives every chance event (deck orders, a random first dealer); without
        one, it is derived from the given pack, or else drawn from the operating system.
        ``deck`` fixes the first pack (top card first); ``decks`` fixes the packs of
        successive deals (replays use it).
        ``dealer`` is the first dealer; ``setup`` places the match part-way (per game).
        """
        if seed is not None and type(seed) is not int:
            raise RulesError(f"seed must be an int, not {seed!r}")
        packs: list[tuple[int, ...]] = []
        if deck is not None and decks is not None:
            raise RulesError("give either deck= (the first pack) or decks= (several), not both")
        for pack in [deck] if deck is not None else list(decks or []):
            packs.append(self._parse_pack(pack))
        if seed is None:
            # A given pack makes the match reproducible without a seed: later deals are
            # drawn from a seed derived from the pack.  Otherwise ask the OS.
            seed = derive_seed(0, "pack", *packs[0]) if packs else secrets.randbits(64)
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < self.players):
            raise RulesError(f"dealer must be a seat 0..{self.players - 1}, not {dealer!r}")
        if setup is not None and not isinstance(setup, Mapping):
            raise RulesError(
                f"setup must be a mapping such as {{'scores': [...]}}, not {type(setup).__name__}"
            )
        setup = dict(setup or {})
        return self._new_match(
            MatchStart(seed, tuple(packs), dealer, self.check_setup(setup), setup)
        )

    def _parse_pack(self, pack: Sequence[str | int]) -> tuple[int, ...]:
        if isinstance(pack, str):
            raise RulesError("a deck is a list of card codes, top card first")
        deckspec = self.info.deck
        try:
            cards = tuple(c if type(c) is int else deckspec.parse(str(c)) for c in pack)
        except InvalidActionError as err:
            raise RulesError(f"bad deck: {err}") from None
        if any(not 0 <= c < deckspec.size for c in cards):
            raise RulesError(f"bad deck: card ids run 0..{deckspec.size - 1}")
        if len(set(cards)) != len(cards):
            raise RulesError("bad deck: a card appears twice")
        return cards

    def _new_match(self, start: MatchStart) -> State:
        """The first state of a match :meth:`new_match` has checked the call of."""
        raise NotImplementedError

    def _next_pack(
        self, packs: tuple[tuple[int, ...], ...], seed: int, number: int
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The pack of deal ``number``: the first of the given ``packs`` (checked), else a
        shuffle drawn from ``stream_seed(seed, number)``; and the packs still to come."""
        if packs:
            self._check_pack(packs[0])
            return packs[0], packs[1:]
        size = self.info.deck.size
        return tuple(Rng(stream_seed(seed, number)).shuffled(range(size))), packs

    def _check_pack(self, pack: tuple[int, ...]) -> None:
        """A given pack must hold the whole deck: every game dealt through
        :meth:`_next_pack` (Escoba, Envite, Trionfetti) uses all its cards.  Briscola, whose
        3- and 6-player packs drop cards, checks its packs itself and never calls this."""
        deck = self.info.deck
        if len(pack) != deck.size:
            got = set(pack)
            missing = [deck.format(c) for c in range(deck.size) if c not in got]
            shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
            raise RulesError(
                f"bad deck: {self.name} is dealt from all {deck.size} cards; got {len(pack)}"
                + (f", missing {shown}" if missing else "")
            )

    def match_winner(self, scores: Sequence[int]) -> int | None:
        """The side that has won with these scores: the single highest, at the target."""
        top = max(scores)
        if top >= self.target and list(scores).count(top) == 1:
            return list(scores).index(top)
        return None

    def check_setup(self, setup: Mapping[str, Any]) -> tuple[int, ...]:
        """Validate a ``setup`` of per-side ``scores`` (and zero ``games``) for a game
        with no level above its scores and a match won by :meth:`match_winner`.
        Returns the scores."""
        sides = self.sides
        unknown = sorted(set(setup) - {"scores", "games"})
        if unknown:
            raise RulesError(
                f"{self.name} setup has no key {', '.join(unknown)}; keys are: scores, games"
            )
        scores = setup.get("scores", [0] * sides)
        games = setup.get("games", [0] * sides)
        for key, value in (("scores", scores), ("games", games)):
            if (
                not isinstance(value, list | tuple)
                or len(value) != sides
                or any(type(v) is not int or v < 0 for v in value)
            ):
                raise RulesError(
                    f"setup {key} must be {sides} non-negative ints (one per side), not {value!r}"
                )
        if any(games):
            raise RulesError(
                f"{self.name} has no level above its scores: setup games must be zeros"
            )
        if self.match_winner(tuple(scores)) is not None:
            raise RulesError(f"setup scores {list(scores)} already decide the match")
        return tuple(scores)

    def make_record(
        self,
        state: State,
        start_scores: Sequence[int] | None,
        deals: list[JSON],
        actions: list[JSON],
    ) -> JSON:
        """The record layout shared by every game (see :mod:`mazo.record`)."""
        setup = {"scores": list(start_scores)} if start_scores and any(start_scores) else {}
        return {
            "format": "mazo-record",
            "version": 1,
            "game": self.name,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": dict(self.options),
            "setup": setup,
            "deals": deals,
            "actions": actions,
            "scores": state.scores,
            "match_over": state.match_over,
            "winner": state.winner,
        }

    def action_to_string(self, action: int) -> str:
        """The canonical string of an action id: a card's code for a card play (ids
        below the pack's size), else the game's :meth:`_move_string`."""
        action = plain_int(action)  # type: ignore[assignment]  # numpy ints
        info = self.info
        if type(action) is not int or not 0 <= action < info.num_actions:
            raise bad_action_id(self.name.capitalize(), action, info.num_actions)
        if action < info.deck.size:
            return info.deck.format(action)
        return self._move_string(action)

    def observer(self, observation: Mapping[str, Any]) -> int:
        """The seat whose observation it is, once it is from this game and player count
        (else :class:`RulesError`): what every ``determinize`` reads first."""
        return observer_of(self, observation)

    def action_id(self, action: object) -> int:
        """The int id of what a caller passed as an action: an id (numpy's too) as it is,
        a string parsed (:meth:`string_to_action`); anything else raises
        :class:`InvalidActionError`."""
        return to_action_id(self, action)

    def _move_string(self, action: int) -> str:
        """The string of a valid action id from the pack's size up (bets, calls, talk,
        Escoba's captures)."""
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        """Parse an action string; raise :class:`InvalidActionError` if it is not one."""
        raise NotImplementedError

    def determinize(self, observation: Mapping[str, Any], rng: Rng) -> State:
        """A full state consistent with one seat's observation, hidden cards sampled."""
        raise NotImplementedError

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[Rng], State]:
        """``rng -> determinize(observation, rng)``: a search draws thousands of samples
        from one observation, so a game may read the observation once here (bad input
        raises here, as ``determinize`` would)."""
        self.determinize(observation, Rng(0))  # check it once, before any sampling

        def sample(rng: Rng) -> State:
            return self.determinize(observation, rng)

        return sample

    def describe_options(self) -> list[JSON]:
        """Every option with its default and what is allowed (for --help and UIs)."""
        return [
            {"name": o.name, "default": o.default, "allowed": o.allowed_text(), "help": o.help}
            for o in self.option_specs
        ]

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if k not in self._defaults()}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.name!r}, players={self.players}{extra})"

    def _defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.option_specs if self.options[o.name] == o.default}


class DealFacts:
    """Base of each game's ``_Deal``: what is fixed for one deal, shared by all its states
    (a subclass lists its fields in ``__slots__``).  A state never changes one; a move that
    must (Briscola's exchange, the end of a deal) changes a :meth:`copy`."""

    __slots__ = ()

    number: int
    dealer: int
    scores: tuple[int, ...]
    seed: int
    packs: tuple[tuple[int, ...], ...]

    @classmethod
    def begin(
        cls,
        number: int,
        dealer: int,
        scores: tuple[int, ...],
        seed: int,
        packs: tuple[tuple[int, ...], ...],
    ) -> Self:
        """A new deal's facts with the fields every game has: its number in the match,
        the dealer, the match ``scores`` before it, the seed later deals are drawn from
        and the packs given for them (replays).  The game sets the rest."""
        d: Any = cls.__new__(cls)  # the slots are the game's subclass's
        d.number = number
        d.dealer = dealer
        d.scores = tuple(scores)
        d.seed = seed
        d.packs = packs
        return d  # type: ignore[no-any-return]

    def event(self, **more: Any) -> JSON:
        """The ``deal`` event of this deal: its number and dealer, then the game's ``more``."""
        return {"type": "deal", "deal": self.number, "dealer": self.dealer, **more}

    def started(self) -> DealStart:
        """Where a record meets this deal's pack (:meth:`MatchState._recorded`): the deal's
        number in the match and the pack it was dealt from (``deck``)."""
        me: Any = self
        return DealStart(self, self.number, me.deck)

    def copy(self) -> Self:
        """A new object with the same fields (unset fields are an error, as they would be
        to read)."""
        cls = type(self)
        out = cls.__new__(cls)
        names: tuple[str, ...] = cls.__slots__
        for name in names:
            setattr(out, name, getattr(self, name))
        return out


class DealStart(NamedTuple):
    """Where a record's walk of the log (:meth:`MatchState._recorded`) meets a new pack:
    the deal's facts (``dealer``, ``scores``), its number in the record, the pack's ids."""

    facts: Any
    number: int
    deck: tuple[int, ...]


def fresh(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples of scalars), as lists and dicts.

    What a state hands out must be the caller's own: editing it must never reach back
    into the state (states are values).

    >>> inner = {"a": [1, (2, 3)]}
    >>> out = fresh(inner)
    >>> out["a"].append(4); inner
    {'a': [1, (2, 3)]}
    """
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [fresh(v) for v in value]
    return value


def log_nodes(node: tuple[Any, ...] | None) -> list[tuple[Any, ...]]:
    """The nodes of a persistent log, oldest first.

    Game states keep their log as linked nodes ``(previous node, kind, *payload)``, so
    every ``apply`` shares the history instead of copying it.

    >>> [n[1] for n in log_nodes(((None, "deal"), "play"))]
    ['deal', 'play']
    """
    out = []
    while node is not None:
        out.append(node)
        node = node[0]
    out.reverse()
    return out


def log_since(node: tuple[Any, ...] | None, stop: tuple[Any, ...] | None) -> list[Any] | None:
    """The nodes of a persistent log after ``stop`` (a node of the same chain), oldest
    first, walking back from ``node`` only as far as ``stop``; None when ``stop`` is not
    on the chain (the caller then falls back to the whole log).

    >>> first = (None, "deal")
    >>> [n[1] for n in log_since(((first, "play"), "trick"), first)]
    ['play', 'trick']
    """
    out = []
    while node is not stop:
        if node is None:
            return None
        out.append(node)
        node = node[0]
    out.reverse()
    return out


def deal_nodes(node: tuple[Any, ...], start: object) -> list[tuple[Any, ...]]:
    """The log nodes from the newest node of kind ``start`` (a deal's or a smazzata's
    first node) to ``node``, oldest first."""
    out = []
    while node[1] != start:
        out.append(node)
        node = node[0]
    out.append(node)
    out.reverse()
    return out


def last_end(node: tuple[Any, ...] | None, end: object) -> JSON | None:
    """The points and detail of the newest node of kind ``end`` (a deal's end:
    ``(previous, end, points, detail)``), or None when no deal has ended."""
    while node is not None:
        if node[1] == end:
            return {"points": list(node[2]), "detail": fresh(node[3])}
        node = node[0]
    return None


def plain_int(action: object) -> object:
    """An integer of another type (numpy's, as RL code holds them) as a plain ``int``;
    anything else unchanged, for the caller's own check (``bool`` is not an action)."""
    if type(action) is int or isinstance(action, (bool, str)):
        return action
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return action


def bad_action_id(title: str, action: object, num_actions: int) -> InvalidActionError:
    """The error for ``action`` when it is no action id of a game (``title``: "Briscola"),
    saying what the ids are: an int outside them is out of range.

    >>> str(bad_action_id("Briscola", 9999, 50))
    'action id 9999 is out of range: Briscola action ids run 0..49'
    """
    if type(action) is int:
        return InvalidActionError(
            f"action id {action} is out of range: {title} action ids run 0..{num_actions - 1}"
        )
    return InvalidActionError(
        f"{action!r} is not an action id: {title} action ids are ints 0..{num_actions - 1}"
    )


def check_observer(game: Game, seat: object) -> None:
    """Refuse an observer that is neither a seat of ``game`` nor None (a spectator)."""
    n = game.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise RulesError(f"seat must be 0..{n - 1} or None, not {seat!r}")


def observer_of(game: Game, obs: Mapping[str, Any]) -> int:
    """The seat whose observation ``obs`` is, once it is from ``game`` at its player count
    (else :class:`RulesError`): what every ``determinize`` reads first."""
    if obs.get("game") != game.name or obs.get("players") != game.players:
        raise RulesError("the observation is not from this game and player count")
    return obs["seat"]  # type: ignore[no-any-return]


def to_action_id(game: Game, action: object) -> int:
    """Normalise what a caller passed as an action to an int id, or raise."""
    if type(action) is int:
        return action
    if isinstance(action, str):
        return game.string_to_action(action)
    if isinstance(action, bool):
        raise InvalidActionError(f"{action!r} is not an action: give an action id or string")
    try:
        return operator.index(action)  # type: ignore[arg-type]  # numpy ints
    except TypeError:
        raise InvalidActionError(
            f"{action!r} is not an action: give an action id (int) or its string, e.g. '7O'"
        ) from None


class State:
    """Base of every game's immutable state.  See design.md, "The engine contract"."""

    __slots__ = ()

    @property
    def game(self) -> Game:
        """The rules this match is played under."""
        raise NotImplementedError

    @property
    def to_act(self) -> int | None:
        """The seat the game waits for, or None once the match is over."""
        raise NotImplementedError

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted action ids the seat (default: ``to_act``) may take now."""
        raise NotImplementedError

    @property
    def hand_over(self) -> bool:
        """True on the state whose last action ended a deal (and once the match is over)."""
        raise NotImplementedError

    @property
    def match_over(self) -> bool:
        """True once the match has ended."""
        raise NotImplementedError

    @property
    def scores(self) -> list[int]:
        """The running match score per side."""
        raise NotImplementedError

    @property
    def games(self) -> list[int]:
        """Per side, the level above ``scores`` (zeros where a game has none)."""
        raise NotImplementedError

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over; None while running or on a draw."""
        raise NotImplementedError

    def events_for(self, seat: int | None) -> list[JSON]:
        """The log as ``seat`` saw it (events of other audiences left out)."""
        raise NotImplementedError

    def finished_deal_points(self) -> list[int] | None:
        """On a ``hand_over`` state, per side, the points of the deal that just ended where
        they are finer than ``scores`` (Briscola's card points: the scores count deals);
        None where ``scores`` already tell (and off a deal's end).  Search rewards use it."""
        return None

    def apply_unchecked(self, action: int) -> State:
        """Search fast path: ``action`` must come from ``legal_actions()`` of ``to_act``."""
        return self.apply(action)

    def stop_at_deal_end(self) -> State:
        """An equal position whose line ends with the deal in progress (a search's
        rollouts need no next deal).  Every state ``apply`` derives from it carries the
        mark; the move that ends the deal gives a state with ``hand_over``, the
        ``scores``, ``games``, ``finished_deal_points``, ``match_over`` and ``winner`` of
        the normal line, but no next deal: ``to_act`` is None, ``legal_actions()`` is
        ``[]`` and ``apply`` raises :class:`InvalidActionError`.  This default returns
        the state itself: a game without the stop keeps dealing (still correct)."""
        return self

    def apply(self, action: int | str, seat: int | None = None) -> State:
        """A new state after ``action``; raises and leaves this state untouched if illegal."""
        raise NotImplementedError

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know, JSON-ready; ``None`` is the spectators' view."""
        raise NotImplementedError

    @property
    def events(self) -> list[JSON]:
        """The public log of the match (private events carry an ``audience``)."""
        raise NotImplementedError

    def events_since(self, earlier: State) -> list[JSON]:
        """What was logged after ``earlier``, a state this one was reached from by
        ``apply``: ``self.events[len(earlier.events):]``, at a cost that grows with the
        new events (at most the deal in progress), not with the match.  A server reads
        it after every action; ``events`` rebuilds the whole log."""
        return self.events[len(earlier.events) :]

    def record(self) -> JSON:
        """A JSON-ready game record; :func:`mazo.replay` rebuilds this state from it."""
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        """The canonical string of an action id."""
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """Parse an action string (raises :class:`InvalidActionError`)."""
        return self.game.string_to_action(text)


class MatchState(State):
    """The layout every game's state shares, and what follows from it.

    Subclasses declare the slots ``_g`` (the game), ``_d`` (what is fixed for the deal in
    progress, with the match ``scores`` before it), ``_m`` (mode bits, see
    :data:`PHASE_MASK`) and ``to_act``, a plain slot because searches read it before
    every move (read-only by contract, like every field of a state).
    """

    __slots__ = ()

    _g: Any
    _d: Any
    _m: int
    _ev: Any

    @property
    def game(self) -> Game:
        """The rules this match is played under."""
        return self._g  # type: ignore[no-any-return]

    @property
    def hand_over(self) -> bool:
        """True on the state whose last action ended a deal (and when the match is over);
        the next deal is already dealt in it unless the match is over."""
        return bool(self._m & HAND_OVER)

    @property
    def match_over(self) -> bool:
        """True once a side has won the match (not at the end of a stopped line)."""
        return self._m & (PHASE_MASK | STOPPED) == OVER

    def apply(self, action: int | str, seat: int | None = None) -> Self:
        """A new state after ``action`` by ``seat`` (default ``to_act``); this one is never
        changed.  In plain card play (mode 0) an int by the seat to act goes to the game's
        :meth:`_play_card`, the hot path of every search; the rest to the game's
        :meth:`_apply_other`, which checks it and says why it is refused."""
        if type(action) is not int:
            return self._apply_text(action, seat)
        to_act = self.to_act
        if (
            self._m == 0
            and (seat is None or (seat == to_act and type(seat) is int))
            and 0 <= action < self._g.pack_size
        ):
            return self._play_card(to_act, action)  # type: ignore[arg-type]
        return self._apply_other(action, seat)

    # Search's fast path is ``apply`` itself (legal input costs it nothing extra); the
    # alias saves the base class's extra call per move.
    apply_unchecked = apply

    def _apply_text(self, action: object, seat: int | None) -> Self:
        """``apply`` of an action that is not an int id: a string, a numpy int."""
        return self.apply(self._g.action_id(action), seat)

    def _play_card(self, seat: int, action: int) -> Self:
        """``action`` (a card id) by ``seat``, the seat to act, in plain card play: the
        game plays a legal card from its hand here, and hands anything else to
        :meth:`_apply_other` (with ``seat``)."""
        return self._apply_other(action, seat)

    def _apply_other(self, action: int, seat: int | None) -> Self:
        """Any action :meth:`_play_card` does not take: checked, then made or refused."""
        raise NotImplementedError

    def stop_at_deal_end(self) -> Self:
        """An equal position whose line stops at the deal's end (see
        :meth:`State.stop_at_deal_end`): a copy playing under the game's
        :meth:`Game.stopping` twin."""
        twin = self._g.stopping()
        if self._g is twin:
            return self
        new = self._copy()
        new._g = twin
        return new

    @classmethod
    def _made(cls, game: Game, d: Any, hands: int, mode: int, to_act: int | None, ev: Any) -> Self:
        """A new state of this class with the slots every game's state has: the game, the
        deal's facts, the hands (packed), the mode bits, the seat to act and the log's
        newest node.  The caller sets the game's other slots."""
        state: Any = object.__new__(cls)
        state._g = game
        state._d = d
        state._h = hands
        state._m = mode
        state.to_act = to_act
        state._ev = ev
        return state  # type: ignore[no-any-return]

    def _deal_ended(self, ev: Any, end: tuple[Any, ...] | None, **after: Any) -> Self | None:
        """At a deal's end, in this fresh state (``ev``: the log's newest node): when the
        deal ended the match (``end``: its log node's kind and payload) or ends a stopped
        line (:meth:`State.stop_at_deal_end`), make this the line's last state, no seat to
        act, its deal's facts a copy with the fields ``after`` gives (the scores, games
        after the deal), and return it; else None, at no cost (the game deals on)."""
        if end is None and not self._g.stops_at_deal_end:
            return None
        d = self._d.copy()
        for name, value in after.items():
            setattr(d, name, value)
        state: Any = self  # the slots are the game's state class's
        state._d = d
        state.to_act = None
        if end is None:
            state._m = OVER | HAND_OVER | STOPPED
            state._ev = ev
        else:
            state._m = OVER | HAND_OVER
            state._ev = (ev, *end)
        return self

    def _not_turn(self, text: str, seat: object, turn: str = "turn") -> str:
        """Why ``text`` (an action) by ``seat`` is refused: another seat is to act."""
        return f"{text}: it is seat {self.to_act}'s {turn}, not seat {seat}'s"

    def _no_action(self, text: str) -> InvalidActionError | IllegalActionError:
        """The error for ``text`` (an action) on a state where no one acts: the end of a
        stopped line, else the end of the match."""
        if self._m & STOPPED:
            return InvalidActionError(
                f"{text}: the search line ends here, at the deal's end "
                "(a state of stop_at_deal_end: no next deal is dealt, no action is allowed)"
            )
        return IllegalActionError(f"{text}: the match is over; no action is allowed")

    @property
    def scores(self) -> list[int]:
        """The running match score per side."""
        return list(self._d.scores)

    @property
    def games(self) -> list[int]:
        """Per side, the level above ``scores``; zeros for games that have none."""
        return [0] * self._g.sides

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it runs."""
        if not self.match_over:
            return None
        return self._g.match_winner(self._d.scores)  # type: ignore[no-any-return]

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress."""
        return self._d.dealer  # type: ignore[no-any-return]

    @property
    def deal_number(self) -> int:
        """The deals dealt in the match so far, this one included: 1-based number of the
        deal in progress (Briscola's drawn deals, Escoba's hands, every deal of every
        Trionfetti smazzata count; Trionfetti's is 0 while the first ranking is chosen)."""
        return self._d.number  # type: ignore[no-any-return]

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know (``None``: a spectator), JSON-ready; an observer that
        is neither a seat nor None raises :class:`RulesError`."""
        check_observer(self._g, seat)
        return self._observation(seat)

    def _observation(self, seat: int | None) -> JSON:
        """The observation of a checked observer (see :meth:`observation`)."""
        raise NotImplementedError

    def _nodes(self) -> list[tuple[Any, ...]]:
        """The log's nodes, oldest first (:func:`log_nodes`)."""
        return log_nodes(self._ev)

    def _deal_nodes(self, start: Any) -> list[tuple[Any, ...]]:
        """The log's nodes from the newest of kind ``start`` (the deal's first node) on,
        oldest first (:func:`deal_nodes`): the deal in progress, not the whole match."""
        return deal_nodes(self._ev, start)

    def _last_end(self, end: Any) -> JSON | None:
        """The points and detail of the newest deal's end, a node of kind ``end``
        (:func:`last_end`), or None before any."""
        return last_end(self._ev, end)

    def _hands_text(self) -> str:
        """Every seat's hand for ``repr``: ``"1O 3C | 7E ..."``."""
        return " | ".join(" ".join(self.hand(s)) for s in range(self._g.players))

    def _cards_text(self, cards: Iterable[int]) -> str:
        """Card ids as codes for ``repr``: ``"1O 3C"``."""
        fmt = self._g.info.deck.format
        return " ".join(fmt(c) for c in cards)

    def __repr__(self) -> str:
        head, tail = self._repr_parts()
        return (
            f"<{type(self).__name__} {head} to_act {self.to_act} {self._table_text()} "
            f"hands [{self._hands_text()}] {tail}>"
        )

    def _repr_parts(self) -> tuple[str, str]:
        """What ``repr`` shows before the seat to act (the deal) and after the hands (the
        scores)."""
        raise NotImplementedError

    def _table_text(self) -> str:
        """The cards on the table for ``repr``: the trick in progress (``_trick``)."""
        state: Any = self
        return f"trick [{self._cards_text(state._trick)}]"

    def hand(self, seat: int) -> list[str]:
        """The codes of the cards ``seat`` holds (a game's own order)."""
        raise NotImplementedError

    def events_since(self, earlier: State) -> list[JSON]:
        """What was logged after ``earlier`` (see :meth:`State.events_since`): games whose
        log nodes are events one to one walk back from the newest node to ``earlier``'s
        (``_events_of``); anything else falls back to slicing the whole log."""
        if type(earlier) is type(self):
            nodes = log_since(getattr(self, "_ev", None), getattr(earlier, "_ev", None))
            if nodes is not None:
                events = self._events_of(nodes)
                if events is not None:
                    return events
        return super().events_since(earlier)

    def _events_of(self, nodes: list[Any]) -> list[JSON] | None:
        """The events of these log nodes, oldest first; None: the game's log nodes are not
        its events one to one (``events_since`` then slices the whole log)."""
        return None

    def events_for(self, seat: int | None) -> list[JSON]:
        """The log as ``seat`` saw it: events whose ``audience`` leaves it out are dropped."""
        return [
            e
            for e in self.events
            if e.get("audience") is None or (seat is not None and seat in e["audience"])
        ]

    def record(self) -> JSON:
        """A JSON-ready record of the match so far (see :mod:`mazo.record`): the deals and
        actions of the game's :meth:`_recorded` walk of its log, the setup from the first
        deal's scores (a game with more to set up adds it in :meth:`_record_extra`)."""
        fmt = self._g.info.deck.format
        deals: list[JSON] = []
        actions: list[JSON] = []
        first: Any = None
        for item in self._recorded():
            if isinstance(item, DealStart):
                first = first or item.facts
                deck = [fmt(c) for c in item.deck]
                deals.append({"deal": item.number, "dealer": item.facts.dealer, "deck": deck})
            else:
                actions.append({"seat": item[0], "action": item[1]})
        record: JSON = self._g.make_record(self, first.scores if first else None, deals, actions)
        self._record_extra(record, first)
        if self._g.info.games_unit:
            record["games"] = self.games
        return record

    def _recorded(self) -> Iterator[DealStart | tuple[int, str]]:
        """The log as a record lists it, oldest first: a :class:`DealStart` where a pack
        is dealt, ``(seat, action string)`` for each move a replay must make."""
        raise NotImplementedError

    def _record_extra(self, record: JSON, first: Any) -> None:
        """Add what a game records beyond the shared layout (``first``: the facts of the
        record's first deal, None before any)."""

    _deal_key: ClassVar[operator.attrgetter[tuple[Any, ...]]]
    """``operator.attrgetter`` of the deal facts' fields in :meth:`_key`."""
    _state_key: ClassVar[operator.attrgetter[tuple[Any, ...]]]
    """``operator.attrgetter`` of the state's own fields in :meth:`_key`."""

    def _key(self) -> tuple[Any, ...]:
        """Everything that decides the match's future and what anyone may observe: the
        fields each game names in ``_deal_key`` and ``_state_key`` (searches compare and
        hash positions through it: attrgetters build it in C)."""
        return self._deal_key(self._d) + self._state_key(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __deepcopy__(self, memo: dict[int, Any]) -> MatchState:
        # A state is an immutable value whose log is a long chain of shared tuples: a copy
        # shares its parts (a recursive copy of a long match would exceed the recursion
        # limit, and nothing in a state is ever changed after it is made).
        return self._copy()

    def _copy(self) -> Self:
        """A new state with the same slots (sharing their values)."""
        new = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(self, name):
                    setattr(new, name, getattr(self, name))
        return new


class EventLogState(MatchState):
    """A state whose log nodes are its events one to one (Escoba, Envite, Trionfetti; not
    Briscola, which expands its per-trick nodes): ``events`` and ``events_since`` turn
    each node into its event with the game's :meth:`_event`."""

    __slots__ = ()

    _ev: Any

    @property
    def events(self) -> list[JSON]:
        """The match log.  Private events carry an ``audience``; the rest is public."""
        return [self._event(node) for node in log_nodes(self._ev)]

    def _events_of(self, nodes: list[Any]) -> list[JSON]:
        """The events of these log nodes (one event a node): ``events_since``."""
        return [self._event(node) for node in nodes]

    def _event(self, node: tuple[Any, ...]) -> JSON:
        """The event of one log node."""
        raise NotImplementedError
