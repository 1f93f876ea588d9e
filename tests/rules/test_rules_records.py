"""Records (docs/records.md): the seed is written as a decimal string above 2^53 and read
in both forms; a bad seed is refused with a clear error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import coup


def test_a_seed_above_two_to_the_53_is_written_as_a_decimal_string() -> None:
    big = 2**127 + 12345
    record = coup.new_game(players=3, seed=big).record()
    assert record["seed"] == str(big)
    assert coup.new_game(players=3, seed=2**53).record()["seed"] == 2**53
    assert coup.new_game(players=3, seed=2**53 + 1).record()["seed"] == str(2**53 + 1)
    assert coup.new_game(players=3, seed=7).record()["seed"] == 7


def test_a_big_seed_survives_a_trip_through_javascript_numbers() -> None:
    big = 2**100 + 1
    s = coup.new_game(players=3, seed=big)
    for seat, move in ((0, "exchange"), (1, "pass"), (2, "pass")):
        s.play(seat, move)
    text = json.dumps(s.record())
    as_js = json.loads(text, parse_int=float)  # what a browser does with JSON numbers
    assert as_js["seed"] == str(big)
    assert coup.replay(json.loads(text)).seed == big


@pytest.mark.parametrize("seed", [20261129, "20261129", 2**127, str(2**127), 0, "0"])
def test_readers_accept_the_number_and_the_string(seed: int | str) -> None:
    record = coup.new_game(players=4, seed=int(seed)).record()
    record["seed"] = seed
    del record["deal"]  # the deal now comes from the seed
    again = coup.replay(record)
    assert again.seed == int(seed) and again.deal == coup.new_game(players=4, seed=int(seed)).deal


@pytest.mark.parametrize(
    "seed", [-1, "-1", "01", "1.5", 1.5, "", " 1", "１", True, None, "9" * 101]
)
def test_a_seed_that_is_not_a_non_negative_integer_is_refused(seed: object) -> None:
    record = coup.new_game(players=3, seed=1).record()
    record["seed"] = seed
    with pytest.raises(coup.InvalidRecordError, match="seed must be a non-negative integer"):
        coup.replay(record)


def test_a_commitment_is_checked_against_a_string_seed() -> None:
    big = 2**128 - 159
    record = coup.new_game(players=3, seed=big).record()
    record["commitment"] = coup.commitment(big)
    assert record["seed"] == str(big) and coup.verify(record) == (True, "verified")
    record["seed"] = str(big + 1)
    assert coup.verify(record) == (False, "the seed does not match the commitment")


def test_new_game_refuses_a_negative_seed() -> None:
    with pytest.raises(coup.SettingsError, match="non-negative"):
        coup.new_game(players=3, seed=-5)


def test_the_examples_of_docs_records_md_are_exact() -> None:
    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text()
    record, final = (json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL))
    assert coup.final_state_json(coup.replay(record)) == final
