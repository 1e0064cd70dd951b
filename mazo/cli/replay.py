"""``mazo replay``: step through a saved game record from one seat's view.

The record is re-validated first (``mazo.replay``), then rebuilt action by action with
the public API.  Each step prints only that seat's share of the log and its observation,
so replaying from seat 1 shows nothing seat 1 could not have seen; the default viewer is
a spectator, who sees no hand.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

import mazo
from mazo.core.errors import MazoError
from mazo.core.game import State
from mazo.record import load_record
from mazo.render import (
    View,
    prepare_events,
    render_event,
    render_observation,
)

from .common import (
    Output,
    add_card_flags,
    events_for,
    isatty,
    line_editing,
    seat_or_spectator,
    subcommand,
    table_view,
)

__all__ = ["add_parser", "run"]

_MESSAGES = ("signal", "consult", "announce", "tell", "say")

TEXT = """\
step through a saved game record from one seat's view

Step through a game record (as written by 'mazo play --save') from one seat's view,
re-validating every action.

examples:
  mazo replay match.json                  everything a spectator saw
  mazo replay match.json --seat 0         seat 0's view: its hand at every step
  mazo replay match.json --seat 1 --step  one action at a time (any key next, q quit)
  mazo replay match.json --all --brief    the whole log, no table between actions
  mazo replay envite.json --seat 1        Envite: seat 1's hand and its team's messages
  mazo replay trionfetti.json --seat 0    Trionfetti: the ranking, the vega, what partners shared

Interactive stepping is the default on a terminal; when stdin is not a terminal (a pipe,
a file) or with --all, everything is printed at once.  Exit status 2: the file is not a
valid record (unreadable, not JSON, or an action the rules reject).
"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo replay``."""
    p = subcommand(subparsers, "replay", TEXT)
    p.add_argument("file", metavar="FILE", help="a mazo record (JSON)")
    p.add_argument(
        "--seat",
        type=seat_or_spectator,
        default=None,
        metavar="S",
        help="whose view: a seat number or 'spectator' (default spectator)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--step",
        action="store_true",
        help="wait for a key after each action (Enter when not a terminal; q quits)",
    )
    mode.add_argument("--all", action="store_true", help="print every step without waiting")
    p.add_argument(
        "--brief", action="store_true", help="print the actions only, not the table after each"
    )
    add_card_flags(p)


def run(args: argparse.Namespace) -> int:
    """Replay a record; 0 when done (or quit), 2 for a bad file or seat."""
    out = Output(suits=True)
    line_editing()
    try:
        record = load_record(args.file)  # its errors name the file
    except MazoError as err:
        out.error(f"mazo replay: error: {err}")
        return 2
    try:
        if not isinstance(record.get("actions"), list):
            raise ValueError("not a mazo record: 'actions' must be a list of {seat, action}")
        final = mazo.replay(record)
    except (MazoError, ValueError, TypeError, KeyError) as err:
        out.error(f"mazo replay: error: {args.file}: {err}")
        return 2
    game = final.game
    n = game.players
    seat: int | None = args.seat
    if seat is not None and not 0 <= seat < n:
        out.error(f"mazo replay: error: --seat must be 0..{n - 1} or 'spectator', not {seat}")
        return 2
    names = _seat_names(record, n)
    view = table_view(game, seat, names, args.cards, args.lang)
    actions: list[Mapping[str, Any]] = list(record["actions"])
    state = mazo.replay({**record, "actions": []})
    interactive = args.step or (not args.all and isatty(sys.stdin))
    who = "a spectator" if seat is None else f"seat {seat}"
    out.line(
        f"Replay of {args.file}: {game.name}, {n} players, {len(actions)} actions, seen by {who}.",
        style="bold",
    )
    changed = {k: v for k, v in record.get("options", {}).items() if k in game.options}
    defaults = {o.name: o.default for o in game.option_specs}
    changed = {k: v for k, v in changed.items() if defaults.get(k, v) != v}
    if changed:
        out.line("Options: " + ", ".join(f"{k}={v!r}" for k, v in changed.items()))
    if interactive:
        out.line("Any key: next action · q: quit")
    player = _Replayer(out, view, seat, brief=args.brief)
    player.show(state, 0, len(actions))
    for i, step in enumerate(actions, 1):
        state = state.apply(step["action"], seat=step["seat"])
        if not player.show(state, i, len(actions)):
            continue  # nothing this seat could see (a partner signal for another team)
        if interactive and i < len(actions) and not _wait():
            out.line("Replay stopped.")
            return 0
    out.line()
    if getattr(state, "match_over", False):
        out.line("End of record: the match is over.", style="bold")
    else:
        out.line("End of record: the match was not finished.", style="bold")
    return 0


class _Replayer:
    """Prints what one viewer sees of each new state: new log events, then the table."""

    def __init__(self, out: Output, view: View, seat: int | None, brief: bool) -> None:
        self.out = out
        self.view = view
        self.seat = seat
        self.brief = brief
        self.seen = 0
        self.deal_seats: list[int] = list(range(view.players))

    def show(self, state: State, index: int, total: int) -> bool:
        """Print this step; False when the viewer saw nothing new."""
        events = prepare_events(events_for(state, self.seat), self.view.game)
        new = events[self.seen :]
        self.seen = len(events)
        if not new:
            return False
        out = self.out
        if index:
            out.line(f"-- action {index} of {total} --", style="dim")
        for event in new:
            if event.get("type") == "deal" and event.get("seats"):
                self.deal_seats = list(event["seats"])
            text = render_event(event, self.view, self.deal_seats)
            if text is not None:
                style = "bold cyan" if event.get("type") in ("deal", "hand_end") else None
                out.line(text, style=style)
        # A step that only carried team messages changed nothing on the table.
        messages_only = all(e.get("type") in _MESSAGES for e in new)
        if not self.brief and not messages_only:
            table = render_observation(state.observation(self.seat), self.view)
            for line in table.splitlines():
                out.line("    " + line, style="dim")
        return True


def _seat_names(record: Mapping[str, Any], n: int) -> list[str]:
    """``Seat 1 (heuristic)`` when the record names its players, else ``Seat 1``."""
    given = record.get("seat_names")
    if isinstance(given, list) and len(given) == n and all(isinstance(x, str) for x in given):
        return [f"Seat {s} ({given[s]})" for s in range(n)]
    return [f"Seat {s}" for s in range(n)]


def _wait() -> bool:
    """Wait for the next step: one key on a terminal (Enter on a pipe); False on q (or
    Ctrl-C, Ctrl-D, end of input)."""
    key = _read_key() if isatty(sys.stdin) else None
    if key is not None:
        return key.lower() not in ("q", "\x03", "\x04", "")
    try:
        answer = input("")
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() not in ("q", "quit", "exit")


def _read_key() -> str | None:
    """One key from the terminal without waiting for Enter and without echo; None where
    the terminal cannot be put in that mode (Windows: no termios)."""
    try:
        import termios
        import tty
    except ImportError:
        return None
    fd = sys.stdin.fileno()
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return None
    try:
        tty.setcbreak(fd)
        data = os.read(fd, 16)  # an arrow key is several bytes: one step all the same
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return data.decode("utf-8", "replace")[:1]
