"""``mazo play``: a match in the terminal, one human against bots.

The human sees only what their seat may know: every line printed comes from
``state.observation(seat)`` or from ``state.events_for(seat)``, never from the state
itself, so no hidden card can reach the screen.  Bots also receive observations only.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import shutil
import sys
import textwrap
from collections.abc import Callable, Mapping
from typing import Any

from mazo.core.errors import IllegalActionError, InvalidActionError, MazoError, RulesError
from mazo.core.game import Game, State
from mazo.core.rng import derive_seed
from mazo.render import GameText, default_language, text_for

from .common import (
    CliError,
    Output,
    add_card_flags,
    add_match_flags,
    did_you_mean,
    events_for,
    game_from_args,
    isatty,
    line_editing,
    options_help,
    subcommand,
    table_view,
)

__all__ = ["HELP", "Quit", "Session", "add_parser", "run"]

DEFAULT_BOT = "heuristic"
FALLBACK_BOT = "random"
PAUSES = ("trick", "card", "never")
"""``--pause``: when the play loop stops for the human's out-of-turn calls."""
NOT_PLAYABLE = "not now"
"""How a card in hand the rules forbid now is marked among the numbered choices."""
CONTINUE = -1
"""What :meth:`Session.ask` returns when the human lets the game go on at a pause."""
TEXT = """\
play a match in the terminal against bots

Play a match in the terminal: you take one seat, bots take the others. You see only what
your seat may see.

examples:
  mazo play briscola --players 2 --vs heuristic
  mazo play briscola --players 4 --seat 2 --seed 7        # you and seat 0 against 1 and 3
  mazo play briscola --players 2 --variant scoperta --save match.json
  mazo play briscola --players 3 --vs random,heuristic    # one bot name per other seat
  mazo play briscola --players 4 --option signals_enabled=true --cards symbol
  mazo play briscola --list-options
  mazo play escoba --players 2 -o target_score=15   # Escoba to 15 points
  mazo play escoba --players 4 --seat 1 --vs random  # partners 1+3 against 0+2
  mazo play envite --players 8                      # Envite Canario, you and 3 partners
  mazo play envite --setup '{"scores": [11, 7]}'    # start with your team at tumbo
  mazo play envite --pause card                     # chance to call envio before every card
  mazo play trionfetti                              # Trionfetti: you and seat 2 against 1 and 3
  mazo play trionfetti -o points_to_win_game=5 -o games_to_win_match=1   # a short match

at your turn type the number of a choice (1, 2, ...) or a card code such as 7o, kb or
ae (A for 1; suits O coins, C cups, E swords, B batons); in Escoba a capture is the
card and what it takes, 7o+5c+3b (any order); in Envite also envio, accept, fold,
raise, tumbo_play, tumbo_decline and the team messages ('m' lists them); in Trionfetti
also keep, rank <preset or levels>, vega, accept, refuse and talk ('m'); '?' lists the
other commands, 'q' or Ctrl-D leaves (the record is written first when --save is given).
Outside Escoba (whose choices are captures) a card's number is its place in your hand,
1 the first card; a card the rules do not let you play now is listed, marked 'not now',
and cannot be chosen.

Envite: you may call envio out of turn; the game stops for it at your own turns, when
your team must answer a proposal or decide at tumbo, and at the pauses --pause chooses
(default: before each trick, when a call is open to you).
"""

HELP = """\
Commands at your turn:
  1, 2, ...          take the numbered choice
  7o, KB, ae         a card by its code: rank 1-7 J Q K (A = 1), suit O C E B"""
