"""Information-set Monte Carlo tree search over the engine contract, for every game.

The bot sees one observation.  Each iteration samples a full state consistent with it
(``game.determinize``) and walks one tree shared by all samples (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012): a node's children are actions, keyed by id; at each
node only the actions legal in *this* sample compete, by UCB1 where an action's
exploration term counts the samples in which it was available, not the parent's visits.
The first action not yet in the tree is added, the rest of the deal is played out by the
rollout policy, and the deal's result is backed up: each node keeps the reward of the side
that chose its action, so opponents in the tree play for their own side.

What is searched: the seat asked (which may be out of turn: an Envite answer or envío,
a Trionfetti vega answer) at the root, then the seat to act at every node below.  Partners'
talk (``GameInfo.message_actions``) is never searched nor played in rollouts: it does not
change the game, and a search has no model of how a partner reads it.  Out-of-turn calls
by other seats are not searched either (they play when asked).

Reward: what the bot's side gained by the end of the deal in progress
(:func:`outcome_reward`: a game or chico first, else the score; the winner at the match's
end), blended with the score margin (``margin`` option, default 0.1) so that, among moves
that all win or all lose the deal, the search still prefers more points.  ``reward=points``
is linear in points instead (:func:`points_per_game`: a side's gain over the best other
side, a game or chico counted as the points that finished it plus the points the others
lost with it): a bet must be priced by its stake, and the outcome reward accepts a raise
to 4 stones with any chance of winning the deal, where folding gives away 2 (accepting
pays only above a quarter; a test shows both).

``reward=equity`` (Envite) is side 0's chance of winning the match after the deal, from
the heuristic's chico odds (:func:`match_equity_of`): what stones are worth depends on the
score, which linear points ignore.

``reward=game`` is the game's own reward for a line, the ``search_reward`` hook of its
heuristic file (:mod:`mazo.bots.heuristic`), for a game whose deal is better scored in
its own terms.

``paired=true`` makes the flat search compare moves on common worlds: each sample is
played out after every one of the seat's moves, with the same rollout draws, so the luck
of the deal cancels from the moves' difference (the budget counts playouts).

``prior=K`` (with ``paired``) adds the game's shipped net (:mod:`mazo.nets`, numpy) to a
paired search: a net trained with ``mazo train --teacher rollouts`` (or ``search``)
predicts each move's advantage (its value minus the mean of the moves', in the search's
reward units) from the seat's observation; learned from moves played out on real deals'
cards, it may know what uniform samples do not: which hands the others hold where play
reaches a position like this.  No level uses one yet (docs/nets.md: the nets made so
far measured weaker).  It counts as ``K`` worlds beside the search's own: a move's estimate is
``(n·mean + K·advantage) / (n + K)`` over its ``n`` worlds (the mean of the moves' means
added back is the same for every move), and ``guide`` compares the rival with the
heuristic's move on that estimate.  One net evaluation a move: no playout slows.
``weights`` names another net (a folder or ``.npz`` that ``mazo train --out`` wrote).

``top=K`` (with ``paired``) plays out only the net's ``K`` likeliest moves (its policy,
the shipped net's or ``weights``'; ties to the lower id) and the move ``guide`` keeps:
the net as a prior over which moves are worth the budget.  The budget counts playouts,
so each move left in gets more worlds and a less noisy mean.  One net evaluation a
search, where there are more than ``K`` moves.  No level uses it: in two-player Escoba
at 300 playouts, ``top=2`` lost 0.10 hand points a hand against ``normal``, paired with
the preset, and ``top=3`` was even (docs/nets.md, "Session 28"): the moves an imitation
net finds unlikely are where the search finds its gains.

``leaf=K`` (with ``paired``) cuts every line ``K`` moves after the searched move (the
rollout policy's moves) and scores it by the net's value head (the shipped net's or
``weights'``) read from the searching seat's observation of the line: the chance of
winning the deal blended with the expected margin (``margin`` of the weight, the margin
mapped from -1..1 to 0..1, as the game's reward blends them).  A line that ends its deal
sooner is scored by its end, as without the option, and so is one whose leaf hides
nothing from the seat (the solver's ``perfect_information``: two-player Escoba's last
round), played on to its end.  The net reads the deal, not the match, so a line that
would end the match counts as one more deal.  One net evaluation a line instead of the
rest of its rollout: a value from self-play averages over the cards the line has not
shown yet, where a rollout plays one draw of them.  Two-player
Escoba's search levels use ``leaf=6``: +0.05 hand points a hand over its lines played
out, paired over 2,000 deal sets, with about a third less CPU a move (docs/nets.md,
"Session 29"); a cut one move on lost 0.16, four moves on was even.

``bets=heuristic`` leaves every move that is not a card play (Envite's bets and answers,
Trionfetti's vega, answers and rank order, Briscola's exchange) to the game's heuristic,
and searches only which card to play when the heuristic plays one.  Determinized samples
deal the unseen cards uniformly, so they ignore what a raise says about the raiser's hand;
the heuristic's betting rules do not.

``answers=net`` answers the others' raises by the game's net instead (the game's
``net_answer`` hook: Trionfetti's vega, accepted when the net's chance of winning the
deal after accepting makes the stake worth more than the point a refusal gives away);
every other bet stays as ``bets`` says.  The net is the game's shipped one (``weights``
names another); its value head is the leaf value of a one-move look ahead.  An option:
no preset uses it (in Trionfetti it measured worse than the heuristic's answers,
docs/nets.md).

``infer=bets`` reads those bets: a sample is kept only if the game's heuristic, seated in
each other seat's place with that seat's sampled cards, makes the bets (answers, vega...)
that seat made this deal (the sample's deal is replayed from its pack; up to
:data:`INFER_TRIES` samples are drawn, then the last one is used anyway).  ``infer=all``
reads the other seats' card plays the same way.  The model is the heuristic, so this is
opponent modelling: exact against ``normal`` players, a reasonable prior against people,
who also bet on strong hands.

``infer=plays`` weighs samples by the others' card plays where the game's heuristic file
has the ``play_likelihood`` hook (two-player Briscola, Escoba): for each world, ``pool``
samples are drawn and one is kept with a chance in proportion to how likely the heuristic, with
that sample's cards in the opponent's place, was to make the opponent's last plays (a
softmax of its scores, mixed with a uniform slip: an opponent who plays otherwise only
makes the weights flatter).  Sampling, importance weighting and resampling in one step:
the playouts a move stay the budget, and each world costs ``pool`` weighings more.

``infer=net`` weighs samples the same way (``pool`` drawn a world, one kept in
proportion to its weight) by the game's net instead of a model of the play: a net
trained with a cards head (``mazo train --cards-weight``) reads the seat's observation
once a search and says, per card, the chance an opponent holds it, learned from the
heuristic's self-play over whole deals; a sample weighs the product of the odds
``p/(1-p)`` of the cards it deals the opponents (the seats of other sides), the
conditional-Bernoulli posterior over their hands.  A head trained by seat
(``--cards-by-seat``, four-player Briscola's shipped net) gives each other seat, the
partner's too, its own row of odds, and each seat's cards are weighed by its row.
``weights`` names another net.

``infer=both`` weighs a sample by both readers at once: the play reader's likelihood
times the net's odds to the power :data:`NET_POWER` (one half).  They read much of the
same evidence (the net sees the whole deal, the play reader the opponent's last plays),
so at full weight both would count it twice; with the net's odds halved, the true deal
weighs 2.06 times the average sample of two-player Briscola's views, against 1.85 for
either reader alone (docs/nets.md).  Where the play reader has nothing to read yet (no
play of the opponent's), the net's halved odds weigh alone; where it never reads in the
game's configuration (the game's ``reads_plays`` hook: Briscola at four players), ``both``
is ``net``, the odds at full power.

``signals=true`` (Envite, whose rules deliver partner signs by default) makes the bot
sign as the heuristic does, once a deal and before anything else: its best trump, or the
kind of hand it holds.  It also trusts its partners' signs: every sample deals each
partner the trump its sign names (``heuristic.trusted``), unless the play already shows
that sign to be false (then no sign is trusted); ``infer`` also reads a partner's first
sign like a bet, and the bot's side plays its rollouts signing and reading signs.  The
opponents' signs are never seen (``signals=team``) and never modelled.

Rollout policies (``rollout``):

* ``plain`` (the default): uniform over the seat's moves, but where card plays are among
  them only cards are played, so rollouts never bet, raise or vega at random (a random
  vega spam drowned the signal in Trionfetti);
* ``greedy``: a few-microsecond rule of thumb read from the sample
  (:mod:`mazo.bots.playout`; Briscola only, ``plain`` elsewhere);
* ``heuristic``: the game's heuristic bot plays every rollout move: through its fast
  form ``choose_state(state)`` where it has one (the same choice as from the seat's
  observation, read from the sample's own ints and masks), else from the sample's
  observation (100-400 µs a move); better samples than ``plain``, fewer of them;
* ``net``: the game's net (:mod:`mazo.nets`, numpy; ``weights`` names another) plays
  every rollout move, its policy's argmax from the seat's observation (60-100 µs a move:
  a tenth to a twentieth of the fast heuristics' samples).  The playout policy of expert
  iteration, where a net better than the heuristic makes better rollouts; with the
  shipped nets, which imitate ``normal`` and play a little worse, it measured weaker
  than ``heuristic`` (docs/nets.md, "Session 22"), so no level uses it.

``net_opponents=P`` (with ``paired`` and ``rollout=heuristic``) draws the other side's
model per world: in a share ``P`` of the worlds the other side's seats play the rollout
by the game's net (``weights`` names another), in the rest by the heuristic; the bot's
own side always by the heuristic.  A model for opponents who are neither ``normal`` nor
the search: the heuristic is the exact model of ``normal``, the net (trained on the
search's moves) the nearer one of the search.  Measured in four-player Envite at 0.5,
against ``normal``: 57.5% of the stones where the preset takes 62.0%, paired -0.38
stones a deal (docs/nets.md, "Session 24"); no level uses it.

Every sample is marked with ``stop_at_deal_end()`` (where the game has it): the line
ends with the deal in progress, so the move that ends it does not deal the next deal,
which no rollout plays.

The tree may be cut to ``depth`` levels (1 = flat Monte Carlo over the bot's moves).
``guide`` (0-1, default 0 = off) keeps the game's heuristic move unless the search found
one better by more than ``guide`` plus one standard error in mean reward: where the
heuristic knows much that rollouts do not, a small search otherwise trades good moves for
noise.  ``hint=net`` makes the kept move the game's net's instead (its policy's argmax
among the searched moves; ``weights`` names another net; a seat the net has nothing for
keeps the heuristic's; with ``guide`` 0 nothing is kept and no net is read): a net
trained by expert iteration on the search's own choices
(``mazo train --bot expert``) is the search's verdict averaged over many positions, less
noisy than one search's.

Perfect information: where the observation pins the whole state down (2-player Briscola
with the stock empty, 2-player Escoba's last round...), :mod:`mazo.bots.solver` plays the
exact best move instead of sampling (``solver`` option, on by default).

Budget: ``iterations`` samples, or ``think_ms`` milliseconds of wall clock when given
(checked after every sample; the clock starts when ``choose`` is called).  The move played
is the root action visited most.  Tree and rollout choices come from Python's Mersenne
Twister seeded from the bot's seed (its C ``random()`` is the cheapest draw in a
rollout), samples from mazo's own :class:`~mazo.core.rng.Rng` seeded from it: the bot's
moves are reproducible for a seed and an iteration budget on one Python; a time budget
is not.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=3)
>>> bot = mazo.make_bot("ismcts", game, seed=1, iterations=50)
>>> bot.choose(state.observation(state.to_act)) in state.legal_actions()
True
"""

