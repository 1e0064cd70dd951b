"""Envite Canario's oracle (``rules/envite-canario.md``): where every card is, what each seat may
know and what the event log must say, computed from the rules file, never from the engine.

See :mod:`models` for what a model is and how the conformance suite uses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    fill_pack,
)

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


def envite_deck(
    players: int, dealer: int, hands: Mapping[int, Sequence[str]], vira: str
) -> list[str]:
    """§5.3-§5.4 backwards: a pack (top first) that deals these hands (seat ``D+1+k`` gets
    cards ``3k..3k+2``) and this vira (card ``3N``), the other cards in canonical order."""
    placed: dict[int, str] = {players * 3: vira}
    for k in range(players):
        cards = hands.get((dealer + 1 + k) % players, ())
        placed.update((3 * k + j, card) for j, card in enumerate(cards))
    return fill_pack(ALL_40, placed)


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


MODEL = EnviteModel()
"""Found by :data:`models.MODELS` through the game registry (this module's name)."""
