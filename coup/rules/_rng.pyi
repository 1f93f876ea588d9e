"""Typing for the game's generator in C (``coup/rules/_rng.c``)."""

#: SHA-256 (hex) of the C source this module was built from
SOURCE: str

def shuffle(state: int, items: list[object], /) -> int: ...
