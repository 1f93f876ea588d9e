"""Properties of random games of every variant and size, Reformation or not (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coup
from coup.rules.state import State

MAX_MOVES = 5000


@st.composite
def games(draw: st.DrawFn) -> tuple[State, random.Random]:
    players = draw(st.integers(2, 10))
    characters = draw(st.sampled_from(["ambassador", "inquisitor"]))
    draft = draw(st.booleans()) if players == 2 else False
    treasury = draw(st.sampled_from([50, 50, 50, 2 * players + 3]))
    first = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**128))
    reformation = draw(st.booleans())
    s = coup.new_game(players=players, seed=seed, characters=characters, draft=draft,
                      treasury=treasury, first=first, reformation=reformation)  # fmt: skip
    return s, random.Random(draw(st.integers(0, 2**32)))


def cards_in_play(s: State) -> Counter[str]:
    return Counter(
        [c for h in s.hands for c in h]
        + [c for r in s.revealed for c in r]
        + s.court
        + list(s.drawn)
    )


def universe(s: State) -> Counter[str]:
    if s.settings.draft:
        return Counter(list(s.settings.in_play) + [p for p in s.picks if p])
    return Counter(s.settings.deck())


def random_game(s: State, rng: random.Random, check=None) -> int:  # type: ignore[no-untyped-def]
    moves = 0
    while not s.over:
        assert moves < MAX_MOVES, "a game must end"
        # reactions are a race: any waiting seat may speak first
        seat = rng.choice(s.waiting)
        s.play(seat, rng.choice(s.legal(seat)))
        moves += 1
        if check:
            check(s, rng)
    return moves


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_coins_and_cards_are_conserved_and_turns_go_to_live_players(game) -> None:  # type: ignore[no-untyped-def]
    s, rng = game
    total = s.settings.treasury

    def check(s: State, rng: random.Random) -> None:
        assert s.treasury + s.reserve + sum(s.coins) == total
        assert s.treasury >= 0 and s.reserve >= 0 and min(s.coins) >= 0
        assert s.reserve == 0 or s.settings.reformation
        assert cards_in_play(s) == universe(s)
        assert all(len(s.hands[i]) + len(s.revealed[i]) == 2 for i in range(s.n)) or s.phase in (
            "draft",
            "allegiance",
        )
        if s.phase == "action":
            assert s.alive(s.turn) and s.waiting == (s.turn,)
        for seat in s.waiting:
            assert s.alive(seat) or s.phase in ("draft", "allegiance")
            assert len(s.waiting) > 1 or len(s.legal(seat)) > 1, "forced moves are never waiting"
        assert s.n_alive == sum(s.alive_flags)

    random_game(s, rng, check)
    assert s.over and s.winner is not None and s.alive(s.winner) and s.n_alive == 1
    assert all(s.coins[i] == 0 for i in range(s.n) if i != s.winner)


def hidden_cards_leak(s: State, seat: int | None) -> bool:
    """Does view(seat) differ from the view of a world where all it cannot know is redrawn?"""
    other = s.determinize(seat, random.Random(7))
    return json.dumps(other.view(seat), sort_keys=True) != json.dumps(s.view(seat), sort_keys=True)


@SETTINGS
@given(games())
def test_no_view_shows_a_hidden_card(game) -> None:  # type: ignore[no-untyped-def]
    s, rng = game

    def check(s: State, rng: random.Random) -> None:
        seat = rng.choice([None, *range(s.n)])
        view = s.view(seat)
        for p in view["players"]:
            if p["seat"] != seat and not s.over:
                assert p["cards"] is None
        if seat is None:
            assert view["private"] == {} and view["legal"] == []
        assert not hidden_cards_leak(s, seat)
        json.dumps(view)  # JSON-ready

    random_game(s, rng, check)


@SETTINGS
@given(games())
def test_replay_of_the_record_equals_the_live_game(game) -> None:  # type: ignore[no-untyped-def]
    s, rng = game
    stop = rng.randrange(0, 200)
    moves = 0
    while not s.over and moves < stop:
        seat = rng.choice(s.waiting)
        s.play(seat, rng.choice(s.legal(seat)))
        moves += 1
    record = json.loads(json.dumps(s.record()))
    again = coup.replay(record)
    assert again.record() == record
    assert again.hands == s.hands and again.court == s.court and again.coins == s.coins
    assert again.view(None) == s.view(None)
    assert coup.final_state_json(again) == coup.final_state_json(s)
    # and the game goes on identically from there
    a, b = random.Random(1), random.Random(1)
    random_game(s, a)
    random_game(again, b)
    assert again.record() == s.record()


@SETTINGS
@given(games())
def test_clone_is_independent(game) -> None:  # type: ignore[no-untyped-def]
    s, rng = game
    for _ in range(rng.randrange(0, 60)):
        if s.over:
            break
        seat = rng.choice(s.waiting)
        s.play(seat, rng.choice(s.legal(seat)))
    before = (s.record(), s.view(None), [s.view(i) for i in range(s.n)])
    c = s.clone()
    random_game(c, random.Random(3))
    assert (s.record(), s.view(None), [s.view(i) for i in range(s.n)]) == before


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_determinize_keeps_what_the_seat_knows_and_only_that(game, world_seed: int) -> None:  # type: ignore[no-untyped-def]
    s, rng = game

    def check(s: State, rng: random.Random) -> None:
        seat = rng.choice([None, *range(s.n)])
        d = s.determinize(seat, random.Random(world_seed))
        assert d.view(seat) == s.view(seat)
        if seat is not None:
            assert d.legal(seat) == s.legal(seat) and d.hands[seat] == s.hands[seat]
        assert cards_in_play(d) == universe(d) if not s.settings.draft else True
        # a world depends only on what the seat knows: equal views give equal worlds
        e = d.determinize(seat, random.Random(world_seed))
        f = s.determinize(seat, random.Random(world_seed))
        assert (e.hands, e.court, e.drawn, e._rs) == (f.hands, f.court, f.drawn, f._rs)
        # nor does it keep the seed or the deal that would tell the true hands
        assert d.seed == 0 and d.deal.court == () and all(h == () for h in d.deal.hands)
        # a determinized world plays on to the end
        random_game(d, random.Random(world_seed))

    for _ in range(rng.randrange(1, 40)):
        if s.over:
            break
        seat = rng.choice(s.waiting)
        s.play(seat, rng.choice(s.legal(seat)))
        check(s, rng)


def test_in_a_draft_the_other_pick_stays_in_their_hand_until_they_draw() -> None:
    for seed in range(40):
        s = coup.new_game(players=2, seed=seed)
        s.play(0, "draft duke")
        s.play(1, "draft captain")
        rng = random.Random(seed)
        for _ in range(5):
            d = s.determinize(0, rng)
            pick = d.picks[1]
            assert pick is not None and pick in d.hands[1]
            # the opponent's other card came from the shuffled pile: one of each character
            other = list(d.hands[1])
            other.remove(pick)
            pile = sorted(other + d.court + [s.deal.hands[0][0]])
            assert pile == sorted(s.settings.in_play)


def test_a_pickled_game_plays_on_like_the_original() -> None:
    import pickle

    s = coup.new_game(players=4, seed=11)
    rng = random.Random(11)
    for _ in range(25):
        seat = rng.choice(s.waiting)
        s.play(seat, rng.choice(s.legal(seat)))
    copy = pickle.loads(pickle.dumps(s))
    random_game(s, random.Random(2))
    random_game(copy, random.Random(2))
    assert copy.record() == s.record()


def test_a_spectators_world_keeps_no_secret_move() -> None:
    s = coup.new_game(players=3, seed=5)
    for line in ("0 exchange", "1 pass", "2 pass"):
        seat, move = line.split(" ", 1)
        s.play(int(seat), move)
    keep = s.legal(0)[0]
    s.play(0, keep)
    d = s.determinize(None, random.Random(1))
    assert [str(e[1]) for e in d.history][-1] == "keep"


TARGETED = ("coup", "assassinate", "steal", "examine")


@SETTINGS
@given(games().filter(lambda game: game[0].settings.reformation))
def test_reformation_the_restriction_is_never_broken(game) -> None:  # type: ignore[no-untyped-def]
    s, rng = game

    def united(s: State) -> bool:
        return len({s.allegiance[i] for i in range(s.n) if s.alive(i)}) == 1

    while not s.over:
        seat = rng.choice(s.waiting)
        moves = s.legal(seat)
        if s.phase == "action":
            assert s.allegiance[seat] is not None
            for m in moves:
                if m.verb in TARGETED:  # never against one's own allegiance, unless united
                    assert s.allegiance[m.arg] != s.allegiance[seat] or united(s)  # type: ignore[index]
            assert any(m.verb == "coup" for m in moves) or s.coins[seat] < 7
            assert ("embezzle" in map(str, moves)) == (s.reserve > 0 and s.coins[seat] < 10)
        if s.phase == "react" and s.action == "foreign_aid":
            mine = s.allegiance[s.actor]  # type: ignore[index]
            for w in s.waiting:  # only those who may block it are asked
                assert s.allegiance[w] != mine or united(s)
            others = [i for i in range(s.n) if i != s.actor and s.alive(i)]
            blockers = [i for i in others if s.allegiance[i] != mine or united(s)]
            assert set(s.waiting) <= set(blockers)
            if not s.passed:
                assert set(s.waiting) == set(blockers)
        s.play(seat, rng.choice(moves))
