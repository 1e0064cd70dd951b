"""The ``mazo`` command: argparse with one subcommand per module.

A subcommand module exposes ``add_parser(subparsers) -> None`` and ``run(args) -> int``.
``main`` returns the exit code instead of exiting, so tests can call it directly:
0 success, 1 a failure while running, 2 bad usage or bad input files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import mazo
from mazo.core.errors import MazoError

from . import bench, play, replay, serve, tournament, train
from .common import Output, did_you_mean, raw_formatter

__all__ = ["build_parser", "main"]

EPILOG = """\
examples:
  mazo play briscola --players 2 --vs heuristic     play against a bot
  mazo play briscola --players 2 --save match.json  ...and keep the record
  mazo replay match.json --seat 0                   step through it from seat 0's view
  mazo sim --help                                   bot-against-bot simulations
  mazo tournament briscola --bots heuristic,random  round robin on duplicate deals, Elo
  mazo bench briscola --seconds 3                   engine speed, random play
  mazo serve                                        tables in the browser (http://localhost:8000)
  mazo train briscola -n 2 --out nets               train a policy/value net (torch)
  mazo <command> --help                             the options of a command

games: {games}
"""


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The parser, and which module runs each subcommand name."""
    parser = argparse.ArgumentParser(
        prog="mazo",
        description=(
            "mazo: rules engines, bots and tools for Latin-suited card games "
            "(Briscola, Escoba, Envite Canario, Trionfetti)."
        ),
        epilog=EPILOG.format(games=", ".join(mazo.list_games())),
        formatter_class=raw_formatter,
    )
    parser.add_argument("--version", action="version", version=f"mazo {mazo.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands: dict[str, ModuleType] = {}
    sim, sim_problem = _load_sim()
    modules: list[ModuleType] = [play]
    if sim is not None:
        modules.append(sim)
    modules += [tournament, replay, bench, serve, train]
    for module in modules:
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        for name in set(subparsers.choices) - before:
            commands[name] = module
            # An unknown flag is reported with this subcommand's usage, not mazo's.
            subparsers.choices[name].set_defaults(usage_parser=subparsers.choices[name])
    if sim is None and sim_problem is not None:
        unavailable = subparsers.add_parser("sim", help="bot-against-bot simulations (unavailable)")
        unavailable.set_defaults(unavailable=sim_problem)
    return parser, commands


def _load_sim() -> tuple[ModuleType | None, str | None]:
    """``mazo.cli.sim`` (written separately), or why it cannot be loaded (None: absent)."""
    try:
        from . import sim
    except ModuleNotFoundError as err:
        if err.name == "mazo.cli.sim":
            return None, None
        return None, str(err)
    except ImportError as err:
        return None, str(err)
    return sim, None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mazo`` with ``argv`` (default: the command line); return the exit code."""
    parser, commands = build_parser()
    unknown = _unknown_command(parser, sys.argv[1:] if argv is None else list(argv))
    if unknown is not None:
        # argparse would say only "invalid choice"; suggest as a misspelt game does.
        parser.print_usage(sys.stderr)
        Output().error(f"mazo: error: {unknown}")
        return 2
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            where = getattr(args, "usage_parser", None) or parser
            where.error(f"unrecognized arguments: {' '.join(extras)}")
    except SystemExit as stop:  # --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
    command = getattr(args, "command", None)
    if command is None:
        parser.print_help()
        return 2
    module = commands.get(command)
    if module is None:
        why = getattr(args, "unavailable", "unknown command")
        print(f"mazo {command}: unavailable: {why}", file=sys.stderr)
        return 1
    try:
        return _exit_code(module.run(args))
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `mazo replay x --all | head`
        _silence_stdout()
        return 0
    except MazoError as err:
        print(f"mazo {command}: error: {err}", file=sys.stderr)
        return 2


def _unknown_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """What to say when the command word is none of mazo's: "did you mean play?" for
    ``mazo plya``.  None when it is one, or there is none (argparse says what is missing).
    mazo's own options take no value, so the command is the first word not an option."""
    word = next((a for a in argv if not a.startswith("-")), None)
    names = [
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    ]
    if word is None or word in names:
        return None
    if any(a in ("-h", "--help", "--version") for a in argv[: argv.index(word)]):
        return None  # argparse answers these before it reads the command
    hint = did_you_mean(word.lower(), names)
    return f"unknown command {word!r}; {hint}commands are: {', '.join(names)}"


def _exit_code(result: Any) -> int:
    if result is None:
        return 0
    return int(result)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at devnull so the interpreter exits quietly."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
