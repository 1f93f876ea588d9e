"""Running it for real (docs/deploy.md): the URLs people write for the database and the
bus, passwords kept out of sight, settings from a file, one log line per event, metrics
in Prometheus's format, a graceful stop (1001, no noise from the workers), a dead
process's row gone after 10 s, `coup backup`, and the page's nginx block and systemd
units checked by nginx and systemd themselves."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select
from starlette.requests import Request

from coup import bus as bus_module
from coup.cli import backup, logs
from coup.cli.serve import read_env_file
from coup.server.metrics import Metrics
from coup.store import open_store, schema, urls
from coup.store import processes as db
from coup.store.sql import SqlStore
from tests.scale import nginx_site
from tools.load.client import SeatClient, create_table, join_table
from tools.load.fleet import drop_database, make_database
from tools.load.process import ServerProcess

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
POSTGRES = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


# ---- the database's and the bus's URLs ---------------------------------------------------
def test_libpq_parameters_are_translated_for_asyncpg() -> None:
    url, kwargs = urls.for_asyncpg(
        "postgresql://coup:pw@db.internal:5432/coup?sslmode=verify-full&connect_timeout=5"
    )
    assert url == "postgresql+asyncpg://coup:pw@db.internal:5432/coup?ssl=verify-full"
    assert kwargs == {"timeout": 5.0}
    assert urls.for_asyncpg("postgres://h/d")[1] == {"timeout": urls.CONNECT_TIMEOUT}
    for bad in ("sslmode=sometimes", "connect_timeout=soon", "sslrootcert=/x"):
        with pytest.raises(ValueError):
            urls.for_asyncpg(f"postgresql://h/d?{bad}")


async def test_a_postgresql_url_with_sslmode_opens() -> None:
    """`?sslmode=...` stopped the start with a TypeError (asyncpg takes `ssl`)."""
    name, url = await asyncio.to_thread(make_database, POSTGRES, "coup_urls")  # not `test`'s
    try:
        store = await open_store(f"{url}?sslmode=disable&connect_timeout=5")
        await store.ping()
        await store.close()
    finally:
        await asyncio.to_thread(drop_database, POSTGRES, name)


def test_passwords_are_shown_as_stars() -> None:
    assert urls.shown("postgresql://coup:s3cret@db/coup") == "postgresql://coup:***@db/coup"
    assert urls.shown("rediss://:s3cret@redis:6380/0") == "rediss://:***@redis:6380/0"
    assert urls.shown("sqlite:///coup.db") == "sqlite:///coup.db"


def test_rediss_is_a_bus_over_tls() -> None:
    found = bus_module.connect("rediss://:pw@127.0.0.1:6390/0?channel=site")
    address = found._address  # type: ignore[attr-defined]
    assert address.tls and address.port == 6390 and address.auth is not None


def test_settings_come_from_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / "coup.env"
    env.write_text(
        "# the site\nCOUP_DB=postgresql://coup:pw@db/coup\nexport COUP_BUS='redis://r:6379/0'\n"
    )
    for name in ("COUP_DB", "COUP_BUS"):  # set, then unset: undone at the end either way
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setenv("COUP_PUBLIC_URL", "https://set.example")
    read_env_file(["--port", "8001", "--env-file", str(env)])
    assert os.environ["COUP_DB"] == "postgresql://coup:pw@db/coup"
    assert os.environ["COUP_BUS"] == "redis://r:6379/0"
    env.write_text("COUP_PUBLIC_URL=https://file.example\nnot a setting\n")
    with pytest.raises(SystemExit, match=":2: not KEY=VALUE"):
        read_env_file([f"--env-file={env}"])
    assert os.environ["COUP_PUBLIC_URL"] == "https://set.example"  # the environment wins


def test_the_startup_line_hides_the_password(tmp_path: Path) -> None:
    """The password was printed on the startup line (and in `ps` when given as --db)."""
    env = tmp_path / "coup.env"
    name, fresh = make_database(POSTGRES, "coup_line")  # not `test`'s: this one is upgraded
    url = fresh.replace("postgres@", "postgres:s3cret@", 1)
    env.write_text(f"COUP_DB={url}\n")
    server = ServerProcess("ignored", log=tmp_path / "server.log")
    command = [a for a in server.command() if a not in ("--db", "ignored")]
    proc = subprocess.Popen(
        [*command, "--env-file", str(env)], stdout=subprocess.PIPE, text=True,
        stderr=subprocess.DEVNULL, env={k: v for k, v in os.environ.items() if k != "COUP_DB"},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(20)
        drop_database(POSTGRES, name)
    assert "s3cret" not in line and "postgres:***@" in line, line
    assert "s3cret" not in " ".join(command)


# ---- logs -------------------------------------------------------------------------------
def test_json_logs_are_one_line_per_event(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    kept, level = list(root.handlers), root.level
    try:
        logs.configure("json")
        try:
            raise RuntimeError("boom\nsecond line")
        except RuntimeError:
            logging.getLogger("coup.server").exception("a request failed")
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in kept:
            root.addHandler(h)
        root.setLevel(level)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    event = json.loads(lines[0])
    assert event["level"] == "error" and event["logger"] == "coup.server"
    assert event["message"] == "a request failed" and "RuntimeError: boom" in event["exception"]


# ---- metrics ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("ops") / "coup.db"
    proc = ServerProcess(
        f"sqlite:///{db}", "--bot-delay", "0", "--no-address-limits", log=db.parent / "s.log"
    ).start()
    yield proc
    proc.stop()


async def _to_move(clients: list[SeatClient], after: int) -> tuple[SeatClient, dict[str, Any]]:
    """The client with a decision in a view newer than version `after`, and that view."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for c in clients:
            v = c.view
            if v and v["version"] > after and v["game"] and v["game"]["legal"]:
                return c, v
        await asyncio.sleep(0.01)
    raise AssertionError(f"no decision after version {after}")


