"""coup.envs.kernel: what the learning adapters run per step, beside the rules they step.

The observation vector's layout (`layout`) and its writers (`features`, and `writer`'s C
writer, ``_observe.c``), the integer-action step and the legal-action mask (`stepper`),
PettingZoo's AEC bookkeeping (`agents`) and Gymnasium's single-agent step (`solo`).
Standard library and `coup.rules` only; compiled with mypyc where the rules are
(`compiled` says which kernel runs), pure Python otherwise.
"""

from __future__ import annotations

from .compiled import KERNEL, WHY  # first: it chooses the compiled or the pure-Python modules

__all__ = ["KERNEL", "WHY"]
