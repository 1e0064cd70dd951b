"""Learned evaluation: a small policy/value network per game, played in numpy.

Nothing here imports torch: the shipped weights (``mazo/nets/weights/<game>-<N>p.npz``,
with a ``.json`` beside each recording how they were made) are plain ``float32`` arrays,
and the forward pass is a few numpy matrix products (:mod:`mazo.nets.model`).  Training lives in
:mod:`mazo.train` (``mazo train GAME``, torch, the ``train`` extra).

A net reads what one seat may know: the vector of the game's encoder
(:mod:`mazo.env.encoding`, which reads the observation only) and the observation's legal
actions.  It says which action the heuristic it was trained on would play (its policy)
and how the deal will end for the seat's side (its value: the points margin, -1..1, and
the chance of taking the most points); a net trained with a cards head also says, per
card, the chance that an opponent holds it (:meth:`GameNet.opponent_cards`), which the
search levels read to weigh their samples (Briscola); in Envite (four and eight
players) and Trionfetti the search levels keep the net's move unless another is clearly better
(ISMCTS ``hint=net``).  docs/nets.md tells the whole story.

Nets are found through the game registry by the game's name; each is trained for one
player count (and the default rules options: the encoder's layout must match), so its
file names the count: ``<game>-<N>p.npz`` (:func:`net_stem`; four-player Briscola's is
``briscola-4p.npz``), and a game may ship one for each of several counts.  A folder
written before the count was in the name (``<game>.npz``) still loads, for the count its
record says.  Asking for a count no net covers raises :class:`NetError` saying which
counts are covered and how to train one for the count asked for.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> net = load_net(game)
>>> state = game.new_match(seed=7)
>>> legal, ev = net.evaluate(state.observation(state.to_act))
>>> len(legal) == len(ev.logits) == 3, -1.0 <= ev.margin <= 1.0, 0.0 <= ev.win <= 1.0
(True, True, True)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.env.encoding import Encoder, Observation
from mazo.games import GAMES
from mazo.nets.actions import HEURISTIC, ActionFeatures
from mazo.nets.model import CARD_LAYERS, LAYERS, Evaluation, NetError, PolicyValueNet, read_value

__all__ = [
    "FORMAT",
    "WEIGHTS",
    "ActionFeatures",
    "Evaluation",
    "GameNet",
    "NetError",
    "PolicyValueNet",
    "feature_kinds",
    "load_net",
    "net_stem",
    "shipped",
]

WEIGHTS = Path(__file__).resolve().parent / "weights"
"""Where the shipped nets live: ``<game>-<N>p.npz`` and ``<game>-<N>p.json`` for each
game and player count (:func:`net_stem`)."""
FORMAT = 1
"""The weights format this code reads (``format`` in the JSON record)."""

_ARRAYS: dict[tuple[str, int, int, int], tuple[PolicyValueNet, dict[str, Any]]] = {}


class GameNet:
    """A network ready to read ``game``'s observations (see :func:`load_net`)."""

    def __init__(self, game: Game, net: PolicyValueNet, meta: Mapping[str, Any]) -> None:
        self.game = game
        self.net = net
        self.meta = dict(meta)
        self.encoder = Encoder(game)
        kinds = feature_kinds(game)
        found = [k for k in kinds if k.size == net.features]
        if not found:
            raise NetError(
                f"this net has {net.features} action features; {game.name} needs "
                f"{' or '.join(str(k.size) for k in kinds)}"
            )
        self.actions = found[0]

    def __repr__(self) -> str:
        return f"GameNet({self.game!r}, hidden={self.net.hidden}, features={self.net.features})"

    def evaluate(
        self, observation: Observation, with_value: bool = True
    ) -> tuple[list[int], Evaluation]:
        """The legal action ids the net may choose from (talk left out, as the encoder
        does) and its :class:`Evaluation` of them; raises :class:`NetError` where the
        seat has none."""
        legal = self.encoder.legal_ids(observation)
        if not legal:
            raise NetError(
                f"seat {observation.get('seat')!r} has no action a net plays (no legal "
                "action, or only talk)"
            )
        x = self.encoder.encode(observation)
        return legal, self.net.evaluate(x, self.actions.of_legal(observation, legal), with_value)

    def value(self, observation: Observation) -> tuple[float, float]:
        """The value head's reading of ``observation``, whether or not its seat is to act:
        the deal's expected margin for the seat's side (-1..1) and its chance of taking
        the most points in the deal."""
        return read_value(self.net.forward(self.encoder.encode(observation))[1])

    def opponent_cards(self, observation: Observation) -> list[float]:
        """Per card id, the chance that a seat of another side holds the card, as the
        net reads ``observation`` (cards the seat sees come out near 0); a head trained
        by seat (``--cards-by-seat``) gives one deck's row per other seat in relative
        order (row ``r``: the seat ``r + 1`` places after the observer), partners
        included.  Only a net trained with a cards head has it (:class:`NetError`
        otherwise)."""
        logits = self.net.card_logits(self.encoder.encode(observation)).astype(np.float64)
        return (1.0 / (1.0 + np.exp(-logits))).tolist()  # type: ignore[no-any-return]


def feature_kinds(game: Game) -> list[ActionFeatures]:
    """The action features a net for ``game`` may have been trained with: the fixed
    ones, and with the game's context features where it has them (``mazo train
    --action-context``), alone or with the heuristic's view of each move
    (``--heuristic-context``).  Their sizes differ, so a net's feature count says which."""
    kinds = [ActionFeatures(game)]
    if ActionFeatures.has_context(game):
        kinds.append(ActionFeatures(game, context=1))
        # Without a heuristic that scores every move no such net can have been made.
        with contextlib.suppress(RulesError):
            kinds.append(ActionFeatures(game, context=HEURISTIC))
    return kinds


