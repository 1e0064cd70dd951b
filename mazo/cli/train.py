"""``mazo train GAME``: self-play data from the ``normal`` heuristic, a policy/value net
trained on it with torch, and the weights written for :mod:`mazo.nets` (numpy).

Torch is imported only when the command runs (``pip install 'mazo[train]'``), so
``mazo --help`` and every other command work without it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mazo.core.errors import RulesError
from mazo.core.game import Game

from .common import (
    CliError,
    Output,
    add_rules_flags,
    game_from_args,
    progress_mode,
    raw_formatter,
    reported,
    with_progress,
)

__all__ = ["add_parser", "run", "train_game"]

SUMMARY = "train a policy/value network for a game (torch)"
DESCRIPTION = """\
Train a small policy/value network for one game: the normal heuristic (or --bot) plays
itself for --deals deals (seeded), every decision is recorded (the seat's encoder vector,
its legal actions, the action taken, the deal's outcome for its side), and a two-layer
MLP learns to choose as that bot does (policy head) and to predict the deal's points
margin and winner (value head), on CPU with torch. The weights go to OUT/GAME-Np.npz (N the
player count: briscola-4p.npz; float32, read by mazo.nets with numpy alone), with
OUT/GAME-Np.json recording how they were made; a checkpoint OUT/GAME-Np.ckpt.pt is saved
after every epoch (--resume continues from it).
The same command and seed give the same weights on the same machine.

--teacher rollouts keeps the heuristic's self-play but labels every decision with each
legal move's value on the deal's real cards: the move played out once by the search's
rollout policy (the heuristic on every seat) and scored with the expert level's reward.
--teacher search labels it with the expert's paired search of the seat's observation
instead (--teacher-iterations playouts). Either way the policy head learns each move's
advantage instead of copying the heuristic; the search can read it (ismcts prior=K,
weights=OUT) and the net bot plays its best. The shipped nets imitate (docs/nets.md says
why: the value-trained ones measured weaker).

--cards-weight W adds a cards head: per card, the chance that an opponent holds it,
learned from the opponents' real hands at each decision of the self-play (over the cards
the seat's view does not show). A search weighs its samples by it with infer=net. The
shipped two-player Briscola net has one (--cards-weight 1.0).

--mix BOT=SHARE puts another bot (random, easy...) on one side in that share of the
matches; its decisions are not learned from, so the net also learns the positions such
play leads to, which a net that only watched normal play against itself plays badly.

--workers N plays the self-play's matches in N processes, each match seeded by its
number (its bots, and with --teacher its own judge), so the data, the weights and the
record are those of one process; the CPU seconds recorded count the workers too."""
EPILOG = """\
examples:
  mazo train briscola --deals 20000 --epochs 12 --seed 1 --out mazo/nets/weights
  mazo train envite --players 4 --deals 50000 --seed 1 --out nets
  mazo train escoba --deals 200 --epochs 2 --json         a quick run, JSON summary

The shipped nets (mazo/nets/weights) were made with the commands in docs/nets.md. A net
covers the player count and rules options it was trained with; the net bot refuses
others with a message saying how to train one. Needs torch: pip install 'mazo[train]'.
"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo train``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help=SUMMARY,
        description=" ".join(DESCRIPTION.split()),
        epilog=EPILOG,
        formatter_class=raw_formatter,
    )
    p.add_argument("game", metavar="GAME", help="the game to train a net for")
    p.add_argument(
        "--players", "-n", type=int, metavar="N", help="number of players (default: the game's)"
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of the self-play and training (0)"
    )
    add_rules_flags(p)
    p.add_argument(
        "--deals", type=int, default=5000, metavar="N", help="deals of self-play data (5000)"
    )
    p.add_argument("--epochs", type=int, default=10, metavar="N", help="passes over the data (10)")
    p.add_argument("--hidden", type=int, default=128, metavar="N", help="units per layer (128)")
    p.add_argument("--batch", type=int, default=256, metavar="N", help="batch size (256)")
    p.add_argument("--lr", type=float, default=1e-3, metavar="X", help="Adam's step (0.001)")
    p.add_argument(
        "--value-weight",
        type=float,
        default=0.5,
        metavar="X",
        help="weight of the value losses beside the policy loss (0.5)",
    )
    p.add_argument(
        "--cards-weight",
        type=float,
        default=0.0,
        metavar="X",
        help="train a cards head (per card, the chance an opponent holds it), its loss at "
        "this weight; 0 (the default) trains none. A search reads it to weigh its "
        "samples with the option infer=net (e.g. expert:infer=net:pool=16)",
    )
    p.add_argument(
        "--cards-by-seat",
        action="store_true",
        help="with --cards-weight: the cards head says which seat holds each card (one "
        "deck's row per other seat, partners included) instead of 'an opponent holds it'; "
        "the same head with two players",
    )
    p.add_argument(
        "--bot",
        default="normal",
        metavar="BOT",
        help="the bot on every seat of the self-play (normal), with its options as in "
        "mazo tournament; with --teacher normal the policy learns its moves: "
        "--bot expert:iterations=100 --init shipped is a generation of expert iteration "
        "(the net learns the search's choices). A search needs a sample count: one that "
        "thinks for a clock is refused, as its data would differ from run to run",
    )
    p.add_argument(
        "--teacher",
        choices=("normal", "rollouts", "search"),
        default="normal",
        help="what the policy head learns: the self-play bot's move (normal), each move's "
        "value played out on the real cards (rollouts) or by the expert's search of the "
        "seat's observation (search; see above)",
    )
    p.add_argument(
        "--teacher-iterations",
        type=int,
        default=100,
        metavar="N",
        help="playouts of the search that labels each decision with --teacher search (100)",
    )
    p.add_argument(
        "--mix",
        action="append",
        default=[],
        metavar="BOT=SHARE",
        help="in this share of the matches another bot plays one side (drawn per match), "
        "whose decisions are not learned from: the net also meets the positions that "
        "bot's play leads to (e.g. --mix random=0.25; repeatable; a bot with options as "
        "in mazo tournament, easy:temperature=1=0.1)",
    )
    p.add_argument(
        "--action-context",
        action="store_true",
        help="give each action the game's context features beside its cards, read from "
        "the position (Escoba: what the table the action leaves offers the next player); "
        "only games whose encoder has them (escoba)",
    )
    p.add_argument(
        "--heuristic-context",
        action="store_true",
        help="with the game's context features, give each action the heuristic's view of "
        "it too: its rank among the legal moves by normal's score and how far that score "
        "falls below the best (implies --action-context; escoba). A net so made starts "
        "from normal's judgement; what it learns from the search (--bot expert:...) is "
        "where the search parts from it",
    )
    p.add_argument(
        "--init",
        metavar="NET",
        help="start from this net's weights (a folder or .npz as --out writes, or 'shipped' "
        "for the game's shipped net) instead of random ones; --hidden must match",
    )
    p.add_argument(
        "--out", default="nets", metavar="DIR", help="folder for GAME-Np.npz/.json/.ckpt.pt (nets)"
    )
    p.add_argument(
        "--resume", action="store_true", help="continue from OUT/GAME-Np.ckpt.pt when it matches"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="play the self-play's matches in N processes (1); the data is the same",
    )
    p.add_argument("--json", action="store_true", help="print only a JSON summary on stdout")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress on stderr (a bar on a terminal, else lines)",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``mazo train``: 0 on success, 2 on bad arguments, 1 without torch."""
    out = Output(color=not args.json)

    def body() -> int:
        for flag in ("deals", "epochs", "hidden", "batch", "teacher_iterations", "workers"):
            if getattr(args, flag) < 1:
                raise CliError(
                    f"--{flag.replace('_', '-')} must be at least 1, not {getattr(args, flag)}"
                )
        if not args.lr > 0:
            raise CliError(f"--lr must be positive, not {args.lr}")
        if not 0 <= args.cards_weight < float("inf"):
            raise CliError(f"--cards-weight must be a number >= 0, not {args.cards_weight}")
        if args.cards_by_seat and not args.cards_weight:
            raise CliError("--cards-by-seat shapes the cards head: give --cards-weight too")
        mix = _parse_mix(args.mix)
        game = game_from_args(args.game, args.players, args.variant, args.option)
        _check_repeatable(game, args.bot, mix)
        try:
            import torch  # noqa: F401
        except ImportError:
            raise CliError(
                "mazo train needs torch, which is in the train extra: pip install 'mazo[train]'",
                code=1,
            ) from None
        from mazo.nets.actions import HEURISTIC, ActionFeatures  # numpy: after torch's check

        context = HEURISTIC if args.heuristic_context else int(args.action_context)
        if context and not ActionFeatures.has_context(game):
            flag = "--heuristic-context" if args.heuristic_context else "--action-context"
            raise CliError(f"{flag}: {game.name} has no action context features (escoba has)")
        show = progress_mode(args)
        summary = train_game(
            game,
            deals=args.deals,
            epochs=args.epochs,
            seed=args.seed,
            hidden=args.hidden,
            batch=args.batch,
            lr=args.lr,
            value_weight=args.value_weight,
            cards_weight=args.cards_weight,
            cards_by_seat=args.cards_by_seat,
            out_dir=Path(args.out),
            resume=args.resume,
            show=show,
            command=_command(args, game),
            teacher=args.teacher,
            teacher_iterations=args.teacher_iterations,
            init=args.init,
            workers=args.workers,
            mix=mix,
            bot=args.bot,
            context=context,
        )
        if args.json:
            sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        else:
            _print(out, summary)
        return 0

    return reported("train", out, body)