"""The commands of every game; ``?`` adds the game's own (its text's ``help``)."""
HELP_END = """\
  s, show            show the table again
  t, tricks          {tricks}
  ?, help            this help
  q, quit            leave the match (or Ctrl-D); --save writes the record"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo play``."""
    p = subcommand(subparsers, "play", TEXT)
    add_match_flags(
        p, "the game to play, e.g. briscola", "seed for the deals and the bots (reproducible)"
    )
    p.add_argument("--seat", type=int, default=0, metavar="S", help="your seat (default 0)")
    p.add_argument(
        "--vs",
        default=DEFAULT_BOT,
        metavar="BOT",
        help=(
            f"bot for the other seats (default {DEFAULT_BOT}, or {FALLBACK_BOT} when it is "
            "not available); a comma list gives one bot per other seat in seat order"
        ),
    )
    p.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    p.add_argument(
        "--setup",
        metavar="JSON",
        help=(
            "start the match part-way, as the game documents it, e.g. "
            '\'{"scores": [11, 4], "games": [1, 0]}\' (Envite: stones and chicos per team)'
        ),
    )
    p.add_argument(
        "--pause",
        choices=PAUSES,
        default="trick",
        help=(
            "when the game stops for a call you may make out of turn while bots play "
            "(Envite's envio; Trionfetti's show_bottom, peek, show): before each trick "
            "(default), before every card a bot plays, or never (only at your own turns and "
            "answers)"
        ),
    )
    add_card_flags(p)
    p.add_argument("--list-options", action="store_true", help="list the game's options and exit")


def run(args: argparse.Namespace) -> int:
    """Play one match; 0 when it ends or the player leaves, 2 on bad arguments."""
    out = Output(suits=True)
    line_editing()
    try:
        if args.list_options:
            out.line(options_help(args.game))
            return 0
        session = Session.from_args(args, out)
    except CliError as err:
        out.error(f"mazo play: error: {err}")
        return err.code
    return session.play()


