"""Helpers shared by the ``mazo`` subcommands: output, errors, game options from flags.

rich is optional (``pip install mazo[cli]``): without it output is plain text.  Colour is
decided here and nowhere else; :mod:`mazo.render` produces plain strings.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib.util
import json
import re
import secrets
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO, TypeVar

from mazo.bots import BOTS, list_bots
from mazo.core.errors import MazoError, RulesError
from mazo.core.game import Game, Option, State
from mazo.games import GAMES, list_games, load_game
from mazo.render import CARD_STYLES, LANGUAGES, View, default_language, rank_labels

__all__ = [
    "CliError",
    "Output",
    "ProgressLines",
    "add_batch_flags",
    "add_card_flags",
    "add_listing_flags",
    "add_match_flags",
    "add_rules_flags",
    "batch_start",
    "did_you_mean",
    "events_for",
    "game_class",
    "game_from_args",
    "isatty",
    "line_editing",
    "listed",
    "options_help",
    "parse_option_values",
    "print_json",
    "print_table",
    "progress_mode",
    "raw_formatter",
    "reported",
    "seat_or_spectator",
    "split_option",
    "subcommand",
    "table_view",
    "variant_option",
    "with_progress",
]


class CliError(Exception):
    """A user error: printed as ``mazo <command>: error: <message>``, exit ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


_SUIT_STYLES = {"O": "yellow", "C": "red", "E": "blue", "B": "green"}
_SUIT_SYMBOLS = {"♦": "O", "♥": "C", "♠": "E", "♣": "B"}
# A card code or symbol as the renderers print it: 7O, KB, 10C (Trionfetti), 7♦.
_CARD = re.compile(r"(?<![\w])(?:10|[1-9AJQK])([OCEB♦♥♠♣])(?![\w])")


class Output:
    """Writes lines to stdout (errors to stderr), with rich styles when rich is installed.

    Text is never parsed as rich markup, so card lists and brackets print as they are.
    rich turns colour off by itself when stdout is not a terminal or ``NO_COLOR`` is set.
    On a terminal, lines wrap at its width between words, continuation lines indented
    (:func:`_fill`); piped output keeps one line per line.  ``suits=True`` colours card
    codes by suit (coins yellow, cups red, swords blue, batons green), where colour is on.
    """

    def __init__(self, color: bool = True, suits: bool = False) -> None:
        self._console: Any = None
        self._errors: Any = None
        self._wrap = isatty(sys.stdout)
        self._suits = suits
        if color:
            try:
                from rich.console import Console
            except ImportError:  # the cli extra is not installed: plain text
                pass
            else:
                # soft_wrap off: rich breaks long lines between words at the width.
                self._console = Console(highlight=False, soft_wrap=not self._wrap)
                wrap_errors = isatty(sys.stderr)
                self._errors = Console(highlight=False, soft_wrap=not wrap_errors, stderr=True)

    @property
    def rich(self) -> bool:
        return self._console is not None

    def line(self, text: str = "", style: str | None = None) -> None:
        if self._console is not None:
            if self._wrap:  # between words, continuation lines indented (rich would not)
                text = _fill(text)
            if self._suits and self._console.color_system is not None:
                self._console.print(self._coloured(text, style), emoji=False)
            else:
                self._console.print(text, style=style, markup=False, emoji=False)
        elif self._wrap:
            _write(sys.stdout, _fill(text) + "\n")
        else:
            _write(sys.stdout, text + "\n")

    def _coloured(self, text: str, style: str | None) -> Any:
        from rich.text import Text

        out = Text(text, style=style or "")
        for match in _CARD.finditer(text):
            suit = _SUIT_SYMBOLS.get(match.group(1), match.group(1))
            out.stylize(_SUIT_STYLES[suit], match.start(), match.end())
        return out

    def error(self, text: str) -> None:
        if self._errors is not None:
            self._errors.print(text, style="bold red", markup=False, emoji=False)
        else:
            _write(sys.stderr, (_fill(text) if isatty(sys.stderr) else text) + "\n")

    def prompt(self, text: str) -> str:
        """What to pass to :func:`input` for the prompt ``text``: on a terminal narrower
        than it, its first lines are printed here, broken between words, and the last is
        returned (the terminal would break it mid-word; readline wants one line)."""
        if not self._wrap:
            return text
        width = shutil.get_terminal_size().columns - 1  # room for the cursor
        lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
        if len(lines) <= 1:
            return text
        for line in lines[:-1]:
            self.line(line)
        return lines[-1] + " "

    def width(self) -> int | None:
        """The width rich lays its tables out in (None without rich)."""
        return int(self._console.width) if self._console is not None else None

    def renderable(self, obj: Any) -> None:
        """Print a rich object (a table...); only call when :attr:`rich` is true."""
        self._console.print(obj)


