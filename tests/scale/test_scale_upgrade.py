"""A rolling upgrade (docs/deploy.md, *Rolling restart and upgrade*): schema changes are
expand-then-contract, so the new version runs beside the old on one database.

- The previous release, from this repository's history (the newest commit whose schema
  is the one before this one's), runs beside this code: this code upgrades the schema
  while the old process serves, and one game is played with its seats on both.
- This code starts on a database a newer Coup has written (a column and a table more,
  `coup_schema.version` one higher) when that Coup says it may (`oldest`), and refuses
  with one clear line when it says it may not. A database written by a newer Coup was
  refused outright: an old process could not restart once a new one had started.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import coup
from coup.store import migrate
from tests.scale.conftest import REDIS, _fresh_database
from tools.load.client import SeatClient, create_table, join_table, play_randomly
from tools.load.fleet import admin_sql, fresh_channel
from tools.load.process import ServerProcess

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[2]


def _previous_release(folder: Path) -> Path | None:
    """The newest commit of `main` (else of this branch) whose schema is `SCHEMA_VERSION -
    1`, its `coup/` in `folder`."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    commits: list[str] = []
    for ref in ("main", "origin/main", "HEAD"):  # the released line first, not a branch's
        found = subprocess.run(
            ["git", "log", "--first-parent", "--format=%H", "-n", "200", ref, "--"], cwd=ROOT,
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        commits += found.stdout.split() if found.returncode == 0 else []
    for commit in commits:
        text = subprocess.run(
            ["git", "show", f"{commit}:coup/store/migrate.py"], cwd=ROOT,
            capture_output=True, text=True, check=False,
        ).stdout  # fmt: skip
        version = re.search(r"^SCHEMA_VERSION = (\d+)", text, re.MULTILINE)
        if version and int(version.group(1)) == migrate.SCHEMA_VERSION - 1:
            tree = subprocess.run(
                ["git", "archive", "--format=tar", commit, "coup"], cwd=ROOT,
                capture_output=True, check=True,
            ).stdout  # fmt: skip
            with tarfile.open(fileobj=io.BytesIO(tree)) as tar:
                tar.extractall(folder, filter="data")
            return folder
    return None


class OldServer(ServerProcess):
    """`coup serve` of the previous release (its pure-Python modules)."""

    def __init__(self, tree: Path, *args: str, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.tree = tree

    def spawn(self) -> subprocess.Popen[bytes]:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                self.command(), cwd=self.tree, stdout=subprocess.DEVNULL, stderr=log,
                env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(self.tree)},
            )  # fmt: skip
        return self.proc


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[str]:
    yield from _fresh_database()


async def test_the_previous_release_runs_beside_this_one(fresh: str, tmp_path: Path) -> None:
    tree = _previous_release(tmp_path / "previous")
    if tree is None:
        pytest.skip("no git history with the previous schema here")
    bus = fresh_channel(REDIS, "coup-upgrade")
    old = OldServer(tree, fresh, "--no-address-limits", "--bot-delay", "0", bus=bus,
                    log=tmp_path / "old.log").start()  # fmt: skip
    new = ServerProcess(fresh, "--no-address-limits", "--bot-delay", "0", bus=bus,
                        log=tmp_path / "new.log")  # fmt: skip
    try:
        new.start()  # upgrades the schema under the running old process
        made = await create_table(old.base, "Old", {"seats": 2, "draft": False})
        guest = await join_table(new.base, made["table"], "New")
        clients = [
            await SeatClient(old.base, made["table"], made["token"]).connect(),
            await SeatClient(new.base, made["table"], guest["token"]).connect(),
        ]
        await clients[0].wait(lambda v: v["table"]["seats"][1] is not None)
        await clients[0].send("start")
        rng = random.Random(5)
        import asyncio

        finals = await asyncio.gather(*(play_randomly(c, rng, timeout=60) for c in clients))
        assert len({v["game"]["winner"] for v in finals}) == 1
        for c in clients:
            await c.close()
        assert old.alive() and new.alive()
    finally:
        new.stop()
        old.stop()
    for server in (old, new):
        assert not server.problems(), server.log.read_text(errors="replace")[-3000:]


def test_this_code_runs_on_a_database_a_newer_one_expanded(fresh: str, tmp_path: Path) -> None:
    first = ServerProcess(fresh, "--no-address-limits", log=tmp_path / "first.log").start()
    first.stop()
    newer, this = migrate.SCHEMA_VERSION + 1, migrate.SCHEMA_VERSION
    for statement in (  # what a newer Coup's expand step might do
        "ALTER TABLE coup_tables ADD COLUMN future_note TEXT",
        "CREATE TABLE coup_future (id INTEGER PRIMARY KEY)",
        f"UPDATE coup_schema SET version = {newer}, oldest = {this}",
    ):
        admin_sql(fresh, statement)
    server = ServerProcess(fresh, "--no-address-limits", log=tmp_path / "again.log").start()
    try:
        import httpx

        assert httpx.post(server.base + "/api/tables", json={"name": "H"}).status_code == 201
    finally:
        server.stop()
    assert not server.problems()
    admin_sql(fresh, f"UPDATE coup_schema SET oldest = {newer}")  # a contract: not for us
    refused = ServerProcess(fresh, "--no-address-limits", log=tmp_path / "refused.log")
    with pytest.raises(RuntimeError, match="coup serve exited"):
        refused.start()
    text = refused.log.read_text(errors="replace")
    assert f"schema version {newer}" in text and "upgrade Coup" in text
    assert "Traceback" not in text, text
    assert coup  # (the package under test)
