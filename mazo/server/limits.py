"""Per-client limits of ``mazo serve``: tables created a minute and sockets open, per client
address; watchers per table and sockets per seat are counted by the tables themselves.

The client address is the ASGI client's host: the peer of the TCP connection. Behind a
reverse proxy every request comes from the proxy, so run uvicorn with ``--proxy-headers``
and ``--forwarded-allow-ips`` (the proxy's address) to take it from ``X-Forwarded-For``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["ClientLimits", "Limits"]


@dataclass(frozen=True)
class Limits:
    """The limits (0: none). Defaults are documented in docs/protocol.md."""

    creates_per_minute: float = 20.0  # tables one client address may create a minute
    sockets_per_client: int = 64  # sockets one client address may hold open
    watchers_per_table: int = 200  # watching sockets (no seat) on one table
    sockets_per_seat: int = 4  # sockets playing one seat (tabs, devices)

    def check(self) -> None:
        for name in (
            "creates_per_minute",
            "sockets_per_client",
            "watchers_per_table",
            "sockets_per_seat",
        ):
            if getattr(self, name) < 0:
                flag = {"creates_per_minute": "tables_per_minute"}.get(name, name)
                raise ValueError(f"--{flag.replace('_', '-')} must be 0 (no limit) or more")


class ClientLimits:
    """A token bucket of table creations and a count of open sockets, per client address."""

    PRUNE_AT = 10_000  # buckets kept before full ones are forgotten

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._buckets: dict[str, tuple[float, float]] = {}  # host -> (tokens, stamp)
        self.sockets: dict[str, int] = {}

    def take_create(self, host: str) -> float:
        """Spend one creation of ``host``'s bucket; 0.0 when allowed, else the seconds
        until the next one is."""
        rate = self.limits.creates_per_minute
        if rate <= 0:
            return 0.0
        per_second = rate / 60.0
        burst = max(1.0, rate)
        now = time.monotonic()
        tokens, stamp = self._buckets.get(host, (burst, now))
        tokens = min(burst, tokens + (now - stamp) * per_second)
        if tokens < 1.0:
            self._buckets[host] = (tokens, now)
            return (1.0 - tokens) / per_second
        self._buckets[host] = (tokens - 1.0, now)
        if len(self._buckets) > self.PRUNE_AT:
            self._prune(now, per_second, burst)
        return 0.0

    def _prune(self, now: float, per_second: float, burst: float) -> None:
        for host, (tokens, stamp) in list(self._buckets.items()):
            if tokens + (now - stamp) * per_second >= burst:
                del self._buckets[host]  # full again: as if it had never come

    def open_socket(self, host: str) -> bool:
        """Count one more socket of ``host``; False (not counted) when it holds the most."""
        most = self.limits.sockets_per_client
        held = self.sockets.get(host, 0)
        if most and held >= most:
            return False
        self.sockets[host] = held + 1
        return True

    def close_socket(self, host: str) -> None:
        held = self.sockets.get(host, 0) - 1
        if held > 0:
            self.sockets[host] = held
        else:
            self.sockets.pop(host, None)
