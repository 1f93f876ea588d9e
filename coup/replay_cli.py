"""`coup replay RECORD.json` — tell a recorded game in words, or print its final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from coup.rules import InvalidRecordError, final_state_json, replay, verify
from coup.rules.narrate import Narrator


def _load(path: str) -> Any:
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise InvalidRecordError(f"cannot read {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"{path} is not JSON: {e}") from None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="coup replay", description="Replay a coup-record/1 game and tell it."
    )
    parser.add_argument("record", help="the record file (JSON), or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    args = parser.parse_args(argv)
    try:
        record = _load(args.record)
        state = replay(record)
    except InvalidRecordError as e:
        print(f"coup replay: {e}", file=sys.stderr)
        return 2
    verdict = None
    if "commitment" in record:
        ok, why = verify(record)
        if not ok:
            print(f"coup replay: not verified: {why}", file=sys.stderr)
            return 2
        verdict = why
    if args.json:
        print(json.dumps(final_state_json(state), indent=2))
        if verdict:
            print(verdict, file=sys.stderr)
        return 0
    names = state.names
    settings = state.settings
    print(f"Coup, {state.n} players: {', '.join(names)}")
    extra = ", draft deal" if settings.draft else ""
    print(
        f"Characters: {settings.characters}, {settings.copies} copies{extra}; "
        f"{names[settings.first]} starts."
    )
    for seat, hand in enumerate(state.deal.hands):
        print(f"  {names[seat]} is dealt {' and '.join(c.capitalize() for c in hand)}")
    narrator = Narrator(names, settings.characters)
    for seat, move, forced, draws, out, _ in state.history:
        entry: dict[str, Any] = {"seat": seat, "move": str(move), "forced": forced, "out": out}
        line = narrator.tell(entry)
        if draws:
            drawer = seat if move.verb == "reveal" else narrator.actor
            if move.verb == "swap":
                drawer = narrator.target
            cards = ", ".join(c.capitalize() for c in draws)
            line += f" ({narrator.name(drawer)} draws {cards} from the Court.)"
        print(line)
    if state.over:
        print(f"{names[state.winner]} wins.")  # type: ignore[index]
    else:
        waiting = ", ".join(names[s] for s in state.waiting)
        print(f"The game goes on: waiting for {waiting}.")
    if verdict:
        print(f"Fair shuffle: {verdict} (seed {state.seed}).")
    return 0
