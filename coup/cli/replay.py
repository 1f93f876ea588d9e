"""`coup replay RECORD.json` — tell a recorded game in words, or print its final state.

The words are English unless `--lang` names another language (`coup.cli.narration`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any

from coup.cli import narration
from coup.rules import InvalidRecordError, State, final_state_json, replay, verify
from coup.rules.narrate import Narrator

#: The words around the moves' sentences, in English (a catalog has them in its language).
PHRASES: dict[str, str] = {
    "replay.players": "Coup, {n} players: {names}",
    "replay.settings": "Characters: {characters}, {copies} copies{extra}; {first} starts. "
    "Treasury {treasury}.",
    "replay.ambassador": "ambassador",
    "replay.inquisitor": "inquisitor",
    "replay.draft": ", draft deal",
    "replay.reformation": ", Reformation",
    "replay.dealt": "{name} is dealt {cards}, {coins} coins.",
    "replay.draws": "{sentence} ({name} draws {cards} from the Court.)",
    "replay.coins": "coins: {changes}; treasury {treasury}{reserve}",
    "replay.change": "{name} {before} → {after}",
    "replay.reserve": ", Reserve {n}",
    "replay.list": ", ",
    "replay.wins": "{name} wins.",
    "replay.goes_on": "The game goes on: waiting for {names}.",
    "replay.fair": "Fair shuffle: {verdict} (seed {seed}).",
    "replay.verified": "verified",
}


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

    def __init__(self, phrases: dict[str, str] | None = None) -> None:
        self.phrases = {**PHRASES, **(phrases or {})}
        self.narrator: Narrator | None = None
        self.told = 0
        self.coins: list[int] = []
        self.lines: list[str] = []

    def __call__(self, s: State) -> None:
        if self.narrator is None:
            self.narrator = Narrator(s.names, s.settings.characters, self.phrases)
            self.coins = list(s.coins)
            self._opening(s)
        narrator = self.narrator
        for seat, move, forced, draws, out, _ in s.history[self.told :]:
            line = narrator.tell({"seat": seat, "move": str(move), "forced": forced, "out": out})
            if draws:
                drawer = seat if move.verb == "reveal" else narrator.actor
                if move.verb == "swap":
                    drawer = narrator.target
                cards = self.joined(narrator.word(c) for c in draws)
                line = self.say(
                    "replay.draws", sentence=line, name=narrator.name(drawer), cards=cards
                )
            self.lines.append(line)
        self.told = len(s.history)
        changes = [
            self.say("replay.change", name=s.names[i], before=before, after=after)
            for i, (before, after) in enumerate(zip(self.coins, s.coins, strict=True))
            if before != after
        ]
        if changes:
            reserve = self.say("replay.reserve", n=s.reserve) if s.reformation else ""
            coins = self.say(
                "replay.coins", changes=self.joined(changes), treasury=s.treasury, reserve=reserve
            )
            self.lines.append(f"    {coins}")
        self.coins = list(s.coins)

    def say(self, key: str, **values: object) -> str:
        return self.phrases[key].format(**values)

    def joined(self, items: Iterable[str]) -> str:
        return self.phrases["replay.list"].join(items)

    def _opening(self, s: State) -> None:
        names, settings = s.names, s.settings
        assert self.narrator is not None
        extra = self.say("replay.draft") if settings.draft else ""
        extra += self.say("replay.reformation") if settings.reformation else ""
        self.lines.append(self.say("replay.players", n=s.n, names=self.joined(names)))
        self.lines.append(
            self.say(
                "replay.settings",
                characters=self.say(f"replay.{settings.characters}"),
                copies=settings.copies,
                extra=extra,
                first=names[settings.first],
                treasury=s.treasury,
            )
        )
        for seat, hand in enumerate(s.deal.hands):
            cards = self.narrator.words(hand)
            dealt = self.say("replay.dealt", name=names[seat], cards=cards, coins=s.coins[seat])
            self.lines.append(f"  {dealt}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="coup replay", description="Replay a coup-record/1 game and tell it."
    )
    parser.add_argument("record", help="the record file (JSON), or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument(
        "--lang",
        default="en",
        help="the language of the words: en (the default), " + ", ".join(narration.LANGUAGES),
    )
    args = parser.parse_args(argv)
    lang = narration.match(args.lang)
    if lang is None:
        parser.error(f"no words in {args.lang!r}: en, {', '.join(narration.LANGUAGES)}")
    teller = Teller(narration.phrases(lang))
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
        print(teller.say("replay.wins", name=names[state.winner]))
    else:
        waiting = teller.joined(names[s] for s in state.waiting)
        print(teller.say("replay.goes_on", names=waiting))
    if verdict:
        told = teller.say("replay.verified") if verdict == "verified" else verdict
        print(teller.say("replay.fair", verdict=told, seed=state.seed))
    return 0
