"""Briscola's oracle (``rules/briscola.md``): where every card is, what each seat may
know and what the event log must say, computed from the rules file, never from the engine.

The rules as tables come first (card points, trick order, the §5 deal formulas, the §6
trick and draw rules as :class:`RefDeal`, the §6.5 award tables): scenario tests
(``games/test_briscola.py``, ``games/test_briscola_scenarios.py``) build decks and
expected values with them, so a test's expected value never comes from the engine.

See :mod:`models` for what a model is and how the conformance suite uses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from mazo.core.rng import Rng
from models.common import (
    ALL_40,
    CARD_CODES_40,
    JSON,
    SUITS,
    Config,
    Model,
    Position,
    Step,
    deal_blocks,
    fill_pack,
)

# -- the rules, as tables (§2.1) ---------------------------------------------------------

CARD_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
"""§2.1: asso 11, tre 10, re 4, cavallo 3, fante 2, the rest 0."""

TRICK_ORDER = ("1", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
"""§2.1 / §6.3: trick strength, highest first."""

SIGNAL_MEANINGS = (
    "trump_ace",
    "trump_three",
    "trump_king",
    "trump_cavallo",
    "trump_fante",
    "no_trump",
    "low_trump",
    "carico",
)


def rank(code: str) -> str:
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


def card_points(code: str) -> int:
    return CARD_POINTS.get(rank(code), 0)


def strength(code: str) -> int:
    """Higher is stronger: 10 for the asso down to 1 for the 2."""
    return len(TRICK_ORDER) - TRICK_ORDER.index(rank(code))


def trick_winner_pos(cards: Sequence[str], trump: str) -> int:
    """Position in the trick (0 = leader) of the winning card, per §6.3."""
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: strength(cards[i]))
    led = suit(cards[0])
    return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: strength(cards[i]))


def pack_for(players: int, removed_3p: str = "2C") -> list[str]:
    """The cards in play for a deal (§2.2), canonical order."""
    if players == 3:
        return [c for c in ALL_40 if c != removed_3p]
    if players == 6:
        return [c for c in ALL_40 if rank(c) != "2"]
    return list(ALL_40)


def side_of(players: int, seat: int) -> int:
    return seat % 2 if players in (4, 6) else seat


# -- the deal (§5) -------------------------------------------------------------------


def deal_positions(players: int, dealer: int, packet: int = 3) -> dict[int, list[int]]:
    """Deck indices each seat receives, straight from the §5 formulas."""
    n = players
    out: dict[int, list[int]] = {s: [] for s in range(n)}
    if packet == 3:
        for j in range(n):
            out[(dealer + 1 + j) % n] += [3 * j, 3 * j + 1, 3 * j + 2]
    else:
        for k in range(3 * n):
            out[(dealer + 1 + k) % n].append(k)
    return out


def build_deck(
    players: int,
    dealer: int,
    hands: dict[int, Sequence[str]] | None = None,
    indicator: str | None = None,
    stock: Sequence[str | None] = (),
    packet: int = 3,
    pack: Sequence[str] | None = None,
) -> list[str]:
    """A deck (top first) that deals the given hands, indicator and first stock cards.

    ``stock`` lists the first cards of the draw order (deck index 3n+1 on; ``None`` leaves
    a place free); every card not placed fills the free places in canonical order.
    """
    cards = list(pack) if pack is not None else pack_for(players)
    n = players
    placed: dict[int, str] = {}
    pos = deal_positions(n, dealer, packet)
    for seat, hand in (hands or {}).items():
        assert len(hand) <= 3
        placed.update(zip(pos[seat], hand, strict=False))
    if indicator is not None:
        placed[3 * n] = indicator
    placed.update((3 * n + 1 + i, card) for i, card in enumerate(stock) if card is not None)
    return fill_pack(cards, placed)


class RefDeal:
    """An independent model of one Briscola deal, from §5 and §6 of the rules."""

    def __init__(self, players: int, dealer: int, deck: Sequence[str], packet: int = 3) -> None:
        n = self.n = players
        self.dealer = dealer
        self.hands: dict[int, set[str]] = {
            s: {deck[i] for i in idx} for s, idx in deal_positions(n, dealer, packet).items()
        }
        self.indicator = deck[3 * n]
        self.trump = suit(self.indicator)
        self.draw = [*deck[3 * n + 1 :], self.indicator]
        self.leader = self.to_act = (dealer + 1) % n
        self.trick: list[str] = []
        self.piles: dict[int, list[str]] = {s: [] for s in range(n)}
        self.tricks: list[tuple[int, list[str], int, int]] = []
        self.holder: int | None = None

    def play(self, card: str) -> None:
        seat = self.to_act
        assert card in self.hands[seat], f"{card} not in seat {seat}'s hand"
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        winner = (self.leader + trick_winner_pos(self.trick, self.trump)) % self.n
        pts = sum(card_points(c) for c in self.trick)
        self.tricks.append((self.leader, list(self.trick), winner, pts))
        self.piles[winner] += self.trick
        self.trick = []
        if self.draw:
            for i in range(self.n):
                self.hands[(winner + i) % self.n].add(self.draw.pop(0))
            if not self.draw:
                self.holder = (winner - 1) % self.n
        self.leader = self.to_act = winner

    @property
    def over(self) -> bool:
        return not any(self.hands.values()) and not self.trick

    def seat_points(self) -> list[int]:
        return [sum(card_points(c) for c in self.piles[s]) for s in range(self.n)]

    def side_points(self) -> list[int]:
        sides = 3 if self.n == 3 else 2
        out = [0] * sides
        for s, p in enumerate(self.seat_points()):
            out[side_of(self.n, s)] += p
        return out


def award_two_sides(points: Sequence[int]) -> list[int]:
    """§6.5: 61 or more wins the deal; 60-60 is a draw."""
    return [1 if p >= 61 else 0 for p in points]


def award_three_players(points: Sequence[int]) -> list[int]:
    """§6.5: the three-player deal-win table."""
    assert sum(points) == 120
    if 120 in points:
        return [3 if p == 120 else 0 for p in points]
    over = [i for i, p in enumerate(points) if p > 40]
    if len(over) == 2:
        return [1 if i in over else 0 for i in range(3)]
    if len(over) == 1:
        return [2 if i in over else 0 for i in range(3)]
    return [0, 0, 0]


def lowest_card(hand: Iterable[str]) -> str:
    """A deterministic policy: the first card in canonical order."""
    order = {c: i for i, c in enumerate(ALL_40)}
    return min(hand, key=order.__getitem__)


# -- the random policy the conformance suite drives Briscola with ------------------------


def random_step(state: Any, rng: Rng, signals: bool = True) -> tuple[Any, int | None, int]:
    """One random legal action: ``(new state, seat or None, action)``.

    In signal games about one action in four is a signal, by any seat that may give
    one (out of turn too), so signals are well exercised without drowning the play.
    """
    legal = state.legal_actions()
    main: list[tuple[int | None, int]] = [(None, a) for a in legal if not 40 <= a < 48]
    extra: list[tuple[int | None, int]] = [(None, a) for a in legal if 40 <= a < 48]
    if signals and state.game.options.get("signals_enabled"):
        for seat in range(state.game.players):
            if seat != state.to_act:
                extra += [(seat, a) for a in state.legal_actions(seat)]
    pool = extra if extra and (not main or rng.randbelow(4) == 0) else main
    seat, action = rng.choice(pool)
    return state.apply(action, seat=seat), seat, action


# -- the model ---------------------------------------------------------------------------


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


MODEL = BriscolaModel()
"""Found by :data:`models.MODELS` through the game registry (this module's name)."""
