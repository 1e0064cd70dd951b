"""Training a policy/value net with torch, and exporting it for :mod:`mazo.nets`.

The model is :class:`mazo.nets.PolicyValueNet`'s: two hidden ReLU layers of ``hidden``
units, a policy head over action features and a two-number value head.  Loss per
decision: the cross-entropy of the heuristic's action among the legal ones (behaviour
cloning) + ``value_weight`` × (squared error of ``tanh(v0)`` against the deal's margin +
binary cross-entropy of ``v1`` against whether the side won the deal).  Adam, CPU, one
thread, deterministic algorithms: the same data and seed give the same weights on the
same machine.  The last tenth of the matches (at least one when there are two) is held
out for validation, so no deal is on both sides.

Data with values per candidate (``Dataset.q``: each move played out on the real cards)
trains the policy head as a value head instead: an action's logit is its predicted
advantage, the value of the move minus the mean over the decision's moves, in the
search's reward units, fitted by squared error (weighted :data:`Q_WEIGHT`, as the
advantages are small numbers).  Its argmax is then the move worth most, and the search
can add the advantages to its own means (``prior`` in :mod:`mazo.bots.ismcts`).  Such
a run keeps the weights of its best epoch by the validation advantages' error (noisy
targets overfit soon): ``best_epoch`` in the validation numbers says which.

Data with the opponents' cards (``Dataset.held``) and ``cards_weight`` > 0 train a third
head beside the others, one logit per card of the deck, by binary cross-entropy against
whether an opponent holds the card (× ``cards_weight``): what the net has learned about
the hidden hands from the play, which the search reads to weigh its samples
(``infer=net``).  Its validation numbers: ``cards_bce`` (and ``cards_bce_baseline``,
each card's rate whatever the position) and ``cards_recall``, the share of the
opponents' cards among the cards the head rates highest (as many as they hold).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from mazo.train.data import Dataset

__all__ = ["Q_WEIGHT", "Config", "Model", "export", "load_arrays", "train"]

Q_WEIGHT = 100.0
"""Weight of the advantages' squared error (they are tenths of a reward: errors of
hundredths, against a cross-entropy near one)."""


@dataclass(frozen=True)
class Config:
    """What a training run depends on besides the data."""

    epochs: int = 10
    hidden: int = 128
    seed: int = 0
    batch: int = 256
    lr: float = 1e-3
    value_weight: float = 0.5
    cards_weight: float = 0.0


class Model(nn.Module):
    """The torch twin of :class:`mazo.nets.PolicyValueNet` (same layers, same order)."""

    def __init__(self, inputs: int, hidden: int, features: int, cards: int = 0) -> None:
        super().__init__()
        self.l1 = nn.Linear(inputs, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, features)
        self.value = nn.Linear(hidden, 2)
        # Created last, so a net without it draws the same initial weights as before.
        self.cards = nn.Linear(hidden, cards) if cards else None

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        return self.policy(h), self.value(h)

    def card_logits(self, x: torch.Tensor) -> torch.Tensor:
        """The cards head's logits (one per card id); the model must have the head."""
        assert self.cards is not None
        out: torch.Tensor = self.cards(torch.relu(self.l2(torch.relu(self.l1(x)))))
        return out


def candidate_logits(feats: torch.Tensor, cand: torch.Tensor) -> torch.Tensor:
    """Logits ``(b, k)`` of each candidate: the sum of its features' logits (``cand``
    ``(b, k, j)`` indexes ``feats`` ``(b, features)``; the pad index reads a zero logit),
    ``-inf`` where a row holds no action."""
    b, k, j = cand.shape
    padded = torch.cat([feats, feats.new_zeros(b, 1)], dim=1)
    # ``cand`` may be int32 (a whole dataset's is kept so: a quarter of Escoba's
    # training memory); gather wants int64, made here one batch at a time.
    index = cand.reshape(b, k * j).long()
    summed = torch.gather(padded, 1, index).reshape(b, k, j).sum(dim=2)
    empty = cand[:, :, 0] == feats.shape[1]
    return summed.masked_fill(empty, -math.inf)


@dataclass
class Result:
    """A finished run: the model, per-epoch history, validation numbers and timings."""

    model: Model
    history: list[dict[str, float]] = field(default_factory=list)
    validation: dict[str, float] = field(default_factory=dict)
    train_rows: int = 0
    validation_rows: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0


