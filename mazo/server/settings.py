"""A table's settings: how it paces itself, its turn timer, who plays for a leaver, hints.

``POST /api/tables`` may carry ``"settings"``; every key is optional and anything else is
refused with a message that says what is allowed.  Tables store what was asked for and
every reader resolves it with :func:`resolve_settings`, so a table stored before settings
existed (``{}``) simply has the defaults.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DWELLS", "TAKEOVER_LEVELS", "TURN_TIMERS", "check_settings", "resolve_settings"]

DWELLS = (0, 0.8, 1.5, 3)  # seconds a finished trick stays; 0: instant, no deal pause
TURN_TIMERS = (0, 30, 60, 120)  # seconds a person has for a decision; 0: off
TAKEOVER_LEVELS = ("easy", "normal", "hard", "expert")  # who plays for a timed-out person
KEYS = ("dwell", "turn_timer", "takeover", "hints")


class SettingsError(ValueError):
    """A setting that is not allowed; the message says what is."""


def _pick(name: str, value: Any, allowed: tuple[Any, ...], unit: str = "") -> Any:
    """``value`` as its entry of ``allowed`` (``3.0`` -> ``3``), or SettingsError."""
    numeric = all(type(a) in (int, float) for a in allowed)
    ok = (
        type(value) in (int, float) if numeric else type(value) is type(allowed[0])
    ) and value in allowed
    if not ok:
        choices = ", ".join(
            str(a).lower() if isinstance(a, bool) else repr(a) if isinstance(a, str) else str(a)
            for a in allowed
        )
        raise SettingsError(f"settings.{name} must be one of {choices}{unit}, not {value!r}")
    return allowed[allowed.index(value)]


def check_settings(raw: Any, public: bool) -> dict[str, Any]:
    """The fully resolved settings for a new table, or SettingsError."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise SettingsError(
            'settings must be a JSON object such as {"dwell": 1.5, "turn_timer": 60}'
            f" (keys: {', '.join(KEYS)})"
        )
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise SettingsError(
            f"unknown setting(s) {', '.join(map(str, unknown))}; settings are: {', '.join(KEYS)}"
        )
    out = resolve_settings({}, public)
    if "dwell" in raw:
        out["dwell"] = _pick("dwell", raw["dwell"], DWELLS, " (seconds; 0 is instant)")
    if "turn_timer" in raw:
        out["turn_timer"] = _pick(
            "turn_timer", raw["turn_timer"], TURN_TIMERS, " (seconds; 0 is off)"
        )
    if "takeover" in raw:
        out["takeover"] = _pick("takeover", raw["takeover"], TAKEOVER_LEVELS)
    if "hints" in raw:
        out["hints"] = _pick("hints", raw["hints"], (False, True))
    if public and out["turn_timer"] == 0:
        # Anyone may sit at a public table and leave: without a timer it could wait forever.
        raise SettingsError(
            "a public table needs a turn timer, so it never waits forever for a player who"
            " left: settings.turn_timer must be 30, 60 or 120 there (0, off, is for private"
            " tables)"
        )
    return out


def resolve_settings(stored: dict[str, Any], public: bool) -> dict[str, Any]:
    """Stored settings with the defaults filled in: dwell 1.5, turn_timer 0 at a private
    table and 60 at a public one, takeover ``normal``, no hints."""
    return {
        "dwell": stored.get("dwell", 1.5),
        "turn_timer": stored.get("turn_timer", 60 if public else 0),
        "takeover": stored.get("takeover", "normal"),
        "hints": stored.get("hints", False),
    }
