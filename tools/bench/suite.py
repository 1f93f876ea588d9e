"""`coup bench`: how fast the engine plays, next to coupml (PyPI) measured the same way.

    coup bench [--quick] [--json] [--no-coupml] [--no-envs] [--no-cores] [--seed N] [--repeat N]

* random play: uniformly random legal moves (`waiting[0]`, `legal`, `play`) from a fixed
  seed, for 2, 4 and 6 players: decisions/s and games/s, the median of several runs, and
  the cost of `clone()`, `determinize()` and `view()` on mid-game states (median µs), as
  `tools.bench.engine` measures them;
* coupml, 4 players, same method, in its own venv (see `tools.bench.coupml`), and the
  ratio ours/coupml (the goal is 3x or more);
* the learning environments' decisions/s (CPU time), if `tools.bench.envs` is there, and
  their cost per decision against the raw engine's (the goal is 2x or less);
* the compiled rules core against the pure one, side by side (`tools.bench.cores`):
  random play and the search bot's playouts per second.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Callable
from typing import Any

from coup.envs.kernel.c_writer import WRITER
from coup.rules.core import CORE, WHY
from tools.bench import cores as bench_cores
from tools.bench import coupml as bench_coupml
from tools.bench.engine import medians, random_play, state_costs

GOAL_RATIO = 3.0
#: The learning environments' goal: at most this many times a raw decision's cost.
ENV_GOAL = 2.0
TABLES = (2, 4, 6)


def env_rates(seconds: float) -> dict[str, Any]:
    """Steps/s of the learning environments, from `tools.bench.envs` if it is there."""
    try:
        from tools.bench import envs as env_bench
    except ImportError as e:
        return {"error": f"tools.bench.envs is not available ({e})"}
    rates = getattr(env_bench, "env_rates", None)
    if not callable(rates):
        return {"error": "tools.bench.envs has no env_rates()"}
    try:
        result = rates(players=4, seconds=seconds)
    except Exception as e:  # noqa: BLE001 - another module's bench must not end ours
        return {"error": f"{type(e).__name__}: {e}"}
    return {str(k): float(v) for k, v in dict(result).items()}


def measure(args: argparse.Namespace, note: Callable[[str], None]) -> dict[str, Any]:
    quick = args.quick
    games = args.games or (40 if quick else 1500)
    reps = args.repeat or (3 if quick else 5)
    out: dict[str, Any] = {
        "core": CORE,
        "core_why": WHY,
        "observations": "the C writer" if WRITER is not None else "joined blocks",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": f"{platform.system()} {platform.machine()}",
        "seed": args.seed,
        "repetitions": reps,
        "games_per_repetition": games,
        "random_play": {},
    }
    driver: bench_coupml.Driver | None = None
    out["coupml"] = {"error": "skipped (--no-coupml)"}
    if not args.no_coupml:
        note("starting coupml …")
        try:
            driver = bench_coupml.Driver(4, games, args.seed, note)
            out["coupml"] = dict(driver.info)
        except bench_coupml.CoupmlUnavailable as e:
            out["coupml"] = {"error": str(e)}
    try:
        theirs: list[tuple[float, ...]] = []
        theirs_numpy: list[tuple[float, ...]] = []
        for players in TABLES:
            note(
                f"random play, {players} players"
                + (" (alternating with coupml)" if players == 4 and driver else "")
                + " …"
            )
            runs = []
            for rep in range(reps):
                runs.append(random_play(players, games, args.seed + rep))
                if players == 4 and driver is not None:
                    try:
                        theirs.append(driver.run())
                        if driver.info.get("numpy"):
                            theirs_numpy.append(driver.run(numpy=True))
                    except bench_coupml.CoupmlUnavailable as e:
                        out["coupml"] = {"error": str(e)}
                        driver.close()
                        driver = None
            out["random_play"][str(players)] = medians(runs)
    finally:
        if driver is not None:
            driver.close()
    if theirs and "error" not in out["coupml"]:
        out["coupml"].update(medians(theirs))
        if theirs_numpy:
            out["coupml"]["numpy_randomstate"] = medians(theirs_numpy)
    note("clone / determinize / view …")
    out.update(state_costs(20 if quick else 200, 20 if quick else 200, args.seed))
    ours = out["random_play"]["4"]
    coupml = out["coupml"]
    if "decisions_per_s" in coupml:
        out["ratio"] = {
            "decisions_per_s": ours["decisions_per_s"] / coupml["decisions_per_s"],
            "choices_per_s": ours["decisions_per_s"] / coupml["choices_per_s"],
            "games_per_s": ours["games_per_s"] / coupml["games_per_s"],
            "goal": GOAL_RATIO,
        }
        if "numpy_randomstate" in coupml:
            slow = coupml["numpy_randomstate"]["decisions_per_s"]
            out["ratio"]["decisions_per_s_vs_numpy_driver"] = ours["decisions_per_s"] / slow
    if args.no_envs:
        out["envs"] = {"error": "skipped (--no-envs)"}
    else:
        note("learning environments …")
        out["envs"] = env_rates(0.3 if quick else 2.0)
    if args.no_cores:
        out["cores"] = {"error": "skipped (--no-cores)"}
    else:
        note("the compiled core against the pure one …")
        rounds, states = (1, 4) if quick else (reps, 30)
        out["cores"] = bench_cores.compare(rounds, games, states, args.seed, note)
    return out


def report(r: dict[str, Any]) -> str:
    lines = [
        (
            f"coup bench — {r['python']}, {r['machine']}; seed {r['seed']}; "
            f"median of {r['repetitions']} runs of {r['games_per_repetition']} games; CPU time"
        ),
        (
            f"rules core: {r.get('core', '?')} ({r.get('core_why', '')}); "
            f"observation vectors: {r.get('observations', '?')}"
        ),
        "",
        "random play (uniformly random legal moves)",
        f"  {'players':>7}  {'decisions/s':>12}  {'games/s':>9}  {'decisions/game':>14}",
    ]
    for players, row in r["random_play"].items():
        lines.append(
            f"  {players:>7}  {row['decisions_per_s']:>12,.0f}  {row['games_per_s']:>9,.0f}"
            f"  {row['decisions_per_game']:>14.1f}"
        )
    lines += [
        "",
        "mid-game states, 4 players (median µs a call)",
        f"  state.clone()        {r['clone_us']:8.2f} µs",
        f"  state.determinize()  {r['determinize_us']:8.2f} µs",
        f"  state.view()         {r['view_us']:8.2f} µs",
        "",
    ]
    theirs = r["coupml"]
    if "decisions_per_s" in theirs:
        ours = r["random_play"]["4"]
        ratio = r["ratio"]
        verdict = "meets" if ratio["decisions_per_s"] >= GOAL_RATIO else "below"
        lines += [
            (
                f"coupml {theirs.get('version', '?')} (4 players, same method, its own venv, "
                "runs alternating with ours)"
            ),
            f"  {'':>7}  {'decisions/s':>12}  {'games/s':>9}  {'decisions/game':>14}",
            (
                f"  {'ours':>7}  {ours['decisions_per_s']:>12,.0f}  {ours['games_per_s']:>9,.0f}"
                f"  {ours['decisions_per_game']:>14.1f}"
            ),
            (
                f"  {'coupml':>7}  {theirs['decisions_per_s']:>12,.0f}"
                f"  {theirs['games_per_s']:>9,.0f}  {theirs['decisions_per_game']:>14.1f}"
            ),
            (
                f"  ours/coupml: {ratio['decisions_per_s']:.2f}x decisions/s, "
                f"{ratio['games_per_s']:.2f}x games/s ({verdict} the {GOAL_RATIO:g}x goal)"
            ),
            (
                f"  ({ratio['choices_per_s']:.2f}x against coupml's real choices only: "
                "our engine plays forced moves itself)"
            ),
        ]
        slow = theirs.get("numpy_randomstate")
        if slow:
            lines.append(
                f"  coupml driven as in its README (numpy RandomState.choice): "
                f"{slow['decisions_per_s']:,.0f} decisions/s; ours is "
                f"{ratio['decisions_per_s_vs_numpy_driver']:.2f}x that"
            )
    else:
        lines.append(f"coupml could not be measured: {theirs['error']}")
    lines.append("")
    envs = r["envs"]
    if "error" in envs:
        lines.append(f"learning environments not measured: {envs['error']}")
    else:
        lines.append(
            "learning environments (tools.bench.envs, 4 players, random moves, CPU time; "
            "gymnasium_agent counts the agent's steps only)"
        )
        base = envs.get("engine", 0.0)
        for name, rate in envs.items():
            unit = "steps/s" if name == "gymnasium_agent" else "decisions/s"
            cost = f"  {base / rate:5.2f}x a raw decision" if base and unit != "steps/s" else ""
            lines.append(f"  {name:<22} {rate:>12,.0f} {unit:<12}{cost}")
        for name in ("pettingzoo", "pettingzoo_env", "gymnasium", "gymnasium_vector"):
            if base and name in envs:
                cost = base / envs[name]
                verdict = "meets" if cost <= ENV_GOAL else "above"
                lines.append(f"  {name}: {cost:.2f}x ({verdict} the {ENV_GOAL:g}x goal)")
    cores = r.get("cores", {"error": "not measured"})
    lines.append("")
    if "error" in cores:
        lines.append(f"cores not compared: {cores['error']}")
    else:
        lines += bench_cores.report(cores)
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coup bench", description="Measure the engine's speed.")
    p.add_argument("--quick", action="store_true", help="a short run (seconds, not minutes)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--no-coupml", action="store_true", help="skip the coupml comparison")
    p.add_argument("--no-envs", action="store_true", help="skip the learning environments")
    p.add_argument(
        "--no-cores", action="store_true", help="skip the compiled-against-pure comparison"
    )
    p.add_argument("--seed", type=int, default=2026, help="seed of the games (default 2026)")
    p.add_argument("--repeat", type=int, help="runs per measure; the median is reported")
    p.add_argument("--games", type=int, help="games per run")
    p.add_argument(
        "--store",
        metavar="POSTGRESQL_URL",
        help="measure writing a move to PostgreSQL instead (a fresh database next to this "
        "one, dropped at the end): one statement against a transaction",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    for flag in ("repeat", "games"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            print(f"coup bench: --{flag} must be at least 1", file=sys.stderr)
            return 2

    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if args.store:
        from tools.bench import store as store_bench

        try:
            found = store_bench.run(args.store, 200 if args.quick else 1000)
        except (ValueError, OSError) as exc:
            print(f"coup bench: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(found, indent=2) if args.json else store_bench.report(found))
        return 0

    try:
        results = measure(args, note)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    try:
        print(json.dumps(results, indent=2) if args.json else report(results), flush=True)
    except BrokenPipeError:  # `coup bench | head`: the reader left; no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