from __future__ import annotations

import copy
import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from mazo.bots.base import Bot, Observation, legal_ids
from mazo.bots.heuristic import hook, make_heuristic
from mazo.bots.rewards import outcome_reward
from mazo.bots.solver import perfect_information
from mazo.core.errors import MazoError, RulesError
from mazo.core.game import Game, MatchState, State
from mazo.core.rng import Rng, derive_seed

__all__ = [
    "ISMCTSBot",
    "cards_net",
    "outcome_reward",
    "parse_ismcts_options",
    "points_per_game",
    "policy_net",
    "prior_net",
    "value_net",
]

MAX_ROLLOUT = 2_000  # actions; a deal is far shorter, this only guards against a loop

OPTIONS = (
    "iterations",
    "think_ms",
    "exploration",
    "rollout",
    "margin",
    "solver",
    "depth",
    "guide",
    "reward",
    "bets",
    "infer",
    "pool",
    "signals",
    "paired",
    "prior",
    "weights",
    "answers",
    "hint",
    "net_opponents",
    "top",
    "leaf",
)


def _rewards(
    scores: list[int], games: list[int], end: State, sides: int, margin: float
) -> list[float]:
    """Each side's reward for one sample: the outcome, blended with the deal's margin
    squashed into [0, 1] (no margin term once the match is decided).  The margin is in
    the deal's own points where the game has finer ones than its scores (Briscola's card
    points: its scores count deals won), else in the scores gained."""
    out = [outcome_reward(scores, games, end, side) for side in range(sides)]
    if margin and not end.match_over:
        gained = end.finished_deal_points()
        scale = 20.0
        if gained is None:
            gained = [b - a for a, b in zip(scores, end.scores, strict=True)]
            scale = 3.0
        for side in range(sides):
            best_other = max(g for s, g in enumerate(gained) if s != side)
            edge = gained[side] - best_other
            squash = 0.5 + 0.5 * edge / (abs(edge) + scale)
            out[side] = (1 - margin) * out[side] + margin * squash
    return out


def points_per_game(game: Game) -> int:
    """The score that wins a game (or the match, where there is no game level): the unit
    of the ``points`` reward (``game.info.score_target``)."""
    unit = game.info.score_target
    if unit < 1:
        raise RulesError(f"no points scale for {game.name}; use reward=outcome")
    return unit


def match_equity_of(game: Game) -> Callable[[State], float]:
    """``state -> side 0's chance of winning the match`` for the ``equity`` reward: the
    ``match_equity_of`` hook of the game's heuristic file (Envite: the heuristic's chico
    odds)."""
    make = hook(game, "match_equity_of")
    if make is None:
        raise RulesError(
            f"ismcts reward=equity needs the game's match equity, which {game.name} "
            "does not have; use reward=outcome or points"
        )
    equity: Callable[[State], float] = make(game)
    return equity


def _points_rewards(
    scores: list[int], games: list[int], end: State, sides: int, unit: int
) -> list[float]:
    """Each side's reward for one sample, linear in points: half, plus what the side
    gained over the best other side, over two games' worth (clipped to [0, 1]); the match
    decided counts 1 or 0.  A game won counts as the points it took to finish it, and the
    points the others lose with it (their scores go back to 0)."""
    if end.match_over:
        winner = end.winner
        return [0.5 if winner is None else 1.0 if winner == side else 0.0 for side in range(sides)]
    after_scores, after_games = end.scores, end.games
    gained = [
        (after_games[s] - games[s]) * unit + after_scores[s] - scores[s] for s in range(sides)
    ]
    out = []
    for side in range(sides):
        edge = gained[side] - max(g for s, g in enumerate(gained) if s != side)
        out.append(min(1.0, max(0.0, 0.5 + edge / (2 * unit))))
    return out