_NUMBERED = re.compile(r" *(?:\d+|[a-z])\) ")


def _fill(text: str) -> str:
    """``text`` wrapped to the terminal's width between words, continuation lines
    indented two columns more than the first, or under the text of a numbered choice
    (``  9) ...``)."""
    width = shutil.get_terminal_size().columns
    lines = []
    for line in text.split("\n"):
        numbered = _NUMBERED.match(line)
        indent = line[: len(line) - len(line.lstrip())]
        wrapped = textwrap.wrap(
            line,
            width,
            subsequent_indent=" " * numbered.end() if numbered else indent + "  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines.extend(wrapped or [""])
    return "\n".join(lines)


def line_editing() -> None:
    """Arrow keys, history and the usual editing keys at :func:`input` prompts on a
    terminal: importing :mod:`readline` is what turns them on, where Python has it."""
    if isatty(sys.stdin) and isatty(sys.stdout):
        with contextlib.suppress(ImportError):  # Windows without a readline port
            import readline  # noqa: F401


def _write(stream: TextIO, text: str) -> None:
    stream.write(text)
    stream.flush()


def game_class(name: str) -> type[Game]:
    """The registered class of a game, or a :class:`CliError` listing the games."""
    cls = GAMES.get(name.strip().lower()) if isinstance(name, str) else None
    if cls is None:
        hint = did_you_mean(str(name).strip().lower(), list_games())
        raise CliError(f"unknown game {name!r}; {hint}games are: {', '.join(list_games())}")
    return cls


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """``"did you mean briscola? "`` for a misspelt name, else ``""``: the hint of every
    error about an unknown game, bot or command.

    >>> did_you_mean("plya", ["play", "sim"]), did_you_mean("chess", ["play"])
    ('did you mean play? ', '')
    """
    close = difflib.get_close_matches(word, list(known), n=1)
    return f"did you mean {close[0]}? " if close else ""


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _coerce(text: str, spec: Option | None) -> Any:
    """Turn the text of ``name=value`` into the option's type, guided by its allowed values."""
    raw = text.strip()
    low = raw.lower()
    if spec is not None and spec.allowed is not None:
        for value in spec.allowed:
            if isinstance(value, bool):
                if (value and low in _TRUE) or (not value and low in _FALSE):
                    return value
            elif str(value).lower() == low:
                return value
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def parse_option_values(game: str, items: Iterable[str]) -> dict[str, Any]:
    """``["open_variant=scoperta", "match_wins_target=2"]`` -> typed option values.

    Values are matched against the option's allowed values (``true``/``yes``/``on`` for
    booleans, case-insensitive); names are checked later by :func:`mazo.load_game`.

    >>> parse_option_values("briscola", ["match-wins-target=2", "signals_enabled=yes"])
    {'match_wins_target': 2, 'signals_enabled': True}
    """
    specs = {o.name: o for o in game_class(game).option_specs}
    out: dict[str, Any] = {}
    for item in items:
        name, text = split_option(item, "--option", "match_wins_target=2")
        out[name] = _coerce(text, specs.get(name))
    return out


def split_option(item: str, flag: str, example: str) -> tuple[str, str]:
    """``"match-wins-target=2"`` -> ``("match_wins_target", "2")``: the name as Python
    spells it (dashes allowed on the command line) and the value's text, for
    ``--option`` and ``--bot-option`` alike."""
    name, sep, text = item.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise CliError(f"{flag} wants name=value (e.g. {example}), not {item!r}")
    return name, text


def variant_option(game: str) -> str | None:
    """The option that ``--variant`` sets for a game: ``variant`` or ``*_variant``."""
    names = [o.name for o in game_class(game).option_specs]
    if "variant" in names:
        return "variant"
    candidates = [n for n in names if n.endswith("_variant")]
    return candidates[0] if len(candidates) == 1 else None


def game_from_args(
    name: str,
    players: int | None,
    variant: str | None = None,
    options: Sequence[str] = (),
) -> Game:
    """Load a game from the common flags; every mistake becomes a clear :class:`CliError`."""
    game_class(name)
    opts = parse_option_values(name, options)
    if variant is not None:
        key = variant_option(name)
        if key is None:
            raise CliError(f"{name} has no variants; use --option name=value for its options")
        if key in opts:
            raise CliError(f"--variant sets {key}; do not also give --option {key}=...")
        opts[key] = _coerce(variant.replace("-", "_"), _spec(name, key))
    try:
        return load_game(name, players=players, **opts)
    except RulesError as err:
        raise CliError(str(err)) from None


def _spec(game: str, name: str) -> Option | None:
    return next((o for o in game_class(game).option_specs if o.name == name), None)


def options_help(name: str) -> str:
    """A text table of a game's options, for ``--list-options``."""
    cls = game_class(name)
    lines = [f"Options of {cls.name} (players: {', '.join(map(str, cls.player_counts))}):"]
    for o in cls.option_specs:
        lines.append(f"  {o.name} = {o.default!r}")
        lines.append(f"      allowed: {o.allowed_text()}")
        if o.help:
            lines.append(f"      {o.help}")
    key = variant_option(name)
    if key:
        lines.append(f"--variant NAME is short for --option {key}=NAME.")
    return "\n".join(lines)


def seat_or_spectator(text: str) -> int | None:
    """argparse type for ``--seat``: a seat number, or ``spectator``/``none``."""
    if text.strip().lower() in ("spectator", "none", "-"):
        return None
    try:
        seat = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a seat: give a seat number (0, 1, ...) or 'spectator'"
        ) from None
    if seat < 0:
        raise argparse.ArgumentTypeError(f"seat {seat} is negative; seats start at 0")
    return seat


