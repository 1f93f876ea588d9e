"""coup.envs: the rules engine behind the interfaces learning code already uses.

Each adapter is its own module and an optional extra, imported only when used (the core,
``coup``, stays dependency-free). See docs/learning.md.

* ``coup.envs.actions``: the fixed integer action space (``ActionSpace``), masks
* ``coup.envs.observation``: a seat's view as a flat float vector (``ObservationEncoder``)
* ``coup.envs.pettingzoo``: ``env(players=4)``, an AEC environment (``coup[pettingzoo]``)
* ``coup.envs.gymnasium``: ``CoupEnv``, one agent against ``coup.bots`` (``coup[gymnasium]``)
* ``coup.envs.vector``: ``CoupVectorEnv``, many ``CoupEnv`` games stepped together
* ``coup.envs.openspiel``: ``register()`` adds ``python_coup`` to pyspiel (``coup[openspiel]``)
* ``coup.envs.kernel``: what the adapters run per step (the observation's layout and
  writers, the step, the AEC bookkeeping): standard library and ``coup.rules`` only,
  compiled beside the rules where they are
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy


def game_seed(rng: numpy.random.Generator) -> int:
    """A 63-bit seed for :func:`coup.new_game` drawn from `rng`: one raw draw of its bit
    generator, which costs a fifth of ``int(rng.integers(2**63))`` (the adapters draw one
    for every game)."""
    return int(rng.bit_generator.random_raw()) >> 1