def parse_ismcts_options(options: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Check the options (unknown names and bad values raise RulesError naming what is
    allowed) and fill in ``defaults``."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesError(
            f"bot 'ismcts' has no option {', '.join(unknown)}; options are: {', '.join(OPTIONS)}"
        )
    out = {**defaults, **options}
    iterations, think_ms = out["iterations"], out["think_ms"]
    if type(iterations) is not int or iterations < 1:
        raise RulesError(f"ismcts iterations must be a positive int, not {iterations!r}")
    if type(think_ms) not in (int, float) or think_ms < 0:
        raise RulesError(f"ismcts think_ms must be a number >= 0, not {think_ms!r}")
    for key in ("exploration", "margin"):
        value = out[key]
        if type(value) not in (int, float) or value < 0 or (key == "margin" and value > 1):
            allowed = "a number in [0, 1]" if key == "margin" else "a number >= 0"
            raise RulesError(f"ismcts {key} must be {allowed}, not {value!r}")
    if out["rollout"] not in ("plain", "greedy", "heuristic", "net"):
        raise RulesError(
            "ismcts rollout must be 'plain', 'greedy', 'heuristic' or 'net', "
            f"not {out['rollout']!r}"
        )
    if type(out["depth"]) is not int or out["depth"] < 1:
        raise RulesError(f"ismcts depth must be a positive int, not {out['depth']!r}")
    guide = out["guide"]
    if type(guide) not in (int, float) or not 0 <= guide <= 1:
        raise RulesError(f"ismcts guide must be a number in [0, 1], not {guide!r}")
    if out["infer"] not in ("none", "bets", "all", "plays", "net", "both"):
        raise RulesError(
            "ismcts infer must be 'none', 'bets', 'all', 'plays', 'net' or 'both', "
            f"not {out['infer']!r}"
        )
    pool = out["pool"]
    if type(pool) is not int or not 1 <= pool <= 64:
        raise RulesError(f"ismcts pool must be an int from 1 to 64 (samples a world), not {pool!r}")
    if out["bets"] not in ("search", "heuristic"):
        raise RulesError(f"ismcts bets must be 'search' or 'heuristic', not {out['bets']!r}")
    if out["answers"] not in ("heuristic", "net"):
        raise RulesError(f"ismcts answers must be 'heuristic' or 'net', not {out['answers']!r}")
    if out["reward"] not in ("outcome", "points", "equity", "game"):
        raise RulesError(
            f"ismcts reward must be 'outcome', 'points', 'equity' or 'game', not {out['reward']!r}"
        )
    for key in ("solver", "signals", "paired"):
        if type(out[key]) is not bool:
            raise RulesError(f"ismcts {key} must be true or false, not {out[key]!r}")
    prior = out["prior"]
    if type(prior) not in (int, float) or not 0 <= prior < math.inf:
        raise RulesError(f"ismcts prior must be a number >= 0 (worlds), not {prior!r}")
    if prior and not out["paired"]:
        raise RulesError("ismcts prior weighs the net beside a paired search: set paired=true")
    _check_paired_count(
        out, "top", "the net's likeliest moves searched; 0 for all", "picks the moves"
    )
    _check_paired_count(
        out,
        "leaf",
        "rollout moves before the net's value reads the line; 0 to play it out",
        "scores the lines",
    )
    if out["hint"] not in ("heuristic", "net"):
        raise RulesError(f"ismcts hint must be 'heuristic' or 'net', not {out['hint']!r}")
    share = out["net_opponents"]
    if type(share) not in (int, float) or not 0 <= share <= 1:
        raise RulesError(
            f"ismcts net_opponents must be a number in [0, 1] (a share of worlds), not {share!r}"
        )
    if share and not (out["paired"] and out["rollout"] == "heuristic"):
        raise RulesError(
            "ismcts net_opponents draws the other side's rollout policy per world of a "
            "paired search with the heuristic's rollouts: set paired=true and rollout=heuristic"
        )
    weights = out["weights"]
    if weights is not None and not (isinstance(weights, str) and weights):
        raise RulesError(f"ismcts weights={weights!r}: a folder or .npz path of a net")
    return out


def _check_paired_count(out: dict[str, Any], key: str, meaning: str, does: str) -> None:
    """An option of a paired search that counts (``top``, ``leaf``): an int >= 0, and
    above 0 only with ``paired``."""
    value = out[key]
    if type(value) is not int or value < 0:
        raise RulesError(f"ismcts {key} must be an int >= 0 ({meaning}), not {value!r}")
    if value and not out["paired"]:
        raise RulesError(f"ismcts {key} {does} of a paired search: set paired=true")


DEFAULTS: dict[str, Any] = {
    "iterations": 200,
    "think_ms": 0,
    "exploration": 0.7,
    "rollout": "plain",
    "margin": 0.1,
    "solver": True,
    "depth": 64,
    "guide": 0.0,
    "reward": "outcome",
    "bets": "search",
    "infer": "none",
    "pool": 4,
    "signals": False,
    "paired": False,
    "prior": 0,
    "weights": None,
    "answers": "heuristic",
    "hint": "heuristic",
    "net_opponents": 0.0,
    "top": 0,
    "leaf": 0,
}

NET_POWER = 0.5  # infer=both: the net's odds to this power, beside the play reader's
INFER_TRIES = 16  # samples drawn to find one the others' bets agree with, then any


def _clearly_better(rival: _Node | None, hint: _Node | None, guide: float) -> bool:
    """Whether ``rival`` beat ``hint`` by more than ``guide`` plus one standard error of
    the difference of their mean rewards (a few noisy samples must not overturn the
    heuristic: in Envite a flat 0.03 let noise pick bets and lost most matches)."""
    if rival is None or hint is None or rival.visits < 2 or hint.visits < 2:
        return False
    means = []
    spread = 0.0
    for node in (rival, hint):
        mean = node.reward / node.visits
        var = max(0.0, node.square / node.visits - mean * mean)
        means.append(mean)
        spread += var / (node.visits - 1)
    return means[0] - means[1] > guide + math.sqrt(spread)


def _needs_numpy(option: str) -> RulesError:
    """The refusal of a search option that reads a net where numpy is missing."""
    return RulesError(
        f"ismcts {option} reads the game's net, which needs numpy: pip install 'mazo[cli]'"
    )


def _game_net(game: Game, weights: str | None, option: str) -> Any:
    """The game's shipped net (or ``weights``) for the search's ``option``; numpy comes
    with it (the ``server``, ``cli`` and ``rl`` extras), and without it the option is
    refused with the extra to install."""
    try:
        from mazo.nets import load_net
    except ImportError:
        raise _needs_numpy(option) from None
    return load_net(game, weights)


def value_net(game: Game, weights: str | None = None) -> Any:
    """The game's shipped net (or ``weights``) for its value head (``answers=net``)."""
    return _game_net(game, weights, "answers=net")


def cards_net(game: Game, weights: str | None = None) -> Any:
    """The game's shipped net (or ``weights``), which must have a cards head
    (``infer=net``)."""
    net = _game_net(game, weights, "infer=net")
    if not net.net.cards:
        which = weights or f"the shipped {game.name} net"
        raise RulesError(
            f"ismcts infer=net needs a net with a cards head (mazo train {game.name} "
            f"--cards-weight 0.5); {which} has none"
        )
    return net


