"""One table in memory: its seats, settings, chat and the game under way.

Lobby operations here are pure (no I/O): they check the request, change the model, and
raise `ProtocolError` (changing nothing) when the request is not allowed. The service
(`service.py`) persists the result and tells the connections.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from coup.rules import State
from coup.server import settings as table_settings
from coup.server.history_texts import HistoryTexts
from coup.server.messages import ChatLine, HandoffEntry, TimeoutEntry
from coup.server.names import alike, check_free
from coup.server.protocol import CHAT_KEEP, ProtocolError, RateLimit
from coup.server.remote_spectators import RemoteSpectators
from coup.server.sitters import FORMER_KEEP, Former, Seat, new_token, token_hash

WATCHING = -1  # the stored seat of a spectator's chat line


def chat_line(row: Any) -> ChatLine:
    """A stored chat row as the view shows it: a spectator's line has seat null and
    `watching` true."""
    seat = row["seat"]
    line: ChatLine = {"id": row["id"], "seat": seat, "name": row["name"], "text": row["text"],
                      "at": row["at"]}  # fmt: skip
    if seat is None or seat < 0:
        line["seat"] = None
        line["watching"] = True
    return line


def new_table_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits, 22 characters


@dataclass
class Deadline:
    kind: str  # "turn" | "reaction" | "away" | "bot"
    due_at: int  # ms
    seconds: int  # full length, for the page's progress bar
    since: int  # ms: when this seat was first needed in this decision


@dataclass(frozen=True)
class Mark:
    """Where a table's copy stood: version, game number, moves, timeouts (`bus_message.py`)."""

    version: int
    game: int
    seq: int
    timeouts: int


@dataclass
class GameRun:
    """The game under way (or the last one) at a table."""

    number: int
    state: State
    header: dict[str, Any]  # the record without moves; holds the secret seed
    members: list[str]  # member id by game seat
    moves: list[dict[str, Any]]  # the record's moves so far
    # The moves the clock played: {"index", "seat", "seq"} with `index` the history length
    # then and `seq` the move's place in `moves` (kept out of views and records).
    timeouts: list[dict[str, int]]
    changed_version: int  # version of the first view showing the current position
    # Where a bot took over a seat or gave it back: {"index", "seat", "reason"} with
    # `index` the history length then and reason "host" | "left" | "back" (stored with
    # the game: coup_handoffs).
    handoffs: list[HandoffEntry] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return len(self.moves)

    @property
    def seed(self) -> int:
        return int(self.header["seed"])

    @property
    def commitment(self) -> str:
        return str(self.header["commitment"])

    def seat_of(self, member: str | None) -> int | None:
        if member is None or member not in self.members:
            return None
        return self.members.index(member)

    def idle(self, seat: int | None) -> bool:
        """The clock played this game seat's last move: its player let a deadline pass
        and has not moved since."""
        if seat is None or not self.timeouts:  # no timeouts: nobody idle, nothing to scan
            return False
        last = next((i for i in range(self.seq - 1, -1, -1) if self.moves[i]["seat"] == seat), None)
        return last is not None and any(
            t["seat"] == seat and t.get("seq") == last for t in self.timeouts
        )

    def public_timeouts(self) -> list[TimeoutEntry]:
        """The timeouts as views and records show them: `index` and `seat`."""
        return [{"index": t["index"], "seat": t["seat"]} for t in self.timeouts]

    def record(self) -> dict[str, Any]:
        out = dict(self.header)
        out["moves"] = [dict(m) for m in self.moves]
        out["timeouts"] = self.public_timeouts()
        if self.state.over:
            out["winner"] = self.state.winner
        return out


