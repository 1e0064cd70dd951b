"""The three errors every front end must handle.

All are ``ValueError`` subclasses, so a caller that only knows "bad value" still
catches them; each message says what was wrong and what is allowed.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "MazoError",
    "NotationError",
    "RulesError",
]


class MazoError(Exception):
    """Base class of every error mazo raises on purpose."""


class RulesError(MazoError, ValueError):
    """A bad configuration: unknown game, unknown or invalid option, bad setup or deck."""


class InvalidActionError(MazoError, ValueError):
    """An action that cannot be parsed or is out of the game's action space."""


class NotationError(InvalidActionError):
    """A card code that is not valid notation (``7O``, ``JE``, ``1B``...)."""


class IllegalActionError(MazoError, ValueError):
    """A well-formed action that the rules do not allow in this state."""