def train_game(
    game: Game,
    *,
    deals: int,
    epochs: int,
    seed: int,
    hidden: int = 128,
    batch: int = 256,
    lr: float = 1e-3,
    value_weight: float = 0.5,
    cards_weight: float = 0.0,
    cards_by_seat: bool = False,
    out_dir: Path,
    resume: bool = False,
    show: str | None = None,
    command: str = "",
    teacher: str = "normal",
    teacher_iterations: int = 100,
    init: str | None = None,
    workers: int = 1,
    mix: tuple[tuple[str, float], ...] = (),
    bot: str = "normal",
    context: int = 0,
) -> dict[str, Any]:
    """Self-play, train, export and record (see the module docstring); the summary."""
    # numpy and torch come with the train extra: `mazo` itself (make run, make play)
    # must start without them.
    import numpy as np
    import torch

    from mazo.nets import FORMAT, load_net, net_stem
    from mazo.nets.actions import ActionFeatures
    from mazo.train.data import Teacher, self_play
    from mazo.train.fit import Config, export, train

    name = game.name
    start = None
    if init is not None:
        from mazo.nets import NetError

        try:
            start = load_net(game, None if init == "shipped" else init).net.w
        except NetError as err:
            raise CliError(f"--init {init}: {err}") from None
        if start["w1"].shape[1] != hidden:
            raise CliError(
                f"--init {init} has {start['w1'].shape[1]} units per layer; pass --hidden "
                f"{start['w1'].shape[1]}"
            )
        start = _fit_features(start, ActionFeatures(game, context=context).size, init)
    out_dir.mkdir(parents=True, exist_ok=True)
    # Read before anything is written: retraining a shipped net overwrites tracked files
    # (mazo/nets/weights), which would read as a change to the code that made it.
    commit = _git_commit()
    t0, c0 = time.perf_counter(), _cpu()
    judge: Teacher | None = None
    if teacher in ("rollouts", "search"):
        judge = Teacher(teacher, teacher_iterations)
    elif teacher != "normal":
        raise CliError(f"--teacher {teacher!r}: normal, rollouts or search")
    data = with_progress(
        show,
        f"self-play {name}",
        deals,
        lambda p: self_play(
            game,
            deals,
            seed,
            bot=bot,
            progress=p,
            teacher=judge,
            cards="seats" if cards_by_seat and cards_weight else cards_weight > 0,
            workers=workers,
            mix=mix,
            context=context,
        ),
    )
    play_wall, play_cpu = time.perf_counter() - t0, _cpu() - c0
    if len(data) == 0:
        raise CliError(f"{deals} deals of {name} gave no decision to learn from")
    config = Config(
        epochs=epochs,
        hidden=hidden,
        seed=seed,
        batch=batch,
        lr=lr,
        value_weight=value_weight,
        cards_weight=cards_weight,
    )
    stem = net_stem(name, game.players)  # the count in the name: one folder, many counts
    ckpt = out_dir / f"{stem}.ckpt.pt"
    result = with_progress(
        show,
        f"train {name}",
        1,
        lambda p: train(data, config, checkpoint=ckpt, resume=resume, progress=p, init=start),
    )
    arrays = export(result.model)
    weights = out_dir / f"{stem}.npz"
    np.savez(weights, **arrays)  # type: ignore[arg-type]
    features = ActionFeatures(game, context=context)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": name,
        "players": game.players,
        "options": dict(game.options),
        "inputs": int(data.x.shape[1]),
        "hidden": hidden,
        "action_features": {"kind": features.kind, "size": features.size},
        "record": {
            "command": command,
            "seed": seed,
            "bot": bot,
            "teacher": teacher,
            **({"teacher_iterations": teacher_iterations} if teacher == "search" else {}),
            "policy": "imitation" if teacher == "normal" else "advantage",
            "init": init,
            **({"mix": [list(pair) for pair in mix]} if mix else {}),
            "deals": data.deals,
            "matches": data.matches,
            "decisions": len(data),
            "train_rows": result.train_rows,
            "validation_rows": result.validation_rows,
            "epochs": epochs,
            "batch": batch,
            "lr": lr,
            "value_weight": value_weight,
            **({"cards_weight": cards_weight} if cards_weight else {}),
            **({"cards_by_seat": True} if cards_by_seat and cards_weight else {}),
            "losses": result.history[-1] if result.history else {},
            "history": result.history,
            "validation": result.validation,
            "self_play_seconds": round(play_wall, 1),
            "self_play_cpu_seconds": round(play_cpu, 1),
            "train_seconds": round(result.seconds, 1),
            "train_cpu_seconds": round(result.cpu_seconds, 1),
            "git_commit": commit,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "torch": torch.__version__,
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
    }
    (out_dir / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n")
    net = load_net(game, weights)  # the written files load, and numpy agrees with torch
    rows = data.x[: min(len(data), 512)]
    with torch.no_grad():
        tf, tv = result.model(torch.from_numpy(rows))
    nf, nv = net.net.forward(rows)
    diff = max(float(np.abs(nf - tf.numpy()).max()), float(np.abs(nv - tv.numpy()).max()))
    if result.model.cards is not None:
        with torch.no_grad():
            tc = result.model.card_logits(torch.from_numpy(rows)).numpy()
        diff = max(diff, float(np.abs(net.net.card_logits(rows) - tc).max()))
    size = weights.stat().st_size
    return {
        "game": name,
        "players": game.players,
        "weights": str(weights),
        "record": str(out_dir / f"{stem}.json"),
        "checkpoint": str(ckpt),
        "bytes": size,
        "parameters": sum(int(a.size) for a in arrays.values()),
        "decisions": len(data),
        "deals": data.deals,
        "validation": result.validation,
        "losses": record["record"]["losses"],
        "self_play_cpu_seconds": record["record"]["self_play_cpu_seconds"],
        "train_cpu_seconds": record["record"]["train_cpu_seconds"],
        "numpy_vs_torch_max_diff": diff,
    }


def _fit_features(start: dict[str, Any], size: int, init: str) -> dict[str, Any]:
    """The ``--init`` net's arrays for a head of ``size`` action features: a net without
    the context features starts a run with them (``--action-context``, or the heuristic's
    view too: ``--heuristic-context``) with those columns at zero, so it plays as before
    until training moves them; the other way is refused."""
    import numpy as np

    have = int(start["wp"].shape[1])
    if have == size:
        return start
    if have > size:
        raise CliError(
            f"--init {init} has {have} action features, this run {size}: it was trained "
            "with more context features, so pass the flag its record's command names "
            "(--action-context or --heuristic-context)"
        )
    grown = dict(start)
    grown["wp"] = np.concatenate(
        [start["wp"], np.zeros((start["wp"].shape[0], size - have), np.float32)], axis=1
    )
    grown["bp"] = np.concatenate([start["bp"], np.zeros(size - have, np.float32)])
    return grown


def _print(out: Output, s: dict[str, Any]) -> None:
    val = s["validation"]
    out.line(
        f"{s['game']} ({s['players']} players): {s['decisions']} decisions from {s['deals']} "
        f"deals; {s['parameters']} parameters, {s['bytes']} bytes -> {s['weights']}"
    )
    if val:
        out.line(
            f"validation: agrees with the heuristic on {100 * val['agreement']:.1f}% of "
            f"decisions ({100 * val['agreement_with_choice']:.1f}% where there was a choice); "
            f"margin MSE {val['margin_mse']:.4f} (predicting the mean: "
            f"{val['margin_mse_baseline']:.4f}); deal winner right {100 * val['win_accuracy']:.1f}%"
        )
    if "cards_recall" in val:
        out.line(
            f"cards head: {100 * val['cards_recall']:.1f}% of the opponents' cards among those "
            f"it rates highest; cross-entropy {val['cards_bce']:.4f}"
        )
    out.line(
        f"CPU seconds: self-play {s['self_play_cpu_seconds']}, training {s['train_cpu_seconds']}; "
        f"numpy vs torch max difference {s['numpy_vs_torch_max_diff']:.1e}"
    )


def _cpu() -> float:
    """CPU seconds of this process and of its ended children (``--workers``' processes,
    counted once the pool has shut down)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


def _command(args: argparse.Namespace, game: Game) -> str:
    """The command that repeats this run, every setting spelt out."""
    words = ["mazo", "train", game.name, "--players", str(game.players)]
    if args.variant is not None:
        words += ["--variant", args.variant]
    for item in args.option:
        words += ["--option", item]
    words += ["--deals", str(args.deals), "--epochs", str(args.epochs)]
    words += ["--seed", str(args.seed), "--hidden", str(args.hidden)]
    words += ["--batch", str(args.batch), "--lr", str(args.lr)]
    words += ["--value-weight", str(args.value_weight)]
    if args.bot != "normal":
        words += ["--bot", args.bot]
    words += ["--teacher", args.teacher]
    if args.cards_weight:
        words += ["--cards-weight", str(args.cards_weight)]
        if args.cards_by_seat:
            words.append("--cards-by-seat")
    if args.teacher == "search":
        words += ["--teacher-iterations", str(args.teacher_iterations)]
    for item in args.mix:
        words += ["--mix", item]
    if args.heuristic_context:
        words.append("--heuristic-context")
    elif args.action_context:
        words.append("--action-context")
    if args.init is not None:
        words += ["--init", args.init]
    words += ["--out", args.out]
    return " ".join(shlex.quote(w) for w in words)


def _check_repeatable(game: Game, bot: str, mix: tuple[tuple[str, float], ...]) -> None:
    """Before torch and the self-play: ``--bot``'s and ``--mix``'s bots exist, take their
    options and none thinks for a clock (:func:`mazo.train.mix.check_repeatable`)."""
    from mazo.train.mix import check_repeatable

    for flag, spec in [("--bot", bot), *(("--mix", spec) for spec, _ in mix)]:
        try:
            check_repeatable(game, spec)
        except (ValueError, RulesError) as err:
            raise CliError(f"{flag} {spec!r}: {err}") from None


def _parse_mix(items: list[str]) -> tuple[tuple[str, float], ...]:
    """``--mix BOT=SHARE`` flags as ``(bot spec, share)`` pairs, checked as the self-play
    checks them (:func:`mazo.train.mix.check_mix`)."""
    from mazo.train.mix import check_mix

    mix = []
    for item in items:
        spec, sep, text = item.rpartition("=")
        try:
            share = float(text)
        except ValueError:
            share = -1.0
        if not sep or not spec or not 0 < share <= 1:
            raise CliError(
                f"--mix {item!r}: write BOT=SHARE, a bot and the share of the matches it "
                "plays one side in, above 0 and at most 1 (e.g. random=0.25)"
            )
        mix.append((spec, share))
    try:
        check_mix(tuple(mix))
    except (ValueError, RulesError) as err:
        raise CliError(f"--mix: {err}") from None
    return tuple(mix)


def _git_commit() -> str | None:
    """The commit of the mazo checkout running (with ``+dirty`` where a tracked file of
    the package has uncommitted changes), or None outside a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            # tracked files only: untracked output (a new --out folder) is not a change
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no", "--", ".."],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "") if head else None