def events_for(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The log as ``seat`` saw it: events with an audience the seat is not in left out."""
    method = getattr(state, "events_for", None)
    if method is not None:
        return list(method(seat))
    return [
        e
        for e in state.events
        if e.get("audience") is None or (seat is not None and seat in e["audience"])
    ]


def isatty(stream: Any) -> bool:
    """Whether a stream is an interactive terminal (False for pipes and test doubles)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps one-paragraph text (descriptions) but keeps multi-line text (epilogs) as is."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text.strip():
            return _epilog(text, width, indent)
        return super()._fill_text(text, width, indent)


def _epilog(text: str, width: int, indent: str) -> str:
    """An epilog as written, when it fits; wider than the terminal, its paragraphs (lines
    not indented) are filled to the width and its example lines broken between words."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if max((len(indent + p.rstrip("\n")) for p in prose), default=0) <= width:
            out.extend(indent + p for p in prose)
        else:
            words = " ".join(p.strip() for p in prose)
            filled = textwrap.fill(
                words,
                width,
                initial_indent=indent,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
            out.append(filled + "\n")
        prose.clear()

    for line in text.splitlines(keepends=True):
        if line.strip() and not line[0].isspace():
            prose.append(line)
        else:
            flush()
            out.append(_hang(indent + line, width))
    flush()
    return "".join(out)


def _hang(line: str, width: int) -> str:
    """An example line as written, or, wider than the terminal, broken between words with
    its continuation under the explanation (after a run of spaces), not mid-word by the
    terminal."""
    end = line[len(line.rstrip("\n")) :]
    body = line.rstrip("\n")
    if len(body) <= width:
        return line
    gap = re.search(r"\S( {2,})\S", body)
    lead = len(body) - len(body.lstrip())
    column = gap.end(1) if gap and gap.end(1) <= width // 2 else lead + 4
    wrapped = textwrap.wrap(
        body,
        width,
        subsequent_indent=" " * column,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join(wrapped) + end


def raw_formatter(prog: str) -> argparse.HelpFormatter:
    """Help that wraps descriptions and keeps the epilog's example lines as written."""
    return _HelpFormatter(prog, max_help_position=30)


def subcommand(subparsers: Any, name: str, text: str) -> argparse.ArgumentParser:
    """Register ``mazo <name>``.  ``text`` is the command's help in three parts split by
    blank lines: the one-line summary ``mazo --help`` lists, the description (one
    paragraph, wrapped to the terminal) and the epilog (examples and notes, whose example
    lines keep their layout: :func:`raw_formatter`)."""
    summary, description, epilog = text.split("\n\n", 2)
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=" ".join(description.split()),
        epilog=epilog,
        formatter_class=raw_formatter,
    )
    return parser


