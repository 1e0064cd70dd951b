#!/usr/bin/env python3
"""PettingZoo environment throughput beside the raw engine's, under random play.

Run from the repository root (needs the ``rl`` extra)::

    .venv/bin/python bench/env_steps.py                   # every game, ~4 s each
    .venv/bin/python bench/env_steps.py briscola:2 escoba:2 --seconds 10 --json

For each configuration three loops play whole matches with a uniform random policy over
the legal actions (partners' talk left out, as the environments do by default):

* engine: ``state.observation(state.to_act)`` then ``state.apply(action)``, and at the
  end every seat's observation of the final state -- exactly what the environment
  needs from the engine;
* raw: :class:`mazo.env.pettingzoo.raw_env`, ``env.step(action)`` then ``env.last()``
  (the next agent's observation, encoded, with its mask);
* wrapped: the same through :func:`mazo.env.pettingzoo.env` (PettingZoo's
  TerminateIllegal, AssertOutOfBounds and OrderEnforcing wrappers).

Only those calls are timed: the policy and ``new_match``/``reset`` run off the clock.
Both loops run the same policy (a mask, numpy's ``flatnonzero``, a random choice), so
whatever it does to the CPU caches it does to both alike.  The three loops take turns in short
rounds (``--rounds``) and each keeps its best round's time per action, the one least
disturbed by other processes.  The wrapper's cost per action is the environment's time
per action minus the engine's; its share is that cost over the environment's time.
Timings depend on the machine and its load: compare runs on one machine only.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

import mazo
from mazo.env.pettingzoo import env as wrapped_env
from mazo.env.pettingzoo import raw_env

DEFAULT_CONFIGS = ("briscola:2", "escoba:2", "envite:4", "trionfetti:4")


def engine_loop(game: mazo.Game, seconds: float, seed: int) -> tuple[int, float]:
    """(actions, seconds spent in observation + apply) over whole matches, plus every
    seat's observation of the final state (each agent of an environment sees it)."""
    rng = random.Random(seed)
    skip = game.info.message_actions
    size = game.info.num_actions
    clock = time.perf_counter
    actions = 0
    spent = 0.0
    match = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_match(seed=seed * 1_000_003 + match)
        match += 1
        while not state.match_over:
            seat = state.to_act
            # The same off-the-clock policy work as env_loop's (a mask, numpy's
            # flatnonzero, a choice): it disturbs the CPU caches alike for both loops.
            mask = np.zeros(size, np.int8)
            mask[[a for a in state.legal_actions() if a not in skip]] = 1
            action = rng.choice(np.flatnonzero(mask).tolist())
            t0 = clock()
            state.observation(seat)
            state = state.apply(action)
            spent += clock() - t0
            actions += 1
        t0 = clock()
        for seat in range(game.players):
            state.observation(seat)
        spent += clock() - t0
    return actions, spent


def env_loop(env: Any, seconds: float, seed: int) -> tuple[int, float]:
    """(actions, seconds spent in step() + last()) over whole matches, dead steps
    included.  One clock interval per step, as in :func:`engine_loop`: the step, then
    the next agent's observation."""
    rng = random.Random(seed)
    clock = time.perf_counter
    actions = 0
    spent = 0.0
    match = 0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=seed * 1_000_003 + match)
        match += 1
        obs, _reward, terminated, truncated, _info = env.last()
        while True:
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
                actions += 1
            t0 = clock()
            env.step(action)
            if env.agents:
                obs, _reward, terminated, truncated, _info = env.last()
            spent += clock() - t0
            if not env.agents:
                break
    return actions, spent


def measure(config: str, seconds: float, seed: int, rounds: int) -> dict[str, Any]:
    """Interleaved rounds of the three loops; each kind keeps its best round (the least
    disturbed by other processes on a shared machine)."""
    name, _, count = config.partition(":")
    players = int(count) if count else None
    game = mazo.load_game(name, players=players)
    raw = raw_env(game_name=name, players=game.players)
    wrapped = wrapped_env(game_name=name, players=game.players)
    slot = seconds / (3 * rounds)
    # Warm-up, off the record: the encoders learn the action strings they meet (Escoba
    # has 84,488), as any long run would have done.
    env_loop(raw, min(slot, 0.5), seed + 1)
    env_loop(wrapped, min(slot, 0.5), seed + 1)
    best = {"engine": float("inf"), "raw": float("inf"), "wrapped": float("inf")}
    totals = {"engine": 0, "raw": 0, "wrapped": 0}
    for r in range(rounds):
        round_seed = seed * 7919 + r
        for kind in ("engine", "raw", "wrapped"):
            if kind == "engine":
                n, t = engine_loop(game, slot, round_seed)
            else:
                n, t = env_loop(raw if kind == "raw" else wrapped, slot, round_seed)
            totals[kind] += n
            best[kind] = min(best[kind], t / n * 1e6)
    us_engine, us_raw, us_wrapped = best["engine"], best["raw"], best["wrapped"]
    return {
        "game": name,
        "players": game.players,
        "engine_actions_per_s": 1e6 / us_engine,
        "raw_env_steps_per_s": 1e6 / us_raw,
        "wrapped_env_steps_per_s": 1e6 / us_wrapped,
        "engine_us": us_engine,
        "raw_env_us": us_raw,
        "wrapped_env_us": us_wrapped,
        "raw_wrapper_us": us_raw - us_engine,
        "raw_wrapper_share": (us_raw - us_engine) / us_raw,
        "raw_wrapper_vs_engine": (us_raw - us_engine) / us_engine,
        "wrapped_wrapper_share": (us_wrapped - us_engine) / us_wrapped,
        "wrapped_wrapper_vs_engine": (us_wrapped - us_engine) / us_engine,
        "actions": totals,
        "rounds": rounds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "configs",
        nargs="*",
        default=list(DEFAULT_CONFIGS),
        help="GAME:PLAYERS (default: " + " ".join(DEFAULT_CONFIGS) + ")",
    )
    parser.add_argument("--seconds", type=float, default=4.0, help="time per configuration")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    rows = [measure(c, args.seconds, args.seed, max(1, args.rounds)) for c in args.configs]
    if args.json:
        out = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "numpy": np.__version__,
            "seconds": args.seconds,
            "results": rows,
        }
        print(json.dumps(out, indent=2))
        return 0
    head = (
        f"{'game':<11}{'pl':>3}{'engine/s':>10}{'raw/s':>9}{'wrapped/s':>11}"
        f"{'engine µs':>11}{'raw µs':>9}{'wrap µs':>9}{'raw share':>11}{'raw/eng':>9}"
    )
    print(head)
    for r in rows:
        print(
            f"{r['game']:<11}{r['players']:>3}{r['engine_actions_per_s']:>10,.0f}"
            f"{r['raw_env_steps_per_s']:>9,.0f}{r['wrapped_env_steps_per_s']:>11,.0f}"
            f"{r['engine_us']:>11.1f}{r['raw_env_us']:>9.1f}{r['wrapped_env_us']:>9.1f}"
            f"{r['raw_wrapper_share']:>11.0%}{r['raw_wrapper_vs_engine']:>9.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
