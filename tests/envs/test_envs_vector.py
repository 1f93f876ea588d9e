"""The Gymnasium vector environment: many single-agent games stepped together, step for step
what Gymnasium's own SyncVectorEnv over CoupEnv gives."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from coup.envs.gymnasium import ENV_ID, CoupEnv
from coup.envs.vector import CoupVectorEnv


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game (0 where no action is legal)."""
    return (masks * rng.random(masks.shape)).argmax(axis=1)


def _same_as_sync(num_envs: int, steps: int, seed: int, **options: Any) -> int:
    """Step CoupVectorEnv and SyncVectorEnv over CoupEnv with the same seed and actions,
    some illegal; compare everything each step hands out. Returns the episodes ended."""
    ours = CoupVectorEnv(num_envs, **options)
    theirs = gym.vector.SyncVectorEnv([lambda: CoupEnv(**options) for _ in range(num_envs)])
    obs, infos = ours.reset(seed=seed)
    their_obs, their_infos = theirs.reset(seed=seed)
    assert (obs == their_obs).all()
    assert (infos["action_mask"] == their_infos["action_mask"]).all()
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        actions = _random_actions(infos["action_mask"], rng)
        if step % 7 == 3:  # sometimes an illegal action, penalized the same way
            actions[step % num_envs] = (actions[step % num_envs] + 1) % ours._actions
        obs, rewards, terminated, truncated, infos = ours.step(actions)
        their = theirs.step(actions)
        for mine, expected in zip((obs, rewards, terminated, truncated), their[:4], strict=True):
            assert (mine == expected).all(), step
        assert (infos["action_mask"] == their[4]["action_mask"]).all(), step
        assert (infos["seat"] == their[4]["seat"]).all(), step
        assert ("illegal" in infos) == ("illegal" in their[4]), step
        if "illegal" in infos:
            assert (infos["illegal"] == their[4]["illegal"]).all(), step
        assert (ours.action_masks() == infos["action_mask"].astype(bool)).all()
        ended += int((terminated | truncated).sum())
    return ended


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 2},
        {"players": 6, "characters": "inquisitor"},
        {"players": 3, "reformation": True},
        {"players": 4, "seat": 1, "max_steps": 6},
    ],
    ids=["4p", "2p-draft", "6p-inquisitor", "3p-reformation", "4p-seat1-truncated"],
)
def test_random_opponents_step_for_step_as_sync_vector_env(options: dict[str, Any]) -> None:
    ended = _same_as_sync(5, 400, seed=11, opponents="random", **options)
    assert ended > 10  # episodes ended, and the games were reset the step after


def test_other_opponents_step_for_step_as_sync_vector_env() -> None:
    ended = _same_as_sync(3, 60, seed=4, players=3, opponents=["honest", "random"])
    assert ended > 0


def test_make_vec_gives_the_vector_environment() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=3, opponents="random", players=3)
    assert isinstance(envs, CoupVectorEnv)
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (3, envs.single_observation_space.shape[0])
    assert envs.observation_space.contains(obs)
    assert infos["action_mask"].shape == (3, envs.single_action_space.n)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP


def test_the_decisions_of_every_game_are_counted() -> None:
    envs = CoupVectorEnv(4, players=4, opponents="random")
    _, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    for _ in range(200):
        resetting = envs._autoreset.copy()
        infos = envs.step(_random_actions(infos["action_mask"], rng))[4]
        steps += int((~resetting).sum())
    # every agent step is a decision, and the bots' moves are more
    assert envs.decisions > steps


