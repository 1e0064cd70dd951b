"""Self-play data for :mod:`mazo.train`: the ``normal`` heuristic on every seat, or any
bot with its options (``--bot`` in :mod:`mazo.cli.train`: ``expert:iterations=100``
records the search's moves, a generation of expert iteration's labels).

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
cards whose place a sample chooses, so the only ones the head is trained on.  With
``cards="seats"`` (``--cards-by-seat``) the labels say which seat holds each card: one row
of the deck per other seat, in relative order (row ``r``: the seat ``r + 1`` places after
the deciding one, partners included), so a head can tell one opponent's hand from the
other's and read the partner's too; with two players the two layouts are the same.

With ``mix`` (``--mix`` in :mod:`mazo.cli.train`; :mod:`mazo.train.mix`), a share of
the matches puts another bot (``random``, ``easy``, any bot with its options) on one
side; that side's decisions are not learned from, the others' are, with the deals'
outcomes as usual.  The imitation nets learned
``normal``'s play where ``normal`` leads the play; against other players (people, or
``random``) they meet positions ``normal`` never makes, and play them worse than
``normal`` does (docs/nets.md, "Strength").

Match ``m`` is seeded ``derive_seed(seed, "train-match", m)``, its seat ``s``'s bot
``derive_seed(seed, "train-bot", m, s)`` and, with a :class:`Teacher`, its judge
``derive_seed(seed, "train-<kind>", m)``: the same seed gives the same data, and a match's
data does not depend on the matches before it, so ``workers`` processes can play them
(:func:`self_play`) and give the same data as one.  (Until session 20 one judge labelled
the whole run, its Rng running on from match to match: the labels of the runs in
docs/nets.md made before then come out different, not worse, from the same commands.)
No torch.
"""

from __future__ import annotations

import itertools
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
from mazo.sim.jobs import parse_bot_spec
from mazo.train.mix import Mix, check_mix, check_repeatable, mixed_side

__all__ = ["Dataset", "Teacher", "deal_outcome", "self_play", "teacher_values"]

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


@dataclass(frozen=True)
class Teacher:
    """What labels each decision's candidates (``--teacher``), as plain data a worker
    process can rebuild its judge from: ``kind`` ``rollouts`` or ``search``, the
    judge's playouts a move ``iterations`` (search only; rollouts play one)."""

    kind: str
    iterations: int = 100


def teacher_values(
    game: Game, teacher: Teacher, seed: int, match: int
) -> Callable[[State, int], dict[int, float]]:
    """Match ``match``'s judge: the expert search (no prior), seeded
    ``derive_seed(seed, "train-<kind>", match)``, so a match's labels do not depend on
    the matches before it (or on which process played them)."""
    from mazo.bots.ismcts import ISMCTSBot
    from mazo.bots.levels import make_level

    if teacher.kind not in ("rollouts", "search"):
        raise ValueError(f"teacher {teacher.kind!r}: rollouts or search")
    budget = 1 if teacher.kind == "rollouts" else teacher.iterations
    judge = make_level(
        "expert",
        game,
        derive_seed(seed, f"train-{teacher.kind}", match),
        iterations=budget,
        prior=0,
    )
    assert isinstance(judge, ISMCTSBot)
    if teacher.kind == "rollouts":
        return judge.world_values
    return lambda state, seat: judge.search_values(state.observation(seat))


@dataclass
class _MatchRows:
    """One match's decisions, in order, up to its last ended deal; ``ends[k]`` is the
    number of rows when its deal ``k + 1`` ended."""

    xs: list[npt.NDArray[np.float32]]
    cands: list[list[tuple[int, ...]]]
    targets: list[int]
    margins: list[float]
    wins: list[float]
    qs: list[list[float]]
    helds: list[list[int]]
    shown: list[set[int]]
    ends: list[int]


