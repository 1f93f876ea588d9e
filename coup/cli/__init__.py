"""The `coup` command line: one entry point, one module per subcommand.

Each subcommand lives in its own module exposing ``main(argv: list[str]) -> int``; it is
imported only when used, so `coup replay` never pays for the server's imports.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("coup.cli.serve", "run the online table (HTTP + websockets)"),
    "play": ("coup.cli.play", "play a game in the terminal against bots"),
    "replay": ("coup.cli.replay", "replay a coup-record/1 game, in words or as JSON"),
    "review": ("coup.cli.review", "the coach: weigh each decision of a seat with the hard bot"),
    "tournament": ("coup.cli.tournament", "play many games between bots and rank them"),
    "bench": ("tools.bench.suite", "measure the engine's speed"),
    "loadtest": ("tools.load.loadtest", "load a local server with bot-driven tables"),
}


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
    module = importlib.import_module(COMMANDS[name][0])
    result: int = module.main(rest)
    return result


if __name__ == "__main__":
    sys.exit(main())
