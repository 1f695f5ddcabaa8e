"""Seeded, committed chance.

Every outcome is derived from the game's secret seed by HMAC-SHA256 keyed with the seed
over ``"<purpose>:<counter>"``; each purpose is its own stream with its own counter.
``GameCreated`` publishes ``sha256(seed)`` and ``GameEnded`` reveals the seed, so anyone
holding the log can recompute every roll and shuffle afterwards.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class Chance:
    """A per-game chance source. Not thread-safe; one per running game."""

    __slots__ = ("_seed", "counters")

    def __init__(self, seed: bytes, counters: dict[str, int] | None = None) -> None:
        if not seed:
            raise ValueError("a chance source needs a non-empty seed")
        self._seed = seed
        self.counters: dict[str, int] = dict(counters or {})

    @classmethod
    def from_hex(cls, seed_hex: str, counters: dict[str, int] | None = None) -> Chance:
        return cls(bytes.fromhex(seed_hex), counters)

    @property
    def seed_hex(self) -> str:
        """The seed, for ``GameEnded`` (revealing it is the game's last act)."""
        return self._seed.hex()

    @property
    def commitment(self) -> str:
        return seed_commitment(self._seed)

    def _draw(self, purpose: str) -> int:
        counter = self.counters.get(purpose, 0)
        self.counters[purpose] = counter + 1
        digest = hmac.new(self._seed, f"{purpose}:{counter}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest, "big")

    def below(self, purpose: str, n: int) -> int:
        """A uniform integer in ``[0, n)`` (the bias of a 256-bit modulus is below 2**-200)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        return self._draw(purpose) % n

    def die(self, purpose: str, sides: int = 6) -> int:
        return self.below(purpose, sides) + 1

    def choice(self, purpose: str, items: Sequence[T]) -> T:
        return items[self.below(purpose, len(items))]

    def shuffle(self, purpose: str, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates over ``items`` with one draw per position."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(purpose, i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, purpose: str, items: Sequence[T], k: int) -> list[T]:
        return self.shuffle(purpose, items)[:k]

    def derive_key(self, label: str) -> bytes:
        """A secret key for ``label`` (used to salt digests of private events)."""
        return hmac.new(self._seed, f"key:{label}".encode(), hashlib.sha256).digest()
