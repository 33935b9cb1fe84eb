"""A small seeded generator that C can reproduce word for word: SplitMix64.

The crews' plan search runs in two implementations, the readable Python of
``localsearch.py`` and the native one of ``authoring/engine/c/search.c``, and a differential
test demands that both choose the same plans. Python's ``random.Random`` (a Mersenne Twister
with its own float and range rules) would have to be ported whole for that; SplitMix64 is six
lines in either language. It offers the three calls the search's moves make
(``random``, ``randrange``, ``choice``), each defined by integer arithmetic that C does the
same way:

* ``random()``: the top 53 bits of a word times 2**-53 (exact in a double);
* ``randrange(n)``: the top 32 bits of a word times ``n``, shifted right by 32 (``n`` < 2**32;
  a bias below n / 2**32, irrelevant for choosing among a few dozen moves);
* ``choice(seq)``: ``seq[randrange(len(seq))]``.

Seeds are 64-bit integers; ``seed_of`` turns a text such as ``"planner:17"`` into one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_of(text: str) -> int:
    """Returns a 64-bit seed for a text (the first 8 bytes of its BLAKE2b digest)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class SplitMix:
    """SplitMix64 (Steele, Lea and Flood 2014): a 64-bit counter through a mixing function."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Returns the next 64-bit word."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Returns a float in [0, 1) from the word's top 53 bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def randrange(self, n: int) -> int:
        """Returns an integer in [0, n) (``n`` from 1 to 2**32 - 1)."""
        return ((self.next64() >> 32) * n) >> 32

    def choice(self, seq: Sequence[T]) -> T:
        """Returns one element of a non-empty sequence."""
        return seq[self.randrange(len(seq))]
