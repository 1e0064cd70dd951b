"""Game records: mazo's PGN.  A record is JSON; :func:`replay` re-validates every action.

A record holds the game, its options and player count, the starting setup, each deal's
dealer and pack order, and the ordered actions with the seat that made each.  It never
holds the match seed: a record of an unfinished match must not reveal future deals.

>>> import mazo
>>> state = mazo.load_game("briscola", players=2).new_match(seed=3)
>>> state = state.apply(state.legal_actions()[0])
>>> again = replay(state.record())
>>> again == state
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import State
from mazo.games import load_game

__all__ = ["FORMAT", "load_record", "replay", "save_record"]

FORMAT = "mazo-record"
_REQUIRED = ("game", "players", "options", "deals", "actions")


def replay(record: dict[str, Any]) -> State:
    """Rebuild the state a record describes, checking every action on the way.

    Raises :class:`RulesError` for a malformed record and :class:`IllegalActionError`
    naming the first action that the rules reject.
    """
    if not isinstance(record, dict):
        raise RulesError("a record is a JSON object (dict)")
    if record.get("format", FORMAT) != FORMAT:
        raise RulesError(f"not a mazo record: format is {record.get('format')!r}, not {FORMAT!r}")
    missing = [k for k in _REQUIRED if k not in record]
    if missing:
        raise RulesError(f"record lacks {', '.join(missing)}; a record has {', '.join(_REQUIRED)}")
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise RulesError("record has no deals: 'deals' must list each deal's dealer and deck")
    try:
        packs = [list(d["deck"]) for d in deals]
        first_dealer = int(deals[0]["dealer"])
    except (KeyError, TypeError, ValueError):
        raise RulesError(
            "each deal in a record needs 'dealer' (a seat) and 'deck' (card codes)"
        ) from None
    options = record["options"]
    if not isinstance(options, dict):
        raise RulesError("record options must be an object of option names to values")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RulesError("record 'actions' must be a list of {'seat': int, 'action': str}")
    game = load_game(record["game"], players=record["players"], **options)
    state = game.new_match(seed=0, decks=packs, dealer=first_dealer, setup=record.get("setup"))
    # Actions are numbered from 1, as `mazo replay` shows them ("action 3 of 40").
    for i, step in enumerate(actions, 1):
        where = f"record action {i} of {len(actions)}"
        try:
            state = state.apply(step["action"], seat=step["seat"])
        except (IllegalActionError, InvalidActionError) as err:
            raise type(err)(f"{where} ({step!r}) is rejected: {err}") from None
        except (KeyError, TypeError):
            raise RulesError(f"{where} must be {{'seat': int, 'action': str}}") from None
    replayed = state.record()["deals"]
    if [(d["dealer"], d["deck"]) for d in replayed] != [
        (d["dealer"], list(d["deck"])) for d in deals[: len(replayed)]
    ]:
        raise RulesError("record deals do not match the replay (dealer or deck order differs)")
    return state


def save_record(state: State, path: str | Path, **meta: Any) -> Path:
    """Write ``state.record()`` (plus extra keys such as player names) as JSON."""
    record = state.record()
    record.update(meta)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return out


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; a clear :class:`RulesError` if it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise RulesError(f"cannot read record {path}: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise RulesError(f"{path} is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise RulesError(f"{path} is not a mazo record (expected a JSON object)")
    return data