class Quit(Exception):
    """The player left (``q``, end of input or Ctrl-C)."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.code = code


class Session:
    """One interactive match: the game, the human's seat, the bots and the output."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: Mapping[int, Any],
        bot_names: Mapping[int, str],
        seed: int,
        out: Output,
        save: str | None = None,
        style: str = "name",
        lang: str = "en",
        read: Callable[[str], str] = input,
        setup: Mapping[str, Any] | None = None,
        pause: str = "trick",
    ) -> None:
        self.game = game
        self.text = text_for(game.name)
        self.seat = seat
        self.setup = dict(setup) if setup else None
        self.pause = pause
        self.paused: set[tuple[Any, ...]] = set()
        self.bot_talk: dict[int, tuple[tuple[Any, ...], int]] = {}
        self.talked: tuple[Any, ...] | None = None
        self.held: list[dict[str, Any]] = []
        self.bots = dict(bots)
        self.seed = seed
        self.out = out
        self.save = save
        self.read = read
        self.echo = not isatty(sys.stdin)
        n = game.players
        names = []
        for s in range(n):
            if s == seat:
                names.append(f"Seat {s} (you)")
            else:
                partner = s != seat and game.info.side_of[s] == game.info.side_of[seat]
                tag = f"{bot_names[s]}, your partner" if partner else bot_names[s]
                names.append(f"Seat {s} ({tag})")
        self.names = names
        self.bot_names = dict(bot_names)
        self.view = table_view(game, seat, names, style, lang)
        self.deal_seats: list[int] = list(range(n))
        self.hand: list[str] = []  # the human's hand in the order its cards came

    @classmethod
    def from_args(cls, args: argparse.Namespace, out: Output) -> Session:
        game = game_from_args(args.game, args.players, args.variant, args.option)
        n = game.players
        if not 0 <= args.seat < n:
            raise CliError(f"--seat must be a seat 0..{n - 1} for {n} players, not {args.seat}")
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        others = [s for s in range(n) if s != args.seat]
        wanted = [w.strip() for w in str(args.vs).split(",") if w.strip()]
        if not wanted:
            raise CliError("--vs needs a bot name, e.g. --vs heuristic")
        if len(wanted) not in (1, len(others)):
            raise CliError(
                f"--vs lists {len(wanted)} bots; give one for all other seats or one per "
                f"other seat ({len(others)})"
            )
        if len(wanted) == 1:
            wanted = wanted * len(others)
        setup = _parse_setup(args.setup, game)
        bots: dict[int, Any] = {}
        names: dict[int, str] = {}
        notes: list[str] = []
        for s, name in zip(others, wanted, strict=True):
            bots[s], names[s] = _make_bot(name, game, derive_seed(seed, "bot", s), notes)
        for note in dict.fromkeys(notes):
            out.line(note)
        return cls(
            game,
            args.seat,
            bots,
            names,
            seed,
            out,
            save=args.save,
            style=args.cards,
            lang=args.lang or default_language(game.name, game.options),
            setup=setup,
            pause=args.pause,
        )

    # -- the match loop --------------------------------------------------------------

    def play(self) -> int:
        game = self.game
        out = self.out
        opponents = ", ".join(f"seat {s} {self.bot_names[s]}" for s in sorted(self.bots))
        out.line(
            f"{game.name.capitalize()}, {game.players} players: you are seat {self.seat}; "
            f"{opponents}.",
            style="bold",
        )
        changed = {k: v for k, v in game.options.items() if _is_changed(game, k, v)}
        if changed:
            out.line("Options: " + ", ".join(f"{k}={v!r}" for k, v in changed.items()))
        if self.setup:
            out.line("Starting position: " + json.dumps(self.setup))
        out.line("Type ? at your turn for help, q to quit.")
        try:
            state = game.new_match(seed=self.seed, setup=self.setup)
        except RulesError as err:  # a setup the game refuses
            out.error(f"mazo play: error: --setup: {err}")
            return 2
        seen = 0
        try:
            while True:
                events = self.text.prepare_events(events_for(state, self.seat))
                self.show_events(events[seen:])
                self.show_drawn(state, events[seen:])
                seen = len(events)
                actor = state.to_act
                if actor is None:
                    break
                obs = state.observation(self.seat)
                if actor == self.seat or _must_answer(obs, self.text):
                    self.flush_messages()
                    state = self.human_turn(state, obs)
                elif self.should_pause(state, obs):
                    self.flush_messages()
                    state = self.pause_turn(state, obs)
                else:
                    state = self.bot_turn(state, actor)
        except Quit as stop:
            self.flush_messages()
            out.line(str(stop), style="yellow")
            self.write_record(state)
            return stop.code
        except _BotFailure as err:
            out.error(f"mazo play: {err}")
            self.write_record(state)
            return 1
        self.write_record(state)
        return 0

    def bot_turn(self, state: State, seat: int) -> State:
        bot = self.bots[seat]
        try:
            obs = self.bot_observation(state, seat)
            action = bot.choose(obs)
            new = state.apply(action, seat=seat)
        except (MazoError, ValueError, TypeError, KeyError) as err:
            raise _BotFailure(
                f"the {self.bot_names[seat]} bot at seat {seat} failed: {err}"
            ) from err
        if self.text.bot_messages is not None and self.text.is_message(
            self.game.action_to_string(action)
        ):
            key = _pause_key(obs)
            before = self.bot_talk.get(seat)
            count = before[1] + 1 if before is not None and before[0] == key else 1
            self.bot_talk[seat] = (key, count)
        return new

    def bot_observation(self, state: State, seat: int) -> dict[str, Any]:
        """The bot's observation; without the messages once the bot has said the game's
        ``bot_messages`` things since the last move of the game (a smaller set of legal
        actions, never another seat's information)."""
        obs: dict[str, Any] = state.observation(seat)
        limit = self.text.bot_messages
        if limit is None:
            return obs
        said = self.bot_talk.get(seat)
        if said is None or said[0] != _pause_key(obs) or said[1] < limit:
            return obs
        moves = [a for a in obs.get("legal_actions") or [] if not self.text.is_message(a)]
        return {**obs, "legal_actions": moves} if moves else obs

    def human_turn(self, state: State, obs: Mapping[str, Any] | None = None) -> State:
        """The human's move: their turn, or an answer their team owes (out of turn)."""
        out = self.out
        if obs is None:
            obs = state.observation(self.seat)
        key = (_pause_key(obs), tuple(obs.get("hand") or ()))
        if self.text.choices_after_talk and key == self.talked:
            # The human just talked: same table, only the choices again.
            for text in self._choices(obs):
                out.line(text)
        else:
            if state.to_act != self.seat:
                out.line()
                out.line(
                    f"{self.view.seat(state.to_act)} is asked first, but you may answer for "
                    "your team:",
                    style="bold",
                )
            self.show_table(obs)
        self.talked = None
        while True:
            choice = self.ask(obs)
            if choice is None or choice == CONTINUE:
                continue
            try:
                new = state.apply(choice, seat=self.seat)
            except (IllegalActionError, InvalidActionError) as err:
                out.line(f"Not allowed: {err}", style="red")
                hint = self.text.refused_hint(choice, obs) if isinstance(choice, str) else None
                if hint:
                    out.line(hint)
                continue
            label = choice if isinstance(choice, str) else self.game.action_to_string(choice)
            if self.text.is_message(label):
                self.talked = key
            return new

    # -- out-of-turn calls (Envite's envío) -----------------------------------------------

    def should_pause(self, state: State, obs: Mapping[str, Any]) -> bool:
        """Whether to stop before a bot's move so the human may call out of turn.

        Only for calls that are moves of the game (team messages can wait for the human's
        own prompts), once per point of the deal (``--pause``: a trick's start, or every
        card), and never for a bot's answer or decision, which no call can precede.
        """
        if self.pause == "never" or obs.get("phase") not in (None, "play"):
            return False
        if not any(not self.text.is_message(a) for a in obs.get("legal_actions") or []):
            return False
        if self.pause == "trick" and obs.get("trick"):
            return False
        key = _pause_key(obs)
        if key in self.paused:
            return False
        self.paused.add(key)
        return True

    def pause_turn(self, state: State, obs: Mapping[str, Any]) -> State:
        """Offer the human's out-of-turn calls before a bot moves; Enter goes on."""
        out = self.out
        view = self.view
        to_act = state.to_act
        trick = list(obs.get("trick") or [])
        if "tricks" in obs:
            number = len(obs.get("tricks") or []) + 1
        else:  # Trionfetti counts tricks won, not a list of tricks
            number = sum(obs.get("tricks_won") or []) + 1
        what = "leads" if not trick else "plays"
        out.line()
        out.line(f"Trick {number}: {view.seat(to_act, False)} {what} next.", style="bold")
        for text in self._table_lines(obs):
            if text.startswith(self.text.pause_prefixes):
                out.line(text)
        out.line(self.text.pause_offer, style="bold")
        out.line(f"  1) continue — let {view.seat(to_act, False)} play")
        for text in self._choices(obs, first=2):
            out.line(text)
        while True:
            choice = self.ask(obs, pause=True)
            if choice == CONTINUE:
                return state
            if choice is None:
                continue
            try:
                new = state.apply(choice, seat=self.seat)
            except (IllegalActionError, InvalidActionError) as err:
                out.line(f"Not allowed: {err}", style="red")
                continue
            label = choice if isinstance(choice, str) else self.game.action_to_string(choice)
            if self.text.is_message(label):
                self.paused.discard(_pause_key(obs))  # a message: the pause comes back
            return new

    def choices(self, obs: Mapping[str, Any]) -> list[str]:
        """The legal actions in the order they are numbered on screen."""
        actions = self.text.ordered_actions(list(obs.get("legal_actions", [])), obs)
        # Every game: the cards in hand in the order they came (see show_drawn), so a
        # card's number does not jump when a card is drawn; the others keep their order.
        place = {card: i for i, card in enumerate(self.hand)}
        actions.sort(key=lambda a: place.get(a, len(place)))
        return actions

    def entries(self, obs: Mapping[str, Any]) -> list[tuple[str, bool]]:
        """What the numbers stand for, in order: each legal action with True.  Where a
        card is played by its code (the game's ``cards_are_moves``) and some card may be
        played now, every card in hand comes first in the hand's order, those the rules
        forbid now with False: ``1`` is always the first card, whatever the rules hide."""
        legal = self.choices(obs)
        hand = [c for c in self.hand if c in (obs.get("hand") or [])]
        if not self.text.cards_are_moves or not any(c in legal for c in hand):
            return [(a, True) for a in legal]
        cards = [(c, c in legal) for c in hand]
        return cards + [(a, True) for a in legal if a not in hand]

    def not_playable(self, card: str, obs: Mapping[str, Any]) -> str:
        """``4B cannot be played now: you must follow suit (cups)``."""
        why = self.text.unplayable(card, obs, self.view)
        return f"{card} cannot be played now" + (f": {why}" if why else "")

    def ask(self, obs: Mapping[str, Any], pause: bool = False) -> int | str | None:
        """Read one line; an action id (or an action string outside the id space, as the
        game's text reads it: a custom ranking, free talk), :data:`CONTINUE` (at a
        pause), or None after a command or a mistake.  At a pause choice 1 is
        "continue" and the others shift."""
        entries = self.entries(obs)
        legal = [a for a, ok in entries if ok]
        allowed = list(obs.get("legal_actions") or [])
        offset = 1 if pause else 0
        # The range counts what is on screen: messages behind 'm' keep their numbers
        # (after the others) but are not announced.
        hidden = self.text.messages_behind_m
        shown = [a for a, _ in entries if not (hidden and self.text.is_message(a))]
        count = len(shown) + offset
        numbers = "1" if count == 1 else f"1-{count}"
        if pause:
            prompt = f"Call or continue [{numbers}, Enter continue, ? help, q quit]: "
        else:
            prompt = self.text.prompt(obs, numbers)
        try:
            text = self.read(self.out.prompt(prompt))
        except EOFError:
            raise Quit("\nEnd of input: leaving the match.") from None
        except KeyboardInterrupt:
            raise Quit("\nInterrupted: leaving the match.", 130) from None
        if self.echo:
            self.out.line(text)
        word = text.strip().lower()
        if pause and word in ("", "c", "continue", "1"):
            return CONTINUE
        if not word:
            self.out.line("Type a number from the list or a card code; ? for help.")
            return None
        alias = self.text.aliases.get(word)
        if alias is not None:
            word = text = alias
        typed = self.text.read_text(text, obs)
        if typed is not None:
            return typed
        if word in ("m", "messages") and not any(self.text.is_message(a) for a in allowed):
            why = self.text.no_messages(obs)
            if why is not None:
                self.out.line(why)
                return None
        if word in ("m", "messages") and any(self.text.is_message(a) for a in allowed):
            self.show_messages(obs, offset)
            return None
        if word in ("q", "quit", "exit"):
            raise Quit("You left the match.")
        if word in ("?", "h", "help"):
            self.out.line(self.help())
            return None
        if word in ("s", "show", "table") and not (word == "show" and "show" in allowed):
            self.show_table(obs, pause=pause)
            return None
        if word in ("t", "tricks", "history"):
            self.show_tricks(obs)
            return None
        if word.isdigit():
            number = int(word) - offset
            if 1 <= number <= len(entries):
                chosen, ok = entries[number - 1]
                if ok:
                    return self.game.string_to_action(chosen)
                self.out.line(f"{self.not_playable(chosen, obs)}; choose another.", style="red")
                return None
            self.out.line(
                f"There is no choice {number + offset}: type 1 to {count}, or a card code.",
                style="red",
            )
            return None
        try:
            action = self.game.string_to_action(text)
        except InvalidActionError as err:
            matches = self.by_cards(text, entries)
            if matches:
                return self.pick(matches, obs)
            self.out.line(f"Not understood: {err}. Type ? for help.", style="red")
            return None
        label = self.game.action_to_string(action)
        if label not in allowed:
            matches = self.by_cards(text, entries)
            if matches:
                return self.pick(matches, obs)
            if "+" in label:
                return action  # a capture it cannot make: the rules say why when applied
            hand = obs.get("hand") or []
            if label in hand and (label, False) in entries:
                why = self.not_playable(label, obs)
            elif label in hand or label not in _card_codes(self.game):
                why = f"{label} is not allowed now"
            else:
                why = f"You do not hold {label}"
            listed = [a for a in legal if not self.text.is_message(a)] or legal
            if self.text.is_message(label):
                why = self.text.refused(label, obs) or why
            self.out.line(f"{why}; choose from the list ({', '.join(listed)}).", style="red")
            return None
        return action

    def by_cards(self, text: str, entries: list[tuple[str, bool]]) -> list[tuple[int, str]]:
        """The numbered legal ``card+card+...`` actions (Escoba) the typed cards name
        (``entries``: see :meth:`entries`).

        A lone card names every action that plays it; several cards name the action made
        of exactly those cards, in any order.  Empty when the text is not a list of cards.
        """
        deck = self.game.info.deck
        tokens = [t for t in re.split(r"[+\s,]+", text.strip()) if t]
        try:
            cards = [deck.format(deck.parse(t)) for t in tokens]
        except InvalidActionError:
            return []
        if not cards or len(set(cards)) != len(cards):
            return []
        numbered = [(i, a) for i, (a, ok) in enumerate(entries, 1) if ok]
        if len(cards) == 1:
            return [(i, a) for i, a in numbered if a.split("+")[0] == cards[0]]
        return [(i, a) for i, a in numbered if set(a.split("+")) == set(cards)]

    def pick(self, matches: list[tuple[int, str]], obs: Mapping[str, Any]) -> int | None:
        """The one matching action, or None after listing several to choose from."""
        if len(matches) == 1:
            return self.game.string_to_action(matches[0][1])
        card = matches[0][1].split("+")[0]
        self.out.line(f"{card} can be played {len(matches)} ways; choose one by number:")
        for i, action in matches:
            self.out.line(f"{i:>3}) {self.text.action_label(action, obs, self.view)}")
        return None

    # -- output ----------------------------------------------------------------------

    def _table_lines(self, obs: Mapping[str, Any], show_hand: bool = True) -> list[str]:
        hand = obs.get("hand")
        if hand and set(hand) == set(self.hand):  # the hand line in the choices' order
            obs = {**obs, "hand": list(self.hand)}
        return self.text.observation(obs, self.view, show_hand=show_hand).splitlines()

    def help(self) -> str:
        """The in-game help: the common commands and this game's own, filled to the
        terminal's width (80 columns when output is not a terminal)."""
        parts = [HELP, self.text.help, HELP_END.format(tricks=self.text.tricks_help)]
        width = shutil.get_terminal_size().columns if isatty(sys.stdout) else 80
        return fill_help("\n".join(p for p in parts if p), max(width, 40) - 1)

    def _choices(self, obs: Mapping[str, Any], first: int = 1) -> list[str]:
        """The numbered choices; messages wait behind ``m`` when the game says so."""
        text = self.text
        behind = text.messages_behind_m
        lines = []
        for i, (action, ok) in enumerate(self.entries(obs), first):
            if behind and text.is_message(action):
                continue
            label = text.choice_label(action, obs, self.view)
            if not ok:
                why = text.unplayable(action, obs, self.view)
                label += f"  ({NOT_PLAYABLE}{': ' + why if why else ''})"
            lines.append(f"{i:>3}) {label}")
        if behind and any(text.is_message(a) for a in obs.get("legal_actions") or []):
            lines.append(text.messages_line(obs))
        return lines

    def show_messages(self, obs: Mapping[str, Any], offset: int = 0) -> None:
        """The messages this seat may send now, numbered after the other choices."""
        out = self.out
        out.line(self.text.messages_head(obs))
        for i, (action, _) in enumerate(self.entries(obs), 1 + offset):
            if self.text.is_message(action):
                out.line(f"{i:>3}) {self.text.action_label(action, obs, self.view)}")
        for line in self.text.messages_extra(obs, self.view):
            out.line(line)

    def show_table(self, obs: Mapping[str, Any], pause: bool = False) -> None:
        """The table, then the choices (at a pause: "continue" first)."""
        out = self.out
        text = self.text
        out.line()
        hand = obs.get("hand") or []
        # A game may show the hand as the choices themselves, when all of it is listed
        # (playable, or numbered by its place: see entries).
        listed = text.hand_in_choices and set(hand) <= {a for a, _ in self.entries(obs)}
        for i, line in enumerate(self._table_lines(obs, show_hand=not listed)):
            bold = i == 0 or line.startswith(text.bold_prefixes)
            out.line(line, style="bold" if bold else None)
        for line in text.notes_before_choices(obs):
            out.line(line)
        if pause:
            out.line(text.pause_offer, style="bold")
            out.line(f"  1) continue — let {self.view.seat(obs.get('to_act'), False)} play")
            lines = self._choices(obs, first=2)
        else:
            header = "Your hand — your choices:" if listed and hand else "Your choices:"
            out.line(header, style="bold")
            lines = self._choices(obs)
        for line in lines:
            out.line(line, style="dim" if NOT_PLAYABLE in line else text.choice_style(line))
        for line in text.notes_after_choices(obs, pause):
            out.line(line)

    def show_tricks(self, obs: Mapping[str, Any]) -> None:
        for line in self.text.tricks(obs, self.view):
            self.out.line(line)

    def show_drawn(self, state: State, events: list[dict[str, Any]]) -> None:
        """Say which cards a draw from the stock brought the human: the draw event names
        none, so they are the cards in hand now that were not there before."""
        obs = state.observation(self.seat)
        hand = list(obs.get("hand") or [])
        drawn = [c for c in hand if c not in self.hand]
        if drawn and any(self.text.draws(e) for e in events):
            self.out.line(f"You draw {self.view.cards(drawn)}.", style="cyan")
        # The order the cards came in: what stays keeps its place, new cards go last, in
        # the game's own order (strongest first, where a game sorts its hand so).
        new = self.text.ordered_actions(drawn, obs)
        self.hand = [c for c in self.hand if c in hand] + new + [c for c in drawn if c not in new]

    def show_events(self, events: list[dict[str, Any]]) -> None:
        """New log events.  A game may hold messages back until the next move of the game
        (or the human's prompt), so a partner's run of messages reads as one line."""
        if not self.text.hold_messages:
            for event in events:
                self.show_event(event)
            return
        for event in events:
            # A message event's type is its action's first word (signal, consult...).
            if self.text.is_message(f"{event.get('type')} "):
                self.held.append(event)
            else:
                self.flush_messages()
                self.show_event(event)

    def flush_messages(self) -> None:
        """Print the messages held back by :meth:`show_events`."""
        if not self.held:
            return
        held, self.held = self.held, []
        for event in self.text.group_messages(held):
            self.show_event(event)

    def show_event(self, event: Mapping[str, Any]) -> None:
        if event.get("type") == "deal" and event.get("seats"):
            self.deal_seats = list(event["seats"])
        text = self.text.event(event, self.view, self.deal_seats)
        if text is None:
            return
        side_of = self.game.info.side_of
        # The side an event is good for: a trick's winner, else the seat that acted.
        who = event.get("winner") if event.get("winner") is not None else event.get("seat")
        ours = (
            isinstance(who, int) and 0 <= who < len(side_of) and side_of[who] == side_of[self.seat]
        )
        if self.text.paragraph(event):
            self.out.line()
        self.out.line(text, style=self.text.event_style(event, ours))

    def write_record(self, state: State) -> None:
        if not self.save:
            return
        from mazo.record import save_record

        names = [
            "human" if s == self.seat else self.bot_names.get(s, "bot")
            for s in range(self.game.players)
        ]
        try:
            path = save_record(state, self.save, seat_names=names)
        except OSError as err:
            self.out.error(f"mazo play: cannot write {self.save}: {err.strerror or err}")
            return
        self.out.line(
            f"Record saved to {path}; replay it with: mazo replay {_quote(str(path))} "
            f"--seat {self.seat}"
        )