def _card_weigher(
    game: Game, net: Any, observation: Observation, power: float = 1.0
) -> Callable[[State, Rng], float]:
    """``infer=net``: a sample's weight, the product over the cards it deals the
    observing seat's opponents of the net's odds that they hold them (each to ``power``:
    one half for ``infer=both``).  A head by seat (``--cards-by-seat``) weighs every other
    seat's cards, partners' too, by that seat's own odds."""
    odds = [min(max(p, 1e-6), 1 - 1e-6) for p in net.opponent_cards(observation)]
    odds = [(p / (1 - p)) ** power for p in odds]
    me = observation["seat"]
    n = game.players
    size = game.info.deck.size
    side_of = game.info.side_of
    if len(odds) == size * (n - 1) and n > 2:  # by seat: row r is the seat r + 1 after me
        rows = [(s, ((s - me) % n - 1) * size) for s in range(n) if s != me]
    else:
        rows = [(s, 0) for s in range(n) if side_of[s] != side_of[me]]
    ids = {game.info.deck.format(c): c for c in range(size)}

    def weigh(state: State, rng: Rng) -> float:
        w = 1.0
        hand = cast(MatchState, state).hand  # every game's state is a MatchState
        for seat, base in rows:
            for code in hand(seat):
                w *= odds[base + ids[code]]
        return w

    return weigh


def weigh_both(
    first: Callable[[State, Rng], float], second: Callable[[State, Rng], float]
) -> Callable[[State, Rng], float]:
    """A sample's weight by two readers at once, their weights multiplied
    (``infer=both``: the plays' likelihood and the net's halved odds)."""

    def weigh(state: State, rng: Rng) -> float:
        return first(state, rng) * second(state, rng)

    return weigh


def rollout_nets(game: Game, seed: int, weights: str | None = None) -> list[Bot]:
    """``rollout=net``: one net bot a seat (the game's shipped net, or ``weights``), all
    reading one loaded net, each playing its policy's argmax from its seat's view."""
    try:
        from mazo.bots.net import NetBot
    except ImportError:
        raise _needs_numpy("rollout=net") from None
    # The net is loaded once (a count without one raises NetError, saying how to train it).
    first = NetBot(game, seed, **({} if weights is None else {"weights": weights}))
    bots: list[Bot] = [first]
    for seat in range(1, game.players):
        other = copy.copy(first)  # the same net's arrays, a generator of its own
        other.rng = Rng(derive_seed(seed, f"rollout-net-{seat}"))
        bots.append(other)
    return bots


def policy_net(game: Game, weights: str | None = None) -> Any:
    """The game's shipped net (or ``weights``) for its policy (``hint=net``)."""
    return _game_net(game, weights, "hint=net")


def prior_net(game: Game, weights: str | None = None) -> Any:
    """The game's shipped net (or ``weights``), which must predict advantages
    (``prior``)."""
    net = _game_net(game, weights, "prior")
    if net.meta.get("record", {}).get("policy") != "advantage":
        which = weights or f"the shipped {game.name} net"
        raise RulesError(
            f"ismcts prior needs a net that predicts move advantages (mazo train "
            f"{game.name} --teacher rollouts); {which} imitates the heuristic"
        )
    return net


def _net_logits(net: Any, observation: Observation, moves: list[int]) -> dict[int, float]:
    """``net``'s logit of each of ``moves`` it reads from ``observation``, in the order of
    its legal ids; empty where the seat has nothing the net plays (only talk)."""
    from mazo.nets import NetError

    try:
        legal, ev = net.evaluate(observation, with_value=False)
    except NetError:
        return {}
    wanted = set(moves)
    return {a: x for a, x in zip(legal, ev.logits, strict=True) if a in wanted}


def _played(per_move: dict[int, list[float]], worlds: list[int]) -> dict[int, list[float]]:
    """Each move's rewards from the worlds it was played out in (``per_move`` lists hold
    a 0 where the move was not legal; the keys' order is the moves' bit order)."""
    out = {}
    for i, (action, rewards) in enumerate(per_move.items()):
        bit = 1 << i
        out[action] = [r for r, w in zip(rewards, worlds, strict=True) if w & bit]
    return out


def _stopping(determinize: Callable[[Rng], State]) -> Callable[[Rng], State]:
    """``determinize`` with its samples marked ``stop_at_deal_end()``, where the game's
    states have it (a state without it keeps dealing: still correct)."""

    def sample(rng: Rng) -> State:
        state = determinize(rng)
        stop: Callable[[], State] | None = getattr(state, "stop_at_deal_end", None)
        return state if stop is None else stop()

    return sample


def _weighing(
    determinize: Callable[[Rng], State], weigh: Callable[[State, Rng], float], pool: int
) -> Callable[[Rng], State]:
    """``determinize`` resampled (``infer=plays`` or ``net``): ``pool`` samples, one kept with a
    chance in proportion to its weight (any, where all weigh nothing)."""

    def sample(rng: Rng) -> State:
        drawn = [determinize(rng) for _ in range(pool)]
        weights = [weigh(s, rng) for s in drawn]
        total = sum(weights)
        if total <= 0:
            return drawn[rng.randbelow(pool)]
        pick = rng.random() * total
        for state, w in zip(drawn, weights, strict=True):
            pick -= w
            if pick < 0:
                return state
        return drawn[-1]

    return sample


def _observing(policy: Bot) -> Callable[[State], int]:
    """``state -> policy's choice from the observation of the seat to act``."""

    def choose(state: State) -> int:
        return policy.choose(state.observation(state.to_act))

    return choose


