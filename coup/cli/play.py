"""`coup play`: a game of Coup in the terminal, you against bots.

    coup play [--players N] [--variant ambassador|inquisitor] [--draft/--no-draft]
              [--bots NAME] [--seed N] [--name NAME] [--seat S] [--save FILE]

You see only what your seat may know (`State.view(your seat)`); the bots' moves appear in
the log as they happen. Pick a move by its number or type it in Coup's notation
("steal 2", "block captain", "keep duke contessa"). `quit`, Ctrl-D or Ctrl-C leave
(with `--save`, the game so far is saved first).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import shlex
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

import coup
from coup.cli import play_screen

if TYPE_CHECKING:
    from coup.bots import Bot
    from coup.bots.window import SeatWindow
    from coup.rules import SeatView

BOT_NAMES = ("Ada", "Bashir", "Chen", "Dara", "Emil", "Farah", "Goran", "Hana", "Ines", "Jomo")
#: The bots we would rather play against, best first.
PREFERENCE = ("search", "heuristic", "honest", "random")


class RandomLegal:
    """Stand-in when coup.bots is missing: a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SeatWindow, seat: int) -> coup.Move:
        return self.rng.choice(state.legal(seat))


class Quit(Exception):
    """The player asked to leave."""


class Screen(Console):
    """The terminal. If the output goes away (`coup play | head`), go quiet and let
    `main` save the game, rather than exit at once as rich does."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise BrokenPipeError


# ---------------------------------------------------------------- options
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="coup play", description="Play a game of Coup in the terminal against bots."
    )
    p.add_argument("--players", type=int, help="number of players, 2–10 (default 4)")
    p.add_argument("--variant", choices=coup.VARIANTS, help="ambassador (default) or inquisitor")
    p.add_argument(
        "--draft",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="two players only: the draft deal (default on for 2 players)",
    )
    p.add_argument("--bots", help="bot kind: random, honest, heuristic, search (default: best)")
    p.add_argument("--seed", type=int, help="fix the deal, the shuffles and the bots' choices")
    p.add_argument("--name", help="your name at the table")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 … players-1 (default 0)")
    p.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    return p


def ask(console: Console, question: str, check: Callable[[str], Any], default: str) -> Any:
    """Ask until `check` accepts the answer (it raises ValueError with the reason)."""
    while True:
        answer = console.input(f"{question} ({default}): ", markup=False).strip() or default
        try:
            return check(answer)
        except ValueError as e:
            console.print(f"[red]{e}[/]")


def player_count(text: str) -> int:
    if not text.isdigit() or not 2 <= int(text) <= 10:
        raise ValueError(f"{text!r}: a table seats 2 to 10 players")
    return int(text)


def variant_name(text: str) -> str:
    text = text.lower()
    if text not in coup.VARIANTS:
        raise ValueError(f"{text!r}: choose ambassador or inquisitor")
    return text


def default_name() -> str:
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    return user.capitalize() if user and user != "root" else "Guest"


def pick_bots(kind: str | None) -> tuple[str, Callable[[int | None], Bot]]:
    """(label, factory) for the bots; raises ValueError if `kind` cannot be made."""
    try:
        from coup import bots
    except ImportError:
        if kind not in (None, "random"):
            raise ValueError(f"bot {kind!r} is not available: coup.bots is not installed")
        return "random", RandomLegal
    names = tuple(getattr(bots, "NAMES", PREFERENCE))
    if kind is not None and kind not in names:
        raise ValueError(f"unknown bot {kind!r}; choose one of: {', '.join(names)}")
    candidates = [kind] if kind else [k for k in PREFERENCE if k in names]
    reasons = []
    for candidate in candidates:
        try:
            bots.make(candidate, seed=0)  # can it be built at all?
        except Exception as e:  # noqa: BLE001 - a bot module may not have landed yet
            reasons.append(f"{candidate}: {e}")
            continue
        return candidate, lambda seed, c=candidate: bots.make(c, seed=seed)
    if kind:
        raise ValueError(f"bot {kind!r} is not available ({'; '.join(reasons)})")
    return "random", RandomLegal


# ---------------------------------------------------------------- your move
def normalize(text: str, names: Sequence[str]) -> str:
    """Lower case, single spaces; a player's name after a verb becomes their seat."""
    t = " ".join(text.strip().lower().split())
    t = t.replace("foreign aid", "foreign_aid")
    for seat, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
        low = name.lower()
        if t.endswith(" " + low):
            return f"{t[: -len(low)]}{seat}"
    return t


