"""Fixtures for the tests that need PostgreSQL or Redis (the scale-out mode).

``pg_url`` is the URL of a fresh, empty PostgreSQL database made for the test and dropped
after it; ``redis_url`` the URL of a Redis database number of the test's own, empty before
and after.  Where the servers are found:

- ``MAZO_TEST_PG`` (default ``postgresql://mazo:mazo@127.0.0.1:5432/postgres``): a role
  that may create databases, and a database to connect to while it does;
- ``MAZO_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``): the server; its database
  number is not used: the tests take numbers 1 to 15 in turn and WIPE them.

A server that does not answer skips the test, saying why, except when
``MAZO_REQUIRE_SERVICES=1`` (``.ci/run`` sets it): CI must have both, so there it fails.

Redis pub/sub channels are shared by all database numbers: a test that subscribes should
use channel names of its own (a fresh process id does it).
"""

from __future__ import annotations

import itertools
import os
import time
import uuid
from collections.abc import Iterator
from typing import NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

PG_ADMIN_DEFAULT = "postgresql://mazo:mazo@127.0.0.1:5432/postgres"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
# connection refused is immediate on loopback; this bounds a server that hangs
CONNECT_TIMEOUT = 5
DROP_TRIES = 10  # half a second apart: an autovacuum worker is gone long before


def unavailable(reason: str) -> NoReturn:
    """Skip the test for ``reason``, or fail it where the services are required."""
    reason = " ".join(reason.split())  # libpq's messages span lines; the summary's do not
    if os.environ.get("MAZO_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (MAZO_REQUIRE_SERVICES=1: this run must have it)")
    pytest.skip(reason)


def with_path(url: str, path: str) -> str:
    """``url`` with its path (the database name or number) replaced."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + path, parts.query, parts.fragment))


def redact(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new empty PostgreSQL database (``mazo_test_<random>``), dropped after the test."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        unavailable("psycopg is not installed (pip install -e '.[scale]')")
    admin = os.environ.get("MAZO_TEST_PG", PG_ADMIN_DEFAULT)
    name = f"mazo_test_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as exc:
        unavailable(f"PostgreSQL at {redact(admin)} (MAZO_TEST_PG) is not usable: {exc}")
    try:
        yield with_path(admin, name)
    finally:
        # FORCE: a store the test left open (or a killed server's pool) must not keep it.
        # An autovacuum worker visiting the new database belongs to no role, and FORCE may
        # only end it with pg_signal_backend (.ci/run grants it): without that grant the
        # drop is retried for a few seconds, until the worker is gone (a CI run failed
        # so once, at teardown, with two suites on one server).
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        for attempt in range(DROP_TRIES):
            try:
                with psycopg.connect(
                    admin, autocommit=True, connect_timeout=CONNECT_TIMEOUT
                ) as conn:
                    conn.execute(drop)
                break
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
                if attempt == DROP_TRIES - 1:
                    raise
                time.sleep(0.5)


# Each test gets the next number: a server a previous test left stopping cannot write into
# the database of the next one.
_redis_numbers = itertools.cycle(range(1, 16))


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis database number (1 to 15, in turn) emptied before and after the test."""
    try:
        import redis
    except ImportError:
        unavailable("redis (redis-py) is not installed (pip install -e '.[scale]')")
    base = os.environ.get("MAZO_TEST_REDIS", REDIS_DEFAULT)
    url = with_path(base, str(next(_redis_numbers)))
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT)
        client.ping()
        client.flushdb()
    except redis.RedisError as exc:
        unavailable(f"Redis at {redact(base)} (MAZO_TEST_REDIS) is not usable: {exc}")
    try:
        yield url
    finally:
        try:
            client.flushdb()
        finally:
            client.close()