def split(data: Dataset) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Train and validation masks over the rows: the last tenth of the matches held out."""
    held = data.matches // 10 if data.matches >= 10 else (1 if data.matches >= 2 else 0)
    first_held = data.matches - held
    val = data.match >= first_held
    return ~val, val


def _tensors(data: Dataset, rows: npt.NDArray[np.bool_]) -> dict[str, torch.Tensor]:
    out = {
        "x": torch.from_numpy(data.x[rows]),
        "cand": torch.from_numpy(data.cand[rows]),  # int32: candidate_logits widens per batch
        "target": torch.from_numpy(data.target[rows]),
        "margin": torch.from_numpy(data.margin[rows]),
        "win": torch.from_numpy(data.win[rows]),
    }
    if data.q is not None:
        out["q"] = torch.from_numpy(data.q[rows])
    if data.held is not None:
        out["held"] = torch.from_numpy(data.held[rows].astype(np.float32))
        if data.unseen is not None:
            out["unseen"] = torch.from_numpy(data.unseen[rows].astype(np.float32))
    return out


def advantages(values: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """Each valid entry of ``values`` ``(b, k)`` minus its row's mean over the valid
    ones; 0 elsewhere."""
    v = values.masked_fill(~valid, 0.0)
    mean = v.sum(dim=1) / valid.sum(dim=1).clamp(min=1)
    return (v - mean[:, None]).masked_fill(~valid, 0.0)


def _q_parts(
    logits: torch.Tensor, q: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(valid, predicted advantages, target advantages)`` of a batch."""
    valid = torch.isfinite(logits) & ~torch.isnan(q)
    return valid, advantages(logits, valid), advantages(q, valid)


