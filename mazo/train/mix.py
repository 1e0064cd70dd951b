"""Mixed opponents for the self-play (``mazo train --mix BOT=SHARE``; numpy-free, so the
command checks its flags before anything heavy is imported).

A mix is ``(bot spec, share of the matches)`` pairs: in that share of the matches (a draw
seeded ``derive_seed(seed, "train-mix", m)`` for match ``m``, so the same with
``--workers``) the bot plays one side, drawn in the same draw, and that side's decisions
are not learned from (:mod:`mazo.train.data`).
"""

from __future__ import annotations

from mazo.bots import list_bots
from mazo.core.game import Game
from mazo.core.rng import Rng, derive_seed
from mazo.sim.jobs import parse_bot_spec

__all__ = ["Mix", "check_bot", "check_mix", "check_repeatable", "mixed_side"]

Mix = tuple[tuple[str, float], ...]


def check_bot(spec: str) -> None:
    """Refuse a bot spec that names no bot (ValueError, saying which there are): a
    registered name or a plugin path, with options as mazo tournament takes them (a
    malformed spec raises RulesError, saying why)."""
    name, _ = parse_bot_spec(spec)
    if name not in list_bots() and ":" not in name:
        raise ValueError(f"no bot {name!r}; bots are: {', '.join(list_bots())}")


def check_repeatable(game: Game, spec: str) -> None:
    """Refuse a bot that is none (:func:`check_bot`), make it once (bad options raise
    RulesError, saying what is allowed) and refuse one that thinks for a clock
    (ValueError): its moves, and so the data, would depend on the machine's speed, where
    the same seed must give the same data."""
    from mazo.bots import make_bot

    check_bot(spec)
    name, options = parse_bot_spec(spec)
    bot = make_bot(name, game, seed=0, **options)
    if getattr(bot, "think_ms", 0):
        raise ValueError(
            "it thinks for a time budget, so its moves would differ from run to run; "
            f"give it a sample count instead ({name}:iterations=100)"
        )


def check_mix(mix: Mix) -> None:
    """Refuse a mix that cannot be played, saying what is wrong (ValueError): a bot that
    is none (:func:`check_bot`), a share outside (0, 1], shares adding up to more than
    1."""
    for spec, share in mix:
        check_bot(spec)
        if not 0 < share <= 1:
            raise ValueError(f"the share of {spec!r} must be above 0 and at most 1, not {share!r}")
    if sum(share for _, share in mix) > 1 + 1e-9:
        shares = ", ".join(f"{spec}={share:g}" for spec, share in mix)
        raise ValueError(f"the mix's shares add up to more than 1 ({shares})")


def mixed_side(game: Game, seed: int, match: int, mix: Mix) -> tuple[int, str] | None:
    """The side another bot plays in match ``match``, and its spec; None for self-play."""
    if not mix:
        return None
    draw = Rng(derive_seed(seed, "train-mix", match))
    pick = draw.random()
    for spec, share in mix:
        if pick < share:
            return draw.randbelow(game.info.sides), spec
        pick -= share
    return None
