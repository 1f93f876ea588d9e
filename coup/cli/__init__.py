"""The `coup` command line: one entry point, one module per subcommand.

Each subcommand lives in its own module exposing ``main(argv: list[str]) -> int``; it is
imported only when used, so `coup replay` never pays for the server's imports.

`coup bench` and `coup loadtest` are entries into `tools/`, the measuring and load tools,
which sit beside `coup/` in the source checkout and are not part of the installed package:
they run where `coup` itself runs from a checkout (`pip install -e .`, `make`), and say so
otherwise. Nothing here imports them but by name, when asked.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("coup.cli.serve", "run the online table (HTTP + websockets)"),
    "backup": ("coup.cli.backup", "copy a live SQLite database (SQLite's online backup)"),
    "worker": ("coup.cli.worker", "take bots' and coach's work from Redis, for every server"),
    "play": ("coup.cli.play", "play a game in the terminal against bots"),
    "replay": ("coup.cli.replay", "replay a coup-record/1 game, in words or as JSON"),
    "review": ("coup.cli.review", "the coach: weigh each decision of a seat with the hard bot"),
    "tournament": ("coup.cli.tournament", "play many games between bots and rank them"),
    "bench": ("tools.bench.suite", "measure the engine's speed (from a checkout)"),
    "loadtest": ("tools.load.loadtest", "load a local server with bot tables (from a checkout)"),
}
#: The folder of the source checkout that holds `coup/` and `tools/` side by side.
CHECKOUT = Path(__file__).resolve().parents[2]


def tool(module: str) -> ModuleType | None:
    """`module` of `tools/` from the checkout this `coup` runs from; None where `coup` was
    installed from a wheel (no checkout, no `tools/` beside it)."""
    if not (CHECKOUT / "pyproject.toml").is_file() or not (CHECKOUT / "tools").is_dir():
        return None
    if str(CHECKOUT) not in sys.path:
        sys.path.insert(0, str(CHECKOUT))
    return importlib.import_module(module)


def usage() -> str:
    lines = ["usage: coup COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<11} {text}" for name, (_, text) in COMMANDS.items()]
    lines += ["", "`coup COMMAND --help` describes each command."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"coup: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    target = COMMANDS[name][0]
    module = tool(target) if target.startswith("tools.") else importlib.import_module(target)
    if module is None:
        print(f"coup {name}: needs the source checkout (tools/ is not installed)", file=sys.stderr)
        return 2
    try:
        result: int = module.main(rest)
    except BrokenPipeError:
        # The reader went away (`coup replay --json game.json | head`): what it wanted it
        # has. Python's own advice: point stdout at /dev/null so that flushing it at exit
        # raises nothing more, and end with 1, as a write that failed.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
