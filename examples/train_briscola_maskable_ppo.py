"""Train a small MaskablePPO policy for two-player Briscola and save it.

The learner plays seat 0 of whole matches (best of five deals) against mazo bots through
:class:`mazo.env.gymnasium.MazoSingleAgentEnv`: reward +1 for a won match, -1 for a lost
one, 0 otherwise, and by default (``--reward points``) a dense share of the card points
of every trick as it is taken; the legal-move mask comes from ``env.action_masks()``.  Training runs
against ``random`` first, then, if ``--normal-steps`` is given, against the ``normal``
heuristic.  ``examples/ppo_bot.py`` plays the saved policy as a mazo bot.

Needs the training extra (``pip install 'mazo[rl,train]'``); run from the repository
root::

    python examples/train_briscola_maskable_ppo.py --steps 100000 --seed 1 \\
        --output examples/models/briscola_ppo.zip
    mazo tournament briscola --players 2 --games 100 --seed 1 \\
        --bots examples.ppo_bot:make,normal,random

Progress goes to stderr: steps, matches played, the mean match reward and win rate over
the last 200 matches, and steps per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "models" / "briscola_ppo.zip"


def _trick_points_wrapper(env: Any, weight: float) -> Any:
    """Add ``weight * (card points my side took - card points the other side took) / 120``
    for the tricks completed since the learner's last move: a dense signal on the way to
    the sparse match result (the deal goes to the side with more card points)."""
    import gymnasium

    class TrickPoints(gymnasium.Wrapper[Any, Any, Any, Any]):
        def reset(self, **kwargs: Any) -> Any:
            out = super().reset(**kwargs)
            inner: Any = self.env.unwrapped  # the MazoSingleAgentEnv
            self.seen = len(inner.match_state.events)
            return out

        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, info = super().step(action)
            inner: Any = self.env.unwrapped
            state = inner.match_state
            events = state.events
            side_of = state.game.info.side_of
            mine = side_of[inner.seat]
            shaped = 0.0
            for event in events[self.seen :]:
                if event.get("type") == "trick":
                    sign = 1.0 if side_of[event["winner"]] == mine else -1.0
                    shaped += sign * event["points"] / 120.0
            self.seen = len(events)
            return obs, float(reward) + weight * shaped, terminated, truncated, info

    return TrickPoints(env)


def _make_env(opponents: str, seed: int, reward: str, weight: float) -> Any:
    from stable_baselines3.common.monitor import Monitor

    from mazo.env.gymnasium import MazoSingleAgentEnv

    # The Monitor sits inside the shaping, so the progress lines count match results.
    env: Any = Monitor(MazoSingleAgentEnv("briscola", players=2, opponents=opponents))
    if reward == "points":
        env = _trick_points_wrapper(env, weight)
    env.reset(seed=seed)
    return env


def _vec_env(opponents: str, n_envs: int, seed: int, reward: str, weight: float) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv

    def factory(k: int) -> Any:
        return lambda: _make_env(opponents, seed * 1000 + k, reward, weight)

    return DummyVecEnv([factory(k) for k in range(n_envs)])


def _progress_callback(total: int, every: int, label: str) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        """One line every ``every`` steps: how far, and how the matches go."""

        def __init__(self) -> None:
            super().__init__()
            self.rewards: deque[float] = deque(maxlen=200)
            self.matches = 0
            self.start = time.perf_counter()
            self.next_report = every
            self.reported = -1

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                episode = info.get("episode")
                if episode is not None:
                    self.matches += 1
                    self.rewards.append(float(episode["r"]))
            if self.num_timesteps >= self.next_report:
                self.next_report += every
                self.report()
            return True

        def _on_training_end(self) -> None:
            if self.reported != self.num_timesteps:
                self.report()

        def report(self) -> None:
            self.reported = self.num_timesteps
            done = self.num_timesteps
            seconds = time.perf_counter() - self.start
            if self.rewards:
                mean = sum(self.rewards) / len(self.rewards)
                wins = sum(r > 0 for r in self.rewards) / len(self.rewards)
                tally = f"mean reward {mean:+.2f}, won {100 * wins:.0f}% (last {len(self.rewards)})"
            else:
                tally = "no match finished yet"
            print(
                f"[{label}] {done}/{total} steps ({min(100, 100 * done // total)}%), "
                f"{self.matches} matches, {tally}, {done / max(seconds, 1e-9):.0f} steps/s",
                file=sys.stderr,
                flush=True,
            )

    return Progress()


def train(
    steps: int = 100_000,
    seed: int = 0,
    output: str | Path = DEFAULT_OUTPUT,
    normal_steps: int = 0,
    n_envs: int = 4,
    threads: int = 1,
    log_every: int = 10_000,
    reward: str = "points",
    weight: float = 1.0,
    gamma: float = 0.8,
    learning_rate: float = 1e-3,
) -> Path:
    """Train against ``random`` for ``steps`` steps, then ``normal`` for ``normal_steps``;
    save the policy to ``output`` (a .zip) and return its path.  ``reward`` is ``match``
    (+1/-1 at the end of the match only) or ``points`` (that, plus ``weight`` times the
    card-point balance of each trick as it is taken)."""
    if reward not in ("match", "points"):
        raise ValueError(f"reward is 'match' or 'points', not {reward!r}")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(threads)
    # A rollout of n_steps per environment: shorter for tiny runs (tests), so that one
    # update at least happens.
    n_steps = max(16, min(512, steps // n_envs))
    model = MaskablePPO(
        "MlpPolicy",
        _vec_env("random", n_envs, seed, reward, weight),
        n_steps=n_steps,
        batch_size=min(256, n_steps * n_envs),
        n_epochs=10,
        learning_rate=learning_rate,
        gamma=gamma,
        gae_lambda=0.95,
        ent_coef=0.0,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    model.learn(steps, callback=_progress_callback(steps, log_every, "vs random"))
    if normal_steps > 0:
        model.set_env(_vec_env("normal", n_envs, seed + 1, reward, weight))
        model.learn(
            normal_steps,
            callback=_progress_callback(normal_steps, log_every, "vs normal"),
            reset_num_timesteps=True,
        )
    out = Path(output)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out if out.suffix == ".zip" else out.with_name(out.name + ".zip")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Train MaskablePPO on two-player Briscola (whole matches) and save it.",
    )
    parser.add_argument("--steps", type=int, default=100_000, help="steps against random")
    parser.add_argument(
        "--normal-steps",
        type=int,
        default=0,
        help="then this many steps against the normal heuristic (default 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the policy and matches")
    parser.add_argument(
        "--output",
        default=str(DEFAULT_OUTPUT),
        help=f"where to save the policy (default {DEFAULT_OUTPUT})",
    )
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--log-every", type=int, default=10_000, help="steps between lines")
    parser.add_argument(
        "--reward",
        choices=("points", "match"),
        default="points",
        help=(
            "match: +1/-1 when the match ends; points (default): that, plus --weight x the "
            "card points of each trick (+ taken by the learner's side, - by the other) / 120"
        ),
    )
    parser.add_argument("--weight", type=float, default=1.0, help="weight of trick points")
    parser.add_argument(
        "--gamma",
        type=float,
        default=0.8,
        help="discount (default 0.8: short-sighted, which learns fastest with trick points)",
    )
    parser.add_argument("--learning-rate", type=float, default=1e-3, help="Adam step size")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.normal_steps < 0 or args.envs < 1:
        parser.error("--steps and --envs must be positive, --normal-steps not negative")
    started = time.perf_counter()
    path = train(
        steps=args.steps,
        seed=args.seed,
        output=args.output,
        normal_steps=args.normal_steps,
        n_envs=args.envs,
        threads=args.threads,
        log_every=args.log_every,
        reward=args.reward,
        weight=args.weight,
        gamma=args.gamma,
        learning_rate=args.learning_rate,
    )
    print(f"saved {path} after {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(
        "evaluate it with:\n  mazo tournament briscola --players 2 --games 100 --seed 1 "
        f"--bots examples.ppo_bot:make:model={path},normal,random"
        if path.resolve() != DEFAULT_OUTPUT
        else "evaluate it with:\n  mazo tournament briscola --players 2 --games 100 --seed 1 "
        "--bots examples.ppo_bot:make,normal,random"
    )
    return 0


if __name__ == "__main__":
    # Run as a script from the repository root: make `mazo` and `examples` importable.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main())