def _losses(
    model: Model, batch: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    feats, value = model(batch["x"])
    logits = candidate_logits(feats, batch["cand"])
    if "q" in batch:
        valid, pred, want = _q_parts(logits, batch["q"])
        policy = Q_WEIGHT * ((pred - want) ** 2).sum() / valid.sum().clamp(min=1)
    else:
        policy = nn.functional.cross_entropy(logits, batch["target"])
    margin = nn.functional.mse_loss(torch.tanh(value[:, 0]), batch["margin"])
    win = nn.functional.binary_cross_entropy_with_logits(value[:, 1], batch["win"])
    return policy, margin, win, logits


def evaluate(model: Model, t: dict[str, torch.Tensor]) -> dict[str, float]:
    """Validation numbers: policy loss and agreement with the heuristic, value losses,
    and what predicting the mean would score (the baseline the value head must beat)."""
    n = int(t["x"].shape[0])
    if n == 0:
        return {}
    with torch.no_grad():
        policy, margin, win, logits = _losses(model, t)
        agree = (logits.argmax(dim=1) == t["target"]).float().mean()
        real = (logits > -math.inf).sum(dim=1) > 1
        agree_real = (logits.argmax(dim=1) == t["target"])[real].float().mean()
        wins = t["win"]
        p = wins.mean().clamp(1e-6, 1 - 1e-6)
        base_win = -(wins * torch.log(p) + (1 - wins) * torch.log(1 - p)).mean()
        _, value = model(t["x"])
        decided = wins != 0.5
        win_acc = ((value[:, 1] > 0) == (wins > 0.5))[decided].float().mean()
        more = _q_numbers(logits, t["q"], t["target"]) if "q" in t else {}
        if model.cards is not None and "held" in t:
            more.update(_card_numbers(model.card_logits(t["x"]), t))
    return {
        **more,
        "rows": float(n),
        "policy_loss": float(policy),
        "agreement": float(agree),
        "agreement_with_choice": float(agree_real),
        "margin_mse": float(margin),
        "margin_mse_baseline": float(t["margin"].var(unbiased=False)),
        "win_bce": float(win),
        "win_bce_baseline": float(base_win),
        "win_accuracy": float(win_acc),
    }


def _q_numbers(logits: torch.Tensor, q: torch.Tensor, target: torch.Tensor) -> dict[str, float]:
    """Validation numbers of a value-trained policy head: the advantages' squared error
    against predicting none, and what the net's move is worth on the real cards beside
    the heuristic's (the mean of the played-out values: one-move gain, reward units)."""
    valid, pred, want = _q_parts(logits, q)
    cells = valid.sum().clamp(min=1)
    rows = torch.arange(q.shape[0])
    mine = pred.masked_fill(~valid, -math.inf).argmax(dim=1)
    got = torch.nan_to_num(q, nan=0.0)
    return {
        "q_mse": float(((pred - want) ** 2).sum() / cells),
        "q_mse_baseline": float((want**2).sum() / cells),
        "q_gain_over_teacher": float((got[rows, mine] - got[rows, target]).mean()),
        "q_gain_best": float(
            (got.masked_fill(~valid, -math.inf).max(dim=1).values - got[rows, target]).mean()
        ),
    }


def _cards_loss(logits: torch.Tensor, t: dict[str, torch.Tensor]) -> torch.Tensor:
    """The cards head's cross-entropy against the opponents' cards, over the cards the
    seat does not see where the data marks them (elsewhere over every card)."""
    each = nn.functional.binary_cross_entropy_with_logits(logits, t["held"], reduction="none")
    mask = t.get("unseen")
    if mask is None:
        return each.mean()
    return (each * mask).sum() / mask.sum().clamp(min=1)


def _card_numbers(logits: torch.Tensor, t: dict[str, torch.Tensor]) -> dict[str, float]:
    """The cards head's validation numbers: its cross-entropy (:func:`_cards_loss`)
    against the same for each card's rate over the rows (a head that reads nothing of
    the position), and the share of the opponents' cards among the cards it rates
    highest (as many as they hold a row; only unseen cards compete where marked)."""
    held = t["held"]
    bce = _cards_loss(logits, t)
    mask = t.get("unseen", torch.ones_like(held))
    rate = ((held * mask).sum(dim=0) / mask.sum(dim=0).clamp(min=1)).clamp(1e-6, 1 - 1e-6)
    base = _cards_loss((torch.log(rate) - torch.log1p(-rate)).expand_as(held), t)
    logits = logits.masked_fill(mask == 0, -math.inf)
    held = held * mask  # a held card the seat sees (a face-up one) is no guess
    counts = held.sum(dim=1).long()
    order = logits.argsort(dim=1, descending=True)
    ranks = torch.empty_like(order)
    ranks.scatter_(1, order, torch.arange(order.shape[1]).expand_as(order).contiguous())
    hits = ((ranks < counts[:, None]) & (held > 0)).sum()
    return {
        "cards_bce": float(bce),
        "cards_bce_baseline": float(base),
        "cards_recall": float(hits) / max(1, int(counts.sum())),
    }


def train(
    data: Dataset,
    config: Config,
    checkpoint: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    init: dict[str, npt.NDArray[np.float32]] | None = None,
) -> Result:
    """Train on ``data`` (see the module docstring).  With ``checkpoint``, the model,
    optimizer and history are saved there after every epoch; with ``resume`` a run
    continues from that file when it holds the same configuration.  ``progress(done,
    total)`` counts batches."""
    wall, cpu = time.perf_counter(), time.process_time()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(config.seed)
    train_rows, val_rows = split(data)
    tr, va = _tensors(data, train_rows), _tensors(data, val_rows)
    if config.cards_weight and data.held is None:
        raise ValueError("cards_weight needs data with the opponents' cards (self_play cards=True)")
    cards = int(data.held.shape[1]) if config.cards_weight and data.held is not None else 0
    model = Model(data.x.shape[1], config.hidden, data.pad, cards)
    if init is not None:
        load_arrays(model, init)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr)
    history: list[dict[str, float]] = []
    start = 0
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    key = {**asdict(config), "rows": len(data), "inputs": int(data.x.shape[1])}
    if resume and checkpoint is not None and checkpoint.is_file():
        saved = torch.load(checkpoint, weights_only=False)
        if saved.get("config") == key:
            model.load_state_dict(saved["model"])
            opt.load_state_dict(saved["opt"])
            torch.set_rng_state(saved["rng"])
            history = list(saved["history"])
            start = int(saved["epoch"])
            # The best epoch so far may be before the interruption: a resumed run must
            # keep the weights an uninterrupted one would.  A checkpoint written before
            # the best was saved in it has none: the run judges its own epochs only.
            if saved.get("best") is not None:
                mse, at, weights = saved["best"]
                best = (float(mse), int(at), weights)
    n = int(tr["x"].shape[0])
    per_epoch = max(1, math.ceil(n / config.batch))
    total = per_epoch * config.epochs
    done = start * per_epoch
    for epoch in range(start, config.epochs):
        model.train()
        order = torch.randperm(n)
        sums = [0.0, 0.0, 0.0]
        for i in range(0, n, config.batch):
            idx = order[i : i + config.batch]
            batch = {k: v[idx] for k, v in tr.items()}
            policy, margin, win, _ = _losses(model, batch)
            loss = policy + config.value_weight * (margin + win)
            if model.cards is not None:
                cards_loss = _cards_loss(model.card_logits(batch["x"]), batch)
                loss = loss + config.cards_weight * cards_loss
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            size = int(idx.shape[0])
            sums[0] += policy.item() * size
            sums[1] += margin.item() * size
            sums[2] += win.item() * size
            done += 1
            if progress is not None:
                progress(done, total)
        model.eval()
        val = evaluate(model, va)
        if "q_mse" in val and (best is None or val["q_mse"] < best[0]):
            state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            best = (val["q_mse"], epoch + 1, state)
        history.append(
            {
                "epoch": float(epoch + 1),
                "policy_loss": sums[0] / max(n, 1),
                "margin_mse": sums[1] / max(n, 1),
                "win_bce": sums[2] / max(n, 1),
                **{f"val_{k}": v for k, v in val.items() if k != "rows"},
            }
        )
        if checkpoint is not None:
            checkpoint.parent.mkdir(parents=True, exist_ok=True)
            torch.save(
                {
                    "config": key,
                    "model": model.state_dict(),
                    "opt": opt.state_dict(),
                    "rng": torch.get_rng_state(),
                    "history": history,
                    "epoch": epoch + 1,
                    "best": best,
                },
                checkpoint,
            )
    model.eval()
    validation = evaluate(model, va)
    if best is not None:
        model.load_state_dict(best[2])
        validation = {**evaluate(model, va), "best_epoch": float(best[1])}
    return Result(
        model=model,
        history=history,
        validation=validation,
        train_rows=n,
        validation_rows=int(va["x"].shape[0]),
        seconds=time.perf_counter() - wall,
        cpu_seconds=time.process_time() - cpu,
    )


