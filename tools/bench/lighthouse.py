"""`make lighthouse`: Lighthouse (from the npm registry, installed by the Makefile into a
git-ignored folder) against a local `coup serve`, on the home page and a table's page,
as a phone sees them (Lighthouse's default: a mid-range phone on a slow 4G connection,
the CPU slowed four times). Each page is audited `--runs` times (5): the run of median
performance counts, as Lighthouse advises for its run-to-run variance, and every run's
figures are printed beside it. `--check` fails unless the goals in docs/web.md hold.

Lighthouse's slowdown is relative to the machine it runs on: four times a fast desktop is
a mid-range phone, four times a slow one is a slower phone, and Lighthouse says so in its
report (`slow_cpu`: "The tested device appears to have a slower CPU than Lighthouse
expects"). Each run prints the machine's CPU benchmark (Lighthouse's `benchmarkIndex`).
`--cpu-slowdown auto` calibrates the slowdown as Lighthouse's own docs advise
(docs/throttling.md, "Calibrating the CPU slowdown"): from the median benchmark of the runs
so far on this machine (the first from one audit not counted), by the calculator those
docs link to; more than four on a fast machine, less on a slow one.

    python -m tools.bench.lighthouse [--runs 5] [--check] [--cpu-slowdown 4|auto]
        [--lighthouse PATH] [--url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from tools.bench.served import page_hash
from tools.load.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
#: The goals (docs/web.md): scores out of 100, the largest paint in ms.
GOALS = {"performance": 98, "accessibility": 100, "best-practices": 100}
LCP_MS = 1500
#: Lighthouse's default slowdown of the CPU.
SLOWDOWN = 4.0
#: The start of Lighthouse's warning that the machine is too slow for its slowdown.
SLOW_CPU = "The tested device appears to have a slower CPU"


def calibrated(benchmark: float) -> float:
    """The CPU slowdown that makes a machine of this `benchmarkIndex` Lighthouse's
    mid-range phone: the calculator linked from Lighthouse's docs/throttling.md
    (lighthouse-cpu-throttling-calculator), a line in three pieces through 1x at 150,
    2x at 800, 3x at 1,300 and one more for every 233 above; 1x below 150."""
    if benchmark >= 1300:
        return 3 + (benchmark - 1300) / 233
    if benchmark >= 800:
        return 2 + (benchmark - 800) / 500
    if benchmark >= 150:
        return 1 + (benchmark - 150) / 650
    return 1.0


def audit(lighthouse: str, url: str, out: Path, slowdown: float = SLOWDOWN) -> dict[str, Any]:
    flags = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
    cmd = [lighthouse, url, "--output=json", f"--output-path={out}", "--quiet",
        f"--chrome-flags={flags}", "--only-categories=performance,accessibility,best-practices,seo",
        f"--throttling.cpuSlowdownMultiplier={round(slowdown, 2):g}"]  # fmt: skip
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    for attempt in range(3):  # a trace Chromium failed to record (NO_NAVSTART): again
        out.unlink(missing_ok=True)
        done = subprocess.run(cmd, env=env, timeout=300, check=False)
        report = json.loads(out.read_text()) if out.exists() else {}
        if done.returncode == 0 and "categories" in report and not report.get("runtimeError"):
            break
        if attempt == 2:
            raise SystemExit(
                f"lighthouse failed three times on {url}: {report.get('runtimeError')}"
            )
    audits = report["audits"]
    return {
        "url": url,
        "scores": {k: round(100 * (v["score"] or 0)) for k, v in report["categories"].items()},
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "kib": round(audits["total-byte-weight"]["numericValue"] / 1024),
        "benchmark": round(report["environment"]["benchmarkIndex"]),
        "slowdown": round(slowdown, 2),
        "slow_cpu": any(w.startswith(SLOW_CPU) for w in report.get("runWarnings", [])),
        "failed": sorted(
            k
            for k, v in audits.items()
            if v.get("score") is not None
            and v["score"] < 0.9
            and v.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
        ),
    }


class Slowdown:
    """Lighthouse's fixed slowdown, or (`auto`) one calibrated on the benchmarks seen."""

    def __init__(self, setting: str) -> None:
        self.auto = setting == "auto"
        self.fixed = SLOWDOWN if self.auto else float(setting)
        self.benchmarks: list[float] = []

    def next(self) -> float:
        if not self.auto or not self.benchmarks:
            return self.fixed
        return calibrated(statistics.median(self.benchmarks))

    def seen(self, result: dict[str, Any]) -> None:
        self.benchmarks.append(result["benchmark"])


