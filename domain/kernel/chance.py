"""Seeded, committed, contributed chance.

Every outcome is derived by HMAC-SHA256 over ``"<purpose>:<counter>"``; each purpose is its
own stream with its own counter. The key starts as the game's secret seed (``GameCreated``
publishes ``sha256(seed)``, ``GameEnded`` reveals the seed) and each seat's contribution is
mixed into it when it arrives:

    key_0 = seed
    key_i = HMAC-SHA256(key_(i-1), "alexandria/contribution:<seat>:<contribution hex>")

so anyone holding the log can recompute every roll and shuffle afterwards, nobody who does not
know the seed can foresee a draw, and the holder of the seed, committed before any contribution
arrived, cannot choose the draws that follow one.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from domain.kernel.errors import BAD_INPUT, RuleViolation

T = TypeVar("T")

# A contribution is 16 to 64 random bytes, sent as lower- or upper-case hex.
CONTRIBUTION_MIN_BYTES = 16
CONTRIBUTION_MAX_BYTES = 64


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def parse_contribution(value: object) -> str:
    """The contribution as canonical (lower-case) hex, or ``RuleViolation(BAD_INPUT)``."""
    low, high = 2 * CONTRIBUTION_MIN_BYTES, 2 * CONTRIBUTION_MAX_BYTES
    if not isinstance(value, str) or not low <= len(value) <= high or len(value) % 2:
        raise RuleViolation(
            BAD_INPUT, f"contribution must be {CONTRIBUTION_MIN_BYTES} to {CONTRIBUTION_MAX_BYTES} random bytes as hex"
        )
    try:
        return bytes.fromhex(value).hex()
    except ValueError:
        raise RuleViolation(BAD_INPUT, "contribution must be hexadecimal (0-9, a-f)") from None


_BLOCK = 64  # SHA-256's block size
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=64)
def _keyed(key: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 already fed with the key's inner and outer pads (RFC 2104), so that a draw hashes only its
    message: the same digest as ``hmac.digest(key, message, "sha256")`` for half its cost. Never
    updated; every draw copies them."""
    block = (key if len(key) <= _BLOCK else hashlib.sha256(key).digest()).ljust(_BLOCK, b"\0")
    return hashlib.sha256(block.translate(_INNER)), hashlib.sha256(block.translate(_OUTER))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    inner, outer = _keyed(key)
    hashed = inner.copy()
    hashed.update(message)
    result = outer.copy()
    result.update(hashed.digest())
    return result.digest()


def mixed_key(key: bytes, seat: int, contribution_hex: str) -> bytes:
    return hmac.new(key, f"alexandria/contribution:{seat}:{contribution_hex}".encode(), hashlib.sha256).digest()


class Chance:
    """A per-game chance source. Not thread-safe; one per running game."""

    __slots__ = ("_key", "_seed", "contributions", "counters")

    def __init__(
        self,
        seed: bytes,
        counters: dict[str, int] | None = None,
        contributions: Sequence[tuple[int, str]] = (),
    ) -> None:
        if not seed:
            raise ValueError("a chance source needs a non-empty seed")
        self._seed = seed
        self._key = seed
        self.counters: dict[str, int] = dict(counters or {})
        self.contributions: list[tuple[int, str]] = []
        for seat, value in contributions:
            self.contribute(seat, value)

    @classmethod
    def from_hex(
        cls, seed_hex: str, counters: dict[str, int] | None = None, contributions: Sequence[tuple[int, str]] = ()
    ) -> Chance:
        return cls(bytes.fromhex(seed_hex), counters, contributions)

    @property
    def seed_hex(self) -> str:
        """The committed seed, for ``GameEnded`` (revealing it is the game's last act)."""
        return self._seed.hex()

    @property
    def commitment(self) -> str:
        return seed_commitment(self._seed)

    def contributed(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.contributions)

    def contribute(self, seat: int, contribution_hex: str) -> None:
        """Mix a seat's contribution into the key of every later draw."""
        self._key = mixed_key(self._key, seat, contribution_hex)
        self.contributions.append((seat, contribution_hex))

    def withdraw_last(self) -> None:
        """Undo the last contribution (its command was refused, so it was never recorded)."""
        kept = self.contributions[:-1]
        self._key, self.contributions = self._seed, []
        for seat, value in kept:
            self.contribute(seat, value)

    def below(self, purpose: str, n: int) -> int:
        """A uniform integer in ``[0, n)``: the next draw of the purpose's stream, a 256-bit number
        taken modulo ``n`` (the bias is below 2**-200). Every other draw is made of these."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        counter = self.counters.get(purpose, 0)
        self.counters[purpose] = counter + 1
        return int.from_bytes(hmac_sha256(self._key, f"{purpose}:{counter}".encode()), "big") % n

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
        """A secret key for ``label`` (used to salt digests of private events): from the committed
        seed, not the mixed key, so that it never changes during a game."""
        return hmac.new(self._seed, f"key:{label}".encode(), hashlib.sha256).digest()


# -- the seed of a game the server creates ------------------------------------------------------------

SALT_BYTES = 32


def salted_seed(salt: bytes, creator_seed: bytes | None) -> bytes:
    """The seed a server-created game commits to: the server's secret salt, then the creator's
    seed (if any). Whatever the creator chose, the salt keeps the seed unguessable until the end,
    and the creator's part stays readable in the revealed seed (``creator_seed_of``)."""
    if len(salt) != SALT_BYTES:
        raise ValueError(f"the salt is {SALT_BYTES} bytes")
    return salt + (creator_seed or b"")


def creator_seed_of(seed_hex: str) -> bytes:
    """The creator's part of a revealed server-created seed (empty when the creator chose none)."""
    return bytes.fromhex(seed_hex)[SALT_BYTES:]
