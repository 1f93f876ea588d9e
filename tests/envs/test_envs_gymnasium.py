"""The single-agent Gymnasium environment against coup.bots."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from coup import bots
from coup.bots.baseline import RandomBot
from coup.envs.gymnasium import CoupEnv


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 2},
        {"players": 3, "characters": "inquisitor"},
        {"players": 4, "reformation": True},
    ],
    ids=["4p", "2p-draft", "3p-inquisitor", "4p-reformation"],
)
def test_gymnasium_check_env(options: dict[str, object]) -> None:
    check_env(CoupEnv(opponents="random", **options), skip_render_check=True)  # type: ignore[arg-type]


def play(env: CoupEnv, seed: int) -> tuple[float, int]:
    """One episode with random legal actions: (total reward, agent steps)."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert (info["action_mask"] == mask).all()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(mask.nonzero()[0])))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps


def test_episodes_end_with_a_win_or_a_loss_against_heuristic_bots() -> None:
    env = CoupEnv(4, opponents="heuristic")
    results = [play(env, seed)[0] for seed in range(6)]
    assert set(results) <= {1.0, -1.0}
    assert env.state is not None
    assert env.state.over or not env.state.alive(env.seat)


def test_masks_follow_the_engine_and_the_agent_is_asked_only_when_waiting() -> None:
    env = CoupEnv(3, opponents=["random", bots.make("honest", seed=1)], seat=1)
    rng = random.Random(0)
    env.reset(seed=0)
    for _ in range(200):
        state = env.state
        assert state is not None
        if state.over or not state.alive(1):
            env.reset()
            continue
        assert state.waiting[0] == 1
        legal = sorted(env.actions.move_to_action(m, 1) for m in state.legal(1))
        assert env.action_masks().nonzero()[0].tolist() == legal
        assert sorted(env.legal_moves()) == sorted(str(m) for m in state.legal(1))
        env.step(int(rng.choice(legal)))


def test_illegal_actions_are_penalized_or_refused() -> None:
    env = CoupEnv(4, opponents="random", seat=0)
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.view()
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == env.illegal_penalty and info["illegal"] and not terminated
    assert env.view() == before
    strict = CoupEnv(4, opponents="random", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_same_seed_same_episode() -> None:
    a, b = CoupEnv(4, opponents="random"), CoupEnv(4, opponents="random")
    assert play(a, 11) == play(b, 11)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        CoupEnv(4, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        CoupEnv(4, seat=4)
    with pytest.raises(ValueError, match="illegal"):
        CoupEnv(4, illegal="ignore")


def test_registered_with_gymnasium_make() -> None:
    import gymnasium

    from coup.envs.gymnasium import ENV_ID

    env = gymnasium.make(ENV_ID, players=3, opponents="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape
    mask = env.get_wrapper_attr("action_masks")()
    assert (mask == info["action_mask"].astype(bool)).all()
    check_env(env.unwrapped)


def test_random_opponents_played_by_the_core_move_as_random_bots_do() -> None:
    fast = CoupEnv(4, opponents="random", seat=2)
    fast.reset(seed=8)
    # bot objects drawing from a generator seeded as `fast` seeds its one: the next draw
    # of the episode's numpy generator after the game's seed
    probe = CoupEnv(4, opponents=[RandomBot(seed=0) for _ in range(3)], seat=2)
    probe.reset(seed=8)
    assert probe._random is None
    shared = random.Random(int(probe.np_random.integers(2**63)))
    slow = CoupEnv(4, opponents=[RandomBot(rng=shared) for _ in range(3)], seat=2)
    slow.reset(seed=8)
    assert fast.state is not None and slow.state is not None
    rng = random.Random(8)
    while True:
        assert fast.state.history == slow.state.history
        mask = fast.action_masks()
        assert np.array_equal(mask, slow.action_masks())
        action = int(rng.choice(mask.nonzero()[0]))
        a, b = fast.step(action), slow.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        if a[2] or a[3]:
            break
    assert fast.decisions == slow.decisions


def test_settings_changed_after_making_the_env_take_effect() -> None:
    env = CoupEnv(players=2, opponents="random", max_steps=100)
    env.reset(seed=4)
    env.max_steps = 1
    env.illegal_penalty = -0.5
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-0.5, False, True, True)
    env.illegal = "raise"
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="penalize"):
        env.illegal = "ignore"
    assert env.illegal == "raise"


def test_observations_and_masks_kept_stay_as_handed_out() -> None:
    """A step hands out new arrays (the observation, info's mask, action_masks()): one kept
    stays as it was handed out while the game goes on."""
    rng = random.Random(5)
    game = CoupEnv(4, opponents="random")
    obs, info = game.reset(seed=5)
    held = [(obs, obs.tobytes()), (info["action_mask"], info["action_mask"].tobytes())]
    for _ in range(300):
        masks = game.action_masks()
        obs, _, terminated, truncated, info = game.step(int(rng.choice(np.flatnonzero(masks))))
        if rng.random() < 0.2:
            held += [(obs, obs.tobytes()), (masks, masks.tobytes())]
            held += [(info["action_mask"], info["action_mask"].tobytes())]
        if terminated or truncated:
            game.reset()
    assert len(held) > 30
    for array, contents in held:
        assert array.tobytes() == contents


def test_the_methods_are_the_classes_own() -> None:
    """No method is put into an instance: step and action_masks are the class's own, so
    that a subclass overriding one is the one called."""
    for e in (CoupEnv(3, opponents="random"), CoupEnv(3, opponents="random", render_mode="ansi")):
        for _ in range(2):
            for name in ("step", "action_masks", "reset"):
                assert name not in vars(e)
                assert getattr(e, name).__func__ is getattr(type(e), name)
            play(e, 4)

    class Counting(CoupEnv):
        steps = 0

        def step(self, action: object) -> tuple[np.ndarray, float, bool, bool, dict[str, object]]:
            self.steps += 1
            return super().step(action)

    counted = Counting(3, opponents="random")
    assert play(counted, 4) == play(CoupEnv(3, opponents="random"), 4)
    assert counted.steps == play(CoupEnv(3, opponents="random"), 4)[1]