def median_run(
    lighthouse: str, url: str, out: Path, runs: int, slowdown: Slowdown
) -> dict[str, Any]:
    """`runs` audits of `url`; the run of median performance (Lighthouse's advice for its
    variance: a simulated slow phone on a real CPU), with every run's figures beside it."""
    results = []
    for i in range(runs):
        results.append(audit(lighthouse, url, out.with_suffix(f".{i}.json"), slowdown.next()))
        slowdown.seen(results[-1])
    ranked = sorted(results, key=lambda r: (r["scores"]["performance"], -r["lcp_ms"]))
    median = dict(ranked[(len(ranked) - 1) // 2])  # of an even count, the lower one
    keys = ("lcp_ms", "fcp_ms", "tbt_ms", "benchmark", "slowdown", "slow_cpu")
    median["runs"] = [
        {"performance": r["scores"]["performance"], **{k: r[k] for k in keys}} for r in results
    ]
    return median


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench.lighthouse", description=__doc__)
    p.add_argument("--lighthouse", default=str(ROOT / ".lighthouse/node_modules/.bin/lighthouse"))
    p.add_argument("--check", action="store_true", help="fail unless the goals hold")
    p.add_argument("--runs", type=int, default=5, help="audits of each page; the median counts")
    p.add_argument("--url", help="a running server on this machine (another tree's, say)")
    p.add_argument(
        "--cpu-slowdown",
        default=str(SLOWDOWN),
        type=slowdown_setting,
        help="Lighthouse's CPU slowdown (4), or auto: calibrated to this machine",
    )
    args = p.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="coup-lighthouse-"))
    server = None
    if args.url is None:
        server = ServerProcess(f"sqlite:///{folder / 'coup.db'}", "--no-address-limits").start()
    base = args.url or server.base  # type: ignore[union-attr]
    if httpx.URL(base).host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("lighthouse: only a server on this machine")
    try:
        made = httpx.post(base + "/api/tables", json={"name": "Mahshid"}).json()
        pages = {"home": base + "/", "table": base + made["url"]}
        slowdown = Slowdown(args.cpu_slowdown)
        if slowdown.auto:  # the machine's benchmark, from one audit not counted
            slowdown.seen(audit(args.lighthouse, pages["home"], folder / "calibration.json"))
        results = {
            n: median_run(args.lighthouse, url, folder / f"{n}.json", max(1, args.runs), slowdown)
            for n, url in pages.items()
        }
        for n, url in pages.items():  # which tree's page: to tell side-by-side runs apart
            results[n]["page"] = page_hash(url)
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(results, indent=1))
    missed = [
        f"{name}: {key} {r['scores'][key]} < {goal}"
        for name, r in results.items()
        for key, goal in GOALS.items()
        if r["scores"][key] < goal
    ] + [
        f"{name}: LCP {r['lcp_ms']} ms > {LCP_MS}"
        for name, r in results.items()
        if r["lcp_ms"] > LCP_MS
    ]
    if missed:
        print("goals missed: " + "; ".join(missed), file=sys.stderr)
    if any(run["slow_cpu"] for r in results.values() for run in r["runs"]):
        print(
            "Lighthouse warns that this machine's CPU is too slow for a slowdown of "
            f"{SLOWDOWN:g}: its figures are a slower phone's (--cpu-slowdown auto calibrates)",
            file=sys.stderr,
        )
    return 1 if args.check and missed else 0


def slowdown_setting(text: str) -> str:
    if text != "auto" and not (text.replace(".", "", 1).isdigit() and float(text) >= 1):
        raise argparse.ArgumentTypeError("a number from 1, or auto")
    return text


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
