"""What `coup play` shows: the table, the claim under way, the log and the numbered moves.

Everything here is drawn from one seat's view (`State.view(seat)`), never from the state
itself, so the screen cannot show a bot's hidden cards while the game is on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from coup.rules.shapes import HistoryEntry, SeatView

LOG_LINES = 14


def title(card: str) -> str:
    return card.capitalize()


def cards_text(cards: Sequence[str]) -> str:
    return ", ".join(title(c) for c in cards) if cards else "—"


def narrate(history: list[HistoryEntry], names: Sequence[str], variant: str) -> list[str]:
    """The log in words: the engine's narrator if present, else a plain fallback."""
    try:
        from coup.rules import narrate as engine_narrate

        lines: list[str] = engine_narrate.describe(history, names, variant)
        return lines
    except Exception:  # noqa: BLE001 - the narrator is optional; it must not break a game
        return [_plain(e, names) for e in history]


def grouped_log(
    history: list[HistoryEntry], names: Sequence[str], variant: str, seen: int
) -> tuple[list[str], int]:
    """(lines, fresh): the log in words with runs of passes told in one line ("Ada, Chen
    and Dara let it pass."); `fresh` counts the lines with entries from `seen` on."""
    sentences = narrate(history, names, variant)
    lines: list[str] = []
    fresh = 0
    i = 0
    while i < len(sentences):
        j = i + 1
        rest = _rest(sentences[i], history[i], names) if _is_pass(history[i]) else None
        if rest is not None:
            while (
                j < len(sentences)
                and _is_pass(history[j])
                and _rest(sentences[j], history[j], names) == rest
            ):
                j += 1
        if rest is not None and j - i > 1:
            who = [names[e["seat"]] for e in history[i:j]]
            verb = rest.replace("lets ", "let ", 1)
            lines.append(f"{', '.join(who[:-1])} and {who[-1]} {verb}")
        else:
            lines.append(sentences[i])
        if j > seen:
            fresh += 1
        i = j
    return lines, fresh


def _is_pass(entry: HistoryEntry) -> bool:
    return entry.get("move") == "pass" and not entry.get("forced")


def _rest(sentence: str, entry: HistoryEntry, names: Sequence[str]) -> str | None:
    name = names[entry["seat"]] + " "
    return sentence[len(name) :] if sentence.startswith(name) else None


def _plain(entry: HistoryEntry, names: Sequence[str]) -> str:
    seat = entry.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
    line = f"{who}: {entry.get('move')}"
    if entry.get("out"):
        line += " (out)"
    return line


# ---------------------------------------------------------------- describing moves
def describe_move(move: str, view: SeatView, names: Sequence[str]) -> str:
    """A short explanation of one of the viewer's legal moves, in Coup's words."""
    verb, _, arg = move.partition(" ")
    variant = view["settings"]["characters"]
    pending: Mapping[str, Any] = view["pending"] or {}

    def name(seat_text: str | int | None) -> str:
        try:
            return names[int(seat_text)]  # type: ignore[arg-type]
        except (TypeError, ValueError, IndexError):
            return f"seat {seat_text}"

    if verb == "income":
        return "take 1 coin"
    if verb == "foreign_aid":
        return "take 2 coins (anyone may block as Duke)"
    if verb == "coup":
        return f"pay 7: {name(arg)} loses an influence"
    if verb == "tax":
        return "claim Duke: take 3 coins"
    if verb == "assassinate":
        return f"claim Assassin, pay 3: {name(arg)} loses an influence"
    if verb == "steal":
        return f"claim Captain: take 2 coins from {name(arg)}"
    if verb == "exchange":
        if variant == "inquisitor":
            return "claim Inquisitor: draw 1 card, you may swap it for one of yours"
        return "claim Ambassador: draw 2 cards, keep the best"
    if verb == "examine":
        return f"claim Inquisitor: see one of {name(arg)}'s cards"
    if verb == "pass":
        return "let it stand"
    if verb == "challenge":
        block = pending.get("block")
        if view["phase"] == "challenge_block" and block:
            return f"say {name(block['seat'])} has no {title(block['claim'])}"
        return f"say {name(pending.get('actor'))} has no {title(pending.get('claim') or '')}"
    if verb == "block":
        return f"claim {title(arg)} to block it"
    if verb == "reveal":
        return f"show your {title(arg)}: the challenger loses an influence"
    if verb == "lose":
        if view["phase"] == "prove":
            return f"do not prove it: turn your {title(arg)} face up"
        return f"turn your {title(arg)} face up"
    if verb == "keep":
        return "keep " + " and ".join(title(c) for c in arg.split())
    if verb == "show":
        return f"show your {title(arg)} to {name(pending.get('actor'))}"
    if verb == "return":
        return "give the card back"
    if verb == "swap":
        return f"make {name(pending.get('target'))} swap it for a new card"
    if verb == "draft":
        return f"take {title(arg)} as your second card"
    return move


