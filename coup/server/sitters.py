"""Who sits at a table: a seat's sitter (a person or a bot, and a bot standing in for a
person), a former player (removed, or left; maybe blocked), and their tokens, kept only as
their SHA-256."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

FORMER_KEEP = 100  # former players a table remembers (the oldest unblocked forgotten first)


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits, 43 characters


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    member: str  # stable id of whoever sits here (survives seat moves)
    name: str
    kind: str  # "human" | "bot"
    level: str | None = None  # a bot's level; stored as "level:personality" when chosen
    token_hash: str | None = None
    host: bool = False
    personality: str | None = None  # a bot's personality; None: a random one each game
    device: str | None = None  # the browser the person sat down from (join's `device`)

    def __post_init__(self) -> None:
        if self.level and ":" in self.level:
            self.level, _, self.personality = self.level.partition(":")

    @property
    def standin(self) -> str | None:
        """A bot plays this person's seat (with `level`): "host" when the host handed it
        over (the player may take it back) or "left" when the player left the game (no
        token any more; the seat is free at the next start)."""
        if self.kind != "human" or self.level is None:
            return None
        return "host" if self.token_hash is not None else "left"

    def row(self, seat: int) -> dict[str, Any]:
        level = self.level
        if level and self.personality:
            level = f"{level}:{self.personality}"
        return {
            "seat": seat,
            "member": self.member,
            "name": self.name,
            "kind": self.kind,
            "level": level,
            "token_hash": self.token_hash,
            "host": self.host,
            "device": self.device,
            "gone": None,
            "blocked": None,
        }


@dataclass
class Former:
    """A person who sat at the table and was removed by the host or left: their old
    token still opens a connection (it watches, and is told), and the host may block
    them (by their device) from sitting again."""

    member: str
    name: str
    gone: str  # "removed" | "left"
    token_hash: str | None = None
    device: str | None = None
    blocked: bool = False

    def row(self, k: int) -> dict[str, Any]:
        """Stored with the seats, at seat number -1, -2, ... (`k` = 0, 1, ...)."""
        return {
            "seat": -1 - k, "member": self.member, "name": self.name, "kind": "human",
            "level": None, "token_hash": self.token_hash, "host": False,
            "device": self.device, "gone": self.gone, "blocked": self.blocked,
        }  # fmt: skip
