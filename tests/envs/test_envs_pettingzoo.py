"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and Coup's rules."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from coup.envs.pettingzoo import env, raw_env


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 2},
        {"players": 3, "characters": "inquisitor"},
        {"players": 4, "reformation": True},
        {"players": 2, "reformation": True},
        {"players": 4, "copy": False},
    ],
    ids=["4p", "2p-draft", "3p-inquisitor", "4p-reformation", "2p-reformation", "4p-shared"],
)
def test_pettingzoo_api_test(options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        # dict observations ({"observation", "action_mask"}) draw PettingZoo's generic
        # "should be a Box" warnings, as every masked classic game does
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(**options), num_cycles=200)  # type: ignore[arg-type]


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=4), num_cycles=100)
    seed_test(lambda: env(players=4, copy=False), num_cycles=100)


def random_action(obs: dict[str, np.ndarray], rng: random.Random) -> int:
    """A uniformly random legal action of an observation's mask."""
    legal = obs["action_mask"].nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


def play_random(e: object, seed: int) -> dict[str, float]:
    """Play one game with random legal actions; the total reward of every agent."""
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    e.reset(seed=seed)  # type: ignore[attr-defined]
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals


def test_rewards_are_zero_sum_and_the_winner_gets_one() -> None:
    for seed in range(20):
        e = raw_env(4)
        totals = play_random(e, seed)
        assert e.state is not None and e.state.over
        assert sorted(totals.values()) == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])
        assert totals[f"player_{e.state.winner}"] == 1.0


def test_reaction_windows_ask_clockwise_from_the_actor() -> None:
    e = raw_env(4, first=0)
    e.reset(seed=4)
    assert e.agent_selection == "player_0"
    tax = e.actions.move_to_action("tax", 0)
    e.step(tax)
    asked = []
    pass_action = e.actions.move_to_action("pass", 1)
    for _ in range(3):
        asked.append(e.agent_selection)
        e.step(pass_action)
    assert asked == ["player_1", "player_2", "player_3"]
    assert e.agent_selection == "player_1"  # next turn


def test_mask_is_the_engines_legal_moves() -> None:
    e = raw_env(3)
    e.reset(seed=9)
    rng = random.Random(9)
    for agent in e.agent_iter(300):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.state is not None
        seat = e.agent_seat[agent]
        assert seat == e.state.waiting[0]
        legal = sorted(e.actions.move_to_action(m, seat) for m in e.state.legal(seat))
        assert obs["action_mask"].nonzero()[0].tolist() == legal
        assert sorted(e.legal_moves(agent)) == sorted(str(m) for m in e.state.legal(seat))
        e.step(int(rng.choice(legal)))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(4, first=0)
    e.reset(seed=1)
    before = e.view("player_0")
    coup_next = e.actions.move_to_action("coup 1", 0)  # 2 coins: not legal
    with pytest.raises(ValueError, match=r"coup 1.*not legal for player_0"):
        e.step(coup_next)
    assert e.view("player_0") == before
    assert e.agent_selection == "player_0"
    e.step(e.actions.move_to_action("income", 0))


def test_truncation_after_max_moves() -> None:
    e = raw_env(4, max_moves=5)
    e.reset(seed=2)
    seen = play_random(e, 2)
    assert set(seen) == set(e.possible_agents)
    assert not e.agents


def test_observation_is_fresh_and_float32() -> None:
    e = raw_env(4)
    e.reset(seed=0)
    first = e.observe(e.agent_selection)
    second = e.observe(e.agent_selection)
    assert first["observation"].dtype == np.float32
    assert first["observation"] is not second["observation"]
    text = raw_env(4, render_mode="ansi")
    text.reset(seed=0)
    assert "seat 0" in str(text.render())


def test_shared_buffers_hold_the_same_observation_as_new_arrays() -> None:
    fresh, shared = raw_env(4), raw_env(4, copy=False)
    fresh.reset(seed=5)
    shared.reset(seed=5)
    rng = random.Random(5)
    previous = None
    for agent in shared.agent_iter():
        obs, reward, terminated, truncated, _ = shared.last()
        expected = fresh.last()
        assert agent == fresh.agent_selection
        assert np.array_equal(obs["observation"], expected[0]["observation"])
        assert np.array_equal(obs["action_mask"], expected[0]["action_mask"])
        assert (reward, terminated, truncated) == expected[1:4]
        if previous is not None:  # the same arrays, rewritten
            assert obs["observation"] is previous["observation"]
        previous = obs
        action = None if terminated or truncated else random_action(obs, rng)
        shared.step(action)
        fresh.step(action)
    assert not fresh.agents


