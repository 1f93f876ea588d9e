"""The compiled rules core against the pure-Python one, side by side (`coup bench --cores`).

Two child processes run the same measures, one with ``COUP_PURE=1``; their rounds
alternate, so both see the same load on the machine, and the medians are compared:

* random play, 4 players: decisions per CPU second (as `coup bench` measures ours);
* the search bot: playouts and playout steps per CPU second, over the decisions of a few
  seeded 4-player games (its default budget, counted in steps, so both cores do the
  same work).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.bench.engine import random_play

#: Run in each child: `python -c CHILD` in the checkout, one JSON line per line read.
CHILD = "from tools.bench.cores import child; child()"
#: The checkout holding `tools/` (the children import it from there).
CHECKOUT = Path(__file__).resolve().parents[2]


def search_rates(states: int, seed: int) -> tuple[float, float]:
    """(playouts/s, playout steps/s) of the search bot deciding `states` positions."""
    import coup
    from coup.bots.search import SearchBot

    rng = random.Random(seed)
    positions: list[tuple[coup.State, int]] = []
    game = 0
    while len(positions) < states:
        state = coup.new_game(players=4, seed=seed + game)
        game += 1
        while not state.over and len(positions) < states:
            seat = state.waiting[0]
            if len(state.legal(seat)) > 1 and rng.random() < 0.3:
                positions.append((state.clone(), seat))
            state.play(seat, rng.choice(state.legal(seat)))
    counts = [0, 0]  # playouts, steps

    class Counting(SearchBot):
        def evaluate(self, world: coup.State, seat: int, move: coup.Move, s: int) -> Any:
            value, played = super().evaluate(world, seat, move, s)
            counts[0] += 1
            counts[1] += played
            return value, played

    bot = Counting(seed=seed)
    start = time.process_time()
    for state, seat in positions:
        bot.choose(state, seat)
    elapsed = max(time.process_time() - start, 1e-9)
    return counts[0] / elapsed, counts[1] / elapsed


def child() -> None:
    """One core's measures, a round per line read on stdin (see `Cores`)."""
    from coup.rules.core import CORE, WHY

    print(json.dumps({"core": CORE, "why": WHY}), flush=True)
    for line in sys.stdin:
        games, states, seed = (int(word) for word in line.split())
        decisions, _, _ = random_play(4, games, seed)
        playouts, steps = search_rates(states, seed)
        print(json.dumps([decisions, playouts, steps]), flush=True)


class Cores:
    """Both cores in child processes; `round()` runs one measure on each, in turn."""

    def __init__(self) -> None:
        self.children: dict[str, subprocess.Popen[str]] = {}
        self.info: dict[str, Any] = {}
        for name, pure in (("compiled", False), ("pure", True)):
            env = {k: v for k, v in os.environ.items() if k != "COUP_PURE"}
            if pure:
                env["COUP_PURE"] = "1"
            proc = subprocess.Popen(
                [sys.executable, "-c", CHILD],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                cwd=CHECKOUT,
            )
            self.children[name] = proc
            self.info[name] = self._read(proc)

    @staticmethod
    def _read(proc: subprocess.Popen[str]) -> Any:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("a bench child process ended early")
        return json.loads(line)

    def round(self, games: int, states: int, seed: int) -> dict[str, list[float]]:
        out = {}
        for name, proc in self.children.items():
            assert proc.stdin is not None
            proc.stdin.write(f"{games} {states} {seed}\n")
            proc.stdin.flush()
            out[name] = [float(x) for x in self._read(proc)]
        return out

    def close(self) -> None:
        for proc in self.children.values():
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(30)
            if proc.stdout is not None:
                proc.stdout.close()


def compare(
    rounds: int, games: int, states: int, seed: int, note: Callable[[str], None]
) -> dict[str, Any]:
    """Medians per core of `rounds` alternating rounds, and compiled/pure ratios."""
    cores = Cores()
    runs: dict[str, list[list[float]]] = {name: [] for name in cores.children}
    try:
        for r in range(rounds):
            note(f"cores: round {r + 1} of {rounds} …")
            for name, found in cores.round(games, states, seed + r).items():
                runs[name].append(found)
    finally:
        cores.close()
    out: dict[str, Any] = {"rounds": rounds, "games": games, "search_decisions": states}
    keys = ("decisions_per_s", "search_playouts_per_s", "search_steps_per_s")
    for name, rows in runs.items():
        medians = {key: statistics.median(row[i] for row in rows) for i, key in enumerate(keys)}
        out[name] = {**cores.info[name], **medians}
    out["ratio"] = {key: out["compiled"][key] / out["pure"][key] for key in keys}
    return out


def report(r: dict[str, Any]) -> list[str]:
    lines = [
        (
            f"compiled core against the pure one (children alternating, medians of "
            f"{r['rounds']} rounds; random play: {r['games']} games of 4; search bot: "
            f"{r['search_decisions']} decisions at its default budget)"
        ),
        f"  {'':>9}  {'decisions/s':>12}  {'playouts/s':>11}  {'steps/s':>10}",
    ]
    for name in ("compiled", "pure", "ratio"):
        row = r[name]
        fmt = (
            "{:>12.2f}x {:>10.2f}x {:>9.2f}x"
            if name == "ratio"
            else "{:>12,.0f}  {:>11,.0f}  {:>10,.0f}"
        )
        values = (row["decisions_per_s"], row["search_playouts_per_s"], row["search_steps_per_s"])
        lines.append(f"  {name:>9}  " + fmt.format(*values))
    if r["compiled"]["core"] != "compiled":
        lines.append(f"  (no compiled core here: {r['compiled']['why']})")
    return lines
