"""The page benchmarks' own arithmetic (`tools/bench/lighthouse.py`, `served.py`): the CPU
slowdown calibrated to the machine as Lighthouse's docs advise, and the warning that two
compared URLs serve one tree's page. Lighthouse itself runs in `make lighthouse`, not here
(it needs the npm registry once and minutes per page)."""

from __future__ import annotations

import argparse

import pytest

from tools.bench.lighthouse import SLOWDOWN, Slowdown, calibrated, slowdown_setting
from tools.bench.served import warn_if_same


@pytest.mark.parametrize(
    ("benchmark", "slowdown"),
    [(100, 1.0), (150, 1.0), (800, 2.0), (1050, 2.5), (1300, 3.0), (1533, 4.0), (2000, 6.0)],
)
def test_the_calibrated_slowdown_follows_lighthouses_calculator(
    benchmark: float, slowdown: float
) -> None:
    assert calibrated(benchmark) == pytest.approx(slowdown, abs=0.01)


def test_a_calibrated_run_takes_the_median_benchmark_seen_so_far() -> None:
    fixed, auto = Slowdown("4"), Slowdown("auto")
    assert fixed.next() == auto.next() == SLOWDOWN  # nothing seen yet: Lighthouse's own
    for benchmark in (900, 2000, 1300):
        fixed.seen({"benchmark": benchmark})
        auto.seen({"benchmark": benchmark})
    assert fixed.next() == SLOWDOWN
    assert auto.next() == pytest.approx(3.0)  # the median, 1,300


@pytest.mark.parametrize("text", ["0.5", "fast", "-2", "", "4x"])
def test_a_slowdown_is_a_number_from_one_or_auto(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        slowdown_setting(text)
    assert slowdown_setting("auto") == "auto" and slowdown_setting("2.5") == "2.5"


def test_two_urls_serving_one_page_are_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    warn_if_same({"http://a/": "0123456789ab", "http://b/": "ba9876543210"})
    assert capsys.readouterr().err == ""
    warn_if_same({"http://a/": "0123456789ab", "http://b/": "0123456789ab"})
    err = capsys.readouterr().err
    assert "http://b/ serves the same page as http://a/" in err and "own tree" in err