def test_the_methods_are_the_classes_own() -> None:
    """No method is put into an instance: last, step, observe and agent_iter of the raw
    environment and of env()'s wrapper are their classes' own, before and after reset, so
    that a subclass overriding one is the one called."""
    from coup.envs.pettingzoo import CoupAEC

    for e in (raw_env(3), env(3), raw_env(3, render_mode="human"), env(2, render_mode="ansi")):
        for _ in range(2):
            for name in ("last", "step", "observe", "agent_iter", "reset"):
                assert name not in vars(e)
                assert getattr(e, name).__func__ is getattr(type(e), name)
            play_random(e, 9)

    class Counting(CoupAEC):  # type: ignore[misc]
        steps = 0

        def step(self, action: int | None) -> None:
            self.steps += 1
            super().step(action)

    counted = Counting(3)
    totals = play_random(counted, 9)
    assert counted.steps > 10 and totals == play_random(raw_env(3), 9)


def test_a_human_rendering_environment_renders_every_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    e = raw_env(2, render_mode="human")
    assert "step" not in vars(e)  # the class's step, which renders
    e.reset(seed=3)
    obs = e.last()[0]
    e.step(int(obs["action_mask"].nonzero()[0][0]))
    assert "seat 0" in capsys.readouterr().out


def test_bad_steps_are_refused_and_change_nothing() -> None:
    e = raw_env(4, first=0)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.last()
    with pytest.raises(RuntimeError, match="reset"):
        e.last(observe=False)
    with pytest.raises(AttributeError, match="reset"):
        e.agent_selection  # noqa: B018
    e.reset(seed=4)
    before = e.view("player_0")
    with pytest.raises(ValueError, match="outside 0..64"):
        e.step(65)
    with pytest.raises(ValueError, match="needs an action"):
        e.step(None)
    assert e.view("player_0") == before and e.agent_selection == "player_0"
    assert e.rewards == dict.fromkeys(e.possible_agents, 0.0)


def test_settings_changed_after_making_the_env_take_effect() -> None:
    e = raw_env(4, max_moves=1000)
    e.reset(seed=6)
    e.copy = False
    first = e.last()[0]
    assert e.last()[0] is first  # the shared arrays now
    e.max_moves = 3
    seen = play_random(e, 6)
    assert set(seen) == set(e.possible_agents) and e.moves == 3


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_last_agrees_with_the_books_kept_by_hand(players: int) -> None:
    """PettingZoo's bookkeeping, kept here by hand from the game itself: an agent's
    cumulative reward is what was handed out since its own last step; it is terminated
    once its seat is out or the game is over; a knocked-out agent is stepped out before
    anyone moves on. `last()` and the env's dicts say so at every call (the core skips its
    dicts while nobody is out or rewarded, and must pick them up again after)."""
    for seed in range(12):
        e = raw_env(players, max_moves=80 if seed % 4 == 3 else 2000)  # some truncated
        e.reset(seed=seed)
        rng = random.Random(seed)
        owed = dict.fromkeys(e.agents, 0.0)
        knocked_out_seen = False
        for agent in e.agent_iter(20_000):
            obs, reward, terminated, truncated, info = e.last()
            state = e.state
            assert state is not None
            seat = e.agent_seat[agent]
            assert reward == pytest.approx(owed[agent])
            assert e._cumulative_rewards[agent] == pytest.approx(owed[agent])
            out = state.over or not state.alive(seat)
            assert terminated == (out and not truncated)
            assert truncated == (not out and e.moves >= e.max_moves)
            assert info is e.infos[agent]
            if not (terminated or truncated):  # the agents that are out step first
                assert not any(e.terminations[a] or e.truncations[a] for a in e.agents)
                assert state.waiting[0] == seat
            owed[agent] = 0.0
            if terminated or truncated:
                knocked_out_seen |= terminated and not state.over
                e.step(None)
                del owed[agent]
            else:
                e.step(random_action(obs, rng))
            for other in e.agents:
                owed[other] += e.rewards[other]
        assert not e.agents
        if players > 2:
            assert knocked_out_seen or seed % 4 == 3


