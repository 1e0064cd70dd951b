"""A MaskablePPO policy (see ``train_briscola_maskable_ppo.py``) as a mazo plugin bot.

``make`` is a bot factory in the plugin form ``package.module:factory``, so the policy can
sit wherever a bot is named::

    mazo tournament briscola --players 2 --games 100 --bots examples.ppo_bot:make,normal,random
    mazo tournament briscola --players 2 --bots examples.ppo_bot:make:model=other.zip,normal
    mazo play briscola --players 2 --vs examples.ppo_bot:make

Options: ``model`` (a saved policy; default ``$MAZO_PPO_MODEL``, else
``examples/models/briscola_ppo.zip``) and ``deterministic`` (default true: the most
likely legal action; false samples from the masked policy, seeded by the bot's seed).
The bot sees only its seat's observation, encoded by :class:`mazo.env.encoding.Encoder`
exactly as during training, and the policy is asked with that seat's legal-action mask.
A policy loads once per process and runs on one CPU thread.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.env.encoding import Encoder

DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "briscola_ppo.zip"

_MODELS: dict[str, Any] = {}


def _load(path: Path) -> Any:
    key = str(path.resolve())
    model = _MODELS.get(key)
    if model is None:
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)  # tournaments run one bot per core
        model = _MODELS[key] = MaskablePPO.load(key, device="cpu")
    return model


class PPOBot:
    """Plays the policy's choice among the legal actions of its seat."""

    def __init__(self, game: Game, seed: int, model: Any, deterministic: bool) -> None:
        import torch

        self.name = "ppo"
        self.game = game
        self.encoder = Encoder(game)
        self.model = model
        self.deterministic = deterministic
        self.generator = torch.Generator().manual_seed(seed % (1 << 63))
        expected = model.observation_space.shape
        if expected != (self.encoder.size,) or model.action_space.n != self.encoder.num_actions:
            raise RulesError(
                f"this policy was trained on observations of shape {expected} and "
                f"{model.action_space.n} actions; {game!r} has ({self.encoder.size},) and "
                f"{self.encoder.num_actions}: train one for this game"
            )

    def choose(self, observation: Mapping[str, Any]) -> int:
        import torch

        vec = self.encoder.encode(observation)
        mask = self.encoder.action_mask(observation).astype(bool)
        if not mask.any():
            raise RulesError(f"seat {observation.get('seat')!r} has no legal action to choose")
        policy = self.model.policy
        with torch.no_grad():
            obs = torch.as_tensor(vec).unsqueeze(0)
            dist = policy.get_distribution(obs, action_masks=mask[None, :])
            probs = dist.distribution.probs[0]
        if self.deterministic:
            return int(torch.argmax(probs).item())
        return int(torch.multinomial(probs, 1, generator=self.generator).item())


def make(game: Game, seed: int, model: str | None = None, deterministic: bool = True) -> PPOBot:
    """The plugin factory: ``examples.ppo_bot:make[:model=PATH][:deterministic=false]``."""
    path = Path(model or os.environ.get("MAZO_PPO_MODEL") or DEFAULT_MODEL)
    if not path.exists() and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    if not path.exists():
        raise RulesError(
            f"no trained policy at {path}: train one with "
            "python examples/train_briscola_maskable_ppo.py, or give model=PATH"
        )
    return PPOBot(game, seed, _load(path), bool(deterministic))
