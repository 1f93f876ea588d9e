"""What one connection may see: the `view` message (docs/protocol.md, *The view*).

The `game` part is exactly the engine's `state.view(seat)`; the rest is public table
information. Nothing from the hidden state (deal, Court order, seed before the end,
tokens) is ever read here.

A move changes every seat's view, but of a view's history (most of its bytes, and most
of the engine's work building it) only the new entries: each viewer's history is kept
encoded (`history_texts.HistoryTexts`), and the engine builds the rest of the view on a copy of the
state without its history; the encoded history is put back in its place. The text is
the same as `dumps(state.view(seat))`, byte for byte (tests/server/test_server_views.py).
"""

from __future__ import annotations

from collections.abc import Collection

from coup.server.hub import Connection
from coup.server.messages import DeadlineInfo, TableInfo, ViewMessage, You
from coup.server.protocol import dumps, now_ms
from coup.server.table import Table
from coup.server.timers import HIDDEN
from coup.server.wire import text_frame


def public_deadline(table: Table) -> DeadlineInfo | None:
    """The earliest clock that people see (not bots' due times, nor a connected
    player's hidden grace)."""
    shown = [(d, s) for s, d in table.deadlines.items() if d.kind not in HIDDEN]
    if not shown:
        return None
    first = min(d.due_at for d, _ in shown)
    group = sorted(s for d, s in shown if d.due_at == first)
    lead = next(d for d, s in shown if d.due_at == first)
    return {"at": first, "seconds": lead.seconds, "kind": lead.kind, "seats": group}


def table_info(table: Table, spectators: int = 0, watching: Collection[str] = ()) -> TableInfo:
    run = table.run
    over = run is not None and bool(run.state.over)
    return {
        "id": table.id,
        "status": table.status,
        "settings": dict(table.settings),
        "seats": [
            None
            if s is None
            else {
                "seat": i,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "personality": s.personality if s.kind == "bot" else None,
                "host": s.host,
                "connected": table.is_connected(s),
                "idle": table.is_idle(s),
                "standin": s.standin,
                "stalled": table.is_stalled(i),
            }
            for i, s in enumerate(table.seats)
        ],
        "spectators": spectators,
        "watching": sorted(watching)[:WATCHING_SHOWN],
        "former": [{"name": f.name, "gone": f.gone, "blocked": f.blocked} for f in table.former],
        "game": table.games,
        "first": None if run is None else run.header["settings"].get("first"),
        "commitment": None if run is None else run.commitment,
        "seed": str(run.seed) if run is not None and over else None,
        "winner": run.state.winner if run is not None and over else None,
        "deadline": public_deadline(table),
        "timeouts": [] if run is None else run.public_timeouts(),
        "handoffs": [] if run is None else [h.copy() for h in run.handoffs],
    }


WATCHING_SHOWN = 20  # names of spectators a view lists (the rest are counted)


def watching_names(
    table: Table, conns: Collection[Connection], seated: set[str] | None = None
) -> list[str]:
    """The names of this process's spectators of the table who gave one (a former
    player under their name at the table), each once."""
    if seated is None:
        seated = table.holders()
    names: set[str] = set()
    for conn in conns:
        if conn.member in seated:
            continue
        if conn.member is None:
            if conn.name:
                names.add(conn.name)
            continue
        former = table.former_of(conn.member)
        name = former.name if former is not None else conn.name
        if name:
            names.add(name)
    return sorted(names)


def you_of(table: Table, member: str | None) -> You:
    """The `you` part of a view: the seat held, or a former player told so."""
    seat = table.seat_held(member)
    s = None if seat is None else table.seats[seat]
    former = None if seat is not None or not table.former else table.former_of(member)
    return {
        "seat": seat,
        "host": bool(s is not None and s.host),
        "name": None if s is None else s.name,
        "gone": None if former is None else former.gone,
        "blocked": former is not None and former.blocked,
    }


def view_message(
    table: Table,
    member: str | None,
    *,
    spectators: int = 0,
    info: TableInfo | None = None,
    watching: Collection[str] = (),
) -> ViewMessage:
    """The full view for one connection (`member` None = spectator)."""
    seat = table.seat_held(member)
    run = table.run
    game = None
    if run is not None:
        game = run.state.view(None if seat is None else run.seat_of(member))
    return {
        "type": "view",
        "version": table.version,
        "now": now_ms(),
        "you": you_of(table, member),
        "table": info if info is not None else table_info(table, spectators, watching),
        "game": game,
        "chat": [c.copy() for c in table.chat],
    }


EMPTY = ',"history":[],"over":'  # where the engine's view has its history, when empty


def game_texts(table: Table, seats: set[int | None]) -> dict[int | None, str]:
    """`dumps(state.view(seat))` of the table's game for each game seat (None: a
    spectator), the history from `table.history_texts`."""
    run = table.run
    if run is None:
        return dict.fromkeys(seats, "null")
    state = run.state
    bare = state.clone()
    bare.history = []
    out: dict[int | None, str] = {}
    for seat in seats:
        text = dumps(bare.view(seat))
        at = text.find(EMPTY)
        if at < 0:  # pragma: no cover - an engine whose view changed shape
            out[seat] = dumps(state.view(seat))
            continue
        history = table.history_texts.text(state.history, seat)
        rest = text[at + len(EMPTY) :]
        out[seat] = f'{text[:at]},"history":{history},"over":{rest}'
    return out


def view_texts(
    table: Table, members: list[str | None], spectators: int, watching: Collection[str] = ()
) -> dict[str | None, str]:
    """The encoded `view` message for each member (None = spectator).

    The parts every connection shares (table info, chat) are encoded once; only `you`
    and the engine's per-seat `game` view are encoded per member.
    """
    info = dumps(table_info(table, spectators, watching))
    chat = dumps([dict(c) for c in table.chat])
    head = f'{{"type":"view","version":{table.version},"now":{now_ms()},"you":'
    run = table.run
    yours: dict[str | None, tuple[str, int | None]] = {}
    for member in members:
        if member in yours:
            continue
        seat = table.seat_held(member)
        you = you_of(table, member)
        gseat = None if run is None or seat is None else run.seat_of(member)
        yours[member] = (dumps(you), gseat)
    games = game_texts(table, {gseat for _, gseat in yours.values()})
    out: dict[str | None, str] = {}
    for member, (you_text, gseat) in yours.items():
        game = games[gseat]
        out[member] = f'{head}{you_text},"table":{info},"game":{game},"chat":{chat}}}'
    return out


def show(table: Table, conns: Collection[Connection], spectators: int) -> None:
    """Send each of the table's connections here its view (a seat's, or a spectator's);
    each distinct view is encoded and framed once."""
    if not conns:
        return
    seated = table.holders()
    former = {f.member for f in table.former}
    keys = {
        conn: (conn.member if conn.member in seated or conn.member in former else None)
        for conn in conns
    }
    watching = watching_names(table, conns, seated)
    texts = view_texts(table, list(keys.values()), spectators, watching)
    frames: dict[str | None, bytes] = {}
    for conn, key in keys.items():
        frame = frames.get(key)
        if frame is None:
            frame = frames[key] = text_frame(texts[key].encode())
        conn.send_view(texts[key], frame)