async def _a_game(base: str) -> list[SeatClient]:
    made = await create_table(base, "Host", {"seats": 2, "draft": False})
    other = await join_table(base, made["table"], "Guest")
    clients = [
        await SeatClient(base, made["table"], made["token"]).connect(),
        await SeatClient(base, made["table"], other["token"]).connect(),
    ]
    await clients[0].wait(lambda v: v["you"]["host"])
    await clients[0].send("start")
    after = 0
    for _ in range(3):  # three moves, whoever's they are: each on a view newer than the last
        client, view = await _to_move(clients, after)
        await client.send("move", move=view["game"]["legal"][0], version=view["version"])
        after = view["version"]
        await client.wait(lambda v, was=after: v["version"] > was)  # the move was played
    return clients


async def test_metrics_scrape_with_prometheus_clients_parser(plain_server: ServerProcess) -> None:
    clients = await _a_game(plain_server.base)
    try:
        async with httpx.AsyncClient() as http:
            r = await http.get(plain_server.base + "/metrics")
    finally:
        for c in clients:
            await c.close()
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }
    value = {name: v for (name, labels), v in samples.items() if not labels}
    assert value["coup_moves_total"] >= 3
    assert value["coup_move_seconds_count"] == value["coup_moves_total"]
    assert value["coup_tables"] >= 1 and value["coup_connections"] == 2
    for name in ("coup_bot_decisions_queued", "coup_coach_queued", "coup_bot_answered_here"):
        assert name in value
    assert ("coup_backend_errors_total", (("backend", "store"),)) in samples
    assert ("coup_rate_limited_total", (("door", "post"),)) in samples


async def test_metrics_answer_only_the_allowed_addresses() -> None:
    metrics = Metrics("10.0.0.0/8")
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/metrics",
        "headers": [],
        "query_string": b"",
    }
    refused = await metrics.answer(Request({**scope, "client": ("127.0.0.1", 5)}))
    allowed = await metrics.answer(Request({**scope, "client": ("10.1.2.3", 5)}))
    assert refused.status_code == 403 and allowed.status_code == 200


