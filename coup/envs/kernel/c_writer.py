"""The compiled kernel's C writer of observation vectors (``coup/envs/kernel/_observe.c``):
whether it is used, one made for a layout, and the call that hands it a state's fields.

The writer is used only where the compiled kernel runs and it was built from the C source
beside it (it carries the source's SHA-256, `setup.py` builds it in); otherwise
`coup.envs.kernel.features` joins its cached blocks. It is handed every field's offset
and size from `coup.envs.kernel.layout` when made, and checks them against the vector's
size, so it writes where the layout says and nowhere else. Standard library and
`coup.rules` only; compiled with the rest of the kernel.
"""

from __future__ import annotations

from typing import Any, Final

from coup.rules.board import PRIVATE_VERBS
from coup.rules.state import State

from .layout import ALLEGIANCES, QUIET_PHASES, SLOT, Layout


def _writer_class() -> Any:
    """The C writer's class where the compiled kernel runs and the writer was built from
    the source beside it, else None."""
    from . import compiled

    observe = compiled.PACKAGE.c_extension("_observe")
    return None if observe is None else observe.Writer


#: The C writer's class, or None: the pure-Python kernel, or no C writer built.
WRITER: Final[Any] = _writer_class()


def make_writer(layout: Layout) -> Any:
    """The `observe` of a C writer of vectors of `layout`, or None where there is none."""
    if WRITER is None:
        return None
    writer = WRITER(
        layout.players,
        layout.history,
        layout.reformation,
        layout.size,
        layout.offsets(),
        dict(SLOT),
        {name: i for i, name in enumerate(layout.phases)},
        {name: i for i, name in enumerate(layout.actions)},
        {name: i for i, name in enumerate(layout.verbs)},
        {side: i for i, side in enumerate(ALLEGIANCES)},
        QUIET_PHASES,
        PRIVATE_VERBS,
    )
    return writer.observe


def write_state(observe: Any, s: State, me: int, target: bytearray, at: int) -> None:
    """Write seat `me`'s vector of `s` into `target` from byte `at` with a writer's
    `observe`: the state's fields, in the order of ``coup/envs/kernel/_observe.c``."""
    settings = s.settings
    observe(
        target,
        at,
        me,
        s.hands,
        s.coins,
        s.revealed,
        s.alive_flags,
        s.turn,
        s.waiting,
        s.passed,
        s.known_hands,
        s.allegiance,
        s.phase,
        s.treasury,
        settings.treasury,
        len(s.court),
        settings.copies,
        s.reserve,
        s.known_court,
        s.actor,
        s.action,
        s.target,
        s.claim,
        s.block_seat,
        s.block_claim,
        s.challenger,
        s.loser,
        s.drawn,
        s.shown,
        s.history,
    )