def _play_match(
    game: Game,
    seed: int,
    match: int,
    bot: str,
    values: Callable[[State, int], dict[int, float]] | None,
    cards: bool | str,
    limit: int | None,
    progress: Callable[[], None] | None = None,
    mix: Mix = (),
    context: int = 0,
) -> _MatchRows:
    """Match ``match`` of the self-play, stopped once ``limit`` deals have ended (None:
    played to its end); ``progress()`` is called as each deal ends."""
    encoder = Encoder(game)
    features = ActionFeatures(game, context=context)
    side_of = game.info.side_of
    deck = game.info.deck
    ids = {deck.format(c): c for c in range(deck.size)}
    nan = float("nan")
    rows = _MatchRows([], [], [], [], [], [], [], [], [])
    bot_name, bot_options = parse_bot_spec(bot)  # "expert:iterations=100" too
    bots = [
        make_bot(bot_name, game, seed=derive_seed(seed, "train-bot", match, s), **bot_options)
        for s in range(game.players)
    ]
    other = mixed_side(game, seed, match, mix)
    if other is not None:
        name, options = parse_bot_spec(other[1])
        for s in range(game.players):
            if side_of[s] == other[0]:
                bots[s] = make_bot(
                    name, game, seed=derive_seed(seed, "train-bot", match, s), **options
                )
    learns = [other is None or side_of[s] != other[0] for s in range(game.players)]
    state = game.new_match(seed=derive_seed(seed, "train-match", match))
    memo: dict[str, Any] = {}
    pending: list[tuple[int, int]] = []  # (row, side) of this deal's decisions
    for _ in range(MAX_MOVES):
        seat = state.to_act
        if seat is None or state.match_over or (limit is not None and len(rows.ends) >= limit):
            break
        obs = state.observation(seat)
        action = bots[seat].choose(obs)
        legal = encoder.legal_ids(obs) if learns[seat] else []
        if values is not None and action in legal:
            worth = values(state, seat) if len(legal) > 1 else {}
            if sum(a in worth for a in legal) < 2:
                legal = []  # nothing to compare: not kept
            else:
                rows.qs.append([worth.get(a, nan) for a in legal])
        if action in legal:
            pending.append((len(rows.targets), side_of[seat]))
            rows.xs.append(encoder.encode_seat(obs, seat, memo))
            rows.cands.append(features.of_legal(obs, legal))
            rows.targets.append(legal.index(action))
            rows.margins.append(0.0)
            rows.wins.append(0.0)
            if cards:
                hand = cast(MatchState, state).hand
                n = game.players
                if cards == "seats":  # row r: the seat r + 1 places after the decider
                    where = [(s, ((s - seat) % n - 1) * deck.size) for s in range(n) if s != seat]
                else:  # one row: the other sides' seats
                    where = [(s, 0) for s in range(n) if side_of[s] != side_of[seat]]
                rows.helds.append([at + deck.parse(c) for s, at in where for c in hand(s)])
                rows.shown.append(named_cards(obs, ids))
        before, state = state, state.apply(action, seat=seat)
        if state.hand_over:
            for event in state.events_since(before):
                if event.get("type") != "hand_end":
                    continue
                points = list(event["points"])
                for row, side in pending:
                    rows.margins[row], rows.wins[row] = deal_outcome(points, side)
                pending = []
                rows.ends.append(len(rows.targets))
                if progress is not None:
                    progress()
    _cut(rows, rows.ends[-1] if rows.ends else 0)  # a deal cut short has no outcome
    return rows


def _cut(rows: _MatchRows, n: int) -> None:
    """Keep the first ``n`` rows (and the deal ends within them)."""
    del rows.xs[n:], rows.cands[n:], rows.targets[n:], rows.margins[n:], rows.wins[n:]
    del rows.qs[n:], rows.helds[n:], rows.shown[n:]
    rows.ends = [e for e in rows.ends if e <= n]


# A worker process's game, rebuilt once from its name, player count and options.
_WORKER_GAMES: dict[tuple[Any, ...], Game] = {}


def _worker_match(
    spec: tuple[str, int, tuple[tuple[str, Any], ...]],
    seed: int,
    match: int,
    bot: str,
    teacher: Teacher | None,
    cards: bool | str,
    mix: Mix = (),
    context: int = 0,
) -> _MatchRows:
    """:func:`_play_match` in a worker process: the whole match (the parent keeps the
    deals it needs), the judge made for the match."""
    from mazo import load_game

    game = _WORKER_GAMES.get(spec)
    if game is None:
        name, players, options = spec
        game = _WORKER_GAMES[spec] = load_game(name, players=players, **dict(options))
    values = None if teacher is None else teacher_values(game, teacher, seed, match)
    return _play_match(game, seed, match, bot, values, cards, None, mix=mix, context=context)


