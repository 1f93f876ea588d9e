"""SQLite's writer thread, and a move written on the event loop's own thread.

Every transaction of the SQLite store runs on one thread of its own (`SqlStore._run`),
so that the event loop never waits on the disk. For a move that costs more than the
write itself: handing the work over and back (a futex wake of the thread, the GIL
passed twice, the loop woken through its self-pipe, futures chained) took about as
much CPU as the move's statements. So a move (`SqlStore.append_events`, the driver's
cursor, `sqlite_move.py`) is written on the loop's thread when the store thread has
nothing queued or running (`write`); then no other transaction of this process can be
open, so it never waits on a lock of its own process. Anything else, or a move while
the thread is busy, goes through the thread as before, in order.

A move written on the loop's thread goes straight to the driver: one connection of
the engine's pool is kept for it (its pragmas set as every connection's), and the
transaction is the driver's own (`sqlite3` begins it at the first write; `commit`, or
`rollback` if anything failed), without SQLAlchemy's connection and transaction
objects around it, which cost as much CPU as the statements.

What could still make the loop wait on the disk is SQLite's automatic checkpoint (it
copies the WAL into the database file and syncs it, at the commit that fills 1,000
pages). The connections turn it off, and the thread checkpoints instead, every
`CHECKPOINT_EVERY` transactions (PASSIVE: as much as it can without waiting; writes go
on meanwhile, through the thread). A commit in WAL mode with `synchronous=NORMAL` only
appends to the WAL (no sync), which is what survives a kill -9, as before.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, event

T = TypeVar("T")
log = logging.getLogger("coup.store")

# Transactions between checkpoints. A move writes about 8 pages, mostly the same few
# hundred pages again and again (a table's row, its deadlines, the events' index): a
# checkpoint copies each page once however often it was written, so fewer checkpoints
# copy fewer pages in all (1,000: a WAL of about 8,000 pages, 32 MB, reused after each).
CHECKPOINT_EVERY = 1000


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


class SqliteThread:
    """One thread for the store's transactions; moves on the caller's when it is idle."""

    def __init__(self, engine: Engine, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.engine = engine
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="coup-store")
        self.checkpoint_every = checkpoint_every
        self._pending = 0  # jobs given to the thread and not finished (read on the loop)
        self._count_lock = threading.Lock()
        self._since_checkpoint = 0
        self.inline = 0  # transactions run on the loop's thread (for tests and benches)
        self._mover: Any = None  # the pool connection kept for moves on the loop's thread
        event.listen(engine, "connect", _no_autocheckpoint)

    def _tx(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.begin() as conn:
            return fn(conn)

    def _finished(self) -> None:
        with self._count_lock:
            self._pending -= 1

    def _submit(self, fn: Callable[[], T]) -> Future[T]:
        """Queue `fn` on the thread. It counts as pending until it has run: the count
        drops inside the job, before its result wakes the loop, so a write awaited
        right after it sees the thread idle; a job cancelled before it ran drops it
        when cancelled."""
        with self._count_lock:
            self._pending += 1

        def job() -> T:
            try:
                return fn()
            finally:
                self._finished()

        future = self.executor.submit(job)
        future.add_done_callback(lambda f: self._finished() if f.cancelled() else None)
        return future

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in one transaction on the store thread."""
        self._count_for_checkpoint()
        return await asyncio.wrap_future(self._submit(lambda: self._tx(fn)))

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` on the driver's connection in one transaction: on this thread when
        the store thread is idle, else on the store thread, in order."""
        self._count_for_checkpoint()
        if self._pending == 0:
            self.inline += 1
            return self._driver_tx(fn)
        return await asyncio.wrap_future(self._submit(lambda: self._tx(self._driver(fn))))

    @staticmethod
    def _driver(fn: Callable[[sqlite3.Connection], T]) -> Callable[[Connection], T]:
        """`fn` in a transaction of SQLAlchemy's (on the store thread)."""
        return lambda conn: fn(conn.connection.driver_connection)  # type: ignore[arg-type]

    def _count_for_checkpoint(self) -> None:
        """One more transaction; every `checkpoint_every`-th queues a checkpoint first."""
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.checkpoint_every:
            self._since_checkpoint = 0
            self._submit(self._checkpoint)  # queued first: the next transaction waits for it

    def _driver_tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        if self._mover is None:
            self._mover = self.engine.raw_connection()
        driver: sqlite3.Connection = self._mover.driver_connection
        try:
            result = fn(driver)
            driver.commit()
        except BaseException:
            try:
                driver.rollback()
            except sqlite3.Error:  # a broken connection: the pool makes a new one next time
                self._mover.invalidate()
                self._mover = None
            raise
        return result

    def close_mover(self) -> None:
        """Give the kept connection back to the pool (before the engine is disposed)."""
        if self._mover is not None:
            self._mover.close()
            self._mover = None

    def _checkpoint(self) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # a later one will do it
            log.warning("SQLite checkpoint failed", exc_info=True)

    async def call(self, fn: Callable[[], T]) -> T:
        """Run `fn` (no transaction) on the store thread."""
        return await asyncio.wrap_future(self._submit(fn))

    def shutdown(self) -> None:
        self.executor.shutdown(wait=True)