def describe_pending(view: SeatView, names: Sequence[str]) -> str:
    """One line: whose move it is and the claim under way."""
    phase = view["phase"]
    winner = view["winner"]
    if phase == "over" and winner is not None:  # a game over has a winner
        return f"The game is over: {names[winner]} wins."
    me = view["seat"]
    waiting = ", ".join("you" if s == me else names[s] for s in view["waiting"]) or "nobody"
    if phase == "draft":
        return f"Draft: each player picks a second card. Waiting for {waiting}."
    if phase == "action":
        if view["turn"] == me:
            return "Your turn: choose an action."
        return f"{names[view['turn']]}'s turn: choose an action."
    p: Mapping[str, Any] = view["pending"] or {}
    actor = names[p["actor"]] if p.get("actor") is not None else "?"
    target = names[p["target"]] if p.get("target") is not None else "?"
    action = _PENDING.get(str(p.get("action")), str(p.get("action"))).format(target=target)
    line = f"{actor} {action}"
    if p.get("claim"):
        line += f" (claims {title(p['claim'])})"
    if p.get("block"):
        line += f"; {names[p['block']['seat']]} blocks as {title(p['block']['claim'])}"
    doing = {
        "react": "challenge, block or pass?",
        "block": "block or pass?",
        "challenge_block": "challenge the block or pass?",
        "prove": "prove the claim?",
        "lose": "an influence must be lost.",
        "exchange": "choosing the cards to keep.",
        "show": "a card must be shown.",
        "examine": "return or swap the card?",
    }.get(phase, phase)
    if phase == "react":
        blockable = p.get("action") in ("foreign_aid", "steal", "assassinate")
        if not p.get("claim"):
            doing = "block or pass?"
        elif not blockable:
            doing = "challenge or pass?"
    if phase == "lose" and p.get("loser") is not None:
        loser = p["loser"]
        doing = "you must lose an influence." if loser == me else f"{names[loser]} loses one."
    if phase == "prove" and p.get("challenger") is not None:
        doing = f"{names[p['challenger']]} challenges; prove the claim?"
    return f"{line}. Now: {doing} Waiting for {waiting}."


_PENDING = {
    "foreign_aid": "takes foreign aid",
    "tax": "takes tax",
    "steal": "steals from {target}",
    "assassinate": "assassinates {target}",
    "coup": "launches a coup against {target}",
    "exchange": "exchanges",
    "examine": "examines {target}",
}