def self_play(
    game: Game,
    deals: int,
    seed: int,
    bot: str = "normal",
    progress: Callable[[int, int], None] | None = None,
    values: Callable[[State, int], dict[int, float]] | None = None,
    cards: bool | str = False,
    teacher: Teacher | None = None,
    workers: int = 1,
    mix: Mix = (),
    context: int = 0,
) -> Dataset:
    """Play ``bot`` against itself on ``game`` until ``deals`` deals have ended (see the
    module docstring); ``progress(done, deals)`` is called as deals end; ``values(state,
    seat)`` gives each candidate's value (one judge for the whole run, in this process),
    or ``teacher`` makes a judge per match (:func:`teacher_values`); ``cards`` records
    the opponents' cards, or ``"seats"`` every other seat's; ``mix`` puts other bots on
    a side in a share of the matches (the module docstring); ``context`` adds the game's
    action context features (:class:`mazo.nets.ActionFeatures`) to each candidate.

    ``workers`` > 1 plays matches in that many processes, a few matches ahead of the
    ones kept, and keeps them in match order, each cut where the sequential run stops:
    the same data as one worker, match for match (tested)."""
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    if cards not in (False, True, "seats"):
        raise ValueError(f"cards must be False, True or 'seats', not {cards!r}")
    check_mix(mix)  # before any match
    for who in [bot, *(other for other, _ in mix)]:
        check_repeatable(game, who)  # options taken, no clock: the same seed, the same data
    if values is not None and (teacher is not None or workers > 1):
        raise ValueError("values is one judge in this process: use teacher for workers")
    done = 0
    match = 0
    kept: list[tuple[int, _MatchRows]] = []

    def take(rows: _MatchRows) -> None:
        nonlocal done
        need = deals - done
        if len(rows.ends) > need:
            _cut(rows, rows.ends[need - 1])
        kept.append((match, rows))
        done += len(rows.ends)

    if workers == 1:
        ended = itertools.count(1)

        def tick() -> None:
            if progress is not None:
                progress(min(next(ended), deals), deals)

        while done < deals:
            judge = values
            if teacher is not None:
                judge = teacher_values(game, teacher, seed, match)
            take(
                _play_match(game, seed, match, bot, judge, cards, deals - done, tick, mix, context)
            )
            match += 1
    else:
        from concurrent.futures import Future, ProcessPoolExecutor

        spec = (game.name, game.players, tuple(sorted(game.options.items())))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            ahead: dict[int, Future[_MatchRows]] = {}
            while done < deals:
                for m in range(match, match + 2 * workers):
                    if m not in ahead:
                        ahead[m] = pool.submit(
                            _worker_match, spec, seed, m, bot, teacher, cards, mix, context
                        )
                take(ahead.pop(match).result())
                match += 1
                if progress is not None:
                    progress(min(done, deals), deals)
            for future in ahead.values():
                future.cancel()
    pad = ActionFeatures(game, context=context).size
    return _merge(kept, pad, done, match, values or teacher, cards, game)


def _merge(
    kept: list[tuple[int, _MatchRows]],
    pad: int,
    done: int,
    match_count: int,
    labelled: object,
    cards: bool | str,
    game: Game,
) -> Dataset:
    """The matches' rows as one :class:`Dataset`."""
    xs: list[npt.NDArray[np.float32]] = []
    cands: list[list[tuple[int, ...]]] = []
    targets: list[int] = []
    margins: list[float] = []
    wins: list[float] = []
    matches: list[int] = []
    qs: list[list[float]] = []
    helds: list[list[int]] = []
    shown: list[set[int]] = []
    for m, rows in kept:
        xs += rows.xs
        cands += rows.cands
        targets += rows.targets
        margins += rows.margins
        wins += rows.wins
        matches += [m] * len(rows.targets)
        qs += rows.qs
        helds += rows.helds
        shown += rows.shown
    data = _pack(xs, cands, targets, margins, wins, matches, pad, done, match_count)
    if labelled is not None:
        q = np.full(data.cand.shape[:2], float("nan"), dtype=np.float32)
        for i, worth_row in enumerate(qs):
            q[i, : len(worth_row)] = worth_row
        data.q = q
    if cards:
        size = game.info.deck.size
        rows_of = game.players - 1 if cards == "seats" else 1
        width = rows_of * size
        held = np.zeros((len(data), width), dtype=np.uint8)
        unseen = np.ones((len(data), width), dtype=np.uint8)
        for i, (cards_held, cards_named) in enumerate(zip(helds, shown, strict=True)):
            held[i, cards_held] = 1
            named = list(cards_named)
            for r in range(rows_of):
                unseen[i, [r * size + c for c in named]] = 0
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
