"""What a page costs its main thread as it loads, read from the browser itself (Debian's
Chromium through Playwright, as a phone 412 × 823 px): side by side for several running
servers (another tree's, say), their loads taken in turns, medians printed per URL.
docs/web.md quotes its figures.

At full speed, from Chromium's trace of each load:
- `fonts`, `searches`: fonts laid out (each one asks the browser process for its data and
  rendering settings in the first layout) and searches of the machine's fonts for a
  character the page's font lacks;
- `style_ms`, `layout_ms`: style and layout time;
- `main_ms`: the main thread's busy time, from the start to 1.5 s after the load;
- `past_12_ms`: the tasks' time past 12.5 ms each after the first paint (what Lighthouse's
  simulated phone, its CPU four times slower, counts as blocking: past 50 ms).

At the CPU slowed four times (`--slow-loads`): `blocking_ms`, the long tasks' time past
50 ms after the first paint, as the page's own PerformanceObserver sees it.

`page`: a hash of the page as served (`served.py`), with a warning when two URLs serve the
same page (start each server from its own tree: `python -m` runs the code of the folder
it is run in, whatever `PYTHONPATH` says).

    python -m tools.bench.mainthread URL [URL ...] [--loads 12] [--slow-loads 16]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from tools.bench.served import page_hash, warn_if_same

CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
PHONE: dict[str, Any] = {
    "viewport": {"width": 412, "height": 823},
    "device_scale_factor": 1.75,
    "is_mobile": True,
    "has_touch": True,
    "service_workers": "block",
}
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "fonts"]
STRIKE = "WebSandboxSupportLinux::GetWebFontRenderStyleForStrike"
SEARCH = "FontCache::FallbackFontForCharacter"
#: The long tasks after the first paint, 2.5 s after the load: their time past 50 ms.
BLOCKING = """() => new Promise((done) => {
  const tasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e); })
    .observe({ type: "longtask", buffered: true });
  setTimeout(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
    done(tasks.filter((e) => e.startTime >= fcp)
      .reduce((sum, e) => sum + Math.max(0, e.duration - 50), 0));
  }, 2500);
})"""


def traced(browser: Browser, url: str, out: Path) -> dict[str, float]:
    """One load at full speed, traced."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    browser.start_tracing(page=page, path=str(out), categories=CATEGORIES)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(1500)
    browser.stop_tracing()
    context.close()
    events = json.loads(out.read_text())["traceEvents"]
    names = {
        (e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"
    }
    mains = [k for k, v in names.items() if v == "CrRendererMain"]
    main = max(mains, key=lambda k: sum(1 for e in events if (e.get("pid"), e.get("tid")) == k))
    mine = [e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"]
    fcp = min(
        (
            e["ts"]
            for e in events
            if e.get("name") == "firstContentfulPaint" and e["pid"] == main[0]
        ),
        default=0,
    )
    tasks = [e for e in mine if e["name"] == "RunTask"]

    def ms(name: str) -> float:
        return float(sum(e["dur"] for e in mine if e["name"] == name)) / 1000

    return {
        "fonts": sum(1 for e in mine if e["name"] == STRIKE),
        "searches": sum(1 for e in mine if e["name"] == SEARCH),
        "style_ms": ms("UpdateLayoutTree"),
        "layout_ms": ms("Layout"),
        "main_ms": sum(e["dur"] for e in tasks) / 1000,
        "past_12_ms": sum(max(0.0, e["dur"] / 1000 - 12.5) for e in tasks if e["ts"] >= fcp),
    }


def blocking(browser: Browser, url: str) -> float:
    """One load at the CPU slowed four times: the blocking time the page saw."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.goto(url, wait_until="load")
    seen = float(page.evaluate(BLOCKING))
    context.close()
    return seen


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench.mainthread", description=__doc__)
    p.add_argument("urls", nargs="+", help="pages of running servers, measured in turns")
    p.add_argument("--loads", type=int, default=12, help="traced loads of each at full speed")
    p.add_argument("--slow-loads", type=int, default=16, help="loads of each at the CPU / 4")
    args = p.parse_args(argv)
    pages = {url: page_hash(url) for url in args.urls}
    warn_if_same(pages)
    runs: dict[str, list[dict[str, float]]] = {u: [] for u in args.urls}
    slow: dict[str, list[float]] = {u: [] for u in args.urls}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as folder:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for i in range(max(args.loads, args.slow_loads)):
            # in turns, the order reversed every other round (no tree always goes first)
            for url in args.urls if i % 2 == 0 else args.urls[::-1]:
                if i < args.loads:
                    runs[url].append(traced(browser, url, Path(folder) / "trace.json"))
                if i < args.slow_loads:
                    slow[url].append(blocking(browser, url))
        browser.close()
    report: dict[str, dict[str, float | str]] = {}
    for url in args.urls:
        keys = runs[url][0] if runs[url] else {}
        row: dict[str, float | str] = {
            k: round(statistics.median(r[k] for r in runs[url]), 1) for k in keys
        }
        if slow[url]:
            row["blocking_ms"] = round(statistics.median(slow[url]), 1)
        row["page"] = pages[url]
        report[url] = row
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
