"""The policy/value network's forward pass in numpy (see :mod:`mazo.nets`).

Layers (all ``float32``): ``x`` (the encoder's vector) → ``relu(x·W1 + b1)`` →
``relu(·W2 + b2)`` = ``h``; policy: ``h·Wp + bp``, one logit per action feature
(:class:`mazo.nets.actions.ActionFeatures`), an action's logit the sum of its features';
value: ``h·Wv + bv``, two numbers: ``tanh`` of the first is the expected points margin of
the deal for the seat's side (its points minus the best other side's, over all points
taken in the deal: -1..1), ``sigmoid`` of the second the chance its side takes the most
points in the deal.  An optional third head, ``h·Wc + bc``, one logit per card of the
deck: ``sigmoid`` of it is the chance that the card is in an opponent's hand (a seat of
another side), as the play that reached the position says; the search reads it to weigh
its samples (``infer=net`` in :mod:`mazo.bots.ismcts`).  Cards the seat sees score near
zero: only the unseen ones matter to a sample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mazo.core.errors import RulesError

__all__ = [
    "CARD_LAYERS",
    "LAYERS",
    "Evaluation",
    "NetError",
    "PolicyValueNet",
    "layer_shapes",
    "read_value",
]

F32 = npt.NDArray[np.float32]

LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
"""The arrays of a weights file, in forward order."""
CARD_LAYERS = ("wc", "bc")
"""The optional cards head's arrays (both or neither)."""


def layer_shapes(
    inputs: int, hidden: int, features: int, cards: int = 0, hidden2: int | None = None
) -> dict[str, tuple[int, ...]]:
    """The shape of every array of a weights file (the cards head's with ``cards``)."""
    h2 = hidden if hidden2 is None else hidden2
    out: dict[str, tuple[int, ...]] = {
        "w1": (inputs, hidden),
        "b1": (hidden,),
        "w2": (hidden, h2),
        "b2": (h2,),
        "wp": (h2, features),
        "bp": (features,),
        "wv": (h2, 2),
        "bv": (2,),
    }
    if cards:
        out |= {"wc": (h2, cards), "bc": (cards,)}
    return out


class NetError(RulesError):
    """A network that cannot be loaded or does not fit the game it is asked to play."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the network says about one position: a logit per legal action (in the order
    given), the expected margin (-1..1) and the chance of winning the deal (0..1)."""

    logits: list[float]
    margin: float
    win: float

    def probabilities(self) -> list[float]:
        """The policy over the given actions (softmax of the logits)."""
        top = max(self.logits)
        exp = [math.exp(x - top) for x in self.logits]
        total = sum(exp)
        return [e / total for e in exp]


def read_value(pair: F32) -> tuple[float, float]:
    """The value head's raw pair as ``(margin, chance)``: the deal's expected margin
    (-1..1) and the chance of taking the most points in it."""
    v0, v1 = pair.tolist()
    return math.tanh(v0), 1.0 / (1.0 + math.exp(-v1))


class PolicyValueNet:
    """Two hidden ReLU layers, a policy head over action features, a value head and,
    optionally, a head over the deck's cards (:meth:`card_logits`)."""

    def __init__(self, arrays: Mapping[str, Any]) -> None:
        missing = [k for k in LAYERS if k not in arrays]
        if missing:
            raise NetError(
                f"the weights lack {', '.join(missing)} (a file has {', '.join(LAYERS)})"
            )
        w: dict[str, F32] = {k: np.ascontiguousarray(arrays[k], dtype=np.float32) for k in LAYERS}
        if any(w[k].ndim != 2 for k in ("w1", "w2", "wp", "wv")):
            raise NetError("weights w1, w2, wp and wv must be matrices")
        inputs, hidden = w["w1"].shape
        hidden2, features = w["w2"].shape[1], w["wp"].shape[1]
        for key, shape in layer_shapes(inputs, hidden, features, hidden2=hidden2).items():
            if w[key].shape != shape:
                raise NetError(f"weights {key} have shape {w[key].shape}, expected {shape}")
        have = [k for k in CARD_LAYERS if k in arrays]
        self.cards = 0  # the cards head's width: the deck's size, 0 without one
        if have:
            if len(have) != len(CARD_LAYERS):
                raise NetError("a cards head needs both wc and bc")
            for k in CARD_LAYERS:
                w[k] = np.ascontiguousarray(arrays[k], dtype=np.float32)
            wc, bc = w["wc"], w["bc"]
            if wc.ndim != 2 or wc.shape[0] != hidden2:
                raise NetError(f"weights wc have shape {wc.shape}, expected ({hidden2}, cards)")
            if bc.shape != (wc.shape[1],):
                raise NetError(f"weights bc have shape {bc.shape}, expected ({wc.shape[1]},)")
            self.cards = int(w["wc"].shape[1])
        self.w = w
        self.inputs = int(inputs)
        self.hidden = int(hidden)
        self.features = int(features)
        self._w1, self._b1 = w["w1"], w["b1"]
        self._w2, self._b2 = w["w2"], w["b2"]
        # Both heads in one product: the policy's columns, then the value's two.
        self._wh = np.ascontiguousarray(np.concatenate([w["wp"], w["wv"]], axis=1))
        self._bh = np.concatenate([w["bp"], w["bv"]])

    def nbytes(self) -> int:
        """Bytes of the weights."""
        return sum(int(a.nbytes) for a in self.w.values())

    def _body(self, x: F32) -> F32:
        h: F32 = x @ self._w1
        h += self._b1
        np.maximum(h, 0.0, out=h)
        h2: F32 = h @ self._w2
        h2 += self._b2
        np.maximum(h2, 0.0, out=h2)
        return h2

    def card_logits(self, x: F32) -> F32:
        """The cards head's logits of ``x`` (one vector or a batch): per card id, the
        log-odds that an opponent holds it.  :class:`NetError` without the head."""
        if not self.cards:
            raise NetError("this net has no cards head (train it with --cards-weight)")
        out: F32 = self._body(x) @ self.w["wc"]
        out += self.w["bc"]
        return out

    def forward(self, x: F32) -> tuple[F32, F32]:
        """``(feature logits, value pair)`` of one vector ``x`` or a batch ``(n, inputs)``;
        the value pair is raw (see :meth:`evaluate` for margin and chance)."""
        out: F32 = self._body(x) @ self._wh
        out += self._bh
        f = self.features
        return out[..., :f], out[..., f:]

    def evaluate(
        self, x: F32, actions: Sequence[Sequence[int]], with_value: bool = True
    ) -> Evaluation:
        """The :class:`Evaluation` of vector ``x`` for the actions given by their feature
        indices (``ActionFeatures.of`` of each legal action)."""
        if x.shape != (self.inputs,):
            raise NetError(f"this net reads vectors of {self.inputs}, not shape {x.shape}")
        feats, value = self.forward(x)
        row = feats.tolist()
        logits = [row[f[0]] if len(f) == 1 else sum(row[i] for i in f) for f in actions]
        if not with_value:
            return Evaluation(logits, 0.0, 0.5)
        return Evaluation(logits, *read_value(value))