class _Node:
    """One action's statistics below a parent: visits, summed reward of the side that
    chose it, samples in which it was available, and its children by action id."""

    __slots__ = ("avail", "children", "reward", "square", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.square = 0.0  # summed squared rewards: the spread ``guide`` tests against
        self.avail = 0
        self.children: dict[int, _Node] = {}


class ISMCTSBot:
    """Options: ``iterations`` (samples per decision, default 200), ``think_ms`` (a time
    budget in milliseconds instead; 0 = use iterations), ``exploration`` (UCB1 constant,
    default 0.7), ``rollout`` (``plain``, ``greedy``, ``heuristic`` or ``net``), ``margin`` (weight
    of the deal's margin in the reward, 0-1, default 0.1), ``solver`` (exact play in
    perfect-information positions, default true), ``depth`` (tree levels, default 64),
    ``guide`` (keep the heuristic's move unless beaten by this much, default 0 = off),
    ``reward`` (``outcome``, ``points`` or ``equity``), ``bets`` (``search`` or ``heuristic``),
    ``infer`` (``none``, ``bets`` or ``all``: samples must fit the others' moves;
    ``plays``: samples weighed by the others' card plays, ``pool`` drawn a world),
    ``signals`` (sign to the partners and trust their signs, default false)."""

    name = "ismcts"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        opts = parse_ismcts_options(options, DEFAULTS)
        self.game = game
        self.iterations: int = opts["iterations"]
        self.think_ms = float(opts["think_ms"])
        self.exploration = float(opts["exploration"])
        self.margin = float(opts["margin"])
        self.use_solver: bool = opts["solver"]
        self.depth: int = opts["depth"]
        self.guide = float(opts["guide"])
        self.reward_name: str = opts["reward"]
        self.unit = points_per_game(game) if self.reward_name == "points" else 0
        self.equity: Callable[[State], float] | None = None
        if self.reward_name == "equity":
            self.equity = match_equity_of(game)
        self.game_reward: Callable[[list[int], list[int], State], list[float]] | None = None
        if self.reward_name == "game":
            make_reward = hook(game, "search_reward")
            if make_reward is None:
                raise RulesError(
                    f"ismcts reward=game needs the game's own search reward, which "
                    f"{game.name} does not have; use reward=outcome or points"
                )
            self.game_reward = make_reward(game, self.margin)
        self.guide_bot: Bot | None = None
        info = game.info
        # Below this id moves are card plays; 0 where every move is one (Escoba).
        cards_below = info.card_actions if info.card_actions < info.num_actions else 0
        self.bets_by_heuristic = opts["bets"] == "heuristic" and cards_below > 0
        self.signals: bool = opts["signals"]
        self.paired: bool = opts["paired"]
        self.prior = float(opts["prior"])
        self.net: Any = None
        if self.prior:
            self.net = prior_net(game, opts["weights"])
        # hint=net: the net whose policy names the move the guide keeps (none without a
        # guide: guide=0 over a preset with hint=net plays the search's best, no net).
        self.hint_net: Any = None
        if opts["hint"] == "net" and self.guide:
            self.hint_net = policy_net(game, opts["weights"])
        # top=K: the net whose policy picks the K moves the paired search plays out.
        self.top: int = opts["top"]
        self.top_net: Any = policy_net(game, opts["weights"]) if self.top else None
        self.leaf = int(opts["leaf"])
        self.leaf_net: Any = value_net(game, opts["weights"]) if self.leaf else None
        # answers=net: the game's rule for answering raises by its net's value head.
        self.answerer: Callable[[Game, Any, Observation, Rng], int | None] | None = None
        self.answer_net: Any = None
        if opts["answers"] == "net":
            # Its own generator: every other decision draws as without the option.
            self.answer_rng = Rng(derive_seed(seed, "answers"))
            self.answerer = hook(game, "net_answer")
            if self.answerer is None:
                raise RulesError(
                    f"ismcts answers=net needs the game's net_answer, which {game.name} "
                    "does not have; use answers=heuristic"
                )
            self.answer_net = value_net(game, opts["weights"])
        if self.signals and not info.signals:
            raise RulesError(
                f"ismcts signals are read where the game's heuristic signs to its partners; "
                f"{game.name}'s does not"
            )
        # The heuristic with partner signs on: it signs, and reads the partners' signs.
        signing = {"signals": True} if self.signals else {}
        if self.guide or self.bets_by_heuristic or self.signals:
            self.guide_bot = make_heuristic(game, seed, **signing)
        self.rollout_name: str = opts["rollout"]
        self.random = random.Random(seed)
        self.talk = game.info.message_actions
        self.side_of = game.info.side_of
        self.sides = game.info.sides
        self.cards_below = cards_below
        self.policies: list[Bot] | None = None
        self.signing_policies: list[Bot] | None = None
        self.signing_readers: list[Bot] | None = None
        self.playout = None
        if self.rollout_name == "greedy":
            from mazo.bots.playout import playout_for

            self.playout = playout_for(game)
        if self.rollout_name == "net":
            self.policies = rollout_nets(game, seed, opts["weights"])
        # net_opponents: in this share of the worlds the other side's seats roll out by
        # the net, drawn per world from a generator of its own (every other draw as
        # without the option, so a paired comparison with the plain search holds).
        self.net_share = float(opts["net_opponents"])
        self.net_policies: list[Bot] | None = None
        if self.net_share:
            self.net_policies = rollout_nets(game, seed, opts["weights"])
            self.share_random = random.Random(derive_seed(seed, "net-opponents"))
        self.net_choosers: list[Callable[[State], int]] = []
        self.by_net = False  # this world's other side rolls out by the net
        if self.rollout_name == "heuristic":
            self.policies = self._heuristics()
            if self.signals:
                # The bot's side plays its rollouts as it plays: signing, reading signs.
                self.signing_policies = self._heuristics(**signing)
        self.side = 0  # the side of the seat being searched for (rollouts, infer)
        self.readers: list[Bot] | None = None  # the model of the others' bets (infer)
        # Below this id the others' moves are not read: cards (infer=bets) or none (all).
        self.read_from = 0 if opts["infer"] == "all" else game.info.deck.size
        # infer=plays: the game's model of how well a sample fits the others' plays.
        self.play_reader: Callable[[Game, Observation], Any] | None = None
        self.pool: int = opts["pool"]
        self.card_net: Any = None  # infer=net: the net whose cards head weighs samples
        if opts["infer"] in ("net", "both"):
            self.card_net = cards_net(game, opts["weights"])
        if opts["infer"] in ("plays", "both"):
            self.play_reader = hook(game, "play_likelihood")
            if self.play_reader is None:
                raise RulesError(
                    f"ismcts infer={opts['infer']} needs the game's play_likelihood, which "
                    f"{game.name} does not have; use infer=none, bets, all or net"
                )
            reads = hook(game, "reads_plays")
            if reads is not None and not reads(game):
                # It would read nothing here: infer=both is the net alone, at full power
                # (its half power is for sharing the evidence with the plays' reader).
                self.play_reader = None
        elif opts["infer"] not in ("none", "net"):
            if not info.replays_from_pack:
                raise RulesError(
                    f"ismcts infer reads the play where samples replay their deal from its "
                    f"pack; {game.name}'s do not"
                )
            if self.signals:
                # Partners who sign are modelled by the signing heuristic.
                self.signing_readers = self._heuristics(**signing)
            self.readers = self._heuristics()
        # Parsed action strings and card codes of the records infer replays.
        self._ids: dict[str, int] = {}
        # The deal's setup as the samples' records give it (infer; once per search).
        self._infer_setup: list[Any] | None = None
        # What infer reads in every sample of the search (_read_plan; once a search).
        self._infer_plan: list[Any] | bool | None = None
        self.last_rejected = 0  # samples the last search threw away (infer)
        # Per seat, the rollout policy as ``state -> action`` (set for each search).
        self.choosers: list[Callable[[State], int]] = []
        # The game's whole rollout on ints for those policies, where it has one (a line
        # it does not cover returns None and is played move by move).
        self.fast_rollout: Callable[[State], State | None] | None = None
        self.last_iterations = 0  # samples of the last search (for benchmarks)
        self.last_root: _Node | None = None  # the last search's tree (for tests)
        # The last paired search: each move's reward per world, and per world a bit per
        # move index played out in it (for tests).
        self.last_paired: dict[int, list[float]] = {}
        self.last_worlds: list[int] = []
        self.last_advantages: dict[int, float] = {}  # the net's, for the last search

    def choose(self, observation: Observation) -> int:
        """The root action visited most after the search (or the solver's move).

        On the clock (``think_ms``) the garbage collector is held off until the move is
        made: its full passes took 30-260 ms over the memos the fast rollouts keep,
        enough to push a move past its budget.  A one-second search leaves at most some
        thousands of objects in cycles (measured in every game), collected after it."""
        start = time.perf_counter()
        if not self.think_ms or not gc.isenabled():
            return self._choose(observation, start)
        gc.disable()
        try:
            return self._choose(observation, start)
        finally:
            gc.enable()

    def _choose(self, observation: Observation, start: float) -> int:
        legal = legal_ids(self.game, observation)
        moves = self._moves(legal)
        self.last_iterations = 0
        self.last_root = None
        hint: int | None = None
        if self.signals:
            # The partners' sign, once a deal, comes first, even before a forced move.
            hint = self._heuristic_move(observation)
            if hint is not None and hint in self.talk:
                return hint
        if len(moves) == 1:
            return moves[0]
        if self.answerer is not None:
            answer = self.answerer(self.game, self.answer_net, observation, self.answer_rng)
            if answer is not None and answer in moves:
                return answer
        if self.bets_by_heuristic:
            # Bets, answers, vega and rankings are the heuristic's; the search only
            # chooses which card to play (and not whether to bet instead).
            if not self.signals:
                hint = self._heuristic_move(observation)
            # A heuristic with nothing to say (asked out of turn) leaves it to the search.
            if hint is not None:
                below = self.cards_below
                if hint >= below:
                    return hint
                moves = [a for a in moves if a < below]  # holds hint, a card
                if len(moves) == 1:
                    return moves[0]
        if self.use_solver:
            from mazo.bots.solver import best_action

            # Under a clock, the solver may take about half of it before sampling instead
            # (a node costs 5-20 µs); otherwise the solver's own cap.
            cap = int(self.think_ms * 25) if self.think_ms else 200_000
            rng0 = Rng(self.random.getrandbits(64))
            exact = best_action(self.game, observation, rng0, max_nodes=max(cap, 100))
            if exact is not None and exact in moves:
                return exact
        seat = observation["seat"]
        self.side = self.side_of[seat]
        deadline = start + self.think_ms / 1000 if self.think_ms else None
        root = _Node()
        done = 0
        determinize = self._sampler(observation)
        if self.readers is not None:
            determinize = self._inferring(determinize, seat)
        else:
            weigh = self._weigher(observation)
            if weigh is not None:
                determinize = _weighing(determinize, weigh, self.pool)
        determinize = _stopping(determinize)
        if self.policies is not None:
            self._prepare_rollouts()
        self.last_rejected = 0
        self._infer_setup = None
        self._infer_plan = None
        rng = Rng(self.random.getrandbits(64))
        if self.paired:
            if self.top and len(moves) > self.top:
                if self.guide:
                    hint = self._kept_move(observation, moves, hint)
                moves = self._likeliest(observation, moves, hint)
                if len(moves) == 1:
                    return moves[0]
            return self._choose_paired(observation, determinize, rng, seat, moves, hint, deadline)
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            done += 1
            self._iterate(root, determinize(rng), seat, moves)
        self.last_iterations = done
        self.last_root = root
        children = root.children
        best = max(
            moves,
            key=lambda a: (children[a].visits, children[a].reward) if a in children else (-1, 0),
        )
        if self.guide:
            assert self.guide_bot is not None
            hint = self._kept_move(observation, moves, hint)
            if hint is None:  # a heuristic asked out of turn may have nothing to say
                return best
            if hint != best and not _clearly_better(
                children.get(best), children.get(hint), self.guide
            ):
                return hint
        return best

    def world_values(self, state: State, seat: int) -> dict[int, float]:
        """Each of ``seat``'s moves (talk aside) played out once on ``state`` itself, as
        one paired world of the search (same rollout policy, same draws after every move,
        the same reward): the seat's side's reward after each move.  For training a net
        on the deals' real cards (:mod:`mazo.train.data`), never for choosing a move in
        play: ``state`` is a whole state, hidden cards and all.  ``state`` is unchanged."""
        moves = self._moves(state.legal_actions(seat))
        self.side = self.side_of[seat]
        if self.policies is not None:
            self._prepare_rollouts()
        world = _stopping(lambda rng: state)
        # One world, no clock, no guide and no net (a leaf's value would guess the cards
        # this state holds): each line played to its end (put back after).
        kept = self.iterations, self.think_ms, self.guide, self.prior, self.leaf
        self.iterations, self.think_ms, self.guide, self.prior = len(moves), 0.0, 0.0, 0.0
        self.leaf = 0
        try:
            self._choose_paired({}, world, Rng(0), seat, moves, None, None)
        finally:
            self.iterations, self.think_ms, self.guide, self.prior, self.leaf = kept
        return {a: got[0] for a, got in self.last_paired.items() if got}

    def search_values(self, observation: Observation) -> dict[int, float]:
        """Each move's mean reward after a paired search of ``observation`` (its own
        budget, over the worlds where the move was played out): what a net learns from
        the search (``mazo train --teacher search``).  Empty where the choice needed no
        search: one move, a solved ending, a bet left to the heuristic."""
        if not self.paired:
            raise RulesError("search_values needs a paired search (paired=true)")
        self.last_paired, self.last_worlds = {}, []
        self.choose(observation)
        played = _played(self.last_paired, self.last_worlds)
        return {a: sum(got) / len(got) for a, got in played.items() if got}

    def _heuristics(self, **options: Any) -> list[Bot]:
        """One game heuristic per seat, each seeded from the bot's stream in turn."""
        game = self.game
        return [
            make_heuristic(game, self.random.getrandbits(64), **options)
            for _ in range(game.players)
        ]

    def _kept_move(
        self, observation: Observation, moves: list[int], hint: int | None
    ) -> int | None:
        """The move ``guide`` keeps unless a rival beats it clearly: the net's choice
        among ``moves`` (``hint=net``: its policy's argmax), else ``hint`` (the
        heuristic's move, where the search already asked it), else the heuristic's."""
        if self.hint_net is not None:
            logits = _net_logits(self.hint_net, observation, moves)
            if logits:  # the first of equal logits, as the net level plays
                return max(logits, key=logits.__getitem__)
        if hint is None:
            hint = self._heuristic_move(observation)
        return hint

    def _heuristic_move(self, observation: Observation) -> int | None:
        """The guiding heuristic's move, or None where it has nothing to say."""
        assert self.guide_bot is not None
        try:
            return self.guide_bot.choose(observation)
        except RulesError:
            return None

    def _sampler(self, observation: Observation) -> Callable[[Rng], State]:
        """Samples of the observation; with ``signals``, ones in which each partner holds
        the trumps its sign names (if that fits the play: signs may be false)."""
        if self.signals:
            trusted = getattr(self.guide_bot, "trusted", None)
            if trusted is not None:
                believed = trusted(observation)
                if believed is not observation:
                    try:
                        return self.game.sampler(believed)
                    except RulesError:
                        pass  # a sign the play contradicts: trust none of them
        return self.game.sampler(observation)

    def _weigher(self, observation: Observation) -> Callable[[State, Rng], float] | None:
        """How this search weighs its samples (``infer=plays``, ``net`` or ``both``), or
        None where nothing is weighed (no reader, or the play reader has nothing to read
        and no net beside it)."""
        plays: Callable[[State, Rng], float] | None = None
        if self.play_reader is not None:
            plays = self.play_reader(self.game, observation)
        if self.card_net is None:
            return plays
        power = 1.0 if self.play_reader is None else NET_POWER
        net = _card_weigher(self.game, self.card_net, observation, power)
        return net if plays is None else weigh_both(plays, net)

    def _inferring(self, determinize: Callable[[Rng], State], me: int) -> Callable[[Rng], State]:
        """``determinize``, keeping only samples in which every bet the other seats made
        this deal is the one the heuristic would have made in their place."""

        def sample(rng: Rng) -> State:
            state = determinize(rng)
            for _ in range(INFER_TRIES - 1):
                if self._bets_agree(state, me):
                    return state
                self.last_rejected += 1
                state = determinize(rng)
            return state  # a hand nobody would have bet on: better than no sample

        return sample

    def _bets_agree(self, sample: State, me: int) -> bool:
        """Replay the sample's deal from its pack: does the heuristic, in each other
        seat's place, make the bets (and answers, vega...) that seat made?  The replay
        stops after the last move it reads (the card plays after it change nothing).

        A game whose samples of one observation share every public move (their hidden
        cards aside) offers ``sample._replay_twin(state)``: the sample's own replay where
        ``state``, another sample's replay, stands.  Then the first sample of a search is
        replayed once to its last read move (:meth:`_read_plan`) and every sample is read
        on twins of those states: the same states, readers and order, no replay each."""
        twin = getattr(sample, "_replay_twin", None)
        if twin is not None:
            plan = self._infer_plan
            if plan is None:
                plan = self._infer_plan = self._read_plan(sample, me)
            if isinstance(plan, list):
                return self._plan_agrees(plan, twin)
        return self._replay_agrees(sample, me)

    def _read_plan(self, sample: State, me: int) -> list[Any] | bool:
        """What :meth:`_replay_agrees` reads in every sample of this search, from this
        one's replay: the read moves of :meth:`_read_points` (seat, action, its reader,
        the replay's state before it), in order; False where a read state has no twin:
        those samples are replayed each."""
        points = []
        for point in self._read_points(sample, me):
            if sample._replay_twin(point[3]) is None:  # type: ignore[attr-defined]
                return False
            points.append(point)
        return points

    def _plan_agrees(self, points: list[Any], twin: Callable[[State], State]) -> bool:
        """:meth:`_replay_agrees` on the read moves of :meth:`_read_plan`, each read on
        the sample's twin of the replay's state there."""
        try:
            for seat, action, reader, template in points:
                if not self._reads_alike(reader, twin(template), seat, action):
                    return False
        except MazoError:
            return True  # a deal that does not replay is not read (never seen; a guard)
        return True

    def _replay_agrees(self, sample: State, me: int) -> bool:
        """:meth:`_bets_agree` by replaying this sample's deal from its pack."""
        for seat, action, reader, state in self._read_points(sample, me):
            try:
                if not self._reads_alike(reader, state, seat, action):
                    return False
            except MazoError:
                return True  # a model that fails is not read (never seen; a guard)
        return True

    def _reads_alike(self, reader: Bot, state: State, seat: int, action: int) -> bool:
        """Does ``reader``, in ``seat``'s place at ``state``, make the move ``action`` the
        seat made?  A sign the model would not make at all is no disagreement."""
        try:
            fast = getattr(reader, "choose_state", None)
            if fast is not None and seat == state.to_act:
                model = fast(state)  # the observation's choice, cheaper
            else:
                model = reader.choose(state.observation(seat))
        except RulesError:
            model = action  # the heuristic has no view there: not read
        talk = self.talk
        return model == action or (action in talk and model not in talk)

    def _read_points(self, sample: State, me: int) -> Iterator[tuple[int, int, Bot, State]]:
        """The moves of the others that :meth:`_bets_agree` reads, along the sample's deal
        replayed from its pack: (seat, action, the heuristic that models it, the replay's
        state before it), in order, up to the last move read.  Nothing where the sample is
        not a match state holding its deal alone, or nobody else has made a read move; the
        replay ends quietly at a move that fails (never seen; a guard)."""
        readers = self.readers
        assert readers is not None
        walk: Callable[[], Any] | None = getattr(sample, "_recorded", None)
        if walk is None:
            return  # not a match state with a log to replay: nothing is read
        items = list(walk())
        if not items or len(items) - 1 != sum(1 for i in items if type(i) is tuple):
            return  # a sample holds its deal alone; anything else is not read
        deal, steps = items[0], items[1:]
        game = self.game
        below = self.read_from
        talk = self.talk
        signing = self.signing_readers
        side_of = self.side_of
        side = side_of[me]
        ids = self._ids
        actions = []
        last = -1
        for index, (seat, text) in enumerate(steps):
            action = ids.get(text)
            if action is None:
                action = ids[text] = game.string_to_action(text)
            actions.append(action)
            if seat != me and (action >= below or (signing is not None and action in talk)):
                last = index
        if last < 0:
            return  # nobody else has made a move that is read
        if self._infer_setup is None:
            self._infer_setup = [sample.record().get("setup")]
        memo = self._infer_setup
        signed: set[int] = set()  # partners who signed: the signing heuristic models them
        # game.new_match(seed=0, decks=[deal.deck], dealer=..., setup=...) without its
        # checks of what a sample's own deal holds (the pack's ids, the dealer); the
        # setup, the same in every sample, is checked once a search (a setup that fails
        # its check fails every replay, as it did).
        from mazo.core.game import MatchStart

        dealer = deal.facts.dealer
        if type(dealer) is not int or not 0 <= dealer < game.players:
            return  # new_match would refuse it (never seen; a guard)
        try:
            if len(memo) == 1:
                memo.append(game.check_setup(dict(memo[0] or {})))
            setup = dict(memo[0] or {})
            state = game._new_match(MatchStart(0, (tuple(deal.deck),), dealer, memo[1], setup))
        except MazoError:
            return
        for index in range(last + 1):
            seat, text = steps[index]
            action = actions[index]
            if seat != me:
                reader: Bot | None = None
                if action in talk:
                    # A partner's first sign: the one the signing heuristic makes with
                    # the sample's hand.  Consultations, later signs and the wish for an
                    # envío (which the heuristic never signs) are not read.
                    if (
                        signing is not None
                        and side_of[seat] == side
                        and seat not in signed
                        and text.startswith("signal ")
                        and text != "signal want_envio"
                    ):
                        signed.add(seat)
                        reader = signing[seat]
                elif action >= below:
                    reader = signing[seat] if signing and seat in signed else readers[seat]
                if reader is not None:
                    yield seat, action, reader, state
            try:
                state = state.apply(action, seat=seat)
            except MazoError:
                return

    def _moves(self, legal: list[int]) -> list[int]:
        talk = self.talk
        if not talk:
            return legal
        return [a for a in legal if a not in talk] or legal

    def _iterate(self, root: _Node, state: State, seat: int, root_moves: list[int]) -> None:
        """One sample: select down the tree, expand one action, roll out, back up."""
        scores, games = state.scores, state.games
        here = set(state.legal_actions(seat))
        available = [a for a in root_moves if a in here]
        if not available:
            return
        node = root
        mover = seat
        path: list[tuple[_Node, int]] = []
        rand = self.random.random
        c = self.exploration
        while True:
            children = node.children
            untried = []
            for a in available:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[int(rand() * len(untried))]
                child = _Node()
                child.avail = 1
                children[action] = child
            else:
                best = -1.0
                action = available[0]
                for a in available:
                    ch = children[a]
                    score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best:
                        best, action = score, a
                child = children[action]
            path.append((child, self.side_of[mover]))
            state = (
                state.apply_unchecked(action)
                if mover == state.to_act
                else state.apply(action, seat=mover)
            )
            if untried or state.hand_over or len(path) >= self.depth:
                break
            node = child
            mover = state.to_act  # type: ignore[assignment]  # someone acts until the deal ends
            available = self._moves(state.legal_actions())
        rewards = self._rewards_of(scores, games, self._rollout(state))
        for node_, side in path:
            r = rewards[side]
            node_.visits += 1
            node_.reward += r
            node_.square += r * r

    def _rewards_of(self, scores: list[int], games: list[int], end: State) -> list[float]:
        """Each side's reward for a line that started at ``scores``/``games``."""
        if self.game_reward is not None:
            return self.game_reward(scores, games, end)
        if self.equity is not None:
            e = self.equity(end)
            return [e, 1.0 - e]
        if self.unit:
            return _points_rewards(scores, games, end, self.sides, self.unit)
        return _rewards(scores, games, end, self.sides, self.margin)

    def _choose_paired(
        self,
        observation: Observation,
        determinize: Callable[[Rng], State],
        rng: Rng,
        seat: int,
        moves: list[int],
        hint: int | None,
        deadline: float | None,
    ) -> int:
        """Flat Monte Carlo on common worlds (``paired``): every sample is played out
        once after each of the seat's moves, with the same rollout draws, so moves are
        compared within a world and the luck of the deal cancels from their difference.
        The budget counts playouts; the move with the best mean reward is played (with
        ``guide``, the heuristic's unless a rival's mean paired gain beats ``guide`` plus
        one standard error)."""
        side = self.side
        per_move: dict[int, list[float]] = {a: [] for a in moves}
        worlds: list[int] = []  # per world, a bit per move index played out in it
        done = 0
        policies = self.policies
        signing = self.signing_policies
        outer = self.random
        # A world plays out every move before the clock is read again: under a clock
        # the next world starts only if one as long as the last still fits the budget.
        world_cost = 0.0
        clock = time.perf_counter
        while True:
            if deadline is not None:
                began = clock()
                if done and began + world_cost >= deadline:
                    break
            elif done >= self.iterations:
                break
            state = determinize(rng)
            scores, games = state.scores, state.games
            here = set(state.legal_actions(seat))
            own = state.to_act == seat
            draw = outer.getrandbits(64)
            if self.net_share:
                self.by_net = self.share_random.random() < self.net_share
            played = 0
            for i, action in enumerate(moves):
                if action not in here:
                    per_move[action].append(0.0)
                    continue
                # The same rollout draws after every move: common random numbers.  Only
                # random and greedy rollouts draw from ``self.random`` (seeding a
                # Mersenne Twister costs about 5 µs); the heuristics draw from their own.
                if policies is None:
                    self.random = random.Random(draw)
                else:
                    for j, policy in enumerate(policies):
                        policy.rng = Rng(draw + j)  # type: ignore[attr-defined]
                    if signing is not None:
                        for j, policy in enumerate(signing):
                            policy.rng = Rng(draw + j)  # type: ignore[attr-defined]
                after = state.apply_unchecked(action) if own else state.apply(action, seat=seat)
                if self.leaf:
                    per_move[action].append(self._leaf_reward(scores, games, after, seat))
                else:
                    end = self._rollout(after)
                    per_move[action].append(self._rewards_of(scores, games, end)[side])
                played |= 1 << i
                done += 1
            worlds.append(played)
            if deadline is not None:
                world_cost = clock() - began
            if not played:
                break  # no move of the seat's fits a sample: nothing to learn
        self.random = outer
        self.by_net = False
        self.last_iterations = done
        self.last_paired = per_move
        self.last_worlds = worlds
        index = {a: i for i, a in enumerate(moves)}
        prior = self.prior
        advantage = self._advantages(observation, moves) if prior else {}
        self.last_advantages = advantage
        kept_rewards = _played(per_move, worlds)

        def mean(action: int) -> float:
            got = kept_rewards[action]
            if not got:
                return -1.0
            return (sum(got) + prior * advantage.get(action, 0.0)) / (len(got) + prior)

        best = max(moves, key=mean)
        if not self.guide:
            return best
        hint = self._kept_move(observation, moves, hint)
        if hint is None or hint == best or hint not in index:
            return best
        both = (1 << index[best]) | (1 << index[hint])
        gains = [
            b - h
            for b, h, w in zip(per_move[best], per_move[hint], worlds, strict=True)
            if w & both == both
        ]
        n = len(gains)
        if n < 2:
            return hint
        m = sum(gains) / n
        var = max(0.0, sum(g * g for g in gains) / n - m * m)
        shifted = (n * m + prior * (advantage.get(best, 0.0) - advantage.get(hint, 0.0))) / (
            n + prior
        )
        return best if shifted > self.guide + math.sqrt(var / (n - 1)) else hint

    def _likeliest(self, observation: Observation, moves: list[int], kept: int | None) -> list[int]:
        """``top``: the net's ``top`` likeliest of ``moves`` (the first of equal logits
        first, as the net level plays) and the move the guide keeps, in ``moves``' order;
        all of them where the net reads none.  A paired search's budget counts playouts,
        so every move left out gives the others more worlds: fewer, less noisy means."""
        logits = _net_logits(self.top_net, observation, moves)
        if not logits:
            return moves
        ranked = sorted(logits, key=logits.__getitem__, reverse=True)  # stable: ties by id
        chosen = set(ranked[: self.top])
        if kept is not None:
            chosen.add(kept)
        return [a for a in moves if a in chosen]

    def _advantages(self, observation: Observation, moves: list[int]) -> dict[int, float]:
        """The net's advantage of each of ``moves`` it reads (``prior``), centred on
        their mean; none where the net has nothing to say."""
        got = _net_logits(self.net, observation, moves)
        if len(got) < 2:
            return {}
        centre = sum(got.values()) / len(got)
        return {a: x - centre for a, x in got.items()}

    def _leaf_reward(self, scores: list[int], games: list[int], state: State, seat: int) -> float:
        """``leaf``: the searching side's reward for a line, played ``leaf`` moves on by
        the rollout policy and then read by the net's value head from ``seat``'s
        observation of it, in the search's reward units: the chance of winning the deal
        blended with its expected margin (``margin`` of the weight, the margin mapped
        from -1..1 to 0..1); a line that ends its deal sooner scores its end as a
        rollout's would."""
        end = self._rollout(state, self.leaf)
        if end.hand_over or end.match_over:
            return self._rewards_of(scores, games, end)[self.side]
        seen = end.observation(seat)
        if perfect_information(self.game, seen):
            # Nothing left hidden (Escoba's last round): the rollout's end is exact where
            # the net would guess, and short.
            return self._rewards_of(scores, games, self._rollout(end))[self.side]
        margin, chance = cast(tuple[float, float], self.leaf_net.value(seen))
        return (1.0 - self.margin) * chance + self.margin * (0.5 + 0.5 * margin)

    def _rollout(self, state: State, limit: int = MAX_ROLLOUT) -> State:
        """Play to the end of the deal in progress with the rollout policy, or ``limit``
        moves, whichever comes first."""
        if self.policies is not None:
            return self._heuristic_rollout(state, limit)
        if self.playout is not None:
            return self._greedy_rollout(state, limit)
        talk = self.talk
        below = self.cards_below
        rand = self.random.random
        for _ in range(limit):
            if state.hand_over:  # also true once the match is over
                break
            moves = state.legal_actions()
            # Ids are sorted: the last one tells whether anything but cards is offered.
            if moves[-1] >= below:
                if below:
                    moves = [a for a in moves if a < below] or [a for a in moves if a not in talk]
                elif talk:
                    moves = [a for a in moves if a not in talk]
            state = state.apply_unchecked(moves[int(rand() * len(moves))])
        return state

    def _greedy_rollout(self, state: State, limit: int) -> State:
        playout = self.playout
        assert playout is not None
        talk = self.talk
        rand = self.random.random
        for _ in range(limit):
            if state.hand_over:
                break
            moves = state.legal_actions()
            if talk:
                moves = [a for a in moves if a not in talk] or moves
            state = state.apply_unchecked(playout(state, moves, rand()))
        return state

    def _prepare_rollouts(self) -> None:
        """Each seat's rollout policy (its heuristic; the signing one on the searching
        side when ``signals``) as ``state -> action`` in ``choosers``: through
        ``choose_state`` where the heuristic has it, else through the seat's observation;
        and the game's whole-rollout shortcut for those policies in ``fast_rollout``
        (the heuristic module's ``fast_rollout`` hook, None where it has none)."""
        policies = self.policies
        assert policies is not None
        signing = self.signing_policies
        seated: list[Bot] = []
        out: list[Callable[[State], int]] = []
        for seat, policy in enumerate(policies):
            if signing and self.side_of[seat] == self.side:
                policy = signing[seat]
            seated.append(policy)
            fast: Callable[[State], int] | None = getattr(policy, "choose_state", None)
            out.append(fast if fast is not None else _observing(policy))
        self.choosers = out
        make_fast = hook(self.game, "fast_rollout")  # None for other policies (nets)
        self.fast_rollout = None if make_fast is None else make_fast(seated)
        if self.net_policies is not None:
            # net_opponents: the same seats, the other side's by the net.
            self.net_choosers = [
                _observing(net) if self.side_of[seat] != self.side else out[seat]
                for seat, net in enumerate(self.net_policies)
            ]

    def _heuristic_rollout(self, state: State, limit: int) -> State:
        if self.by_net:
            choosers = self.net_choosers
        else:
            fast = self.fast_rollout
            if fast is not None and limit == MAX_ROLLOUT:  # it plays whole lines only
                end = fast(state)
                if end is not None:
                    return end
            choosers = self.choosers
        for _ in range(limit):
            if state.hand_over or state.match_over:
                break
            seat = state.to_act
            assert seat is not None
            state = state.apply_unchecked(choosers[seat](state))
        return state

    def __repr__(self) -> str:
        budget = f"think_ms={self.think_ms:g}" if self.think_ms else f"iterations={self.iterations}"
        return f"ISMCTSBot({self.game!r}, {budget}, rollout={self.rollout_name})"
