"""Personalities: legal, finishing games everywhere, and each recognisable by its style."""

from __future__ import annotations

import pytest

from coup import bots
from coup.bots.arena import parse_spec, play_game
from coup.bots.personality import PERSONALITIES, PersonalityBot
from tools.signature import Signature, measure


def test_levels_and_personalities_by_name() -> None:
    assert bots.PERSONALITIES == tuple(PERSONALITIES) and len(bots.PERSONALITIES) >= 5
    bot = bots.make("medium:skeptic", seed=1)
    assert isinstance(bot, PersonalityBot) and bot.style.name == "skeptic"
    assert bots.make("easy:bluffer", seed=1).name == "easy:bluffer"
    assert bots.make("hard:vengeful", seed=1).name == "hard:vengeful"
    assert bots.make("hard", seed=1).name == "search"
    assert bots.for_level("medium", seed=1).name == "medium:random"  # the default
    assert bots.for_level("easy", "cautious", seed=1).name == "easy:cautious"
    assert parse_spec("medium:bluffer") == ("medium:bluffer", {})
    assert parse_spec("hard:skeptic:steps=300") == ("hard:skeptic", {"steps": 300})
    for bad in ("medium:grumpy", "hard:grumpy", "expert:honest"):
        with pytest.raises(ValueError, match="unknown"):
            bots.make(bad)
        with pytest.raises(ValueError, match="unknown"):
            parse_spec(bad)


def test_random_personality_draws_a_new_one_each_game() -> None:
    bot = bots.make("medium:random", seed=3)
    seen = set()
    for game in range(12):
        play_game_with(bot, game)
        seen.add(bot.style.name)  # type: ignore[attr-defined]
    assert len(seen) >= 3


def play_game_with(bot: bots.Bot, game: int) -> None:
    import coup

    state = coup.new_game(players=3, seed=game)
    others = [bots.make("random", seed=game), bots.make("random", seed=game + 1)]
    while not state.over:
        seat = state.waiting[0]
        player = bot if seat == 0 else others[seat - 1]
        state.play(seat, player.choose(state, seat))


@pytest.mark.parametrize("characters", ["ambassador", "inquisitor"])
def test_every_personality_finishes_games_at_every_size(characters: str) -> None:
    names = [f"{level}:{p}" for level in ("easy", "medium") for p in (*PERSONALITIES, "random")]
    names += ["hard:bluffer:sims=4:worlds=2"]
    for players in range(2, 11):
        for game in range(2):
            lineup = [names[(players * 5 + game * 7 + i) % len(names)] for i in range(players)]
            result = play_game(lineup, deal_seed=game, bot_seed=players, characters=characters)
            assert result.winner is not None  # play() raised on any illegal move


@pytest.fixture(scope="module", params=["medium", "easy"])
def signatures(request: pytest.FixtureRequest) -> dict[str, Signature]:
    lineup = [f"{request.param}:{p}" for p in PERSONALITIES]
    found = measure(lineup, games=60, seed=2)
    return {name.split(":")[1]: sig for name, sig in found.items()}


def others(signatures: dict[str, Signature], name: str) -> list[Signature]:
    return [sig for other, sig in signatures.items() if other != name]


def test_the_honest_one_never_bluffs(signatures: dict[str, Signature]) -> None:
    assert signatures["honest"].claims > 50 and signatures["honest"].bluffs == 0


def test_the_bluffer_bluffs_most_and_robs_the_rich(signatures: dict[str, Signature]) -> None:
    bluffer = signatures["bluffer"]
    assert bluffer.bluff_rate > 0.35
    assert all(bluffer.bluff_rate > 1.5 * sig.bluff_rate for sig in others(signatures, "bluffer"))
    assert bluffer.share("at_richest") > bluffer.share("at_leader") + 0.05


def test_the_skeptic_challenges_most(signatures: dict[str, Signature]) -> None:
    skeptic = signatures["skeptic"]
    assert skeptic.chances > 100 and skeptic.challenge_rate > 0.15
    assert all(
        skeptic.challenge_rate > 2 * sig.challenge_rate for sig in others(signatures, "skeptic")
    )


def test_the_vengeful_one_strikes_back(signatures: dict[str, Signature]) -> None:
    vengeful = signatures["vengeful"]
    assert vengeful.grudges > 20
    assert all(
        vengeful.share("at_grudge") > sig.share("at_grudge") + 0.1
        for sig in others(signatures, "vengeful")
    )


def test_the_cautious_one_picks_on_the_weak_and_rarely_risks(
    signatures: dict[str, Signature],
) -> None:
    cautious = signatures["cautious"]
    assert all(
        cautious.share("at_weakest") > sig.share("at_weakest") + 0.1
        for sig in others(signatures, "cautious")
    )
    assert cautious.challenge_rate < 0.06
    assert cautious.bluff_rate < min(signatures[n].bluff_rate for n in ("bluffer", "vengeful"))


def test_the_leaders_enemies(signatures: dict[str, Signature]) -> None:
    """The honest one and the skeptic go for the leader more than the others do."""
    for name in ("honest", "skeptic"):
        for other in ("bluffer", "vengeful", "cautious"):
            assert signatures[name].share("at_leader") > signatures[other].share("at_leader")
        assert signatures[name].share("at_leader") > signatures[name].share("at_richest")