HELP_COLUMN = 21
"""Where the help's explanations start (a command longer than the gap gets a line of its
own)."""


def fill_help(text: str, width: int) -> str:
    """Help entries (``  command  explanation``, continued on lines indented to
    :data:`HELP_COLUMN`) with their explanations filled to ``width`` under that column;
    lines not indented (headings) stay as they are.

    >>> text = "Keys:\\n  q, quit            leave the match now and write the record"
    >>> print(fill_help(text, 44))
    Keys:
      q, quit            leave the match now and
                         write the record
    """
    entries: list[tuple[str, str]] = []
    for line in text.splitlines():
        if line.startswith(" " * HELP_COLUMN) and entries:
            command, words = entries[-1]
            entries[-1] = (command, f"{words} {line.strip()}".strip())
        elif line.startswith("  "):
            command, _, words = line.strip().partition("  ")
            entries.append((command, words.strip()))
        else:
            entries.append(("", line))
    out: list[str] = []
    hang = " " * HELP_COLUMN
    for command, words in entries:
        if not command:
            out.append(words)
            continue
        lines = textwrap.wrap(
            words, max(width - HELP_COLUMN, 20), break_long_words=False, break_on_hyphens=False
        )
        head = f"  {command}"
        if len(head) < HELP_COLUMN - 1 and lines:
            out.append(head.ljust(HELP_COLUMN) + lines.pop(0))
        else:
            out.append(head)
        out.extend(hang + line for line in lines)
    return "\n".join(out)


