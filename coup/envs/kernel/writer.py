"""The compiled core's C writer of observation vectors (``coup/envs/kernel/_observe.c``): whether
it is used, one made for a table shape, and the call that hands it a state's fields.

The writer is used only where the compiled core runs and it was built from the C source
beside it (it carries the source's SHA-256, `setup.py` builds it in); otherwise
`coup.envs.kernel.features` joins its cached blocks. Standard library and `coup.rules`
only; compiled with the rest of the kernel.
"""

from __future__ import annotations

from typing import Any, Final

from coup.rules.board import PRIVATE_VERBS
from coup.rules.cards import ALLEGIANCES
from coup.rules.state import State

from .layout import SLOT, table_size


def _writer_class() -> Any:
    """The C writer's class where the compiled core runs and the writer was built from the
    source beside it, else None."""
    from . import compiled

    observe = compiled.PACKAGE.c_extension("_observe")
    return None if observe is None else observe.Writer


#: The C writer's class, or None: the pure-Python core, or no C writer built.
WRITER: Final[Any] = _writer_class()


def make_writer(
    players: int,
    history: int,
    reformation: bool,
    size: int,
    seat_size: int,
    pending_size: int,
    entry: int,
    phases: dict[str, int],
    actions: dict[str, int],
    verbs: dict[str, int],
    quiet: tuple[str, ...],
) -> Any:
    """The `observe` of a C writer of vectors of this layout (see `coup.envs.kernel.features`),
    or None where there is no writer. `quiet`: the phases with no action under way."""
    if WRITER is None:
        return None
    writer = WRITER(
        players,
        history,
        reformation,
        size,
        seat_size,
        table_size(reformation),
        pending_size,
        entry,
        dict(SLOT),
        phases,
        actions,
        verbs,
        {side: i for i, side in enumerate(ALLEGIANCES)},
        quiet,
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
