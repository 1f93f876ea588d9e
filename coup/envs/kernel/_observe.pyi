"""Typing for the C writer of observation vectors (``coup/envs/kernel/_observe.c``)."""

from collections.abc import Iterable
from typing import Any

#: SHA-256 (hex) of the C source this module was built from
SOURCE: str

class Writer:
    size: int
    def __init__(
        self,
        players: int,
        history: int,
        reformation: bool,
        size: int,
        offsets: dict[str, tuple[int, int]],
        slots: dict[str, int],
        phases: dict[str, int],
        actions: dict[str, int],
        verbs: dict[str, int],
        allegiances: dict[str, int],
        quiet: Iterable[str],
        private: Iterable[str],
    ) -> None: ...
    def observe(self, *fields: Any) -> None: ...
