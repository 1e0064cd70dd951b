"""Self-play data for :mod:`mazo.train`: the ``normal`` heuristic on every seat.

Whole matches are played (so later deals, with scores on the board, are seen too) until
``deals`` deals have ended.  At every decision of the seat to act the record holds the
seat's encoder vector, its legal actions (as feature-index rows of
:class:`mazo.nets.ActionFeatures`; talk is left out, as the encoder does), the action the
heuristic took, and, once the deal ends, the deal's outcome for the seat's side: the
points margin (its points minus the best other side's, over all points taken in the deal:
-1..1) and whether it took the most points (1, 0.5 shared, 0).  Decisions whose action
is talk are skipped.

With ``values`` (``--teacher`` in :mod:`mazo.cli.train`), each decision also gets a value
per candidate action (``q``, NaN where a candidate has none).  ``rollouts`` measures it
on the deal's *real* cards: every candidate is played out once from the true state by
the search's rollout policy, with the same draws after each
(:meth:`mazo.bots.ismcts.ISMCTSBot.world_values`), and the seat's side's reward
recorded; ``search`` takes the expert search's mean per move from the seat's
observation (:meth:`~mazo.bots.ismcts.ISMCTSBot.search_values`).  A net that regresses these
learns each move's value averaged over the hands the seat's opponents really hold in
positions like this one, as the heuristic's play reveals them: what a search's uniform
samples cannot know.  Only decisions with two or more candidates are kept then.

With ``cards`` (``--cards-weight`` in :mod:`mazo.cli.train`), each decision also records
which cards the seat's opponents (the seats of other sides) hold at that moment
(``held``, a row of 0/1 per card id, read from the true state): the labels of the net's
cards head, what the play so far says about the hidden hands.  Beside them, ``unseen``
marks the cards the seat's observation names nowhere (its hand, the table, the tricks,
a face-up card...: any card code in it, actions like ``7O+3C`` split at ``+``): the only
cards whose place a sample chooses, so the only ones the head is trained on.

Match ``m`` is seeded ``derive_seed(seed, "train-match", m)`` and its seat ``s``'s bot
``derive_seed(seed, "train-bot", m, s)``: the same seed gives the same data.  No torch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from mazo.bots import make_bot
from mazo.core.game import Game, MatchState, State
from mazo.core.rng import derive_seed
from mazo.env.encoding import Encoder
from mazo.nets.actions import ActionFeatures

__all__ = ["Dataset", "deal_outcome", "self_play"]

MAX_MOVES = 100_000  # a match longer than this is a bug


@dataclass
class Dataset:
    """Decisions in rows: ``x`` (n, inputs) float32; ``cand`` (n, k, j) int32, feature
    indices of each candidate action (``pad`` = the feature count, a zero logit; a row
    whose first index is ``pad`` is no action); ``target`` (n,) the index of the taken
    action among the candidates; ``margin``, ``win`` (n,) float32; ``match`` (n,) the
    match each decision comes from (validation splits by match)."""

    x: npt.NDArray[np.float32]
    cand: npt.NDArray[np.int32]
    target: npt.NDArray[np.int64]
    margin: npt.NDArray[np.float32]
    win: npt.NDArray[np.float32]
    match: npt.NDArray[np.int32]
    pad: int
    deals: int
    matches: int
    q: npt.NDArray[np.float32] | None = None
    held: npt.NDArray[np.uint8] | None = None  # (n, deck): cards the opponents hold
    unseen: npt.NDArray[np.uint8] | None = None  # (n, deck): cards the view names nowhere

    def __len__(self) -> int:
        return int(self.x.shape[0])


def deal_outcome(points: list[int], side: int) -> tuple[float, float]:
    """``(margin, won)`` of ``side`` for a deal's points per side.

    >>> deal_outcome([70, 50], 0), deal_outcome([70, 50], 1), deal_outcome([3, 3], 1)
    ((0.16666666666666666, 1.0), (-0.16666666666666666, 0.0), (0.0, 0.5))
    """
    mine = points[side]
    best_other = max(p for s, p in enumerate(points) if s != side)
    total = sum(points)
    margin = (mine - best_other) / total if total > 0 else 0.0
    won = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
    return margin, won


def self_play(
    game: Game,
    deals: int,
    seed: int,
    bot: str = "normal",
    progress: Callable[[int, int], None] | None = None,
    values: Callable[[State, int], dict[int, float]] | None = None,
    cards: bool = False,
) -> Dataset:
    """Play ``bot`` against itself on ``game`` until ``deals`` deals have ended (see the
    module docstring); ``progress(done, deals)`` is called as deals end; ``values(state,
    seat)`` gives each candidate's value; ``cards`` records the opponents' cards (the
    module docstring)."""
    encoder = Encoder(game)
    features = ActionFeatures(game)
    side_of = game.info.side_of
    xs: list[npt.NDArray[np.float32]] = []
    cands: list[list[tuple[int, ...]]] = []
    targets: list[int] = []
    margins: list[float] = []
    wins: list[float] = []
    matches: list[int] = []
    qs: list[list[float]] = []
    helds: list[list[int]] = []
    shown: list[set[int]] = []
    deck = game.info.deck
    ids = {deck.format(c): c for c in range(deck.size)}
    nan = float("nan")
    done = 0
    match = 0
    while done < deals:
        bots = [
            make_bot(bot, game, seed=derive_seed(seed, "train-bot", match, s))
            for s in range(game.players)
        ]
        state = game.new_match(seed=derive_seed(seed, "train-match", match))
        memo: dict[str, Any] = {}
        pending: list[tuple[int, int]] = []  # (row, side) of this deal's decisions
        for _ in range(MAX_MOVES):
            seat = state.to_act
            if seat is None or state.match_over or done >= deals:
                break
            obs = state.observation(seat)
            action = bots[seat].choose(obs)
            legal = encoder.legal_ids(obs)
            if values is not None and action in legal:
                worth = values(state, seat) if len(legal) > 1 else {}
                if sum(a in worth for a in legal) < 2:
                    legal = []  # nothing to compare: not kept
                else:
                    qs.append([worth.get(a, nan) for a in legal])
            if action in legal:
                pending.append((len(targets), side_of[seat]))
                xs.append(encoder.encode_seat(obs, seat, memo))
                cands.append([features.of(a) for a in legal])
                targets.append(legal.index(action))
                margins.append(0.0)
                wins.append(0.0)
                matches.append(match)
                if cards:
                    mine = side_of[seat]
                    helds.append(
                        [
                            deck.parse(c)
                            for s in range(game.players)
                            if side_of[s] != mine
                            for c in cast(MatchState, state).hand(s)
                        ]
                    )
                    shown.append(named_cards(obs, ids))
            before, state = state, state.apply(action, seat=seat)
            if state.hand_over:
                for event in state.events_since(before):
                    if event.get("type") != "hand_end":
                        continue
                    points = list(event["points"])
                    for row, side in pending:
                        margins[row], wins[row] = deal_outcome(points, side)
                    pending = []
                    done += 1
                    if progress is not None:
                        progress(min(done, deals), deals)
        if pending:  # a deal cut short by the count: its decisions have no outcome
            cut = pending[0][0]
            del xs[cut:], cands[cut:], targets[cut:], margins[cut:], wins[cut:], matches[cut:]
            del qs[cut:], helds[cut:], shown[cut:]
        match += 1
    data = _pack(xs, cands, targets, margins, wins, matches, features.size, done, match)
    if values is not None:
        q = np.full(data.cand.shape[:2], nan, dtype=np.float32)
        for i, worth_row in enumerate(qs):
            q[i, : len(worth_row)] = worth_row
        data.q = q
    if cards:
        held = np.zeros((len(data), deck.size), dtype=np.uint8)
        unseen = np.ones((len(data), deck.size), dtype=np.uint8)
        for i, (cards_held, cards_named) in enumerate(zip(helds, shown, strict=True)):
            held[i, cards_held] = 1
            unseen[i, list(cards_named)] = 0
        data.held, data.unseen = held, unseen
    return data


def named_cards(view: Any, ids: dict[str, int]) -> set[int]:
    """The ids of every card code anywhere in ``view`` (an observation: dicts, lists,
    strings; an action string names each card it joins with ``+``)."""
    out: set[int] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for part in item.split("+"):
                card = ids.get(part)
                if card is not None:
                    out.add(card)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return out


def _pack(
    xs: list[npt.NDArray[np.float32]],
    cands: list[list[tuple[int, ...]]],
    targets: list[int],
    margins: list[float],
    wins: list[float],
    matches: list[int],
    pad: int,
    deals: int,
    match_count: int,
) -> Dataset:
    n = len(targets)
    k = max((len(c) for c in cands), default=1)
    j = max((len(f) for c in cands for f in c), default=1)
    cand = np.full((n, k, j), pad, dtype=np.int32)
    for i, row in enumerate(cands):
        for a, feats in enumerate(row):
            cand[i, a, : len(feats)] = feats
    width = xs[0].shape[0] if xs else 0
    return Dataset(
        x=np.stack(xs) if xs else np.zeros((0, width), np.float32),
        cand=cand,
        target=np.asarray(targets, dtype=np.int64),
        margin=np.asarray(margins, dtype=np.float32),
        win=np.asarray(wins, dtype=np.float32),
        match=np.asarray(matches, dtype=np.int32),
        pad=pad,
        deals=deals,
        matches=match_count,
    )