def read_choice(text: str, legal: list[str], names: Sequence[str]) -> str:
    """The legal move `text` picks (a number, notation, or an unambiguous start of one);
    raises ValueError with a one-line explanation otherwise."""
    k = len(legal)
    hint = f"pick 1–{k} or type a move, e.g. {legal[0]!r}" if k > 1 else "type 1"
    t = normalize(text, names)
    if not t:
        raise ValueError(f"Nothing typed: {hint}.")
    if t.isdigit():
        if 1 <= int(t) <= k:
            return legal[int(t) - 1]
        raise ValueError(f"There is no move {t}: {hint}.")
    if t in legal:
        return t
    try:
        move = str(coup.Move.parse(t))
    except ValueError:
        move = None
    if move is not None:
        if move in legal:
            return move
        raise ValueError(f"{t!r} is not one of your moves now: {hint}.")
    starts = [m for m in legal if m.startswith(t)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise ValueError(f"{t!r} could be {' or '.join(starts)}: type more, or a number.")
    raise ValueError(f"{text.strip()!r} is not a move: {hint}.")


class Game:
    """One game in the terminal: the state, the bots, the human seat, the screen."""

    def __init__(self, console: Console, state: coup.State, me: int, bots: dict[int, Bot]):
        self.console, self.state, self.me, self.bots = console, state, me, bots
        self.names = list(state.names)
        self.logged = 0  # history entries the human has seen on screen

    def run(self) -> None:
        state = self.state
        told_out = False
        while not state.over:
            if not told_out and not state.alive(self.me):
                told_out = True
                self.show()
                self.console.print("[bold]You are out.[/] The bots play on to the end…")
            if state.waiting[0] == self.me:
                state.play(self.me, self.ask_move())
            else:
                self.bots_play()

    def bots_play(self) -> None:
        """Bots move until it is the human's decision, the human is out, or the game ends."""
        state = self.state
        was_alive = state.alive(self.me)
        waiting = (
            self.console.status("The bots are thinking…")
            if self.console.is_terminal
            else contextlib.nullcontext()
        )
        with waiting:
            while not state.over and state.waiting[0] != self.me:
                seat = state.waiting[0]
                state.play(seat, self.bot_move(seat))
                if was_alive and not state.alive(self.me):
                    return

    def bot_move(self, seat: int) -> coup.Move:
        legal = self.state.legal(seat)
        try:
            move = self.bots[seat].choose(self.state, seat)
        except Exception:  # noqa: BLE001 - a broken bot must not end a human game
            move = None
        return move if move in legal else random.choice(legal)

    def show(self) -> SeatView:
        view = self.state.view(self.me)
        history = view["history"]
        log, fresh = play_screen.grouped_log(
            history, self.names, view["settings"]["characters"], self.logged
        )
        self.logged = len(history)
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(play_screen.screen(view, self.names, log, fresh))
        return view

    def ask_move(self) -> str:
        view = self.show()
        legal: list[str] = view["legal"]
        self.console.print(play_screen.moves_menu(view, self.names))
        while True:
            text = self.console.input(f"[bold]Your move[/] (1–{len(legal)}, ? for help): ")
            if not sys.stdin.isatty():  # a scripted game: keep the transcript readable
                self.console.print(text, markup=False)
            word = text.strip().lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("?", "help", "h"):
                self.console.print(play_screen.moves_menu(view, self.names))
                self.console.print(
                    "Type the number of a move, or the move itself ('steal 2', 'steal Ada', "
                    "'block captain', 'keep duke contessa'); 'quit' leaves."
                )
                continue
            try:
                return read_choice(text, legal, self.names)
            except ValueError as e:
                self.console.print(f"[red]{e}[/]", soft_wrap=True)

    def finish(self) -> None:
        view = self.show()
        play_screen.final_screen(self.console, view, self.names)


# ---------------------------------------------------------------- saving
def check_save_path(path: str) -> None:
    folder = Path(path).expanduser().resolve().parent
    if not folder.is_dir():
        raise ValueError(f"--save: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"--save: cannot write in {str(folder)!r}")


def save(console: Console, state: coup.State, path: str) -> bool:
    """Write the record; if that fails, keep it in a temporary file rather than lose it."""
    text = json.dumps(state.record(), indent=1) + "\n"
    target = Path(path).expanduser()
    try:
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as e:
        fd, rescue = tempfile.mkstemp(prefix="coup-game-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        console.print(
            f"[red]Could not write {escape(path)}: {e.strerror}.[/] The game is in {rescue}.",
            soft_wrap=True,
        )
        return False
    # whole lines, the path as typed and the command quoted for a shell: what a terminal
    # copies of them works
    console.print(
        f"Game record saved to {path} (replay it with: coup replay {shlex.quote(path)}).",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    return True


# ---------------------------------------------------------------- main
def setup(args: argparse.Namespace, console: Console, interactive: bool) -> Game:
    players = args.players
    if players is None:
        players = ask(console, "How many players (2–10)?", player_count, "4") if interactive else 4
    player_count(str(players))
    variant = args.variant
    if variant is None:
        variant = (
            ask(console, "Variant (ambassador/inquisitor)?", variant_name, "ambassador")
            if interactive
            else "ambassador"
        )
    if args.draft and players != 2:
        raise ValueError("--draft: the draft deal is for two players")
    if not 0 <= args.seat < players:
        raise ValueError(f"--seat: seats are 0–{players - 1} at a table of {players}")
    name = (args.name if args.name is not None else default_name()).strip()
    if not name or len(name) > 24:
        raise ValueError("--name: give a name of 1 to 24 characters")
    if args.save:
        check_save_path(args.save)
    label, make_bot = pick_bots(args.bots)
    others = [b for b in BOT_NAMES if b.lower() != name.lower()]
    names = [others.pop(0) if seat != args.seat else name for seat in range(players)]
    seed = args.seed
    first = (
        random.Random(seed).randrange(players) if seed is not None else secrets.randbelow(players)
    )
    state = coup.new_game(
        players=names, seed=seed, characters=variant, draft=args.draft, first=first
    )
    bots = {
        seat: make_bot(None if seed is None else seed * 31 + seat)
        for seat in range(players)
        if seat != args.seat
    }
    console.print(f"{players} players, {variant} game, {label} bots. You are seat {args.seat}.")
    return Game(console, state, args.seat, bots)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:  # --help, or a bad option (argparse printed why)
        return int(e.code or 0)
    console = Screen(highlight=False)
    game: Game | None = None
    code = 0
    try:
        game = setup(args, console, sys.stdin.isatty())
        game.run()
        game.finish()
    except ValueError as e:
        if game is None:  # bad settings: nothing was played yet
            console.print(f"[red]coup play: {e}[/]")
            return 2
        console.print(f"[red]coup play: unexpected error: {e}[/]")
        code = 1
    except (Quit, EOFError):
        console.print("\nbye")
    except KeyboardInterrupt:
        console.print("\nbye")
        code = 130
    except BrokenPipeError:  # the screen went away (see Screen): keep the game
        code = 1
    if game is not None and args.save and not save(console, game.state, args.save):
        code = code or 1
    return code


if __name__ == "__main__":
    sys.exit(main())
