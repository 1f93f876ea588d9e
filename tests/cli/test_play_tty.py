"""`coup play` on a terminal (a pseudo-terminal): it asks for what the options left out."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


class Terminal:
    def __init__(self, args: list[str]) -> None:
        self.fd, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "50"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "coup", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 60) -> str:
        """Read until `text` appears (ANSI codes removed); return everything read."""
        end = time.monotonic() + timeout
        while text not in self.seen:
            left = end - time.monotonic()
            assert left > 0, f"{text!r} never appeared; screen:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    assert text in self.seen, f"{text!r} never appeared:\n{self.seen[-2000:]}"
                self.seen += ANSI.sub("", chunk.decode("utf-8", "replace"))
        return self.seen

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\r").encode())

    def close(self) -> int:
        try:
            code = self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.fd)
        return code


def test_play_asks_for_players_and_variant_on_a_terminal() -> None:
    term = Terminal(["--bots", "random", "--seed", "6", "--name", "Mahshid"])
    try:
        term.expect("How many players (2–10)? (4):")
        term.send("eleven")
        term.expect("'eleven': a table seats 2 to 10 players")
        term.send("3")
        term.expect("Variant (ambassador/inquisitor)? (ambassador):")
        term.send("inquisitor")
        screen = term.expect("Your move")
        assert "Mahshid (you)" in screen
        assert "Inquisitor game" in screen
        term.send("quit")
        term.expect("bye")
    finally:
        code = term.close()
    assert code == 0