@dataclass
class Table:
    id: str
    settings: dict[str, Any]
    seats: list[Seat | None]
    status: str = "lobby"  # "lobby" | "playing" | "over"
    version: int = 1
    games: int = 0
    last_winner: str | None = None
    run: GameRun | None = None
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_KEEP))
    deadlines: dict[int, Deadline] = field(default_factory=dict)
    connected: dict[str, int] = field(default_factory=dict)  # member -> open connections
    away_since: dict[str, int] = field(default_factory=dict)  # member -> ms
    remote_spectators: RemoteSpectators = field(
        default_factory=RemoteSpectators
    )  # the other processes' spectators
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Any] = field(default_factory=dict)  # game seat -> bot_moves.SeatBot
    # (game, seat, due ms) of a bot deadline -> its decision asked of the workers
    thinking: dict[tuple[int, int, int], asyncio.Task[Any]] = field(default_factory=dict)
    clock: asyncio.Task[None] | None = None
    touched: float = 0.0  # time.monotonic() of the last use, for evicting idle tables
    chat_limits: dict[str, RateLimit] = field(default_factory=dict)  # member -> bucket
    history_texts: HistoryTexts = field(
        default_factory=HistoryTexts
    )  # each viewer's history, encoded
    told: Mark | None = None  # where it stood when this process last told or heard the others
    former: list[Former] = field(default_factory=list)  # removed or left, oldest first

    # ---- lookups ------------------------------------------------------------------
    def seat_rows(self) -> list[dict[str, Any]]:
        taken = [s.row(i) for i, s in enumerate(self.seats) if s is not None]
        return taken + [f.row(k) for k, f in enumerate(self.former)]

    def former_of(self, member: str | None) -> Former | None:
        """The former player `member` (removed, or left), if they are one and hold no seat."""
        if member is None or self.seat_held(member) is not None:
            return None
        return next((f for f in self.former if f.member == member), None)

    def seat_of(self, member: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.member == member:
                return i
        return None

    def seat_held(self, member: str | None) -> int | None:
        """The seat `member` holds as a player: None for a player who left the game."""
        i = self.seat_of(member)
        if i is None:
            return None
        s = self.seats[i]
        return None if s is None or s.standin == "left" else i

    def holders(self) -> set[str]:
        """The members who hold a seat (their connections are player connections)."""
        return {s.member for s in self.seats if s is not None and s.standin != "left"}

    def member_by_token(self, token: str) -> str | None:
        """Whose token this is: a seat's, or a former player's (who then watches)."""
        digest = token_hash(token)
        for s in [*self.seats, *self.former]:
            if (
                s is not None
                and s.token_hash is not None
                and secrets.compare_digest(s.token_hash, digest)
            ):
                return s.member
        return None

    def seat(self, member: str | None) -> Seat | None:
        i = self.seat_of(member)
        return None if i is None else self.seats[i]

    def is_host(self, member: str | None) -> bool:
        s = self.seat(member)
        return s is not None and s.host

    def is_connected(self, seat: Seat) -> bool:
        """A bot, or a person with a connection open; never a player who left (their
        connection, if they still watch, is a spectator's)."""
        if seat.kind == "bot":
            return True
        return seat.standin != "left" and self.connected.get(seat.member, 0) > 0

    def is_stalled(self, seat: int) -> bool:
        """The seat's player is connected but let the grace and its clock pass without
        answering (`timers.py`): the host may hand the seat to a bot."""
        d = self.deadlines.get(seat)
        return self.playing and d is not None and d.kind == "stalled"

    def is_idle(self, seat: Seat) -> bool:
        """A person the clock had to play for in the running game (a deadline passed and
        the server moved for their seat) who has not moved since."""
        run = self.run
        return (
            self.playing and run is not None and seat.kind == "human"
            and run.idle(run.seat_of(seat.member))
        )  # fmt: skip

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    # ---- lobby operations (pure) ----------------------------------------------------
    def _not_playing(self) -> None:
        if self.playing:
            raise ProtocolError("game_running", "a game is running at this table", 409)

    def _index(self, seat: int) -> int:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                "bad_seat", f"seat {seat} is not at this table (0-{len(self.seats) - 1})"
            )
        return seat

    def _empty(self, seat: int) -> int:
        if self.seats[self._index(seat)] is not None:
            raise ProtocolError("seat_taken", f"seat {seat} is taken", 409)
        return seat

    def _taken(self, seat: int) -> Seat:
        s = self.seats[self._index(seat)]
        if s is None:
            raise ProtocolError("seat_empty", f"seat {seat} is empty", 409)
        return s

    def sit(
        self, name: str, seat: int | None, *, host: bool = False, device: str | None = None
    ) -> tuple[int, str]:
        """Seat a person; returns (seat, token). A person the host blocked (known by
        `device`) is refused, and so is everyone while the host locked the table."""
        self._not_playing()
        if device is not None and any(f.blocked and f.device == device for f in self.former):
            raise ProtocolError("blocked", "the host blocked you from this table", 403)
        if self.settings.get("locked") and not host:
            raise ProtocolError("table_locked", "the host locked this table", 403)
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise ProtocolError("table_full", "every seat is taken", 409)
            seat = free[0]
        self._empty(seat)
        check_free(name, (s.name for s in self.seats if s is not None))
        token = new_token()
        self.seats[seat] = Seat(
            secrets.token_hex(8), name, "human", None, token_hash(token), host, device=device
        )
        if device is not None:  # back at the table: no longer a former player
            self.former = [f for f in self.former if f.device != device]
        return seat, token

    def add_bot(self, seat: int, level: str | None, personality: str | None = None) -> None:
        self._not_playing()
        level = level or str(self.settings["bot_level"])
        if level not in table_settings.levels():
            raise ProtocolError("bad_level", f"no bot level {level[:16]!r}")
        if personality == "random":
            personality = None
        if personality is not None and personality not in table_settings.personalities():
            raise ProtocolError("bad_personality", f"no bot personality {personality[:16]!r}")
        self._empty(seat)
        used = [s.name for s in self.seats if s is not None]
        k = 1
        while any(alike(f"Bot {k}", name) for name in used):
            k += 1
        self.seats[seat] = Seat(
            secrets.token_hex(8), f"Bot {k}", "bot", level, personality=personality
        )

    def fill_bots(self, level: str | None, personality: str | None) -> None:
        """A bot in every empty seat (`level` and `personality` as for `add_bot`)."""
        self._not_playing()
        empty = [i for i, s in enumerate(self.seats) if s is None]
        if not empty:
            raise ProtocolError("table_full", "every seat is taken", 409)
        for i in empty:
            self.add_bot(i, level, personality)

    def remove(self, seat: int, block: bool = False) -> Seat:
        self._not_playing()
        s = self._taken(seat)
        if s.host:
            raise ProtocolError("host_stays", "the host cannot be removed")
        self.seats[seat] = None
        if s.kind == "human":
            self._forget(s, "removed", blocked=block)
        return s

    def block(self, index: int, blocked: bool) -> None:
        """The host blocks a former player from sitting again (or lets them)."""
        if not 0 <= index < len(self.former):
            raise ProtocolError("bad_seat", f"no former player {index}")
        self.former = list(self.former)
        self.former[index] = replace(self.former[index], blocked=blocked)

    def _forget(self, s: Seat, gone: str, *, blocked: bool = False) -> None:
        """Remember a person who no longer sits here (removed, or left)."""
        former = [f for f in self.former if f.member != s.member]
        former.append(Former(s.member, s.name, gone, s.token_hash, s.device, blocked))
        while len(former) > FORMER_KEEP:
            drop = next((f for f in former if not f.blocked), former[0])
            former.remove(drop)
        self.former = former

    def leave(self, member: str) -> None:
        """Give up a seat; during a game a bot plays it to the end (the seat is free at
        the next start) and the player's token stops working at once."""
        seat = self.seat_held(member)
        if seat is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        if self.is_host(member):
            raise ProtocolError("host_stays", "the host cannot leave the table")
        s = self.seats[seat]
        if s is not None:
            self._forget(s, "left")
        if self.playing and s is not None:
            level = s.level or str(self.settings["bot_level"])
            self.seats[seat] = replace(s, level=level, token_hash=None)
            self._handoff(seat, "left")
            return
        self.seats[seat] = None

    def hand_to_bot(self, seat: int) -> None:
        """The host lets a bot play an absent or idle player's seat until they return."""
        if not self.playing:
            raise ProtocolError("no_game_running", "no game is running at this table")
        s = self._taken(seat)
        if s.kind != "human":
            raise ProtocolError("bad_seat", f"seat {seat} is a bot")
        if s.host:
            raise ProtocolError("host_stays", "the host plays their own seat")
        if s.standin is not None:
            raise ProtocolError("bad_seat", f"a bot already plays seat {seat}")
        if self.is_connected(s) and not self.is_idle(s) and not self.is_stalled(seat):
            raise ProtocolError(
                "player_present",
                f"{s.name} is here and playing; only an absent, idle or stalled player's "
                "seat can go to a bot",
                409,
            )
        self.seats[seat] = replace(s, level=str(self.settings["bot_level"]))
        self._handoff(seat, "host")

    def take_back(self, member: str) -> None:
        """The player whose seat the host handed to a bot plays it again."""
        seat = self.seat_held(member)
        s = None if seat is None else self.seats[seat]
        if seat is None or s is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        if s.standin != "host":
            raise ProtocolError("no_standin", "no bot plays your seat")
        self.seats[seat] = replace(s, level=None)
        self._handoff(seat, "back")

    def _handoff(self, seat: int, reason: str) -> None:
        run = self.run
        if run is not None:
            index = len(run.state.view(None)["history"])
            run.handoffs = [*run.handoffs, {"index": index, "seat": seat, "reason": reason}]

    def move_seat(self, source: int, target: int) -> None:
        self._not_playing()
        s = self._taken(source)
        self._empty(target)
        self.seats[source], self.seats[target] = None, s

    def change_settings(self, patch: Any) -> None:
        if not (isinstance(patch, dict) and patch and set(patch) <= table_settings.ANY_TIME):
            self._not_playing()  # spectator chat and the lock may change during a game
        new = table_settings.merge(self.settings, patch)
        cap = int(new["seats"])
        taken = [s for s in self.seats if s is not None]
        if len(taken) > cap:
            raise ProtocolError(
                "bad_settings", f"{len(taken)} seats are taken; remove someone first"
            )
        if cap < len(self.seats) and any(s is not None for s in self.seats[cap:]):
            self.seats = [*taken, *([None] * (cap - len(taken)))]
        else:
            self.seats = (self.seats + [None] * cap)[:cap]
        self.settings = new

    def close_up(self) -> list[Seat]:
        """Renumber the taken seats 0..n-1 (at the start of a game); returns them."""
        taken = [s for s in self.seats if s is not None and s.standin != "left"]
        if len(taken) < 2:
            raise ProtocolError("not_enough_players", "a game needs at least 2 seats taken")
        cap = int(self.settings["seats"])
        self.seats = [*taken, *([None] * (cap - len(taken)))]
        return taken