def add_match_flags(
    p: argparse.ArgumentParser, game: str, seed: str, optional: bool = False
) -> None:
    """GAME, ``--players``/``-n``, ``--seed``, ``--variant`` and ``--option``: the flags of
    every command that plays matches of one game (play, sim, tournament).  ``game`` and
    ``seed`` are their help texts; ``optional``: GAME may be left out (``--list-bots``)."""
    p.add_argument("game", nargs="?" if optional else None, metavar="GAME", help=game)
    p.add_argument(
        "--players", "-n", type=int, metavar="N", help="number of players (default: the game's)"
    )
    p.add_argument("--seed", type=int, metavar="S", help=seed)
    add_rules_flags(p)


def add_batch_flags(
    p: argparse.ArgumentParser,
    game: str,
    games: tuple[int, str],
    bots: tuple[str, str, str],
    optional: bool = False,
) -> None:
    """The flags of the batch commands (sim, tournament): :func:`add_match_flags` with one
    seed for everything, ``--games``/``-g`` (``games``: its default and help),
    ``--bots``/``-b`` (``bots``: default, metavar, help), ``--json`` and
    :func:`add_listing_flags`."""
    add_match_flags(p, game, _BATCH_SEED, optional)
    p.add_argument("--games", "-g", type=int, default=games[0], metavar="N", help=games[1])
    p.add_argument("--bots", "-b", default=bots[0], metavar=bots[1], help=bots[2])
    p.add_argument("--json", action="store_true", help="print only JSON results on stdout")
    add_listing_flags(p)


_BATCH_SEED = "seed for all deals and bots (default: random, printed with the results)"


def batch_start(args: argparse.Namespace, what: str = "") -> tuple[Game, int, str | None]:
    """What a batch command reads first from its flags: the game, the seed (random when
    not given) and how to show progress (:func:`progress_mode`); ``--games`` must be
    positive (``what`` says what it counts), and ``--address`` goes with ``--backend
    ray`` only."""
    game = game_from_args(args.game, args.players, args.variant, args.option)
    if args.games < 1:
        raise CliError(f"--games{what} must be at least 1, not {args.games}")
    if args.address is not None and args.backend != "ray":
        raise CliError("--address names a Ray cluster: use it with --backend ray")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    return game, seed, progress_mode(args)


def reported(command: str, out: Output, body: Callable[[], int]) -> int:
    """``body()``, with a user error printed as ``mazo <command>: error: ...``: a
    :class:`CliError`'s exit code, else 2 (a :class:`~mazo.core.errors.MazoError`)."""
    try:
        return body()
    except CliError as err:
        out.error(f"mazo {command}: error: {err}")
        return err.code
    except MazoError as err:
        out.error(f"mazo {command}: error: {err}")
        return 2


def table_view(
    game: Game, viewer: int | None, names: Sequence[str], cards: str, lang: str | None
) -> View:
    """The :class:`~mazo.render.View` of a command that shows a table (play, replay):
    ``cards`` and ``lang`` as ``--cards`` and ``--lang`` give them (None: the game's
    language)."""
    return View(
        players=game.players,
        side_of=tuple(game.info.side_of),
        viewer=viewer,
        seat_names=tuple(names),
        style=cards,
        lang=lang or default_language(game.name, game.options),
        game=game.name,
        ranks=rank_labels(game.name, game.options),
    )


def print_json(result: Any) -> None:
    """``--json``: the result's JSON alone on stdout (so it can be piped)."""
    sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
    sys.stdout.flush()


def add_card_flags(p: argparse.ArgumentParser) -> None:
    """``--cards`` and ``--lang``: how the commands that show a table write cards."""
    p.add_argument(
        "--cards",
        choices=CARD_STYLES,
        default="name",
        help="how cards are shown: '7O (7 of coins)', '7O', or '7♦' (default name)",
    )
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help=(
            "language of card names (default: es for Envite and Escoba's Spanish pack, it for "
            "Trionfetti, else en)"
        ),
    )


def add_rules_flags(p: argparse.ArgumentParser) -> None:
    """``--variant`` and ``--option``: the rules flags of every command that starts matches."""
    p.add_argument(
        "--variant",
        metavar="NAME",
        help="the game's variant option (briscola: open_variant = none, open_hands, scoperta)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules option (repeatable), e.g. -o match_wins_target=2; see --list-options",
    )


