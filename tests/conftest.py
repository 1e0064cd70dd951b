"""Shared helpers for the test suite.

The Briscola helpers here are an independent reference written from
``rules/briscola.md`` (card points, trick order, the §5 deal formulas, the §6 trick and
draw rules).  Scenario and differential tests compare the engine with them, so a test's
expected value never comes from the engine itself.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from mazo.core.rng import Rng

# -- the rules, as tables -------------------------------------------------------------

SUITS = "OCEB"
RANKS_40 = ("1", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
RANKS_52 = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_40 = [r + s for s in SUITS for r in RANKS_40]
"""Every card of the 40-card pack in canonical order (§2.1)."""

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
    deck: list[str | None] = [None] * len(cards)
    placed: list[str] = []
    pos = deal_positions(n, dealer, packet)
    for seat, hand in (hands or {}).items():
        assert len(hand) <= 3
        for idx, card in zip(pos[seat], hand, strict=False):
            deck[idx] = card
            placed.append(card)
    if indicator is not None:
        deck[3 * n] = indicator
        placed.append(indicator)
    for i, card in enumerate(stock):
        if card is not None:
            deck[3 * n + 1 + i] = card
            placed.append(card)
    assert len(set(placed)) == len(placed), "a card is placed twice"
    assert set(placed) <= set(cards), f"cards outside the pack: {set(placed) - set(cards)}"
    rest = iter(c for c in cards if c not in set(placed))
    return [c if c is not None else next(rest) for c in deck]


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


# -- driving engine states ----------------------------------------------------------


def card_actions(state: Any) -> list[int]:
    return [a for a in state.legal_actions() if a < 40]


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


def play_random(
    state: Any,
    rng: Rng,
    on_state: Callable[[Any], None] | None = None,
    max_actions: int = 20_000,
    stop: Callable[[Any], bool] | None = None,
) -> Any:
    """Drive a state with random legal actions until the match ends (or ``stop``)."""
    for _ in range(max_actions):
        if state.match_over or (stop is not None and stop(state)):
            return state
        state, _, _ = random_step(state, rng)
        if on_state is not None:
            on_state(state)
    raise AssertionError(f"match did not end within {max_actions} actions")


def play_cards(state: Any, cards: Iterable[str]) -> Any:
    """Play these cards in order, each by the seat to act."""
    for card in cards:
        state = state.apply(card)
    return state


def play_lowest_until(state: Any, stop: Callable[[Any], bool]) -> Any:
    """Each seat to act plays its lowest canonical card until ``stop(state)``."""
    for _ in range(2000):
        if stop(state):
            return state
        state = state.apply(lowest_card(state.hand(state.to_act)))
    raise AssertionError("policy did not reach the stop condition")


def events_of(state: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


# -- the command line, in-process --------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@pytest.fixture
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No forced colour from the environment: CLI tests read plain text."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")


def run_cli(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    """``mazo ARGV`` in-process with ``stdin``; (exit code, stdout, stderr)."""
    from mazo.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, ANSI.sub("", captured.out), ANSI.sub("", captured.err)


def bot_choice(state: Any, seat: int | None = None, seed: int = 1, **options: Any) -> str:
    """The heuristic bot's action for ``seat`` (default: the seat to act), as a string,
    checked to be one of that seat's legal actions."""
    from mazo.bots import make_bot

    seat = state.to_act if seat is None else seat
    bot = make_bot("heuristic", state.game, seed=seed, **options)
    action = bot.choose(state.observation(seat))
    assert action in state.legal_actions(seat)
    return str(state.game.action_to_string(action))
