"""Per-game models for the conformance suite (``tests/test_conformance.py``).

The suite has a generic part, which only uses the engine contract of design.md and runs
for every registered game, and a model part, which needs to know a game's rules: where
every card is, which cards a seat may know, and what the event log must say.  A model is
a small class written from ``rules/<game>.md``; a new game (Envite, Trionfetti) joins the
model part by adding one here and listing it in :data:`MODELS`.  Until then its model
checks are reported as skipped.

A model reads states through the public omniscient helpers (``hand``, ``stock``,
``won_cards``, ``table``, ``captured``), never through private attributes, and computes
every expected value itself, from the rules file (never from the engine's code).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from conftest import (
    ALL_40,
    SUITS,
    award_three_players,
    award_two_sides,
    card_points,
    pack_for,
    random_step,
    trick_winner_pos,
)

import mazo
from mazo.core.rng import Rng

JSON = dict[str, Any]
Step = tuple[Any, int | None, int]

# -- configurations and positions ------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """One way to load a game and start its matches; ``weight`` scales its example count."""

    game: str
    name: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] | None = None
    weight: float = 1.0

    @property
    def id(self) -> str:
        return f"{self.game}-{self.name}"

    def load(self) -> Any:
        return mazo.load_game(self.game, players=self.players, **self.options)

    def start(self, seed: int) -> Any:
        return self.load().new_match(seed=seed, setup=self.setup)


@dataclass
class Position:
    """A state with what the walk already computed for it (each seat's view, the log)."""

    state: Any
    events: list[JSON]
    obs: dict[int | None, JSON]
    named: dict[int | None, set[str]]  # card codes each view names
    cache: dict[str, Any] = field(default_factory=dict)

    def since_last(self, kind: str) -> list[JSON]:
        """The events from the last one of type ``kind`` (inclusive) to the end."""
        for i in range(len(self.events) - 1, -1, -1):
            if self.events[i]["type"] == kind:
                return self.events[i:]
        raise AssertionError(f"no {kind!r} event in the log")


_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


_DECK_CODES: dict[Any, frozenset[str]] = {}


def deck_codes(game: Any) -> frozenset[str]:
    """Every card code of the game's pack, as the notation writes it."""
    deck = game.info.deck
    codes = _DECK_CODES.get(deck)
    if codes is None:
        codes = _DECK_CODES[deck] = frozenset(deck.format(c) for c in range(deck.size))
    return codes


def cards_named(text: str, codes: frozenset[str]) -> set[str]:
    """Every card code that a JSON text names, alone or inside a longer string (``7O+5C``):
    a rank and a suit of the pack, with no letter or digit right before or after."""
    pattern = _PATTERNS.get(codes)
    if pattern is None:
        ranks = sorted({c[:-1] for c in codes}, key=len, reverse=True)
        suits = "".join(sorted({c[-1] for c in codes}))
        if all(len(r) == 1 for r in ranks):  # the same test, about twice as fast
            first = re.escape("".join(ranks))
            pattern = re.compile(f"[{first}](?<![0-9A-Za-z][{first}])[{suits}](?![0-9A-Za-z])")
        else:
            alternation = "|".join(re.escape(r) for r in ranks)
            pattern = re.compile(f"(?<![0-9A-Za-z])(?:{alternation})[{suits}](?![0-9A-Za-z])")
        _PATTERNS[codes] = pattern
    return set(pattern.findall(text)) & codes


def generic_step(state: Any, rng: Rng) -> Step:
    """One random legal action; now and then an out-of-turn one, where some seat has any.

    Partners' talk (``game.info.message_actions``) is taken about one time in ten when a
    move is possible too: a uniform choice would mostly talk and matches would crawl."""
    n = state.game.players
    talk = state.game.info.message_actions
    legal = state.legal_actions()
    moves = [a for a in legal if a not in talk]
    extra = [(s, a) for s in range(n) if s != state.to_act for a in state.legal_actions(s)]
    extra_moves = [(s, a) for s, a in extra if a not in talk]
    if extra and (not legal or rng.randbelow(4) == 0):
        pool = extra_moves if extra_moves and rng.randbelow(10) else extra
        seat, action = rng.choice(pool)
    else:
        pool_ids = moves if moves and rng.randbelow(10) else legal
        seat, action = None, rng.choice(pool_ids)
    return state.apply(action, seat=seat), seat, action


class Model:
    """What the conformance suite needs to know about one game's rules."""

    game: ClassVar[str] = ""
    uncovered_options: ClassVar[frozenset[str]] = frozenset()
    """Options whose non-default values no configuration exercises (say why, per model)."""
    every_option_value: ClassVar[bool] = False
    """Whether the configurations play every allowed value of every option (else at least
    one non-default value of each)."""

    def configs(self) -> list[Config]:
        raise NotImplementedError

    def step(self, state: Any, rng: Rng) -> Step:
        """The random policy the suite drives matches with."""
        return generic_step(state, rng)

    def new_memory(self) -> Any:
        """Per-match memory for what a seat saw earlier (perfect recall)."""
        return None

    def check_conservation(self, state: Any, spectator: JSON | None = None) -> None:
        """Every card is in exactly one place; the observation's counts agree."""
        raise NotImplementedError

    def check_position(self, pos: Position, memory: Any) -> None:
        """The model's invariants of one position (conservation included)."""
        self.check_conservation(pos.state, pos.obs[None])

    def may_know(self, pos: Position, seat: int | None, memory: Any) -> set[str]:
        """The cards ``seat`` (None: a spectator) may know at this position."""
        raise NotImplementedError

    def check_action(self, before: Any, after: Any, seat: int | None, action: int) -> None:
        """Checks of one transition (optional)."""

    def check_game(self, game: Any) -> None:
        """Checks of a configured game itself, such as its action layout (optional)."""

    def other_seat_actions(self, state: Any) -> list[tuple[str, int]]:
        """(action, owner): what other seats could do with their own cards if it were
        their turn (optional: the generic part tries neighbouring positions' actions)."""
        return []

    def check_event_log(self, state: Any) -> None:
        """The whole log of a finished match against the rules: scores against events."""
        raise NotImplementedError


def deal_blocks(events: list[JSON]) -> list[list[JSON]]:
    """The log cut at each ``deal`` event."""
    blocks: list[list[JSON]] = []
    for e in events:
        if e["type"] == "deal":
            blocks.append([])
        blocks[-1].append(e)
    return blocks


def unique_best(values: list[Any]) -> int | None:
    """Index of the single largest of the values that are not None, else None."""
    valid = [v for v in values if v is not None]
    if not valid:
        return None
    top = max(valid)
    return values.index(top) if values.count(top) == 1 else None


# == Briscola (rules/briscola.md) ===============================================================

CARD_CODES_40 = frozenset(ALL_40)


class BriscolaMemory:
    """What partners were shown before trick 1 (``partners_show_hands_before_first_trick``)."""

    def __init__(self) -> None:
        self.shown: dict[tuple[int, int], set[str]] = {}

    def see(self, state: Any, deal_events: list[JSON]) -> None:
        if state.match_over:
            return
        if not any(e["type"] == "play" for e in deal_events):
            for s in range(state.game.players):
                key = (state.deal_number, s)
                self.shown[key] = self.shown.get(key, set()) | set(state.hand(s))


def briscola_removed(state: Any, seats: list[int]) -> list[str]:
    game = state.game
    n = game.players
    if n == 3 and len(seats) == 3:
        return [game.options["three_player_removed_card"]]
    if n == 6:
        return ["2" + s for s in SUITS]
    return []


def briscola_public(state: Any, deal_events: list[JSON], spectator: JSON) -> set[str]:
    """Cards anybody may name: played this deal, the indicator(s), the removed cards."""
    out = set(briscola_removed(state, deal_events[0]["seats"]))
    out.add(state.trump_card)
    if spectator["phase"] == "exchange":
        # Engine decision (module docstring): asking a seat whether to exchange tells
        # everyone that it holds the 2 of trumps.
        out.add("2" + spectator["trump_suit"])
    for e in deal_events:
        if e["type"] == "play":
            out.add(e["card"])
        elif e["type"] == "exchange":
            out.update((e["card"], e["took"]))
        elif e["type"] == "decline":
            # Everyone saw that seat asked, and keep, the 2 of trumps.
            out.add("2" + deal_events[0]["trump"][-1])
        elif e["type"] == "deal":
            out.add(e["trump"])
    return out


class BriscolaModel(Model):
    """Briscola: §2 packs, §5 deal, §6 tricks and draws, §7-§8 scoring, §10 information."""

    game = "briscola"
    uncovered_options = frozenset(
        {
            # Labels only (display): never reach the engine's observations or logic.
            "french_face_labels",
            # A fixed first dealer is covered by tests/games/test_briscola.py.
            "first_dealer",
        }
    )

    def configs(self) -> list[Config]:
        return [
            Config("briscola", "2p", 2),
            Config("briscola", "3p", 3),
            Config("briscola", "4p", 4),
            Config("briscola", "6p", 6),
            Config("briscola", "2p-open_hands", 2, {"open_variant": "open_hands"}),
            Config(
                "briscola",
                "2p-scoperta-one-by-one",
                2,
                {"open_variant": "scoperta", "deal_packet_size": 1},
            ),
            Config(
                "briscola",
                "3p-drop_out",
                3,
                {"three_player_tie_mode": "drop_out", "three_player_removed_card": "2O"},
                {"scores": [2, 2, 1]},
            ),
            Config(
                "briscola",
                "3p-continue-same-dealer",
                3,
                {"dealer_after_draw": "same"},
                {"scores": [2, 2, 0]},
            ),
            Config("briscola", "4p-signals", 4, {"signals_enabled": True}),
            Config(
                "briscola",
                "4p-signals-public-bluff",
                4,
                {
                    "signals_enabled": True,
                    "signal_visibility": "public",
                    "signals_truthful": False,
                    "signals_from_trick": 1,
                    "signal_system": "en_wikipedia",
                },
            ),
            Config(
                "briscola",
                "6p-signals-it",
                6,
                {"signals_enabled": True, "signal_system": "it_wikipedia"},
            ),
            Config(
                "briscola",
                "4p-exchange-redraw-show",
                4,
                {
                    "trump_two_exchange": True,
                    "redraw_indicator_ace_three": True,
                    "partners_show_hands_before_first_trick": True,
                },
            ),
            Config(
                "briscola",
                "2p-exchange-redraw-best-of-3",
                2,
                {
                    "trump_two_exchange": True,
                    "redraw_indicator_ace_three": True,
                    "match_wins_target": 2,
                },
            ),
            Config(
                "briscola",
                "6p-show-exchange-one-by-one",
                6,
                {
                    "partners_show_hands_before_first_trick": True,
                    "trump_two_exchange": True,
                    "deal_packet_size": 1,
                    "signals_enabled": True,
                },
            ),
            Config(
                "briscola",
                "3p-exchange-redraw",
                3,
                {"trump_two_exchange": True, "redraw_indicator_ace_three": True},
            ),
        ]

    def step(self, state: Any, rng: Rng) -> Step:
        # About one action in four is a signal (out of turn too), as the suite always did.
        return random_step(state, rng)

    def new_memory(self) -> BriscolaMemory:
        return BriscolaMemory()

    def check_conservation(self, state: Any, spectator: JSON | None = None) -> None:
        n = state.game.players
        obs = spectator if spectator is not None else state.observation(None)
        seats = obs["seats"]
        hands = [state.hand(s) for s in range(n)]
        stock = list(state.stock())
        trick = [t["card"] for t in obs["trick"]]
        won = [list(state.won_cards(s)) for s in range(n)]
        removed = obs["removed"]
        assert removed == briscola_removed(state, seats)
        places = (
            [c for h in hands for c in h] + stock + trick + [c for w in won for c in w] + removed
        )
        counts = Counter(places)
        assert set(counts) == CARD_CODES_40, f"cards lost: {CARD_CODES_40 - set(counts)}"
        assert max(counts.values()) == 1, f"cards twice: {[c for c, k in counts.items() if k > 1]}"
        assert obs["stock_size"] == len(stock)
        assert obs["hand_sizes"] == [len(h) for h in hands]
        for s in range(n):
            if s not in seats:
                assert hands[s] == [] and won[s] == []
            pile = {c for t in obs["tricks"] if t["winner"] == s for c in t["cards"]}
            assert set(won[s]) == pile
        if stock:
            assert stock[-1] == obs["trump"], "the indicator is the last card of the stock"
        # Hands: equal sizes before each trick, one fewer for those who already played.
        played_now = {t["seat"] for t in obs["trick"]}
        sizes = {len(hands[s]) + (1 if s in played_now else 0) for s in seats}
        assert len(sizes) == 1
        pack = len(ALL_40) - len(removed)
        dealt = len(obs["tricks"]) * len(seats) + len(trick) + sum(map(len, hands)) + len(stock)
        assert dealt == pack

    def _deal_events(self, pos: Position) -> list[JSON]:
        if "deal_events" not in pos.cache:
            pos.cache["deal_events"] = pos.since_last("deal")
        return pos.cache["deal_events"]

    def _public(self, pos: Position) -> set[str]:
        if "public" not in pos.cache:
            pos.cache["public"] = briscola_public(pos.state, self._deal_events(pos), pos.obs[None])
        return pos.cache["public"]

    def check_position(self, pos: Position, memory: BriscolaMemory) -> None:
        state = pos.state
        n = state.game.players
        deal_events = self._deal_events(pos)
        memory.see(state, deal_events)
        self.check_conservation(state, pos.obs[None])
        for s in range(n):
            if s != state.to_act:
                assert all(a >= 40 for a in state.legal_actions(s)), (
                    "only signals are made out of turn"
                )
        public = self._public(pos)
        if state.game.options["open_variant"] == "none":
            hidden = set().union(*(state.hand(s) for s in range(n))) | set(state.stock())
            assert not (pos.named[None] & hidden) - public
        for seat in range(n):
            for owner, cards in pos.obs[seat]["known_cards"].items():
                assert int(owner) != seat
                assert set(cards) <= set(state.hand(int(owner))), "known cards are really there"
        if not state.match_over:
            assert state.scores == deal_events[0]["scores"]
            assert state.deal_number == deal_events[0]["deal"]

    def may_know(self, pos: Position, seat: int | None, memory: BriscolaMemory) -> set[str]:
        """The cards ``seat`` may know, from the rules of §10 (and the options in force)."""
        state = pos.state
        game = state.game
        opts = game.options
        n = game.players
        allowed = set(self._public(pos))
        if opts["open_variant"] != "none":
            for s in range(n):
                allowed.update(state.hand(s))
            if opts["open_variant"] == "scoperta":
                allowed.update(list(state.stock())[:1])
        if seat is not None:
            allowed.update(state.hand(seat))
            if opts["partners_show_hands_before_first_trick"]:
                for p in range(n):
                    if p != seat and p % 2 == seat % 2:
                        allowed |= memory.shown.get((state.deal_number, p), set())
        return allowed

    def check_action(self, before: Any, after: Any, seat: int | None, action: int) -> None:
        if action < 40:
            ended = after.deal_number != before.deal_number or after.match_over
            assert after.hand_over is ended

    def check_event_log(self, state: Any) -> None:
        """Trick winners and points, deal results, the tally and the dealer, from §6-§8."""
        game = state.game
        n = game.players
        opts = game.options
        blocks = deal_blocks(state.events)
        for i, block in enumerate(blocks):
            deal = block[0]
            seats = deal["seats"]
            k = len(seats)
            trump = deal["trump"][-1]
            tricks = [e for e in block if e["type"] == "trick"]
            for t in tricks:
                assert t["points"] == sum(card_points(c) for c in t["cards"])
                pos = trick_winner_pos(t["cards"], trump)
                assert t["winner"] == seats[(seats.index(t["leader"]) + pos) % k]
            ends = [e for e in block if e["type"] == "hand_end"]
            if not ends:
                assert i == len(blocks) - 1
                continue
            end = ends[0]
            assert len(tricks) == len(pack_for(n) if k == n else ALL_40) // k
            sides = 3 if n == 3 else 2
            points = [0] * sides
            for t in tricks:
                points[t["winner"] if n == 3 else t["winner"] % 2] += t["points"]
            assert end["points"] == points
            assert sum(points) == 120
            playoff = n == 3 and k == 2
            if n == 3 and not playoff:
                award = award_three_players(points)
            elif playoff:  # §8.2 drop-out: the first of the two to win a deal (61+)
                award = [1 if p >= 61 else 0 for p in points]
            else:
                award = award_two_sides(points)
            assert end["detail"]["deal_wins"] == award
            after = [a + b for a, b in zip(deal["scores"], award, strict=True)]
            if i + 1 < len(blocks):
                nxt = blocks[i + 1][0]
                assert nxt["scores"] == after
                assert nxt["deal"] == deal["deal"] + 1
                # §3: the deal passes to the next seat still playing, even after a draw,
                # unless dealer_after_draw="same".
                dealer = deal["dealer"]
                drawn = not any(award)
                if not (drawn and opts["dealer_after_draw"] == "same" and dealer in nxt["seats"]):
                    dealer = (dealer + 1) % n
                    while dealer not in nxt["seats"]:
                        dealer = (dealer + 1) % n
                assert nxt["dealer"] == dealer
                self._check_next_seats(state, after, seats, nxt["seats"], award)
            else:
                match_end = block[-1]
                assert match_end["type"] == "match_end"
                assert state.winner is not None
                assert match_end["scores"] == after
                winner = match_end["winner"]
                if playoff:
                    assert award[winner] == 1
                else:
                    assert after[winner] >= game.target
                    assert after.count(max(after)) == 1 and after[winner] == max(after)
                assert state.winner == winner
                assert state.scores == after

    @staticmethod
    def _check_next_seats(
        state: Any, scores: list[int], seats: list[int], nxt: list[int], award: list[int]
    ) -> None:
        game = state.game
        n = game.players
        if n != 3:
            assert nxt == list(range(n))
            return
        if len(seats) == 2:  # a drawn play-off deal is replayed by the same two
            assert nxt == seats and not any(award)
            return
        top = max(scores)
        tied = [s for s in range(3) if scores[s] == top]
        if (
            game.options["three_player_tie_mode"] == "drop_out"
            and top >= game.target
            and len(tied) == 2
        ):
            assert nxt == tied
        else:
            assert nxt == [0, 1, 2]


# == Escoba (rules/escoba.md) ===================================================================

ESCOBA_VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
"""§2.1 capture values (the figures' codes are not their values)."""

PRIME_STRENGTH = {"7": 8, "6": 7, "1": 6, "5": 5, "4": 4, "3": 3, "2": 2, "J": 1, "Q": 1, "K": 1}
"""§8.2/§8.3 prime classes: 7 > 6 > ace > 5 > 4 > 3 > 2 > figure (0 would be an empty suit)."""

PRIMIERA_VALUE = {
    "7": 21,
    "6": 18,
    "1": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}
"""§8.3 ``primiera_points``: the value of a side's best card in a suit."""

ESCOBA_ORDER = {c: i for i, c in enumerate(ALL_40)}
ESCOBA_LAYOUT: list[str] = []  # the capture ids' strings, built once


def value(code: str) -> int:
    return ESCOBA_VALUE[code[:-1]]


def total(codes: Any) -> int:
    return sum(ESCOBA_VALUE[c[:-1]] for c in codes)


def canon(codes: Any) -> list[str]:
    """Cards in canonical order (§2.1: suit O C E B, then rank 1..7 J Q K)."""
    return sorted(codes, key=ESCOBA_ORDER.__getitem__)


def can_make(cards: list[str], target: int) -> bool:
    """Does some non-empty set of these cards add up to ``target`` (>= 1)?"""
    sums = {0}
    for c in cards:
        v = value(c)
        sums |= {s + v for s in sums if s + v <= target}
    return target in sums


def sets_making(cards: list[str], target: int) -> list[list[str]]:
    """Every non-empty set of these cards worth exactly ``target`` (§6.3 ``Options(c)``)."""
    out: list[list[str]] = []

    def grow(start: int, left: int, chosen: list[str]) -> None:
        for i in range(start, len(cards)):
            v = value(cards[i])
            if v == left:
                out.append([*chosen, cards[i]])
            elif v < left:
                grow(i + 1, left - v, [*chosen, cards[i]])

    grow(0, target, [])
    return out


def splits_into_two_fifteens(table: list[str]) -> bool:
    """§5.2 variant: four cards worth 30 that form two disjoint groups of 15."""
    for group in itertools.combinations(range(len(table)), 2):
        rest = [c for i, c in enumerate(table) if i not in group]
        if total(table[i] for i in group) == 15 and total(rest) == 15:
            return True
    # A group of one or three cards cannot make 15 with the other group making 15 too:
    # one card is worth 10 at most.
    return False


def escoba_deal(n: int, dealer: int, deck: list[str], packet: int) -> tuple[list[str], list[Any]]:
    """§5.1/§5.3 from a pack (top first): the opening table, and the cards each seat gets
    in each round of play (round 0 the opening deal, then the redeals)."""
    table = deck[3 * n : 3 * n + 4]
    blocks = [deck[: 3 * n]]
    k = 3 * n + 4
    while k < len(deck):
        blocks.append(deck[k : k + 3 * n])
        k += 3 * n
    rounds = []
    for block in blocks:
        got: dict[int, set[str]] = {s: set() for s in range(n)}
        for i, card in enumerate(block):
            seat = (dealer + 1 + (i if packet == 1 else i // 3)) % n
            got[seat].add(card)
        rounds.append(got)
    return table, rounds


def escoba_prime_key(pile: list[str], method: str) -> Any:
    """A side's prime as a value that compares the way §8.2/§8.3 rank primes (None: none)."""
    ranks = [c[:-1] for c in pile]
    if method == "seed_counts":
        figures = sum(r in "JQK" for r in ranks)
        return (*(ranks.count(r) for r in "7615432"), figures)
    if method == "sevens_only":
        return ranks.count("7")
    best = {s: [c[:-1] for c in pile if c[-1] == s] for s in SUITS}
    if method == "pagat_best_prime":
        slots = [max((PRIME_STRENGTH[r] for r in best[s]), default=0) for s in SUITS]
        return tuple(sorted(slots, reverse=True))
    assert method == "primiera_points"
    if any(not best[s] for s in SUITS):
        return None  # a side missing a suit has no valid setenta
    return sum(max(PRIMIERA_VALUE[r] for r in best[s]) for s in SUITS)


def escoba_score(piles: list[list[str]], escobas: list[int], options: JSON) -> JSON:
    """§8 from the captured piles: every category per side, and the total."""
    sides = len(piles)
    cards = [len(p) for p in piles]
    oros = [sum(c.endswith("O") for c in p) for p in piles]
    zero = [0] * sides
    cards_pts = list(zero)
    best = unique_best(cards)
    if best is not None:
        big = (
            options["bonus_cards_over_30"]
            and cards[best] > 30
            and all(c < 10 for s, c in enumerate(cards) if s != best)
        )
        cards_pts[best] = 2 if big else 1
    oros_pts = list(zero)
    best = unique_best(oros)
    if best is not None:
        oros_pts[best] = 1
    velo = [int("7O" in p) for p in piles]
    prime = list(zero)
    best = unique_best([escoba_prime_key(p, options["prime_method"]) for p in piles])
    if best is not None:
        prime[best] = 1
    sevens = [int(options["bonus_all_sevens"] and sum(c[0] == "7" for c in p) == 4) for p in piles]
    all_oros = [int(options["bonus_all_oros"] and oros[s] == 10) for s in range(sides)]
    parts = {
        "escobas": list(escobas),
        "cards": cards_pts,
        "oros": oros_pts,
        "velo": velo,
        "prime": prime,
        "bonus_all_sevens": sevens,
        "bonus_all_oros": all_oros,
    }
    parts["total"] = [sum(p[s] for p in parts.values()) for s in range(sides)]
    parts["card_counts"] = cards
    parts["oros_counts"] = oros
    return parts


class EscobaHand:
    """An independent replay of one hand's log (§5.2, §6, §7), checking it on the way."""

    def __init__(self, game: Any, deal: JSON, deck: list[str] | None) -> None:
        self.game = game
        self.n = n = game.players
        self.opts = game.options
        self.side_of = game.info.side_of
        self.sides = game.info.sides
        self.dealer = deal["dealer"]
        self.deal = deal
        self.rounds_total = 36 // (3 * n)  # §5.1 table: 6, 4 and 3 rounds of play
        self.round = 0
        self.plays_in_round = 0
        self.table: list[str] = list(deal["table"])
        self.piles: list[set[str]] = [set() for _ in range(self.sides)]
        self.escobas = [0] * self.sides
        self.markers: list[JSON] = []
        self.last: int | None = None
        self.history: list[JSON] = []
        self.opening_done = False
        self.ended: JSON | None = None
        self.taken: list[str] | None = None
        self.dealt: list[Any] | None = None
        self.played: dict[tuple[int, int], set[str]] = {}
        self.public: set[str] = set(deal["table"])  # every card the hand's log names
        if deck is not None:
            table, self.dealt = escoba_deal(n, self.dealer, deck, self.opts["deal_packet_size"])
            assert deal["table"] == table, "§5.1: the four table cards follow the hands"
        assert len(deal["table"]) == 4

    def expected_opening(self) -> tuple[int, int]:
        """§5.2: (escobas, taker) for the opening table; (0, -1) if nothing happens."""
        t = total(self.deal["table"])
        count = 1 if t == 15 else 2 if t == 30 else 0
        if count == 2 and self.opts["initial_thirty_requires_two_fifteens"]:
            count = 2 if splits_into_two_fifteens(self.deal["table"]) else 0
        eldest = (self.dealer + 1) % self.n
        taker = self.dealer if self.opts["initial_escoba_to"] == "dealer" else eldest
        return count, taker if count else -1

    def feed(self, e: JSON) -> None:
        kind = e["type"]
        assert self.ended is None, f"{kind} event after the hand ended"
        if kind != "opening_escoba" and not self.opening_done:
            self.no_opening()
        if kind == "opening_escoba":
            assert not self.opening_done, "the opening check comes first, once"
            count, taker = self.expected_opening()
            assert count, f"§5.2: no opening escoba for table {self.deal['table']}"
            assert e == {
                "type": "opening_escoba",
                "seat": taker,
                "side": self.side_of[taker],
                "cards": canon(self.deal["table"]),
                "escobas": count,
            }
            side = self.side_of[taker]
            self.piles[side] |= set(self.table)
            self.escobas[side] += count
            self.markers += [{"seat": taker, "card": "deal", "cards": canon(self.table)}] * count
            self.last = taker
            self.table = []
            self.opening_done = True
        elif kind == "play":
            self._play(e)
        elif kind == "redeal":
            assert self.plays_in_round == 3 * self.n, "§5.3: redeal only when every hand is empty"
            assert self.round + 1 < self.rounds_total, "§5.3: no redeal from an empty stock"
            self.round += 1
            self.plays_in_round = 0
            assert e == {"type": "redeal", "round": self.round}
        elif kind == "table_taken":
            self._assert_hand_played()
            assert self.taken is None
            assert self.last is not None, "§7 step 2: nobody captured, so nobody takes the table"
            assert e == {"type": "table_taken", "seat": self.last, "cards": canon(self.table)}
            self.taken = list(self.table)
        elif kind == "hand_end":
            self._end(e)
        else:
            raise AssertionError(f"unexpected {kind} event inside a hand")

    def no_opening(self) -> None:
        count, _ = self.expected_opening()
        assert not count, f"§5.2: table {self.deal['table']} must give an opening escoba"
        self.opening_done = True

    def _play(self, e: JSON) -> None:
        n = self.n
        assert self.plays_in_round < 3 * n, "a round of play is 3 cards per seat"
        seat = (self.dealer + 1 + self.plays_in_round) % n
        assert e["seat"] == seat, "§6.1: the eldest plays first, then in seat order"
        card = e["card"]
        captured = e["captured"]
        assert set(e) == {"type", "seat", "card", "captured", "escoba"}
        if self.dealt is not None:
            mine = self.played.setdefault((self.round, seat), set())
            assert card in self.dealt[self.round][seat] and card not in mine, (
                f"seat {seat} plays {card}, which it was not dealt in round {self.round}"
            )
            mine.add(card)
        need = 15 - value(card)
        if captured:
            assert captured == canon(set(captured)), "captured cards in canonical order"
            assert set(captured) <= set(self.table), "§6.3: captures come from the table"
            assert total(captured) == need, "§6.3: the card and the set make 15"
            self.table = [c for c in self.table if c not in captured]
            side = self.side_of[seat]
            self.piles[side] |= {card, *captured}
            self.last = seat
            final = self.round == self.rounds_total - 1 and self.plays_in_round == 3 * n - 1
            escoba = not self.table and (self.opts["escoba_on_final_play_counts"] or not final)
            if escoba:
                self.escobas[side] += 1
                self.markers.append({"seat": seat, "card": card, "cards": canon(captured)})
        else:
            assert not can_make(self.table, need), (
                f"§6.3: {card} could capture from {self.table}, so trailing it is illegal"
            )
            self.table.append(card)
            escoba = False
        assert e["escoba"] is escoba, "§6.4: an escoba is a capture that empties the table"
        self.history.append({k: e[k] for k in ("seat", "card", "captured", "escoba")})
        self.public |= {card, *captured}
        self.plays_in_round += 1

    def _assert_hand_played(self) -> None:
        assert self.round == self.rounds_total - 1, "the hand ends after the last redeal"
        assert self.plays_in_round == 3 * self.n, "the hand ends when every hand is empty"

    def _end(self, e: JSON) -> None:
        self._assert_hand_played()
        # §7.1: the leftover is worth 10 plus a multiple of 15, so it is never empty, the
        # last capturer always takes something, and every other pile is a multiple of 15.
        assert total(self.table) % 15 == 10, f"§7.1: the leftover {self.table}"
        for side in range(self.sides):
            if self.last is None or side != self.side_of[self.last]:
                assert total(self.piles[side]) % 15 == 0, "§7.1: piles are multiples of 15"
        unawarded: list[str] = []
        if self.last is not None:
            assert self.taken == self.table, "§7.1: the last capturer takes the table"
            self.piles[self.side_of[self.last]] |= set(self.table)
        else:
            unawarded = canon(self.table)
        assert sum(map(len, self.piles)) + len(unawarded) == 40, "§7: all 40 cards"
        piles = [canon(p) for p in self.piles]
        parts = escoba_score(piles, self.escobas, self.opts)
        assert e["points"] == parts["total"], f"§8: {e['points']} against {parts}"
        detail = e["detail"]
        for key, want in parts.items():
            assert detail[key] == want, f"§8 breakdown {key}: {detail[key]} != {want}"
        # The engine's own total is the sum of the parts it reports.
        named = ("escobas", "cards", "oros", "velo", "prime", "bonus_all_sevens", "bonus_all_oros")
        for s in range(self.sides):
            assert detail["total"][s] == sum(detail[k][s] for k in named)
        assert detail["unawarded"] == unawarded
        assert detail["last_capturer"] == self.last
        assert detail["prime_method"] == self.opts["prime_method"]
        after = [a + b for a, b in zip(self.deal["scores"], e["points"], strict=True)]
        assert detail["scores"] == after
        self.ended = {"points": e["points"], "scores": after, "piles": piles}
        self.table = []

    def to_act(self) -> int:
        return (self.dealer + 1 + self.plays_in_round) % self.n


class EscobaMemory:
    """The current hand's replay, fed the new events of each position in turn."""

    def __init__(self) -> None:
        self.seen = 0
        self.hand: EscobaHand | None = None
        self.last_end: JSON | None = None


def escoba_decided(scores: list[int], target: int) -> int | None:
    """§9: the unique highest total, if it is at least the target."""
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        return scores.index(top)
    return None


class EscobaModel(Model):
    """Escoba: §5 deal, §6 play, §7 end of hand, §8 scoring, §9 match, §11 information."""

    game = "escoba"
    every_option_value = True

    def configs(self) -> list[Config]:
        e = "escoba"
        # A match to the default 21 points takes about seven hands (265 plays with two
        # players), so most configurations play to 5 or start near the target.
        short = {"target_score": 5}
        few = 0.4
        some = 0.8
        return [
            # The defaults: a whole match to 21; three and four players from a setup.
            Config(e, "2p", 2, weight=0.12),
            Config(e, "3p-from-12-11-10", 3, setup={"scores": [12, 11, 10]}, weight=few),
            Config(e, "4p-from-14-13", 4, setup={"scores": [14, 13]}, weight=few),
            Config(e, "2p-setup-19-20", 2, setup={"scores": [19, 20]}, weight=0.3),
            Config(e, "3p-setup-tied-20-20", 3, setup={"scores": [20, 20, 17]}, weight=few),
            # Short matches: every player count and seating.
            Config(e, "2p-to5", 2, short, weight=some),
            Config(e, "3p-to5", 3, short, weight=some),
            Config(e, "4p-partners-to5", 4, short, weight=some),
            Config(
                e, "4p-individual-to5", 4, {**short, "four_player_mode": "individual"}, weight=some
            ),
            # Every option value.
            Config(
                e,
                "2p-packets-eldest-two-fifteens",
                2,
                {
                    **short,
                    "deal_packet_size": 3,
                    "initial_escoba_to": "eldest",
                    "initial_thirty_requires_two_fifteens": True,
                    "deck_style": "french_numeric",
                },
                weight=few,
            ),
            Config(
                e,
                "3p-pagat-prime-bonuses",
                3,
                {
                    **short,
                    "prime_method": "pagat_best_prime",
                    "bonus_all_sevens": True,
                    "bonus_all_oros": True,
                    "bonus_cards_over_30": True,
                },
                weight=few,
            ),
            Config(
                e,
                "4p-primiera-final-sweep-not-escoba",
                4,
                {
                    **short,
                    "prime_method": "primiera_points",
                    "escoba_on_final_play_counts": False,
                    "deck_style": "french_faces",
                    "first_dealer": 3,
                },
                weight=few,
            ),
            Config(
                e,
                "4p-individual-sevens-only-packets",
                4,
                {
                    **short,
                    "four_player_mode": "individual",
                    "prime_method": "sevens_only",
                    "deal_packet_size": 3,
                    "initial_escoba_to": "eldest",
                },
                weight=few,
            ),
            Config(
                e,
                "2p-bonuses-first-dealer",
                2,
                {
                    **short,
                    "bonus_all_sevens": True,
                    "bonus_all_oros": True,
                    "bonus_cards_over_30": True,
                    "first_dealer": 0,
                },
                weight=few,
            ),
        ]

    def check_game(self, game: Any) -> None:
        """The action layout of the module docstring and docs/escoba.md: ids 0-39 lay
        that card; then every (card, set) whose values make 15, by card in canonical
        order, then by the size of the set, then lexicographically in canonical order."""
        if not ESCOBA_LAYOUT:
            for card in ALL_40:
                others = [c for c in ALL_40 if c != card]
                sets = sets_making(others, 15 - value(card))
                sets.sort(key=lambda s: (len(s), [ESCOBA_ORDER[c] for c in s]))
                ESCOBA_LAYOUT.extend("+".join([card, *s]) for s in sets)
        layout = ALL_40 + ESCOBA_LAYOUT
        assert game.info.num_actions == len(layout) == 84_488
        assert [game.action_to_string(i) for i in range(len(layout))] == layout

    def _check_legal(self, state: Any, legal: list[str]) -> None:
        """§6.3: the legal set is Options(c) for every hand card c, or its trail when
        Options(c) is empty; captures come in the canonical enumeration order."""
        table = state.table()
        want = []
        for card in state.hand(state.to_act):
            sets = sets_making(table, 15 - value(card))
            want += ["+".join([card, *canon(s)]) for s in sets] or [card]
        assert sorted(legal) == sorted(want), f"§6.3: legal {legal}, rules {want}"
        captures = [a.split("+") for a in legal if "+" in a]
        keys = [(ESCOBA_ORDER[a[0]], len(a), [ESCOBA_ORDER[c] for c in a[1:]]) for a in captures]
        assert keys == sorted(keys), "captures in the canonical enumeration order"
        trails = [a for a in legal if "+" not in a]
        assert legal == trails + ["+".join(a) for a in captures], "trails before captures"

    def other_seat_actions(self, state: Any) -> list[tuple[str, int]]:
        """Each other seat's cards with every set they could take from the table now."""
        table = state.table()
        out = []
        for seat in range(state.game.players):
            if seat != state.to_act:
                for card in state.hand(seat):
                    sets = sets_making(table, 15 - value(card))
                    actions = ["+".join([card, *canon(s)]) for s in sets] or [card]
                    out += [(action, seat) for action in actions]
        return out

    def check_conservation(self, state: Any, spectator: JSON | None = None) -> None:
        game = state.game
        n = game.players
        sides = game.info.sides
        obs = spectator if spectator is not None else state.observation(None)
        hands = [state.hand(s) for s in range(n)]
        table = state.table()
        stock = state.stock()
        captured = [state.captured(x) for x in range(sides)]
        unawarded: list[str] = []
        if state.match_over:
            ends = [e for e in state.events if e["type"] == "hand_end"]
            unawarded = ends[-1]["detail"]["unawarded"]
        places = [c for h in hands for c in h] + table + stock + unawarded
        places += [c for p in captured for c in p]
        counts = Counter(places)
        assert set(counts) == CARD_CODES_40, f"cards lost: {CARD_CODES_40 - set(counts)}"
        assert max(counts.values()) == 1, f"cards twice: {[c for c, k in counts.items() if k > 1]}"
        assert obs["stock_size"] == len(stock)
        assert obs["hand_sizes"] == [len(h) for h in hands]
        assert obs["table"] == table
        assert obs["captured"] == captured
        if state.match_over:
            assert not any(hands) and not table and not stock
            return
        # §5: hand sizes.  In a round of play the seats from the eldest up to the one
        # before the seat to act have played one card more than the rest.
        eldest = (obs["dealer"] + 1) % n
        played = (state.to_act - eldest) % n
        size = len(hands[state.to_act])
        assert 1 <= size <= 3
        for s in range(n):
            want = size - 1 if (s - eldest) % n < played else size
            assert len(hands[s]) == want, f"hand sizes {[len(h) for h in hands]}"
        # §5.3: 3n cards per deal after the 3n + 4 of the opening deal.
        assert len(stock) == 36 - 3 * n * (obs["round"] + 1)
        # §7.1: every capture takes 15 (the opening 15 or 30), so every pile is worth a
        # multiple of 15 and the cards still out are worth 220 - 15k.
        for pile in captured:
            assert total(pile) % 15 == 0, f"§7.1: pile {pile}"
        assert total(table + stock + [c for h in hands for c in h]) % 15 == 10

    def new_memory(self) -> EscobaMemory:
        return EscobaMemory()

    def _follow(self, pos: Position, memory: EscobaMemory | None) -> EscobaMemory:
        """Replay the log's new events into the memory's model of the current hand."""
        if memory is None:
            memory = EscobaMemory()
        game = pos.state.game
        for e in pos.events[memory.seen :]:
            kind = e["type"]
            if kind == "deal":
                memory.hand = EscobaHand(game, e, None)
            elif kind != "match_end":
                assert memory.hand is not None
                memory.hand.feed(e)
                if kind == "hand_end":
                    memory.last_end = e
        memory.seen = len(pos.events)
        assert memory.hand is not None
        if not memory.hand.opening_done:
            # The opening escoba is logged with its deal, so none is coming any more.
            memory.hand.no_opening()
        return memory

    def check_position(self, pos: Position, memory: EscobaMemory | None) -> None:
        state = pos.state
        game = state.game
        n = game.players
        spectator = pos.obs[None]
        self.check_conservation(state, spectator)
        memory = self._follow(pos, memory)
        hand = memory.hand
        assert hand is not None
        deal = hand.deal
        # The observation agrees with the public log of the hand.
        assert spectator["hand_number"] == deal["deal"]
        assert spectator["dealer"] == deal["dealer"] == state.dealer
        assert spectator["round"] == hand.round
        assert spectator["history"] == hand.history
        assert spectator["escobas"] == hand.escobas
        assert spectator["escoba_markers"] == hand.markers
        assert spectator["last_capturer"] == hand.last
        assert spectator["target"] == game.target
        assert spectator["hand_over"] == state.hand_over
        assert spectator["match_over"] == state.match_over
        assert spectator["winner"] == state.winner
        assert spectator["phase"] == ("over" if state.match_over else "play")
        end = memory.last_end
        last = {"points": end["points"], "detail": end["detail"]} if end is not None else None
        assert spectator["last_hand"] == last
        if state.match_over:
            assert hand.ended is not None
            assert state.table() == []
            assert [state.captured(x) for x in range(game.info.sides)] == hand.ended["piles"]
        else:
            assert hand.ended is None
            assert state.to_act == hand.to_act()
            assert state.table() == hand.table, "§6.4: the table, in the order laid"
            assert [set(state.captured(x)) for x in range(game.info.sides)] == hand.piles
            assert state.scores == deal["scores"]
        if not state.match_over:
            self._check_legal(state, pos.obs[state.to_act]["legal_actions"])
        # §11: a seat's view differs from the spectator's only in its own hand and moves.
        personal = {"seat", "side", "hand", "legal_actions"}
        public_view = {k: v for k, v in spectator.items() if k not in personal}
        for seat in range(n):
            obs = pos.obs[seat]
            assert obs["side"] == game.info.side_of[seat]
            assert {k: v for k, v in obs.items() if k not in personal} == public_view
        assert spectator["side"] is None
        # The may-know set of may_know() below: public cards are in no hand, not in the
        # stock (the previous hand's unawarded cards aside: they were dealt again).
        previous = set(end["detail"]["unawarded"]) if end is not None else set()
        hidden = set(state.stock()).union(*(state.hand(s) for s in range(n)))
        assert not hand.public & (hidden - previous), "the model calls a hidden card public"
        pos.cache["public"] = hand.public | previous

    def may_know(self, pos: Position, seat: int | None, memory: EscobaMemory | None) -> set[str]:
        """§11: own hand; the table, every pile and the hand's public log (deal table,
        opening escoba, plays and captures, the final take); the previous hand's result."""
        if "public" not in pos.cache:
            self.check_position(pos, None)
        allowed = set(pos.cache["public"])
        if seat is not None:
            allowed.update(pos.state.hand(seat))
        return allowed

    def check_event_log(self, state: Any) -> None:
        """§5-§9 over the whole log: deals from the recorded packs, every play, the
        scoring of every hand, the running totals, the dealer and the match end."""
        game = state.game
        n = game.players
        opts = game.options
        events = state.events
        decks = [d["deck"] for d in state.record()["deals"]]
        blocks = deal_blocks(events)
        assert len(blocks) == len(decks)
        assert events[0]["type"] == "deal"
        scores = list((state.record()["setup"] or {}).get("scores", [0] * game.info.sides))
        dealer = (
            opts["first_dealer"] if opts["first_dealer"] is not None else blocks[0][0]["dealer"]
        )
        for i, block in enumerate(blocks):
            deal = block[0]
            assert deal["deal"] == i + 1
            assert deal["dealer"] == dealer, "§3: the deal passes to the next seat"
            assert deal["scores"] == scores
            hand = EscobaHand(game, deal, decks[i])
            rest = block[1:]
            match_end = rest.pop() if rest and rest[-1]["type"] == "match_end" else None
            for e in rest:
                hand.feed(e)
            if not hand.opening_done:
                hand.no_opening()
            last_block = i == len(blocks) - 1
            if hand.ended is None:
                assert last_block and not state.match_over and match_end is None
                break
            scores = hand.ended["scores"]
            winner = escoba_decided(scores, game.target)
            if last_block and state.match_over:
                assert match_end == {"type": "match_end", "winner": winner, "scores": scores}
                assert winner is not None, "§9: the match ends with a unique top at the target"
                assert state.winner == winner
                assert state.scores == scores
            else:
                assert match_end is None
                assert winner is None, "§9: a decided match deals no further hand"
                assert not last_block, "a new hand is dealt as soon as one ends"
            dealer = (dealer + 1) % n


# == Envite Canario (rules/envite-canario.md) ===================================================

ENVITE_FIXED_TRUMPS = {
    4: (),
    6: ("3B", "QB", "JO"),
    8: ("5O", "3B", "QB", "JO"),
    10: ("2O", "5O", "3B", "QB", "JO"),
    12: ("1O", "2O", "5O", "3B", "QB", "JO"),
}
"""§3.1: the fixed trumps per player count, strongest first."""

ENVITE_TRUMP_RANKS = ("2", "K", "Q", "J", "1", "7", "6", "5", "4", "3")
"""§3.2: the vira suit, strongest first (the Mala, the 2, on top)."""
ENVITE_PLAIN_RANKS = ("K", "Q", "J", "1", "7", "6", "5", "4", "3", "2")
"""§3.4: a plain suit, strongest first."""
ENVITE_VALUES = (2, 4, 7, 9)
"""§9.1 ``value(level)`` for levels 0-3."""
ENVITE_BET_NAMES = ("none", "envio", "siete", "nueve", "chico")
ENVITE_CALLS = ("envio", "accept", "fold", "raise", "tumbo_play", "tumbo_decline")
ENVITE_SIGNALS = (
    "top_trump",
    "mala",
    "rey_of_vira",
    "perica",
    "caballo_de_bastos",
    "tres_de_bastos",
    "cinco_de_oros",
    "dos_de_oros",
    "as_de_oros",
    "small_trumps",
    "no_trump",
    "three_trumps",
    "want_envio",
)
"""§14.2's sign vocabulary, in its order, lower case."""
ENVITE_INTENTS = ("propose", "accept", "fold", "raise", "play_on")
"""§14.2's consultation intents."""
ENVITE_MESSAGE_BASE = 46  # the documented action layout: messages from id 46 on
ENVITE_TUMBO_VALUE = 3
ENVITE_CAPTAINS = (0, 1)  # the engine's documented choice: the first seat of each team
ENVITE_ORDER = {c: i for i, c in enumerate(ALL_40)}


def envite_hierarchy(n: int, suit: str) -> list[str]:
    """§3.2: the trumps strongest first: the fixed ones, then the vira suit without them."""
    fixed = list(ENVITE_FIXED_TRUMPS[n])
    return fixed + [r + suit for r in ENVITE_TRUMP_RANKS if r + suit not in fixed]


@dataclass(frozen=True)
class EnviteCards:
    """The card order of one deal (player count, vira), from §3."""

    trumps: dict[str, int]  # trump -> strength (higher wins)
    plain: dict[str, int]  # non-trump card -> strength within its printed suit
    top: str  # §3.6: the exempt card


_ENVITE_CARDS: dict[tuple[int, str], EnviteCards] = {}


def envite_cards(n: int, vira: str) -> EnviteCards:
    key = (n, vira[-1])
    tab = _ENVITE_CARDS.get(key)
    if tab is None:
        order = envite_hierarchy(n, vira[-1])
        trumps = {c: len(order) - i for i, c in enumerate(order)}
        plain = {}
        for s in SUITS:
            ranks = [r + s for r in ENVITE_PLAIN_RANKS if r + s not in trumps]
            plain.update({c: len(ranks) - i for i, c in enumerate(ranks)})
        tab = _ENVITE_CARDS[key] = EnviteCards(trumps, plain, order[0])
    return tab


def envite_trick_winner(cards: list[str], tab: EnviteCards) -> int:
    """§8: the position of the best trump if any, else of the best card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if c in tab.trumps]
    if trumps:
        return max(trumps, key=lambda i: tab.trumps[cards[i]])
    led = cards[0][-1]
    return max((i for i, c in enumerate(cards) if c[-1] == led), key=lambda i: tab.plain[cards[i]])


def envite_follow(hand: Any, trick: list[str], tab: EnviteCards, rule: str) -> set[str]:
    """§7: the cards of ``hand`` that may be played to ``trick`` without a renuncio."""
    hand = set(hand)
    if not trick:
        return hand
    if trick[0] in tab.trumps:  # a trump led (fixed trumps too): the arrastre
        held = {c for c in hand if c in tab.trumps}
        if not held or held == {tab.top}:
            return hand  # void, or only the top trump (exempt)
        return held
    if rule == "trump_leads_only":
        return hand
    led = trick[0][-1]
    return {c for c in hand if c[-1] == led and c not in tab.trumps} or hand


def envite_award(stones: int, points: int, capping: str) -> int | None:
    """§11.1 (and §13 ``capping``): a team's stones after an award, None for a chico."""
    if capping == "hard_cap_11":
        if stones == 11 and points > 0:
            return None
        return min(11, stones + points)
    s = stones + points
    if s > 11:
        s -= 1
    return None if s >= 12 else s


def envite_canon(cards: Any) -> list[str]:
    return sorted(cards, key=ENVITE_ORDER.__getitem__)


def envite_visible(e: JSON, seat: int | None) -> bool:
    """A message with an audience is seen by it only; everything else is public (§14)."""
    audience = e.get("audience")
    return audience is None or (seat is not None and seat in audience)


class EnviteDeal:
    """An independent replay of one deal's log (§6-§12), checking every event on the way.

    ``dealt`` is each seat's three cards; the replay tracks the hands from them, so it
    can check every card against §7 and name the cards each seat may know.
    """

    def __init__(self, game: Any, deal: JSON, dealt: list[list[str]]) -> None:
        self.n = n = game.players
        self.opts = opts = game.options
        self.deal = deal
        self.dealer = deal["dealer"]
        self.eldest = (self.dealer + 1) % n
        self.vira = deal["vira"]
        self.tab = envite_cards(n, self.vira)
        self.scores = list(deal["scores"])
        self.games = list(deal["games"])
        self.tumbo = [s == 11 for s in self.scores]
        assert deal["tumbo"] == self.tumbo, "§10: a team at 11 stones is at tumbo"
        assert deal["eldest"] == self.eldest and deal["trump_suit"] == self.vira[-1]
        self.tumbo_deal = any(self.tumbo)
        one = self.tumbo[0] != self.tumbo[1]
        self.tumbo_team = (0 if self.tumbo[0] else 1) if one else None
        self.phase = "tumbo_decision" if one else "play"
        self.level = 0
        self.right: int | None = None
        self.pending: tuple[int, int, int] | None = None  # (team, seat, level)
        self.leader = self.eldest
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[JSON] = []
        self.won = [0, 0]
        assert [len(h) for h in dealt] == [3] * n, "§5: three cards each"
        self.dealt = [envite_canon(h) for h in dealt]
        self.hands = [set(h) for h in dealt]
        self.public = {self.vira}  # cards every seat may name in this deal
        self.said: list[set[str]] = [set() for _ in range(n)]
        self.expect_trick: JSON | None = None
        self.expect_end: tuple[str, int, Any, JSON] | None = None
        self.end: JSON | None = None
        self.chico: int | None = None  # the team that won a chico with this deal
        self.log: list[JSON] = [deal]
        teams = [[s for s in range(n) if s % 2 == t] for t in (0, 1)]
        self.teams = teams
        self.shown: dict[int, list[JSON]] = {}  # captain -> tumbo_show_captain's view
        if opts["tumbo_show_captain"]:
            for t in (0, 1):
                if self.tumbo[t]:
                    cap = ENVITE_CAPTAINS[t]
                    self.shown[cap] = [
                        {"seat": m, "cards": self.dealt[m]} for m in teams[t] if m != cap
                    ]

    # -- who acts --------------------------------------------------------------------------

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def to_act(self) -> int:
        if self.phase == "tumbo_decision":
            team = self.tumbo_team
            assert team is not None
            if self.opts["tumbo_decider"] == "captain":
                return ENVITE_CAPTAINS[team]
            return self.eldest if self.eldest % 2 == team else (self.eldest + 1) % self.n
        if self.phase == "bet_pending":
            assert self.pending is not None
            team, proposer, _ = self.pending
            if self.opts["bet_responder"] == "captain":
                return ENVITE_CAPTAINS[1 - team]
            return (proposer + 1) % self.n
        return self.to_play

    def may_envio(self, seat: int) -> bool:
        """§6 ``ENVIO`` eligibility (an envío in a tumbo deal is the §12 offence)."""
        if self.phase != "play":
            return False
        if self.opts["envio_timing"] == "own_turn_only" and seat != self.to_play:
            return False
        if self.tumbo_deal:
            return self.opts["renuncio_mode"] == "penalize"
        if self.level >= 4:
            return False
        # §9.2: after an acceptance only the accepting team raises (unless any_team).
        free = self.right is None or self.opts["raise_right"] == "any_team"
        return free or self.right == seat % 2

    def may_answer(self, seat: int) -> bool:
        if self.phase != "bet_pending":
            return False
        assert self.pending is not None
        team = self.pending[0]
        if seat % 2 == team:
            return False
        return self.opts["bet_responder"] != "captain" or seat == ENVITE_CAPTAINS[1 - team]

    def may_decide(self, seat: int) -> bool:
        if self.phase != "tumbo_decision" or seat % 2 != self.tumbo_team:
            return False
        return self.opts["tumbo_decider"] != "captain" or seat == ENVITE_CAPTAINS[seat % 2]

    def follow(self, seat: int) -> set[str]:
        return envite_follow(
            self.hands[seat], [c for _, c in self.trick], self.tab, self.opts["follow_rule"]
        )

    def legal(self, seat: int) -> tuple[set[str], set[str]]:
        """The action strings ``seat`` may take now, and those that are offences."""
        out: set[str] = set()
        offences: set[str] = set()
        if self.end is not None:
            return out, offences
        penalize = self.opts["renuncio_mode"] == "penalize"
        if self.phase == "play":
            if seat == self.to_play:
                follow = self.follow(seat)
                out |= set(self.hands[seat]) if penalize else follow
                offences |= set(self.hands[seat]) - follow if penalize else set()
            if self.may_envio(seat):
                out.add("envio")
                if self.tumbo_deal:
                    offences.add("envio")
        elif self.phase == "bet_pending":
            assert self.pending is not None
            if self.may_answer(seat):
                out |= {"accept", "fold"} | ({"raise"} if self.pending[2] < 4 else set())
        elif self.may_decide(seat):
            out |= {"tumbo_play", "tumbo_decline"}
        messages = set()
        if self.opts["signals"] != "off":
            messages |= {"signal " + k for k in ENVITE_SIGNALS}
        if self.phase != "tumbo_decision":
            messages |= {"consult " + k for k in ENVITE_INTENTS}
        return out | (messages - self.said[seat]), offences

    # -- the log ---------------------------------------------------------------------------

    def feed(self, e: JSON) -> None:
        kind = e["type"]
        assert self.end is None, f"{kind} event after the deal ended"
        self.log.append(e)
        if kind in ("signal", "consult"):
            self._message(e)
            return
        if self.expect_trick is not None:
            assert e == self.expect_trick, f"§8: trick {e}, the rules say {self.expect_trick}"
            self._trick_done(e)
            return
        if self.expect_end is not None:
            assert kind == "hand_end", f"§6: the deal must end, not go on with {kind}"
            self._finish(e)
            return
        self.said = [set() for _ in range(self.n)]  # a game action
        seat = e["seat"]
        team = seat % 2
        assert kind == "play" or e["team"] == team
        if kind == "play":
            self._play(e)
        elif kind in ("envio", "raise", "accept", "fold"):
            self._bet(kind, e)
        elif kind in ("tumbo_play", "tumbo_decline"):
            assert e == {"type": kind, "seat": seat, "team": team}
            assert self.may_decide(seat), f"§10: seat {seat} may not decide the tumbo"
            if kind == "tumbo_play":
                self.phase = "play"
            else:
                self.expect_end = ("tumbo_decline", 1 - team, 1, {})
        elif kind == "renuncio":
            self._renuncio(e)
        else:
            raise AssertionError(f"unexpected {kind} event inside a deal")

    def _message(self, e: JSON) -> None:
        seat = e["seat"]
        kind = e["type"]
        word = e["kind"] if kind == "signal" else e["intent"]
        vocab = ENVITE_SIGNALS if kind == "signal" else ENVITE_INTENTS
        assert word in vocab
        text = f"{kind} {word}"
        assert text not in self.said[seat], "a message kind once per seat between actions"
        if kind == "signal":
            assert self.opts["signals"] != "off", "§13: no signs with signals=off"
        else:
            assert self.phase in ("play", "bet_pending"), "§14.2: consult in PLAY/BET only"
        assert self.expect_trick is None and self.expect_end is None
        want: JSON = {"type": kind, "seat": seat, "team": seat % 2}
        want["kind" if kind == "signal" else "intent"] = word
        if not (kind == "signal" and self.opts["signals"] == "team_leaky"):
            want["audience"] = self.teams[seat % 2]
        assert e == want, f"§14.2: message {e}, expected {want}"
        self.said[seat].add(text)

    def _play(self, e: JSON) -> None:
        seat, card = e["seat"], e["card"]
        assert e == {"type": "play", "seat": seat, "card": card}
        assert self.phase == "play", f"no card may be played in phase {self.phase}"
        assert seat == self.to_play, f"§6: seat {seat} plays, {self.to_play} was to play"
        assert card in self.hands[seat], f"seat {seat} plays {card}, not in its hand"
        assert card in self.follow(seat), (
            f"§7: {card} does not follow {[c for _, c in self.trick]} from {self.hands[seat]}"
        )
        self.hands[seat].discard(card)
        self.public.add(card)
        self.trick.append((seat, card))
        if len(self.trick) == self.n:
            cards = [c for _, c in self.trick]
            winner = self.trick[envite_trick_winner(cards, self.tab)][0]
            self.expect_trick = {
                "type": "trick",
                "winner": winner,
                "team": winner % 2,
                "points": 0,
                "leader": self.leader,
                "cards": cards,
            }

    def _trick_done(self, e: JSON) -> None:
        self.expect_trick = None
        winner = e["winner"]
        team = winner % 2
        self.won[team] += 1
        self.tricks.append({k: e[k] for k in ("leader", "cards", "winner", "team")})
        self.leader = winner
        self.trick = []
        if self.won[team] == 2:  # §8: a team with two tricks wins the deal at once
            if self.tumbo_deal:
                points: Any = ENVITE_TUMBO_VALUE
            else:
                points = "chico" if self.level == 4 else ENVITE_VALUES[self.level]
            self.expect_end = ("tricks", team, points, {})
        assert len(self.tricks) <= 3

    def _bet(self, kind: str, e: JSON) -> None:
        seat = e["seat"]
        team = seat % 2
        if kind == "envio":
            assert self.may_envio(seat) and not self.tumbo_deal, f"§6: seat {seat} may not envío"
            level = self.level + 1
            self.pending = (team, seat, level)
            self.phase = "bet_pending"
        else:
            assert self.may_answer(seat), f"§6: seat {seat} may not answer"
            assert self.pending is not None
            pteam, _, proposed = self.pending
            level = proposed
            if kind == "raise":
                assert proposed < 4, "§9.1: nothing above level 4"
                level = proposed + 1
                self.pending = (team, seat, level)
            elif kind == "accept":
                self.level = proposed
                self.right = team
                self.pending = None
                self.phase = "play"
            else:
                self.expect_end = ("fold", pteam, ENVITE_VALUES[proposed - 1], {})
        want = {
            "type": kind,
            "seat": seat,
            "team": team,
            "level": level,
            "name": ENVITE_BET_NAMES[level],
        }
        assert e == want, f"§9: {e}, expected {want}"

    def _renuncio(self, e: JSON) -> None:
        seat = e["seat"]
        assert self.opts["renuncio_mode"] == "penalize", "§12: prevent mode has no renuncio"
        assert set(e) == {"type", "seat", "team", "action", "offence"}
        assert self.phase == "play"
        if e["offence"] == "follow":
            card = e["action"]
            assert seat == self.to_play and card in self.hands[seat]
            assert card not in self.follow(seat), f"§12: {card} follows, it is no renuncio"
            self.public.add(card)  # it stays in the hand (not placed), but named
            extra: JSON = {"offender": seat, "offence": "follow", "card": card}
        else:
            assert e["offence"] == "envio_at_tumbo" and e["action"] == "envio"
            assert self.tumbo_deal, "§9.4: an envío is an offence only at tumbo"
            assert self.may_envio(seat)
            extra = {"offender": seat, "offence": "envio_at_tumbo", "card": None}
        self.expect_end = ("renuncio", 1 - seat % 2, self.opts["renuncio_penalty"], extra)

    def _finish(self, e: JSON) -> None:
        assert self.expect_end is not None
        reason, team, points, extra = self.expect_end
        before = list(self.scores)
        capping = self.opts["capping"]
        after = None if points == "chico" else envite_award(before[team], points, capping)
        stones = list(before)
        games = list(self.games)
        if after is None:  # §11.3
            games[team] += 1
            stones = [0, 0]
            self.chico = team
        else:
            stones[team] = after
        detail: JSON = {
            "reason": reason,
            "team": team,
            "award": points,
            "bet_level": self.level,
            "tumbo_deal": self.tumbo_deal,
            "tricks_won": list(self.won),
            "stones_before": before,
            **extra,
            "chico": self.chico,
            "scores": stones,
            "games": games,
        }
        if self.opts["reveal_at_deal_end"]:
            detail["revealed"] = [envite_canon(h) for h in self.hands]
            self.public.update(*self.hands)
        gained = [0, 0]
        gained[team] = points if points != "chico" else 0
        want = {"type": "hand_end", "points": gained, "detail": detail}
        assert e == want, f"§11: {e}\nexpected {want}"
        self.expect_end = None
        self.end = e


class EnviteMatch:
    """An independent replay of a whole match's log: deals (§5), deals' logs, §11 totals."""

    def __init__(self, game: Any, setup: JSON | None) -> None:
        self.game = game
        self.n = game.players
        setup = setup or {}
        self.scores = list(setup.get("scores", [0, 0]))
        self.games = list(setup.get("games", [0, 0]))
        self.target = game.options["chicos_to_win"]
        self.dealer: int | None = game.options["first_dealer"]
        self.deal: EnviteDeal | None = None
        self.number = 0
        self.last_end: JSON | None = None
        self.expect: list[JSON] = []  # chico / match_end events due after a hand_end
        self.over = False
        self.winner: int | None = None

    def feed(self, e: JSON, dealt: list[list[str]] | None = None) -> None:
        """One event; a ``deal`` event needs each seat's three cards."""
        kind = e["type"]
        assert not self.over, f"{kind} event after the match ended"
        if self.expect:
            want = self.expect.pop(0)
            assert e == want, f"§11.3: {e}, expected {want}"
            if kind == "match_end":
                self.over = True
                self.winner = e["winner"]
            return
        if kind == "deal":
            assert self.deal is None or self.deal.end is not None, "a deal before the last ended"
            assert dealt is not None
            self.number += 1
            if self.dealer is None:
                self.dealer = e["dealer"]
            assert e["deal"] == self.number
            assert e["dealer"] == self.dealer, "§5.1: the deal passes to the next seat"
            assert e["scores"] == self.scores and e["games"] == self.games
            self.deal = EnviteDeal(self.game, e, dealt)
            return
        assert self.deal is not None
        self.deal.feed(e)
        if kind == "hand_end":
            self.last_end = e
            detail = e["detail"]
            self.scores = list(detail["scores"])
            self.games = list(detail["games"])
            team = self.deal.chico
            if team is not None:
                self.expect.append({"type": "chico", "team": team, "games": list(self.games)})
                if self.games[team] == self.target:  # §11.3: the game ends at once
                    self.expect.append(
                        {
                            "type": "match_end",
                            "winner": team,
                            "scores": list(self.scores),
                            "games": list(self.games),
                        }
                    )
            assert self.dealer is not None
            self.dealer = (self.dealer + 1) % self.n

    def deal_finished(self) -> bool:
        """The last deal ended and no chico/match_end is still due."""
        return self.deal is not None and self.deal.end is not None and not self.expect


class EnviteMemory:
    """The match replayed from the log, fed the new events of each position in turn."""

    def __init__(self) -> None:
        self.seen = 0
        self.match: EnviteMatch | None = None


def envite_deal_from_pack(n: int, dealer: int, pack: list[str]) -> tuple[list[list[str]], str]:
    """§5.3-§5.4: seat ``D+1+k`` gets ``P[3k..3k+2]``; the vira is ``P[3N]``."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(n):
        hands[(dealer + 1 + k) % n] = pack[3 * k : 3 * k + 3]
    return hands, pack[3 * n]


class EnviteModel(Model):
    """Envite Canario: §3 card order, §5 deal, §6-§12 play, bets, tumbo and stones,
    §14 information (what each seat may be shown)."""

    game = "envite"
    every_option_value = True

    def configs(self) -> list[Config]:
        e = "envite"
        return [
            # The defaults, at every player count (12 players is slow per action).
            Config(e, "4p", 4),
            Config(e, "6p", 6, weight=0.6),
            Config(e, "8p", 8, {"chicos_to_win": 1}, weight=0.5),
            Config(e, "10p", 10, {"chicos_to_win": 1}, setup={"scores": [6, 7]}, weight=0.4),
            Config(e, "12p", 12, {"chicos_to_win": 1}, setup={"scores": [8, 9]}, weight=0.35),
            # Tumbo often: one team at 11, both at 11, near it.
            Config(e, "4p-tumbo-10-11", 4, setup={"scores": [10, 11], "games": [1, 1]}),
            Config(e, "4p-both-tumbo", 4, {"chicos_to_win": 3}, {"scores": [11, 11]}, 0.5),
            # Every option value.
            Config(
                e,
                "4p-penalize-3-one-chico",
                4,
                {"renuncio_mode": "penalize", "renuncio_penalty": 3, "chicos_to_win": 1},
                {"scores": [8, 11]},
            ),
            Config(
                e,
                "6p-penalize-both-tumbo-3-chicos",
                6,
                {"renuncio_mode": "penalize", "chicos_to_win": 3},
                {"scores": [11, 11], "games": [1, 2]},
                weight=0.8,
            ),
            Config(
                e,
                "4p-captains-show",
                4,
                {
                    "bet_responder": "captain",
                    "tumbo_decider": "captain",
                    "tumbo_show_captain": True,
                    "first_dealer": 2,
                },
                {"scores": [11, 10]},
                weight=0.8,
            ),
            Config(
                e,
                "6p-any-team-own-turn-signals-off",
                6,
                {
                    "raise_right": "any_team",
                    "envio_timing": "own_turn_only",
                    "signals": "off",
                    "chicos_to_win": 1,
                    "first_dealer": 0,
                },
                weight=0.8,
            ),
            Config(
                e,
                "4p-trump-leads-hard-cap-leaky-reveal",
                4,
                {
                    "follow_rule": "trump_leads_only",
                    "capping": "hard_cap_11",
                    "signals": "team_leaky",
                    "reveal_at_deal_end": True,
                    "chicos_to_win": 3,
                },
                {"scores": [9, 10], "games": [2, 1]},
                weight=1.0,
            ),
            Config(
                e,
                "8p-hard-cap-captains-show-reveal",
                8,
                {
                    "capping": "hard_cap_11",
                    "tumbo_show_captain": True,
                    "tumbo_decider": "captain",
                    "reveal_at_deal_end": True,
                    "signals": "team_leaky",
                    "chicos_to_win": 1,
                    "first_dealer": 7,
                },
                {"scores": [8, 9]},
                weight=0.6,
            ),
            Config(
                e,
                "10p-penalize-trump-leads-captains",
                10,
                {
                    "renuncio_mode": "penalize",
                    "follow_rule": "trump_leads_only",
                    "bet_responder": "captain",
                    "raise_right": "any_team",
                    "chicos_to_win": 1,
                },
                {"scores": [8, 9]},
                weight=0.5,
            ),
            Config(
                e,
                "12p-show-reveal-own-turn",
                12,
                {
                    "tumbo_show_captain": True,
                    "reveal_at_deal_end": True,
                    "envio_timing": "own_turn_only",
                    "chicos_to_win": 1,
                },
                {"scores": [11, 9]},
                weight=0.4,
            ),
        ]

    def check_game(self, game: Any) -> None:
        """The documented action layout: 0-39 the cards (canonical order), 40-45 the calls,
        46-58 the signs and 59-63 the consultations."""
        layout = (
            ALL_40
            + list(ENVITE_CALLS)
            + ["signal " + k for k in ENVITE_SIGNALS]
            + ["consult " + k for k in ENVITE_INTENTS]
        )
        assert game.info.num_actions == len(layout) == 64
        # The model's own §3.2 reading against two rows of the §3.3 table.
        rows = {
            (12, "O"): "1O 2O 5O 3B QB JO KO QO 7O 6O 4O 3O",
            (6, "B"): "3B QB JO 2B KB JB 1B 7B 6B 5B 4B",
        }
        for (players, suit), row in rows.items():
            assert envite_hierarchy(players, suit) == row.split(" ")
        assert [game.action_to_string(i) for i in range(len(layout))] == layout
        assert game.info.sides == 2

    def step(self, state: Any, rng: Rng) -> Step:
        """Random, with weights that keep matches varied: a message about one time in ten
        (when anything else is legal); in play an envío (by any seat that may, out of turn
        too) about once a deal, else a card; answers and tumbo calls out of turn one time
        in four; a renuncio (penalize mode) now and then, not at every chance."""
        n = state.game.players
        to_act = state.to_act
        cards: list[tuple[int | None, int]] = []
        envios: list[tuple[int | None, int]] = []
        calls: list[tuple[int | None, int]] = []
        messages: list[tuple[int | None, int]] = []
        for seat in range(n):
            for a in state.legal_actions(seat):
                who = None if seat == to_act else seat
                if a >= ENVITE_MESSAGE_BASE:
                    messages.append((who, a))
                elif a < 40:
                    cards.append((who, a))
                elif a == 40:
                    envios.append((who, a))
                else:
                    calls.append((who, a))
        penalize = state.game.options["renuncio_mode"] == "penalize"
        if messages and (not (cards or envios or calls) or rng.randbelow(10) == 0):
            pool = messages
        elif cards:  # PLAY: the seat to play holds a card
            # An envío at tumbo is an offence (penalize mode): rarer still.
            at_tumbo = penalize and state.observation(None)["tumbo_deal"]
            if envios and rng.randbelow(3 * n * (6 if at_tumbo else 1)) < 2:
                pool = envios
            else:
                offences = set(state.observation(to_act)["offences"]) if penalize else set()
                bad = [c for c in cards if state.action_to_string(c[1]) in offences]
                clean = [c for c in cards if c not in bad]
                pool = bad if bad and (not clean or rng.randbelow(10) == 0) else clean
        else:
            own = [c for c in calls if c[0] is None]
            other = [c for c in calls if c[0] is not None]
            pool = other if other and (not own or rng.randbelow(4) == 0) else own
            pool = pool or envios
        seat, action = rng.choice(pool)
        return state.apply(action, seat=seat), seat, action

    def new_memory(self) -> EnviteMemory:
        return EnviteMemory()

    def check_conservation(self, state: Any, spectator: JSON | None = None) -> None:
        """The 40 cards: hands (three at the deal, less the cards placed), the cards placed
        this deal, the vira and the unused stock ``P[3N+1:]``."""
        n = state.game.players
        obs = spectator if spectator is not None else state.observation(None)
        log = obs["deal_log"]
        assert log[0]["type"] == "deal"
        vira = state.vira
        assert vira == obs["vira"] == log[0]["vira"]
        hands = [state.hand(s) for s in range(n)]
        stock = list(state.stock())
        played = [e for e in log if e["type"] == "play"]
        placed = [e["card"] for e in played]
        places = [c for h in hands for c in h] + placed + [vira] + stock
        counts = Counter(places)
        assert set(counts) == CARD_CODES_40, f"cards lost: {CARD_CODES_40 - set(counts)}"
        assert max(counts.values()) == 1, f"cards twice: {[c for c, k in counts.items() if k > 1]}"
        assert len(stock) == 40 - 3 * n - 1, "§5.4: the rest of the pack is not used"
        for s in range(n):
            mine = sum(1 for e in played if e["seat"] == s)
            assert len(hands[s]) == 3 - mine, f"seat {s}: {hands[s]} after {mine} plays"
        assert obs["hand_sizes"] == [len(h) for h in hands]
        trick = [t["card"] for t in obs["trick"]]
        assert trick == placed[len(placed) - len(trick) :], "the trick is the last cards placed"

    def _follow_log(self, pos: Position, memory: EnviteMemory) -> EnviteMatch:
        state = pos.state
        if memory.match is None:
            memory.match = EnviteMatch(state.game, state.record()["setup"])
        match = memory.match
        new = pos.events[memory.seen :]
        for i, e in enumerate(new):
            dealt = None
            if e["type"] == "deal":
                # A deal is the last thing an action does: its hands are the state's.
                assert not any(x["type"] == "deal" for x in new[i + 1 :])
                dealt = [state.hand(s) for s in range(state.game.players)]
            match.feed(e, dealt)
        memory.seen = len(pos.events)
        return match

    def check_position(self, pos: Position, memory: EnviteMemory) -> None:
        state = pos.state
        game = state.game
        n = game.players
        opts = game.options
        spectator = pos.obs[None]
        self.check_conservation(state, spectator)
        match = self._follow_log(pos, memory)
        deal = match.deal
        assert deal is not None
        if state.match_over:
            assert match.over and state.winner == match.winner
            assert deal.end is not None
            phase = "over"
        else:
            assert not match.over and deal.end is None, "the next deal is dealt at once"
            phase = deal.phase
            assert state.to_act == deal.to_act(), f"to_act {state.to_act}, want {deal.to_act()}"
        assert state.scores == match.scores and state.games == match.games
        for s in range(n):
            assert set(state.hand(s)) == deal.hands[s], "the hands of the replay"
        # The observations against the replay (§14.1: public items plus private ones).
        last = match.last_end
        pending = deal.pending
        public = {
            "game": "envite",
            "players": n,
            "to_act": state.to_act,
            "phase": phase,
            "scores": match.scores,
            "games": match.games,
            "chicos_to_win": opts["chicos_to_win"],
            "deal_number": deal.deal["deal"],
            "dealer": deal.dealer,
            "eldest": deal.eldest,
            "captains": list(ENVITE_CAPTAINS),
            "vira": deal.vira,
            "trump_suit": deal.vira[-1],
            "tumbo": [s == 11 for s in match.scores],  # at the match end: the final stones
            "tumbo_deal": deal.tumbo_deal,
            "tumbo_team": deal.tumbo_team,
            "to_play": deal.to_play,
            "trick": [{"seat": s, "card": c} for s, c in deal.trick],
            "tricks": deal.tricks,
            "tricks_won": deal.won,
            "bet": {
                "level": deal.level,
                "name": ENVITE_BET_NAMES[deal.level],
                "value": "chico" if deal.level == 4 else ENVITE_VALUES[deal.level],
                "raise_right": deal.right,
                "pending": None
                if phase != "bet_pending" or pending is None
                else {
                    "team": pending[0],
                    "seat": pending[1],
                    "level": pending[2],
                    "name": ENVITE_BET_NAMES[pending[2]],
                },
            },
            "signals": opts["signals"],
            "last_deal": None if last is None else {k: last[k] for k in ("points", "detail")},
            "hand_over": state.hand_over,
            "match_over": state.match_over,
            "winner": state.winner,
        }
        log = pos.since_last("deal")
        tail = log[len(deal.log) :]
        assert log[: len(deal.log)] == deal.log
        assert [e["type"] for e in tail] == (
            [e["type"] for e in pos.events[-len(tail) :]] if tail else []
        )
        assert all(e["type"] in ("chico", "match_end") for e in tail) and (
            not tail or state.match_over
        ), "after a deal's end only its chico and the match end"
        for seat, obs in pos.obs.items():
            for key, want in public.items():
                assert obs[key] == want, f"seat {seat}: {key} is {obs[key]}, the rules {want}"
            visible = [e for e in log if envite_visible(e, seat)]
            assert obs["deal_log"] == visible, f"seat {seat}: the deal log"
            assert obs["messages"] == [e for e in visible if e["type"] in ("signal", "consult")]
            assert obs["team"] == (None if seat is None else seat % 2)
            assert obs["team_must_decide"] == (
                phase == "tumbo_decision" and seat is not None and seat % 2 == deal.tumbo_team
            )
            assert obs["team_must_answer"] == (
                phase == "bet_pending"
                and seat is not None
                and pending is not None
                and seat % 2 != pending[0]
            )
            shown = deal.shown.get(seat, []) if seat is not None else []
            assert obs["shown_hands"] == shown, f"seat {seat}: shown {obs['shown_hands']}"
            if seat is None:
                assert obs["offences"] == []
                continue
            legal, offences = deal.legal(seat) if phase != "over" else (set(), set())
            assert set(obs["legal_actions"]) == legal, (
                f"seat {seat} ({phase}): legal {sorted(obs['legal_actions'])}, "
                f"the rules {sorted(legal)}"
            )
            assert set(obs["offences"]) == offences, f"seat {seat}: offences {obs['offences']}"
        # While a deal runs, the model's public cards are no hidden card (a renuncio's
        # card and revealed hands become public only as the deal ends).
        if deal.end is None:
            hidden = set(state.stock()).union(*(state.hand(s) for s in range(n)))
            assert not deal.public & hidden, "the model calls a hidden card public"

    def may_know(self, pos: Position, seat: int | None, memory: EnviteMemory) -> set[str]:
        """§14: the deal's public cards (the vira, every card placed, a renuncio's card,
        revealed hands), the last deal's report (its renuncio card and revealed hands);
        for a seat also the cards it was dealt and, as a captain with
        ``tumbo_show_captain``, its teammates' dealt cards.

        Stricter than perfect recall across deals on purpose: the pack is shuffled for
        every deal, so an earlier deal's card names say nothing now, and an observation
        naming one would be naming a card of this deal."""
        match = memory.match
        assert match is not None and match.deal is not None
        deal = match.deal
        allowed = set(deal.public)
        last = match.last_end
        if last is not None:
            detail = last["detail"]
            if detail.get("card"):
                allowed.add(detail["card"])
            for hand in detail.get("revealed", []):
                allowed.update(hand)
        if seat is not None:
            allowed.update(deal.dealt[seat])
            for shown in deal.shown.get(seat, []):
                allowed.update(shown["cards"])
        return allowed

    def check_action(self, before: Any, after: Any, seat: int | None, action: int) -> None:
        n = before.game.players
        actor = before.to_act if seat is None else seat
        text = before.action_to_string(action)
        old = before.observation(actor)
        new = after.observation(actor)
        if action >= ENVITE_MESSAGE_BASE:
            # §14.2: a message changes nothing but the log (and who may repeat it).
            assert after.to_act == before.to_act and not after.hand_over
            assert all(after.hand(s) == before.hand(s) for s in range(n))
            assert (after.scores, after.games) == (before.scores, before.games)
            for key in ("phase", "bet", "trick", "tricks", "tricks_won", "to_play"):
                assert new[key] == old[key]
            assert new["deal_log"][:-1] == old["deal_log"]
            assert new["deal_log"][-1]["type"] == text.split()[0]
            assert new["legal_actions"] == [a for a in old["legal_actions"] if a != text]
            return
        if action < 40:
            assert text in before.hand(actor)
            if not after.hand_over:
                assert after.hand(actor) == [c for c in before.hand(actor) if c != text]
                for s in range(n):
                    if s != actor:
                        assert after.hand(s) == before.hand(s)
                assert new["trick"][-1:] == [{"seat": actor, "card": text}] or (
                    new["tricks"][-1]["cards"][-1] == text and new["trick"] == []
                )
            elif text in old["offences"]:
                assert after.events[len(before.events)]["type"] == "renuncio"
            return
        # Calls: no card moves.
        if not after.hand_over:
            assert all(after.hand(s) == before.hand(s) for s in range(n))
        if text == "envio" and not after.hand_over:
            assert new["phase"] == "bet_pending"
            assert new["bet"]["pending"]["level"] == old["bet"]["level"] + 1
            assert new["bet"]["pending"]["seat"] == actor
        elif text == "raise":
            assert new["bet"]["pending"]["level"] == old["bet"]["pending"]["level"] + 1
            assert new["bet"]["pending"]["team"] == actor % 2
        elif text == "accept":
            assert new["phase"] == "play"
            assert new["bet"]["level"] == old["bet"]["pending"]["level"]
            assert new["bet"]["raise_right"] == actor % 2
        elif text in ("fold", "tumbo_decline"):
            assert after.hand_over
        elif text == "tumbo_play":
            assert new["phase"] == "play" and after.to_act == old["to_play"]

    def check_event_log(self, state: Any) -> None:
        """§5-§12 over the whole log: each deal from its recorded pack, every play against
        §7, every trick against §3/§8, every bet and tumbo call, the award of every deal,
        the §11.1 counting, chicos and the match end."""
        game = state.game
        n = game.players
        record = state.record()
        decks = [d["deck"] for d in record["deals"]]
        match = EnviteMatch(game, record["setup"])
        deals = 0
        for e in state.events:
            dealt = None
            if e["type"] == "deal":
                assert record["deals"][deals]["dealer"] == e["dealer"]
                dealt, vira = envite_deal_from_pack(n, e["dealer"], decks[deals])
                assert e["vira"] == vira, "§5.4: the vira is the card after the hands"
                deals += 1
            match.feed(e, dealt)
        assert deals == len(decks)
        assert match.over, "the match ends with a match_end event"
        assert state.match_over and state.winner == match.winner
        assert state.scores == match.scores and state.games == match.games
        assert match.games[match.winner] == game.options["chicos_to_win"]


MODELS: dict[str, Model] = {m.game: m for m in (BriscolaModel(), EscobaModel(), EnviteModel())}
"""The games with a conformance model; every other registered game is checked generically."""


def default_configs(game: str) -> list[Config]:
    model = MODELS.get(game)
    return model.configs() if model is not None else [Config(game, "default")]