# ---- a graceful stop --------------------------------------------------------------------
async def test_sigterm_closes_sockets_with_1001_and_the_workers_stay_quiet(
    tmp_path: Path,
) -> None:
    """A stop closed sockets with 1012 (protocol.md says 1001); a signal to the whole
    process group (systemd, Ctrl-C) reached the worker processes too."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'c.db'}", "--bot-delay", "0",
                           "--no-address-limits", "--workers", "1", log=tmp_path / "s.log")  # fmt: skip
    log = server.log.open("ab")
    server.proc = subprocess.Popen(  # noqa: ASYNC220 - started once, not waited on here
        server.command(), stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
        cwd=Path(__file__).resolve().parents[2], env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    server.wait_ready()
    made = await create_table(server.base, "Host", {"seats": 2})
    client = await SeatClient(server.base, made["table"], made["token"]).connect()
    await client.wait(lambda v: True)
    os.killpg(server.proc.pid, signal.SIGTERM)  # the server and its workers alike
    assert await client.wait_closed() == 1001
    # uvicorn ends by raising the signal it caught again, once its shutdown is done:
    # "killed by SIGTERM" is a clean stop for systemd
    assert await asyncio.to_thread(server.proc.wait, 30) in (0, -signal.SIGTERM)
    text = server.log.read_text(errors="replace")
    for noise in ("Traceback", "ERROR", "BrokenProcessPool", "never retrieved", "died"):
        assert noise not in text, text[-3000:]


# ---- the store's rows of processes -------------------------------------------------------
async def _processes(store: SqlStore) -> int:
    query = select(func.count()).select_from(schema.processes)
    return int(await store._run(lambda conn: conn.execute(query).scalar()))


async def test_a_dead_processs_row_goes_after_ten_seconds(tmp_path: Path) -> None:
    """It lived 100 s (ten times the time a process is deemed dead after)."""
    store = await open_store(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        await db.heartbeat(store, "gone", 1_000)
        await db.reap(store, 1_000 + db.DEAD_AFTER, db.DEAD_AFTER)
        assert await _processes(store) == 1  # not yet dead
        await db.reap(store, 1_001 + db.DEAD_AFTER, db.DEAD_AFTER)
        assert await _processes(store) == 0
    finally:
        await store.close()


# ---- backups ----------------------------------------------------------------------------
def test_coup_backup_copies_a_live_database_and_it_restores(tmp_path: Path) -> None:
    source, copy = tmp_path / "coup.db", tmp_path / "backups" / "coup-1.db"
    copy.parent.mkdir()
    server = ServerProcess(f"sqlite:///{source}", "--no-address-limits", log=tmp_path / "s.log")
    server.start()
    try:
        for i in range(3):
            r = httpx.post(server.base + "/api/tables", json={"name": f"H{i}"})
            assert r.status_code == 201
        out = subprocess.run(
            [sys.executable, "-m", "coup", "backup", "--db", f"sqlite:///{source}", str(copy)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    finally:
        server.stop()
    assert out.returncode == 0, out.stderr
    assert "(3 tables)" in out.stdout
    with sqlite3.connect(copy) as conn:  # the restore drill: the copy is a database
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    restored = ServerProcess(f"sqlite:///{copy}", "--no-address-limits", log=tmp_path / "r.log")
    restored.start()
    try:
        assert httpx.get(restored.base + "/readyz").json()["ready"] is True
    finally:
        restored.stop()
    assert backup.main(["--db", "postgresql://h/d", str(copy)]) == 2  # pg_dump's job


# ---- the page's configurations, checked by their own tools ------------------------------
def test_the_nginx_block_passes_nginx_t_as_copied(tmp_path: Path) -> None:
    if nginx_site.binary() is None:
        pytest.skip("nginx is not installed (`make nginx` installs Debian's)")
    cert, key = nginx_site.certificate(tmp_path)
    found = nginx_site.check(
        tmp_path, nginx_site.with_certificate(nginx_site.documented(), cert, key)
    )
    assert found.returncode == 0, found.stderr


def test_the_nginx_block_keeps_the_port_and_answers_json() -> None:
    block = nginx_site.documented()
    assert "$http_host" in block and "Host $host;" not in block
    assert block.count("max_fails=0") == 4 and block.count("zone coup") == 2
    assert re.search(r"return 301 https://", block)
    assert '"code": "too_large"' in block and "error_page 413" in block


def test_the_systemd_units_pass_systemd_analyze(tmp_path: Path) -> None:
    tool = "/usr/bin/systemd-analyze"
    if not os.path.exists(tool):
        pytest.skip("systemd-analyze is not installed")
    units = re.findall(
        r"```ini\n# /etc/systemd/system/(\S+)[^\n]*\n(.*?)```", DEPLOY.read_text(), re.DOTALL
    )
    assert {name for name, _ in units} == {"coup@.service", "coup-worker.service"}
    coup = str(Path(sys.executable).with_name("coup"))
    paths = []
    for name, text in units:
        path = tmp_path / name.replace("@.", "@8001.")
        path.write_text(text.replace("/opt/coup/.venv/bin/coup", coup))
        paths.append(str(path))
    found = subprocess.run([tool, "verify", *paths], capture_output=True, text=True, check=False)
    assert found.returncode == 0 and "Unknown" not in found.stderr, found.stderr


def test_coup_loadtest_says_a_429_in_one_line(plain_server: ServerProcess, tmp_path: Path) -> None:
    """It crashed with a traceback on a 429, then reported a remote server's RSS as 0."""
    limited = ServerProcess(f"sqlite:///{tmp_path / 'l.db'}", "--http-rate", "0.01",
                            log=tmp_path / "l.log").start()  # fmt: skip
    try:
        out = subprocess.run(
            [sys.executable, "-m", "coup", "loadtest", "--url", limited.base, "--tables", "40",
             "--players", "2", "--seconds", "1"],
            capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
    finally:
        limited.stop()
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "429 rate_limited" in out.stderr and "--no-address-limits" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "coup", "loadtest", "--url", plain_server.base, "--tables", "2",
         "--players", "2", "--seconds", "1"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert "not started by this tool" in out.stdout, out.stdout + out.stderr
    assert "RSS and CPU: not measured" in out.stdout and "0.0 MiB" not in out.stdout