class _BotFailure(Exception):
    pass


def _make_bot(spec: str, game: Game, seed: int, notes: list[str]) -> tuple[Any, str]:
    """A bot by name (with ``:key=value`` options, as ``mazo sim --bots`` takes them); the
    default heuristic falls back to random if it is not there (saying so in ``notes``)."""
    from mazo import make_bot

    name, options = _bot_spec(spec)
    try:
        return make_bot(name, game, seed=seed, **options), spec.strip().lower()
    except ImportError as err:
        problem = f"is not available ({err})"
    except RulesError as err:
        known = _bot_names()
        if known and name not in known:
            hint = did_you_mean(name, known)
            raise CliError(f"unknown bot {spec!r}; {hint}bots are: {', '.join(known)}") from None
        if options:  # e.g. "bot 'ismcts' has no option foo; options are: ..."
            raise CliError(str(err)) from None
        problem = f"cannot play this game ({err})"
    except NotImplementedError as err:
        problem = f"cannot play this game ({err or 'not implemented'})"
    if name != DEFAULT_BOT:
        raise CliError(f"bot {spec!r} {problem}")
    try:
        bot = make_bot(FALLBACK_BOT, game, seed=seed)
    except (ImportError, RulesError, NotImplementedError) as err:
        raise CliError(f"no bot can play {game.name}: {err}") from None
    notes.append(f"Note: the {name} bot {problem}; playing against {FALLBACK_BOT} instead.")
    return bot, FALLBACK_BOT