def _layers(model: Model) -> list[tuple[nn.Linear, str, str]]:
    """Each torch layer with the names of its weight and bias in a weights file."""
    out = [
        (model.l1, "w1", "b1"),
        (model.l2, "w2", "b2"),
        (model.policy, "wp", "bp"),
        (model.value, "wv", "bv"),
    ]
    if model.cards is not None:
        out.append((model.cards, "wc", "bc"))
    return out


def load_arrays(model: Model, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
    """Start ``model`` from a net's arrays (:func:`export`'s layout, e.g. a shipped net):
    a value-trained run begins where an imitation net left off.  The shapes must match."""
    with torch.no_grad():
        for layer, w, b in _layers(model):
            if w not in arrays:
                continue  # a head the starting net lacks (the cards head) starts fresh
            weight = torch.from_numpy(np.ascontiguousarray(arrays[w].T))
            if weight.shape != layer.weight.shape:
                raise ValueError(
                    f"the starting net's {w} is {tuple(arrays[w].shape)}, this run needs "
                    f"{tuple(layer.weight.T.shape)} (another --hidden or game layout)"
                )
            layer.weight.copy_(weight)
            layer.bias.copy_(torch.from_numpy(np.ascontiguousarray(arrays[b])))


def export(model: Model) -> dict[str, npt.NDArray[np.float32]]:
    """The arrays :class:`mazo.nets.PolicyValueNet` reads (``x @ w`` convention)."""

    def arr(t: torch.Tensor) -> npt.NDArray[np.float32]:
        return np.ascontiguousarray(t.detach().cpu().numpy().astype(np.float32))

    out = {}
    for layer, w, b in _layers(model):
        out[w], out[b] = arr(layer.weight.T), arr(layer.bias)
    return out


def summary_losses(result: Result) -> dict[str, Any]:
    """The last epoch's training losses (for the record)."""
    return dict(result.history[-1]) if result.history else {}
