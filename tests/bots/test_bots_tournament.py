"""`coup tournament`: well-formed table, JSON, records and plot; bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import coup
from coup.cli import main as cli_main
from coup.cli import series, tournament


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = tournament.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_summary_is_well_formed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--seats", "heuristic,random", "--games", "8", "--json", "--quiet", "--jobs", "2"
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["format"] == "coup-tournament/1"
    assert summary["games"] == 8 and summary["players"] == 2
    assert summary["lineup"] == ["heuristic", "random"]
    rows = {row["bot"]: row for row in summary["bots"]}
    assert set(rows) == {"heuristic", "random"}
    assert sum(row["wins"] for row in rows.values()) + summary["unfinished"] == 8
    for row in rows.values():
        assert row["games"] == 8  # every game has both bots, seats rotated
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert row["fair_share"] == 0.5
        assert 1 <= row["avg_place"] <= 2
        times = row["decision_ms"]
        assert 0 <= times["p50"] <= times["p95"] <= times["max"]


def test_team_of_identical_bots_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--seats", "heuristic,honest,honest", "--games", "6", "--seed", "4", "--quiet"
    )
    assert code == 0
    assert "win rate" in out and "95% interval" in out and "p95 ms" in out
    assert "honest ×2" in out


def test_rotation_and_duplicate_deals() -> None:
    jobs = list(series.schedule(["a", "b"], 4, seed=1, settings={}, save=None))
    assert [job.specs for job in jobs] == [["a", "b"], ["b", "a"]] * 2
    assert jobs[0].deal_seed == jobs[1].deal_seed != jobs[2].deal_seed == jobs[3].deal_seed
    four = list(series.schedule(["s", "h", "h", "h"], 4, seed=1, settings={}, save=None))
    assert [job.specs.index("s") for job in four] == [0, 3, 2, 1]


def test_saved_games_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(
        capsys,
        "--seats", "heuristic,honest,random", "--games", "3", "--quiet", "--jobs", "1",
        "--save", str(tmp_path / "games"),
    )  # fmt: skip
    assert code == 0
    files = sorted((tmp_path / "games").glob("*.json"))
    assert len(files) == 3
    for path in files:
        record = json.loads(path.read_text())
        assert record["format"] == "coup-record/1"
        assert len(record["bots"]) == 3
        assert coup.replay(record).over


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "rates.png"
    code, _, _ = run(
        capsys, "--seats", "heuristic,random", "--games", "4", "--quiet", "--plot", str(target)
    )
    assert code == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "heuristic,grandmaster"], "unknown bot 'grandmaster'"),
        (["--seats", "heuristic"], "2 to 10 bots"),
        (["--seats", "heuristic,random", "--games", "0"], "--games"),
        (["--seats", "search:sims,random"], "not key=value"),
        (["--seats", "search:speed=9,random"], "bad options for bot 'search:speed=9'"),
        (["--seats", "heuristic,random", "--plot", "rates.svg"], ".png"),
    ],
)
def test_bad_input_is_refused(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert message in err and out == ""


def test_cli_dispatch(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["tournament", "--seats", "random,random", "--games", "2", "--quiet"]) == 0
    assert "random ×2" in capsys.readouterr().out


def test_wilson_interval() -> None:
    low, high = series.wilson(65, 100)
    assert round(low, 3) == 0.553 and round(high, 3) == 0.736
    assert series.wilson(0, 0) == (0.0, 1.0)


def test_personality_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--seats", "medium:bluffer,easy:skeptic,random", "--games", "3", "--json",
        "--quiet", "--jobs", "1",
    )  # fmt: skip
    assert code == 0
    assert {row["bot"] for row in json.loads(out)["bots"]} == {
        "medium:bluffer", "easy:skeptic", "random",
    }  # fmt: skip
    code, _, err = run(capsys, "--seats", "medium:grumpy,random", "--quiet")
    assert code == 2 and "unknown personality 'grumpy'" in err


def test_league_cross_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--league: the hard bot against each member, heads-up and one against three."""
    args = ["--league", "--hard", "search:sims=3:worlds=2", "--games", "4", "--quiet"]
    args += ["--opponents", "duke-every-turn,medium:cautious", "--jobs", "2"]
    code, out, _ = run(capsys, *args, "--json", "--plot", str(tmp_path / "league.png"))
    assert code == 0
    summary = json.loads(out)
    assert summary["format"] == "coup-league/1" and summary["hard"] == "search:sims=3:worlds=2"
    assert summary["games_per_cell"] == 4
    assert [row["opponent"] for row in summary["rows"]] == ["duke-every-turn", "medium:cautious"]
    for row in summary["rows"]:
        for fmt, players, goal in (("heads_up", 2, 0.7), ("one_v_three", 4, 0.5)):
            cell = row[fmt]
            assert cell["games"] == 4 and cell["players"] == players and cell["goal"] == goal
            low, high = cell["ci95"]
            assert 0 <= low <= cell["win_rate"] <= high <= 1
            assert cell["met"] == (cell["win_rate"] >= goal)
    times = summary["hard_decision_ms"]
    assert summary["hard_decisions"] > 0 and 0 < times["p50"] <= times["p95"] <= times["max"]
    assert (tmp_path / "league.png").read_bytes()[:4] == b"\x89PNG"
    code, out, _ = run(capsys, *args)
    assert code == 0 and "heads-up win" in out and "1 v 3" in out and "duke-every-turn" in out


def test_league_jobs_rotate_seats_and_duplicate_deals() -> None:
    from coup.cli.league import LEAGUE, league_jobs

    assert len(LEAGUE) >= 16 and "never-challenge" in LEAGUE and "easy:vengeful" in LEAGUE
    jobs, cells = league_jobs("hard", ["random"], 4, seed=1, settings={})
    assert [job.index for job in jobs] == list(range(8))
    heads_up = [job for job, cell in zip(jobs, cells, strict=True) if cell[1] == "heads_up"]
    assert [job.specs for job in heads_up] == [["hard", "random"], ["random", "hard"]] * 2
    assert heads_up[0].deal_seed == heads_up[1].deal_seed != heads_up[2].deal_seed
    four = [job for job, cell in zip(jobs, cells, strict=True) if cell[1] == "one_v_three"]
    assert [job.specs.index("hard") for job in four] == [0, 3, 2, 1]
    assert len({job.deal_seed for job in four}) == 1


def test_league_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--league", "--seats", "hard,random", "--quiet")
    assert code == 2 and "--league plays its own seats" in err
    code, _, err = run(capsys, "--league", "--opponents", "random,wizard", "--quiet")
    assert code == 2 and "unknown bot 'wizard'" in err
    code, _, err = run(capsys, "--quiet")
    assert code == 2 and "--seats" in err