def _bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``ismcts:iterations=50`` -> ``("ismcts", {"iterations": 50})``; anything else (a
    plugin's ``package.module:factory``) is a name of its own.

    >>> _bot_spec("ISMCTS:iterations=50:exploration=0.5")
    ('ismcts', {'iterations': 50, 'exploration': 0.5})
    """
    from mazo.bots import parse_option_value

    head, *items = spec.strip().split(":")
    name = head.strip().lower()
    if not items or name not in _bot_names():
        return spec.strip() if items else name, {}
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(
                f"--vs {spec!r}: options go after the bot's name as :key=value, "
                "e.g. ismcts:iterations=50"
            )
        options[key.strip().replace("-", "_")] = parse_option_value(value.strip())
    return name, options


def _bot_names() -> list[str]:
    try:
        from mazo.bots import list_bots
    except ImportError:
        return []
    return list(list_bots())


def _pause_key(obs: Mapping[str, Any]) -> tuple[Any, ...]:
    """A point of the deal: its number, the tricks done, the cards of the trick so far."""
    return (
        obs.get("deal_number"),
        obs.get("smazzata"),
        obs.get("deal"),
        len(obs.get("tricks") or []),
        tuple(obs.get("tricks_won") or ()),
        len(obs.get("trick") or []),
        obs.get("phase"),
    )


def _must_answer(obs: Mapping[str, Any], text: GameText) -> bool:
    """The human's team owes an answer (Envite: a proposal, the tumbo decision) and the
    human may give it, though another seat was asked first."""
    if not (obs.get("team_must_answer") or obs.get("team_must_decide")):
        return False
    return any(not text.is_message(a) for a in obs.get("legal_actions") or [])


def _parse_setup(text: str | None, game: Game) -> dict[str, Any] | None:
    """``--setup`` as a dict, checked by the game (its errors say which keys it takes)."""
    if text is None:
        return None
    try:
        setup = json.loads(text)
    except ValueError as err:
        raise CliError(f"--setup must be JSON such as '{{\"scores\": [11, 4]}}': {err}") from None
    if not isinstance(setup, dict):
        raise CliError("--setup must be a JSON object such as '{\"scores\": [11, 4]}'")
    try:
        game.check_setup(setup)
    except RulesError as err:
        raise CliError(f"--setup: {err}") from None
    return setup


def _card_codes(game: Game) -> set[str]:
    deck = game.info.deck
    return {deck.format(c) for c in deck.all_cards()}


def _is_changed(game: Game, name: str, value: Any) -> bool:
    spec = next((o for o in game.option_specs if o.name == name), None)
    return spec is not None and not (type(value) is type(spec.default) and value == spec.default)


def _quote(path: str) -> str:
    return path if all(c.isalnum() or c in "/._-" for c in path) else repr(path)