def add_listing_flags(p: argparse.ArgumentParser) -> None:
    """The flags that list what a batch command accepts, and its quiet switch."""
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress on stderr (a bar on a terminal, else lines)",
    )
    p.add_argument("--list-options", action="store_true", help="list the game's options and exit")
    p.add_argument("--list-bots", action="store_true", help="list the bots and exit")


def listed(out: Output, args: argparse.Namespace) -> bool:
    """Print what ``--list-bots`` or ``--list-options`` asks for; True when the command
    should stop there (the batch commands, :func:`add_listing_flags`)."""
    if args.list_bots:
        for name in list_bots():
            out.line(f"{name:<12} {BOTS[name].help}")
        return True
    if args.list_options and args.game is not None:
        out.line(options_help(args.game))
        return True
    return False


_T = TypeVar("_T")


def progress_mode(args: argparse.Namespace) -> str | None:
    """How a long command shows its progress on stderr: ``"bar"`` (a rich bar) on a
    terminal, ``"lines"`` (a plain line now and then: a log file of a job left running,
    or a terminal without rich), None with ``--json`` or ``--no-progress``."""
    if args.json or args.no_progress:
        return None
    if isatty(sys.stderr) and importlib.util.find_spec("rich") is not None:
        return "bar"
    return "lines"


class ProgressLines:
    """Progress as plain lines on ``stream`` for a log: ``label: done/total (p%),
    elapsed, about how long is left``, written at each tenth of the work (but not within
    ``gap`` seconds of the line before: a job of seconds writes only its end), at least
    every ``every`` seconds while it moves, and once at the end.  ``clock`` is wall
    time: what a reader of the log waits."""

    def __init__(
        self,
        label: str,
        stream: TextIO,
        every: float = 60.0,
        gap: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.stream = stream
        self.every = every
        self.gap = gap
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.tenth = 0
        self.written = -1

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        tenth = 10 * done // total if total > 0 else 0
        since = now - self.last
        due = done >= total or since >= self.every or (tenth > self.tenth and since >= self.gap)
        if not due or done == self.written:
            return
        self.tenth, self.last, self.written = tenth, now, done
        elapsed = now - self.start
        text = f"{self.label}: {done}/{total}"
        if total > 0:
            text += f" ({100 * done // total}%)"
        text += f", {_duration(elapsed)} elapsed"
        if 0 < done < total:
            text += f", about {_duration(elapsed * (total - done) / done)} left"
        self.stream.write(text + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``: a duration as a log line says it."""
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def with_progress(
    show: bool | str | None,
    label: str,
    total: int,
    run: Callable[[Callable[[int, int], None] | None], _T],
) -> _T:
    """``run(progress)`` with its progress shown on stderr, ``progress(done, total)``
    moving it: a rich bar when ``show`` is ``"bar"`` or true (and rich is there), plain
    lines (:class:`ProgressLines`) when it is ``"lines"``; ``run(None)`` when it is
    false or None."""
    if not show:
        return run(None)
    if show == "lines" or importlib.util.find_spec("rich") is None:
        return run(ProgressLines(label, sys.stderr))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run(progress)


def print_table(
    out: Output,
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    rich: bool,
    spaced: bool = False,
) -> None:
    """A table of results: a rich table when ``rich`` (and rich is there), else aligned
    plain text, preceded by an empty line when ``spaced``.  The column of bots (the first,
    or one headed ``bot``) is left-aligned, the numbers right-aligned."""
    left = [i == 0 or h == "bot" for i, h in enumerate(headers)]
    if rich and out.rich:
        from rich.table import Table

        table = Table(title=title)
        # Columns no narrower than their longest word, so rich wraps headers and cells
        # between words rather than cutting a number to "100…" -- when that fits at all
        # (else rich would drop whole columns).
        widest = [
            max((len(w) for r in [headers, *rows] for w in r[i].split()), default=0)
            for i in range(len(headers))
        ]
        width = out.width()
        fits = width is not None and sum(widest) + 3 * len(widest) + 1 <= width
        least: list[int | None] = list(widest) if fits else [None] * len(widest)
        for h, is_left, low in zip(headers, left, least, strict=True):
            table.add_column(h, justify="left" if is_left else "right", min_width=low)
        for row in rows:
            table.add_row(*row)
        out.renderable(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if is_left else c.rjust(w)
            for c, w, is_left in zip(cells, widths, left, strict=True)
        )

    if spaced:
        out.line("")
    out.line(title)
    out.line(line(headers))
    for row in rows:
        out.line(line(row))
