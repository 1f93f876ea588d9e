"""Train a Coup agent in plain numpy against the heuristic bots, and plot its learning curve.

A small policy network (observation -> 64 tanh units -> one logit per action, illegal
actions masked out) learns by REINFORCE with a running-mean baseline and Adam, from the
+1/-1 result of each game. No deep-learning framework: forward and backward passes are a
few lines of numpy. The single-agent environment is ``coup.envs.gymnasium.CoupEnv``.

    python examples/train_numpy.py                       # 2 players, ~2 minutes
    python examples/train_numpy.py --players 3 --episodes 40000 --png curve.png

It prints the win rate as it goes and writes ``learning_curve.png`` (win rate of the
learner and of a uniformly random player against the same bots).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from coup.envs.gymnasium import CoupEnv


class Policy:
    """A masked softmax policy: one tanh hidden layer, trained with Adam."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0.0, 0.01, (hidden, actions)),
            "b2": np.zeros(actions),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.t = 0

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hidden activations, action probabilities) for a batch of observations."""
        p = self.params
        hidden = np.tanh(obs @ p["w1"] + p["b1"])
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * mask
        return hidden, e / e.sum(axis=-1, keepdims=True)

    def update(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        actions: np.ndarray,
        advantages: np.ndarray,
        lr: float,
        entropy: float,
    ) -> None:
        """One Adam step up the policy gradient (plus an entropy bonus)."""
        p = self.params
        hidden, probs = self.probabilities(obs, mask)
        onehot = np.zeros_like(probs)
        onehot[np.arange(len(actions)), actions] = 1.0
        # d(log pi(a))/d logits = onehot - pi; entropy gradient keeps exploring
        logp = np.log(np.where(mask, probs, 1.0))
        h = -(probs * logp).sum(axis=1, keepdims=True)
        d_entropy = -probs * (logp + h)
        d_logits = ((onehot - probs) * advantages[:, None] + entropy * d_entropy) / len(actions)
        grads = {"w2": hidden.T @ d_logits, "b2": d_logits.sum(axis=0)}
        d_hidden = (d_logits @ p["w2"].T) * (1.0 - hidden**2)
        grads["w1"] = obs.T @ d_hidden
        grads["b1"] = d_hidden.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            m, v = self.moments[k]
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9**self.t)
            v_hat = v / (1 - 0.999**self.t)
            p[k] += lr * m_hat / (np.sqrt(v_hat) + 1e-8)  # gradient ascent


def play(env: CoupEnv, policy: Policy | None, rng: np.random.Generator, seed: int) -> tuple:
    """One episode; returns (observations, masks, actions, reward)."""
    obs, _ = env.reset(seed=seed)
    observations, masks, actions = [], [], []
    while True:
        mask = env.action_masks()
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            _, probs = policy.probabilities(obs[None, :], mask[None, :])
            action = int(rng.choice(len(mask), p=probs[0]))
        observations.append(obs)
        masks.append(mask)
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return observations, masks, actions, float(reward)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="heuristic", help="bot name for the other seats")
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--batch", type=int, default=64, help="episodes per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--png", default="learning_curve.png")
    parser.add_argument("--report", type=int, default=20, help="updates between reports")
    parser.add_argument(
        "--random-games", type=int, default=2000, help="games to rate a random player"
    )
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = CoupEnv(args.players, opponents=args.opponent)
    policy = Policy(env.observation_space.shape[0], env.action_space.n, args.hidden, rng)

    baseline_env = CoupEnv(args.players, opponents=args.opponent)
    random_wins = [
        play(baseline_env, None, rng, 10**9 + i)[3] > 0 for i in range(args.random_games)
    ]
    random_rate = float(np.mean(random_wins))
    print(f"random player vs {args.opponent}: wins {random_rate:.1%}")

    curve: list[tuple[int, float]] = []
    baseline = -0.5
    start = time.perf_counter()
    wins: list[bool] = []
    for update in range(args.episodes // args.batch):
        batch_obs, batch_mask, batch_act, batch_adv = [], [], [], []
        for i in range(args.batch):
            seed = args.seed * 10**7 + update * args.batch + i
            observations, masks, actions, reward = play(env, policy, rng, seed)
            wins.append(reward > 0)
            batch_obs += observations
            batch_mask += masks
            batch_act += actions
            batch_adv += [reward - baseline] * len(actions)
            baseline += 0.01 * (reward - baseline)
        policy.update(
            np.array(batch_obs),
            np.array(batch_mask),
            np.array(batch_act),
            np.array(batch_adv),
            args.lr,
            args.entropy,
        )
        if (update + 1) % args.report == 0:
            episodes = (update + 1) * args.batch
            rate = float(np.mean(wins[-args.report * args.batch :]))
            curve.append((episodes, rate))
            print(
                f"{episodes:>7} episodes  win rate {rate:6.1%}  "
                f"({time.perf_counter() - start:5.0f} s)",
                flush=True,
            )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    xs, ys = zip(*curve, strict=True) if curve else ((), ())
    ax.plot(xs, ys, label="numpy REINFORCE learner")
    ax.axhline(random_rate, color="grey", linestyle="--", label="uniformly random player")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"win rate vs {args.opponent} ({args.players} players)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