# -- env(): PettingZoo's order-enforcing wrapper, at the raw environment's speed --------------
def _stock(players: int, **options: object) -> object:
    """The raw environment in PettingZoo's own OrderEnforcingWrapper (what env() was)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(players, **options))


def _trace(e: object, seed: int, max_iter: int = 2**63) -> list[object]:
    """Everything an agent_iter loop sees of a few games of random legal actions, stepping
    a knocked-out agent's None, sometimes looking with observe=False or through observe()."""
    rng = random.Random(seed)
    seen: list[object] = []
    e.reset(seed=seed)  # type: ignore[attr-defined]
    for game in range(3):
        if game:
            e.reset()  # type: ignore[attr-defined]
        for agent in e.agent_iter(max_iter):  # type: ignore[attr-defined]
            look = rng.random() < 0.1
            obs, reward, terminated, truncated, info = e.last(not look)  # type: ignore[attr-defined]
            if look:
                obs = e.observe(agent)  # type: ignore[attr-defined]
            seen.append(
                (
                    agent,
                    obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(),
                    reward,
                    terminated,
                    truncated,
                    dict(info),
                    list(e.agents),  # type: ignore[attr-defined]
                    dict(e.rewards),  # type: ignore[attr-defined]
                    dict(e.terminations),  # type: ignore[attr-defined]
                    dict(e.truncations),  # type: ignore[attr-defined]
                    e.agent_selection,  # type: ignore[attr-defined]
                    e.num_agents,  # type: ignore[attr-defined]
                )
            )
            e.step(None if terminated or truncated else random_action(obs, rng))  # type: ignore[attr-defined]
        seen.append(("end", list(e.agents)))  # type: ignore[attr-defined]
    return seen


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (4, {}), (6, {"copy": False}), (4, {"reformation": True}), (3, {"max_moves": 60})],
)
def test_env_plays_as_pettingzoos_own_wrapper(players: int, options: dict[str, object]) -> None:
    from coup.envs.pettingzoo import InOrder

    for seed in range(4):
        ours = env(players, **options)
        assert isinstance(ours, InOrder)
        assert _trace(ours, seed) == _trace(_stock(players, **options), seed)
    assert _trace(env(4), 9, max_iter=7) == _trace(_stock(4), 9, max_iter=7)


def test_env_refuses_what_pettingzoos_wrapper_refuses_before_reset() -> None:
    for e in (env(4), _stock(4)):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            e.last()  # type: ignore[attr-defined]
        for name in ("agents", "rewards", "agent_selection", "num_agents"):
            with pytest.raises(AttributeError, match="cannot be accessed before reset"):
                getattr(e, name)
        with pytest.raises(AssertionError, match="before step"):
            e.step(0)  # type: ignore[attr-defined]
        with pytest.raises(AssertionError, match="before observe"):
            e.observe("player_0")  # type: ignore[attr-defined]
        with pytest.raises(AssertionError, match="before agent_iter"):
            e.agent_iter()  # type: ignore[attr-defined]
        assert str(e) == "coup_v0"


def test_env_checks_that_agent_iter_steps_and_warns_after_the_end(caplog: object) -> None:
    for e in (env(2), _stock(2)):
        e.reset(seed=1)  # type: ignore[attr-defined]
        turns = iter(e.agent_iter())  # type: ignore[attr-defined]
        next(turns)
        with pytest.raises(AssertionError, match="need to call step"):
            next(turns)  # no step between two turns
        rng = random.Random(1)
        e.reset(seed=1)  # type: ignore[attr-defined]
        for _ in e.agent_iter():  # type: ignore[attr-defined]
            obs, _, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
            e.step(None if terminated or truncated else random_action(obs, rng))  # type: ignore[attr-defined]
        assert e.agents == []  # type: ignore[attr-defined]
        selected = e.agent_selection  # type: ignore[attr-defined]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e.step(3)  # type: ignore[attr-defined]  # no agent left: a warning, nothing done
        assert e.agents == [] and e.agent_selection == selected  # type: ignore[attr-defined]
        assert list(e.agent_iter()) == []  # type: ignore[attr-defined]


def test_env_that_renders_every_step_still_renders(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(2, render_mode="human")
    play_random(e, 2)  # its agent_iter and step are the wrapper's own
    shown = capsys.readouterr().out
    assert shown.count("last move:") >= 4 and "game over" in shown  # every step, to the end


def test_observations_kept_stay_as_handed_out() -> None:
    """With copy=True every observation is new arrays: one kept stays as it was handed out
    while the game goes on."""
    env = raw_env(4)
    env.reset(seed=5)
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, bytes]] = []
    for step in range(400):
        if not env.agents:
            env.reset()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if step % 7 == 0:
            kept += [(obs["observation"], obs["observation"].tobytes())]
            kept += [(obs["action_mask"], obs["action_mask"].tobytes())]
        env.step(random_action(obs, rng))
    assert len(kept) > 50
    for array, contents in kept:
        assert array.tobytes() == contents
