"""`coup replay RECORD.json` — tell a recorded game in words, or print its final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from coup.rules import InvalidRecordError, State, final_state_json, replay, verify
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


class Teller:
    """Prints each move in words as the replay goes, with what it did to the coins."""

    def __init__(self) -> None:
        self.narrator: Narrator | None = None
        self.told = 0
        self.coins: list[int] = []
        self.lines: list[str] = []

    def __call__(self, s: State) -> None:
        if self.narrator is None:
            self.narrator = Narrator(s.names, s.settings.characters)
            self.coins = list(s.coins)
            self._opening(s)
        narrator = self.narrator
        for seat, move, forced, draws, out, _ in s.history[self.told :]:
            line = narrator.tell({"seat": seat, "move": str(move), "forced": forced, "out": out})
            if draws:
                drawer = seat if move.verb == "reveal" else narrator.actor
                if move.verb == "swap":
                    drawer = narrator.target
                cards = ", ".join(c.capitalize() for c in draws)
                line += f" ({narrator.name(drawer)} draws {cards} from the Court.)"
            self.lines.append(line)
        self.told = len(s.history)
        changes = [
            f"{s.names[i]} {before} → {after}"
            for i, (before, after) in enumerate(zip(self.coins, s.coins, strict=True))
            if before != after
        ]
        if changes:
            reserve = f", Reserve {s.reserve}" if s.reformation else ""
            self.lines.append(f"    coins: {', '.join(changes)}; treasury {s.treasury}{reserve}")
        self.coins = list(s.coins)

    def _opening(self, s: State) -> None:
        names, settings = s.names, s.settings
        extra = ", draft deal" if settings.draft else ""
        extra += ", Reformation" if settings.reformation else ""
        self.lines.append(f"Coup, {s.n} players: {', '.join(names)}")
        self.lines.append(
            f"Characters: {settings.characters}, {settings.copies} copies{extra}; "
            f"{names[settings.first]} starts. Treasury {s.treasury}."
        )
        for seat, hand in enumerate(s.deal.hands):
            cards = " and ".join(c.capitalize() for c in hand)
            self.lines.append(f"  {names[seat]} is dealt {cards}, {s.coins[seat]} coins.")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="coup replay", description="Replay a coup-record/1 game and tell it."
    )
    parser.add_argument("record", help="the record file (JSON), or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    args = parser.parse_args(argv)
    teller = Teller()
    try:
        record = _load(args.record)
        state = replay(record, observe=None if args.json else teller)
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
    print("\n".join(teller.lines))
    names = state.names
    if state.winner is not None:
        print(f"{names[state.winner]} wins.")
    else:
        waiting = ", ".join(names[s] for s in state.waiting)
        print(f"The game goes on: waiting for {waiting}.")
    if verdict:
        print(f"Fair shuffle: {verdict} (seed {state.seed}).")
    return 0