# ---------------------------------------------------------------- the screen
def table_of_players(view: SeatView, names: Sequence[str]) -> Table:
    me = view["seat"]
    over = view["over"]
    grid = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    for column, justify in (
        ("", "left"),
        ("seat", "right"),
        ("player", "left"),
        ("coins", "right"),
        ("face down", "left"),
        ("face up", "left"),
        ("state", "left"),
    ):
        grid.add_column(column, justify=justify)  # type: ignore[arg-type]
    for p in view["players"]:
        seat = p["seat"]
        marker = "▶" if (not over and seat == view["turn"]) else ""
        name = names[seat] + (" (you)" if seat == me else "")
        if p["cards"] is not None:
            down = cards_text(p["cards"])
        else:
            down = " ".join(["▮"] * p["influence"]) or "—"
        if over and seat == view["winner"]:
            state = "[bold green]winner[/]"
        elif p["alive"]:
            state = "[green]alive[/]"
        else:
            state = "[red]out[/]"
        style = "bold" if seat == me else ""
        grid.add_row(
            marker,
            str(seat),
            Text(name, style=style),
            str(p["coins"]),
            down,
            cards_text(p["revealed"]),
            state,
        )
    return grid


def screen(view: SeatView, names: Sequence[str], log: list[str], fresh: int = 0) -> Panel:
    """The whole table; the last `fresh` log lines (new since the viewer's last move) are
    always shown, in bold."""
    variant = view["settings"]["characters"]
    head = Text(
        f"Treasury {view['treasury']} coins · Court {view['court']} cards · {title(variant)} game",
        style="cyan",
    )
    parts: list[Any] = [head, Text(""), table_of_players(view, names), Text("")]
    private = view.get("private") or {}
    if "drawn" in private:
        parts.append(Text(f"You drew: {cards_text(private['drawn'])}", style="yellow"))
    if "shown" in private:
        shown = private["shown"]
        parts.append(
            Text(f"Shown: {names[shown['seat']]}'s {title(shown['card'])}", style="yellow")
        )
    known = view.get("known") or {}
    if known.get("court"):
        parts.append(Text(f"You know the Court holds: {cards_text(known['court'])}", style="dim"))
    for seat, cards in (known.get("hands") or {}).items():
        parts.append(Text(f"You know {names[int(seat)]} holds: {cards_text(cards)}", style="dim"))
    parts.append(Text(describe_pending(view, names), style="bold"))
    if log:
        shown_log = log[-max(LOG_LINES, fresh) :]
        body = Text()
        old = len(shown_log) - fresh
        for i, line in enumerate(shown_log):
            body.append(line + ("\n" if i < len(shown_log) - 1 else ""), "bold" if i >= old else "")
        skipped = len(log) - len(shown_log)
        label = f"log (last {len(shown_log)} of {len(log)})" if skipped else "log"
        parts.append(Panel(body, title=label, title_align="left", border_style="dim"))
    return Panel(Group(*parts), title="Coup", title_align="left")


def moves_menu(view: SeatView, names: Sequence[str]) -> Table:
    menu = Table(box=None, show_header=False, pad_edge=False)
    menu.add_column(justify="right", style="bold")
    menu.add_column()
    menu.add_column(style="dim")
    for i, move in enumerate(view["legal"], 1):
        menu.add_row(f"{i}.", move, describe_move(move, view, names))
    return menu


def final_screen(console: Console, view: SeatView, names: Sequence[str]) -> None:
    """The winner and every card, from the (game over) view, which shows all hands."""
    winner = view["winner"]
    me = view["seat"]
    headline = (
        "You win!" if winner == me else f"{'Nobody' if winner is None else names[winner]} wins."
    )
    console.print(Text(headline, style="bold green" if winner == me else "bold"))
    cards = Table(title="All cards", title_justify="left")
    cards.add_column("seat", justify="right")
    cards.add_column("player")
    cards.add_column("face down")
    cards.add_column("face up")
    cards.add_column("coins", justify="right")
    for p in view["players"]:
        seat = p["seat"]
        cards.add_row(
            str(seat),
            names[seat] + (" (you)" if seat == me else ""),
            cards_text(p["cards"] or []),
            cards_text(p["revealed"]),
            str(p["coins"]),
        )
    console.print(cards)
