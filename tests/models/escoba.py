"""Escoba's oracle (``rules/escoba.md``): where every card is, what each seat may
know and what the event log must say, computed from the rules file, never from the engine.

See :mod:`models` for what a model is and how the conformance suite uses it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from models.common import (
    ALL_40,
    CARD_CODES_40,
    JSON,
    SUITS,
    Config,
    Model,
    Position,
    deal_blocks,
    fill_pack,
    unique_best,
)

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


def escoba_deck(
    players: int, dealer: int, hands: Mapping[int, Sequence[str]], table: Sequence[str]
) -> list[str]:
    """§5.1 backwards, one card at a time: a pack (top first) in which card ``k < 3n`` goes to
    seat ``(dealer + 1 + k) mod n`` (these hands) and cards ``3n..3n+3`` make this table,
    the other cards in canonical order."""
    n = players
    placed = {3 * n + i: card for i, card in enumerate(table)}
    for seat, cards in hands.items():
        first = (seat - dealer - 1) % n
        placed.update((first + j * n, card) for j, card in enumerate(cards))
    return fill_pack(ALL_40, placed)


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


MODEL = EscobaModel()
"""Found by :data:`models.MODELS` through the game registry (this module's name)."""
