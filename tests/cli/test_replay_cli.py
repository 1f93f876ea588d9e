"""`coup replay`: tells games, prints final states, and refuses bad records with exit 2."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import coup
from coup.cli import narration
from coup.cli import replay as replay_cli
from coup.rules import narrate

GOLDEN = Path(__file__).parent.parent / "golden"
NAMES = sorted(
    p.name.removesuffix(".json") for p in GOLDEN.glob("*.json") if ".final" not in p.name
)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coup", "replay", *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def load(name: str) -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text())


@pytest.mark.parametrize("name", NAMES)
def test_golden_records_replay_to_their_final_state(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.final.json").read_text())
    assert coup.final_state_json(coup.replay(load(name))) == expected
    out = run("--json", str(GOLDEN / f"{name}.json"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == expected


def test_replay_tells_the_seed_example_in_words() -> None:
    out = run(str(GOLDEN / "seed-example.json"))
    assert out.returncode == 0
    assert "Sepideh claims Ambassador to exchange." in out.stdout
    assert "Bahareh blocks as Ambassador." in out.stdout
    assert "Bahareh loses Assassin, and is out (forced)." in out.stdout
    assert "coins: Sepideh 3 → 5, Bahareh 2 → 0; treasury 44" in out.stdout
    assert "(Bahareh draws Contessa from the Court.)" in out.stdout
    assert "The game goes on: waiting for Mahshid." in out.stdout


def test_replay_tells_a_reformation_game_and_its_json_has_the_reserve_and_allegiances() -> None:
    out = run(str(GOLDEN / "reformation-four.json"))
    assert out.returncode == 0, out.stderr
    assert "Characters: ambassador, 3 copies, Reformation; Sara starts." in out.stdout
    assert "Sara chooses Reformist; allegiances alternate clockwise." in out.stdout
    assert "Sara pays 2 to convert Azar to Reformist." in out.stdout
    assert "Sara had a Duke: Sara loses Duke." in out.stdout
    assert "Azar had no Duke: Sara loses Captain, and is out (forced)." in out.stdout
    assert "coins: Sara 4 → 2; treasury 44, Reserve 3" in out.stdout
    final = json.loads(run("--json", str(GOLDEN / "reformation-four.json")).stdout)
    assert final["reserve"] == 2
    assert [p["allegiance"] for p in final["players"]] == [
        "reformist",
        "loyalist",
        "reformist",
        "reformist",
    ]
    base = json.loads(run("--json", str(GOLDEN / "seed-example.json")).stdout)
    assert "reserve" not in base and all("allegiance" not in p for p in base["players"])


def test_before_the_first_player_chooses_every_allegiance_is_null(tmp_path: Path) -> None:
    record = load("reformation-four")
    record["moves"] = []
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    final = json.loads(run("--json", str(path)).stdout)
    assert final["reserve"] == 0 and [p["allegiance"] for p in final["players"]] == [None] * 4
    assert final["waiting"] == [
        {"seat": 0, "legal": ["allegiance loyalist", "allegiance reformist"]}]  # fmt: skip


def test_a_fair_shuffle_record_is_verified() -> None:
    out = run(str(GOLDEN / "ten-players.json"))
    assert out.returncode == 0 and "verified" in out.stdout


def bad(tmp_path: Path, record: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "r.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    out = run(str(path))
    assert out.returncode == 2, out.stdout
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    return out


def test_an_illegal_move_names_its_number_player_move_and_why(tmp_path: Path) -> None:
    """For people: moves count from 1 (the fifth is "move 5") and the player is named."""
    record = load("seed-example")
    record["moves"][4] = {"seat": 2, "move": "steal 0"}
    err = bad(tmp_path, record).stderr
    assert err.startswith("coup replay: move 5 by Bahareh ('steal 0'): illegal: Bahareh cannot")
    assert "legal: pass, challenge" in err and "seat" not in err


def test_a_move_that_is_not_notation_is_refused(tmp_path: Path) -> None:
    record = load("seed-example")
    record["moves"][0] = {"seat": 0, "move": "tax please"}
    assert "move 1 by Mahshid ('tax please'): not a move" in bad(tmp_path, record).stderr


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda r: r["deal"]["hands"][0].__setitem__(0, "assassin"), "exactly the game's cards"),
        (lambda r: r["deal"]["hands"][0].pop(), "must be dealt 2"),
        (lambda r: r["deal"]["court"].append("duke"), "exactly the game's cards"),
        (lambda r: r["deal"]["hands"][1].__setitem__(0, "jester"), "unknown character"),
        (lambda r: r["deal"]["hands"][1].__setitem__(0, "inquisitor"), "not in a ambassador game"),
        (lambda r: r.__setitem__("players", ["solo"]), "players must be 2"),
        (lambda r: r.__setitem__("players", [f"p{i}" for i in range(11)]), "players must be 2"),
        (lambda r: r["settings"].__setitem__("characters", "jester"), "characters must be"),
        (lambda r: r.__setitem__("format", "coup-record/9"), "format"),
        (lambda r: r["moves"][9].__setitem__("draw", ["inquisitor"]), "not in the Court"),
        (lambda r: r["moves"][0].__setitem__("draw", ["duke"]), "not drawn"),
        (lambda r: r.__setitem__("commitment", "00" * 32), "does not match"),
    ],
)
def test_bad_records_are_refused_with_one_line(tmp_path: Path, change: Any, why: str) -> None:
    record = copy.deepcopy(load("seed-example"))
    change(record)
    assert why in bad(tmp_path, record).stderr


def test_not_json_and_missing_files(tmp_path: Path) -> None:
    assert "not JSON" in bad(tmp_path, "{nope").stderr
    out = run(str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_a_commitment_whose_game_the_seed_does_not_make_is_not_verified(tmp_path: Path) -> None:
    record = load("four-inquisitor")
    court = record["deal"]["court"]
    i = next(i for i, c in enumerate(court) if c != court[0])
    court[0], court[i] = court[i], court[0]  # every draw is pinned: the game is unchanged
    assert coup.replay(record).record()["moves"] == record["moves"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    out = run(str(path))
    assert (
        out.returncode == 2 and "not verified: the deal is not the one the seed makes" in out.stderr
    )


def test_replay_reads_standard_input() -> None:
    out = run("--json", "-", stdin=(GOLDEN / "seed-example.json").read_text())
    assert out.returncode == 0 and json.loads(out.stdout)["treasury"] == 44


def test_every_narration_catalog_has_englishs_phrases_and_placeholders() -> None:
    """`coup replay --lang` speaks every language of the web page, each catalog with every
    English phrase (the narrator's and the replay's) and the same placeholders."""
    english = {**narrate.PHRASES, **replay_cli.PHRASES}
    web = {p.stem for p in (Path(coup.__file__).parent / "web" / "i18n").glob("*.json")}
    assert set(narration.LANGUAGES) == web - {"en"}
    for lang in narration.LANGUAGES:
        catalog = narration.phrases(lang)
        assert sorted(set(english) - set(catalog)) == [], f"{lang}.json lacks these"
        assert sorted(set(catalog) - set(english)) == [], f"{lang}.json has these extra"
        for key, text in english.items():
            assert bool(catalog[key]) == bool(text), f"{lang}.json: {key}"
            ours = Counter(re.findall(r"\{\w+\}", catalog[key]))
            assert ours == Counter(re.findall(r"\{\w+\}", text)), f"{lang}.json: {key}"


def test_replay_tells_the_game_in_another_language() -> None:
    out = run("--lang", "de", str(GOLDEN / "seed-example.json"))
    assert out.returncode == 0, out.stderr
    assert "Sepideh behauptet Botschafter, um zu tauschen." in out.stdout
    assert "Bahareh verliert Attentäter und ist raus (erzwungen)." in out.stdout
    assert "    Münzen: Sepideh 3 → 5, Bahareh 2 → 0; Staatskasse 44" in out.stdout
    assert "(Bahareh zieht Gräfin vom Hof.)" in out.stdout
    assert out.stdout.endswith("Das Spiel geht weiter: Warten auf Mahshid.\n")
    arabic = run("--lang", "ar", str(GOLDEN / "reformation-four.json")).stdout
    assert "Sara يختار الولاء: إصلاحي؛ ويتناوب الولاء باتجاه عقارب الساعة." in arabic
    assert "كان مع Sara دوق: Sara يخسر الدوق." in arabic
    # A tag is read as the page reads a browser's: any case, or just the base language.
    brazil = run("--lang", "pt", str(GOLDEN / "four-inquisitor.json")).stdout
    assert brazil == run("--lang", "PT-br", str(GOLDEN / "four-inquisitor.json")).stdout
    assert "Embaralhamento justo: verificado (semente " in brazil
    assert (
        run("--lang", "en", str(GOLDEN / "seed-example.json")).stdout
        == run(str(GOLDEN / "seed-example.json")).stdout
    )


def test_replay_refuses_a_language_it_has_no_words_in() -> None:
    out = run("--lang", "tlh", str(GOLDEN / "seed-example.json"))
    assert out.returncode == 2 and out.stdout == ""
    assert "no words in 'tlh': en, ar, de" in out.stderr


def test_every_phrase_of_a_catalog_reads_without_a_stray_placeholder() -> None:
    """Each golden record told in each language: no "{...}" left, no English phrase where
    the catalog has its own (the narrator asked only for keys the catalogs have)."""
    for lang in narration.LANGUAGES:
        for name in NAMES:
            teller = replay_cli.Teller(narration.phrases(lang))
            coup.replay(load(name), observe=teller)
            told = "\n".join(teller.lines)
            assert "{" not in told and " claims " not in told, (lang, name)


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`coup replay --json game.json | head -c 100`: the reader closes the pipe before the
    answer is written; the command ends quietly (exit 1) instead of printing a
    BrokenPipeError. Here the pipe's reading end is closed before the command starts, so
    its every write meets a reader that went away."""
    record = str(GOLDEN / f"{NAMES[0]}.json")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "coup", "replay", "--json", record],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, "")