def test_bad_actions_are_refused_and_no_game_moves() -> None:
    envs = CoupVectorEnv(3, players=4, opponents="random", illegal="raise")
    obs, infos = envs.reset(seed=5)
    histories = [len(env.state.history) for env in envs.envs if env.state]
    good = _random_actions(infos["action_mask"], np.random.default_rng(5))
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    refused = {
        "shape": (good[:2], "3 integers"),
        "type": (good.astype(float), "3 integers"),
        "outside": (np.array([good[0], 999, good[2]]), "game 1: action 999 is outside"),
        "illegal": (illegal, "game 1: action"),
    }
    for actions, message in refused.values():
        with pytest.raises(ValueError, match=message):
            envs.step(actions)
        assert [len(env.state.history) for env in envs.envs if env.state] == histories
        assert (envs._obs == obs).all()
    envs.step(good)  # and the environment goes on
    assert sum(len(env.state.history) for env in envs.envs if env.state) > sum(histories)


def test_copy_false_hands_out_the_environments_own_array() -> None:
    envs = CoupVectorEnv(2, players=2, opponents="random", copy=False)
    obs, infos = envs.reset(seed=3)
    after = envs.step(_random_actions(infos["action_mask"], np.random.default_rng(3)))[0]
    assert after is obs
    copying = CoupVectorEnv(2, players=2, opponents="random")
    first, _ = copying.reset(seed=3)
    assert copying.step(np.zeros(2, np.int64))[0] is not first


def test_seeds_per_game_and_bad_counts() -> None:
    envs = CoupVectorEnv(2, players=3, opponents="random")
    single = CoupEnv(3, opponents="random")
    obs, _ = envs.reset(seed=[7, None])
    assert (obs[0] == single.reset(seed=7)[0]).all()
    with pytest.raises(ValueError, match="need 2 seeds"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="num_envs"):
        CoupVectorEnv(0)


def test_the_action_of_a_game_being_reset_is_ignored_whatever_it_is() -> None:
    envs = CoupVectorEnv(3, players=2, opponents="random")
    _, infos = envs.reset(seed=9)
    rng = np.random.default_rng(9)
    while not envs._autoreset.any():
        infos = envs.step(_random_actions(infos["action_mask"], rng))[4]
    ended = int(envs._autoreset.argmax())
    assert not infos["action_mask"][ended].any()  # nothing to decide in an ended game
    actions = _random_actions(infos["action_mask"], rng)
    actions[ended] = -1
    _, rewards, terminated, truncated, infos = envs.step(actions)
    assert rewards[ended] == 0 and not terminated[ended] and not truncated[ended]
    assert infos["action_mask"][ended].any()  # a new game, waiting for the agent


def test_step_before_reset_is_refused() -> None:
    envs = CoupVectorEnv(2, players=2, opponents="random")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, np.int64))


def test_a_reset_mask_resets_only_those_games() -> None:
    envs = CoupVectorEnv(3, players=3, opponents="random")
    with pytest.raises(RuntimeError, match="once"):
        envs.reset(options={"reset_mask": np.array([True, False, False])})
    _, infos = envs.reset(seed=1)
    infos = envs.step(_random_actions(infos["action_mask"], np.random.default_rng(1)))[4]
    states = [env.state for env in envs.envs]
    for bad in (np.array([1, 0, 0]), np.array([False, False, False]), np.array([True])):
        with pytest.raises(ValueError, match="reset_mask"):
            envs.reset(options={"reset_mask": bad})
    obs, _ = envs.reset(seed=5, options={"reset_mask": np.array([False, True, False])})
    assert envs.envs[0].state is states[0] and envs.envs[2].state is states[2]
    assert envs.envs[1].state is not states[1]
    assert (obs[1] == CoupEnv(3, opponents="random").reset(seed=6)[0]).all()


def test_gymnasium_vector_wrappers_run_on_it() -> None:
    envs = gym.wrappers.vector.RecordEpisodeStatistics(
        gym.make_vec(ENV_ID, num_envs=4, players=2, opponents="random")
    )
    _, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(100):
        infos = envs.step(_random_actions(infos["action_mask"], rng))[4]
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            assert set(np.unique(infos["episode"]["r"][infos["_episode"]])) <= {-1.0, 1.0}
    assert episodes > 4