def net_stem(name: str, players: int) -> str:
    """The file name (without ``.npz``/``.json``) of ``name``'s net for ``players``, as
    ``mazo train`` writes it and the package ships it: ``briscola-4p``."""
    return f"{name}-{players}p"


def shipped() -> dict[str, tuple[int, ...]]:
    """The games with a shipped net, and the player counts their nets cover (sorted)."""
    out: dict[str, set[int]] = {}
    for path in sorted(WEIGHTS.glob("*.json")):
        name, _, count = path.stem.partition("-")
        if name not in GAMES or not path.with_suffix(".npz").is_file():
            continue
        try:
            players = int(json.loads(path.read_text())["players"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if count and path.stem != net_stem(name, players):
            continue  # named for another count than its record says: not served
        out.setdefault(name, set()).add(players)
    return {name: tuple(sorted(counts)) for name, counts in sorted(out.items())}


def _shipped_text() -> str:
    found = shipped()
    return ", ".join(f"{g} {'/'.join(map(str, p))}p" for g, p in found.items()) or "none"


def _net_file(folder: Path, name: str, players: int) -> Path | None:
    """The weights file in ``folder`` for ``name`` at ``players``: the count's own
    (``<name>-<N>p.npz``), else a file written before the count was in the name
    (``<name>.npz``, whose record then says which count it covers)."""
    for stem in (net_stem(name, players), name):
        path = folder / f"{stem}.npz"
        if path.is_file():
            return path
    return None


def load_net(game: Game, weights: str | Path | None = None) -> GameNet:
    """The net for ``game`` (a configured game: ``mazo.load_game(...)``): the shipped one,
    or ``weights`` (a ``<game>.npz`` file or a folder holding one, as ``mazo train
    --out`` writes).  :class:`NetError` says what is wrong: no net for the game, another
    player count, a layout that does not match the game's options, a damaged file."""
    if not isinstance(game, Game):
        raise NetError(f"load_net needs a configured game (mazo.load_game(...)), not {game!r}")
    name = game.name
    if GAMES.get(name) is not type(game):
        raise NetError(f"{name!r} is not a registered game; games are: {', '.join(GAMES)}")
    if weights is None:
        found = _net_file(WEIGHTS, name, game.players)
        if found is None:
            counts = shipped().get(name)
            if counts:
                nets = "nets were" if len(counts) > 1 else "net was"
                raise _count_error(f"the shipped {name} {nets}", counts, game)
            raise NetError(
                f"no shipped net for {name} (shipped: {_shipped_text()}); train one with "
                f"`mazo train {name} --players {game.players} --out DIR` and load it with "
                "weights=DIR"
            )
        path = found
    else:
        path = Path(weights)
        if path.is_dir():
            folder = path
            found = _net_file(folder, name, game.players)
            if found is None:
                raise NetError(
                    f"no net for {name} at {game.players} players in {str(folder)!r} "
                    f"(looked for {net_stem(name, game.players)}.npz and {name}.npz)"
                )
            path = found
        if not path.is_file():
            raise NetError(
                f"no net file {str(path)!r} (a folder with "
                f"{net_stem(name, game.players)}.npz, or the file)"
            )
    net, meta = _read(path)
    if meta.get("game") != name:
        raise NetError(f"{path.name} is a net for {meta.get('game')!r}, not {name}")
    players = meta.get("players")
    if players != game.players:
        raise _count_error(f"{path} was", (players,), game)
    encoder_size = Encoder(game).size
    if net.inputs != encoder_size:
        raise NetError(
            f"{path.name} reads vectors of {net.inputs} but this {name} configuration "
            f"encodes {encoder_size} (other rules options change the layout): train a net "
            "with these options"
        )
    size = game.info.deck.size
    if net.cards and net.cards not in (size, size * (game.players - 1)):
        raise NetError(
            f"{path.name} has a cards head of {net.cards}; {name}'s deck has {size} cards "
            f"(a head by seat: {size * (game.players - 1)})"
        )
    try:
        return GameNet(game, net, meta)
    except NetError as err:  # the action features fit neither kind: name the file
        raise NetError(f"{path.name}: {err}") from None


def _count_error(subject: str, counts: tuple[Any, ...], game: Game) -> NetError:
    """The error for a net (``subject``: "the shipped briscola nets were") trained for
    other player ``counts`` than ``game``'s, saying how to train one for its count."""
    return NetError(
        f"{subject} trained for {'/'.join(map(str, counts))} players, not {game.players}; "
        f"train one with `mazo train {game.name} --players {game.players} --out DIR` and "
        "load it with weights=DIR"
    )


def _read(path: Path) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The arrays and the JSON record of a weights file (read once per file version)."""
    record = path.with_suffix(".json")
    try:
        stat = path.stat()
        stamp = record.stat().st_mtime_ns if record.is_file() else 0
    except OSError as err:
        raise NetError(f"cannot read {path}: {err}") from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, stamp)
    cached = _ARRAYS.get(key)
    if cached is not None:
        return cached
    try:
        meta = json.loads(record.read_text())
    except OSError:
        raise NetError(f"{path.name} has no record {record.name} beside it") from None
    except ValueError as err:
        raise NetError(f"{record.name} is not valid JSON: {err}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise NetError(f"{record.name} is not a mazo net record of format {FORMAT}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files if k in LAYERS or k in CARD_LAYERS}
    except (OSError, ValueError) as err:
        raise NetError(f"cannot read {path.name} as a weights file: {err}") from None
    net = PolicyValueNet(arrays)
    _ARRAYS[key] = (net, meta)
    return net, meta
