"""Database and bus URLs as people write them, made fit for the drivers, and shown
without their passwords.

PostgreSQL's own URL parameters (libpq's, which `psql` and most guides use) are not
asyncpg's: `sslmode=require` passed through SQLAlchemy reaches `asyncpg.connect()` as an
unknown keyword (a `TypeError` at start). `for_asyncpg` translates the ones that have
an asyncpg equivalent (`sslmode` to `ssl`, `connect_timeout` to `timeout`) and refuses,
with a clear message, those that do not. `shown` replaces a URL's password by `***` for
the startup line and the logs.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: libpq's `sslmode` values; asyncpg's `ssl` takes the same words.
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
#: Parameters asyncpg takes as numbers (seconds): given to `connect()`, not in the URL.
SECONDS = {"connect_timeout": "timeout", "timeout": "timeout", "command_timeout": "command_timeout"}
#: Seconds a connection to PostgreSQL may take when the URL does not say.
CONNECT_TIMEOUT = 10.0


def for_asyncpg(url: str) -> tuple[str, dict[str, float]]:
    """`postgresql+asyncpg://...` with the query translated for asyncpg (`sslmode` to
    `ssl`), and the keyword arguments for `asyncpg.connect()` (`connect_timeout` to
    `timeout`); ValueError on a parameter asyncpg cannot take."""
    parts = urlsplit(url)
    query: list[tuple[str, str]] = []
    seconds: dict[str, float] = {"timeout": CONNECT_TIMEOUT}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key in ("sslmode", "ssl"):
            if value not in SSL_MODES:
                raise ValueError(f"{key}={value!r} is not one of {', '.join(SSL_MODES)}")
            query.append(("ssl", value))
        elif key in SECONDS:
            try:
                number = float(value)
            except ValueError:
                number = -1.0
            if number <= 0:
                raise ValueError(f"{key}={value!r} is not a number of seconds")
            seconds[SECONDS[key]] = number
        else:
            raise ValueError(
                f"the database URL's parameter {key!r} is not supported "
                f"(use sslmode, connect_timeout or command_timeout)"
            )
    scheme = "postgresql+asyncpg"
    return urlunsplit(parts._replace(scheme=scheme, query=urlencode(query))), seconds


def shown(url: str) -> str:
    """`url` with its password (if any) as `***`: fit for a log or the startup line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
