"""mazo's own seeded PRNG and shuffle, identical on every platform and Python version.

Python's :mod:`random` may change its algorithms between versions, so deals would not
reproduce. mazo uses SplitMix64 (Steele, Lea and Flood, 2014): 64-bit state, fixed
arithmetic on Python ints, pinned by golden tests. Bounded draws use rejection, so they
are exactly uniform; shuffles are Fisher-Yates from the top down.

>>> rng = Rng(7)
>>> [rng.randbelow(10) for _ in range(5)]
[3, 0, 9, 5, 4]
>>> Rng(7).shuffled(range(5))
[0, 4, 3, 1, 2]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TypeVar

__all__ = ["Rng", "derive_seed", "stream_seed"]

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit child seed from a parent seed and labels (``derive_seed(7, "deal", 3)``).

    Children of one seed are independent of the order in which they are asked for, so
    tournaments can run in any order or in parallel and still reproduce.

    >>> derive_seed(7, "deal", 1) == derive_seed(7, "deal", 1) != derive_seed(7, "deal", 2)
    True
    """
    text = repr((int(seed), *tuple(str(label) for label in labels))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


_PLANS: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}


def _shuffle_plan(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Group the Fisher-Yates positions n-1..1 so each group's radix product is < 2**60,
    with the rejection limit (the largest multiple of that product below 2**64)."""
    plan = _PLANS.get(n)
    if plan is None:
        groups: list[tuple[tuple[int, ...], int]] = []
        group: list[int] = []
        product = 1
        for i in range(n - 1, 0, -1):
            if product * (i + 1) >= 1 << 60:
                groups.append((tuple(group), (1 << 64) - (1 << 64) % product))
                group, product = [], 1
            group.append(i)
            product *= i + 1
        if group:
            groups.append((tuple(group), (1 << 64) - (1 << 64) % product))
        plan = _PLANS[n] = tuple(groups)
    return plan


def stream_seed(base: int, index: int) -> int:
    """The ``index``-th seed of a numbered stream: output ``index`` of ``Rng(base)``.

    Cheap (no hashing), for per-deal seeds inside a match: ``base`` itself comes from
    :func:`derive_seed`, and deal ``k`` uses ``stream_seed(base, k)``.

    >>> r = Rng(11)
    >>> [stream_seed(11, i) for i in (1, 2)] == [r.next64(), r.next64()]
    True
    """
    z = (base + index * _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Rng:
    """SplitMix64: a small, fast, well-mixed generator with a 64-bit state."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = int(seed) & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = z = (self._state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform int in ``[0, n)``; unbiased (Lemire's multiply-and-reject)."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        if n > 1 << 64:
            return self._randbelow_wide(n)
        m = self.next64() * n
        low = m & _MASK64
        if low < n:
            threshold = (1 << 64) % n
            while low < threshold:
                m = self.next64() * n
                low = m & _MASK64
        return m >> 64

    def _randbelow_wide(self, n: int) -> int:
        """``randbelow`` for n above 2**64: rejection over as many 64-bit words as needed."""
        words = (n.bit_length() + 63) // 64 + 1
        span = 1 << (64 * words)
        limit = span - span % n
        while True:
            x = 0
            for _ in range(words):
                x = x << 64 | self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """One item, uniformly."""
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place: Fisher-Yates from the top down, exactly uniform.

        The swap indices are drawn in groups: a group's radices multiply to less than
        2**60, one rejection-sampled 64-bit output covers the whole group and its
        mixed-radix digits are the indices.  A 40-card pack takes about four outputs
        instead of 39, and every index is still exactly uniform and independent.
        """
        for group, limit in _shuffle_plan(len(items)):
            while True:
                x = self.next64()
                if x < limit:
                    break
            for i in group:
                x, j = divmod(x, i + 1)
                items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out

    def getstate(self) -> int:
        """The internal state, to save or fork a stream."""
        return self._state

    def setstate(self, state: int) -> None:
        """Restore a state from :meth:`getstate`."""
        self._state = int(state) & _MASK64
