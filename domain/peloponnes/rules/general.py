"""Rules file 5.1, general: goods and their storage caps, luxury, paying coins and goods."""

from __future__ import annotations

from domain.peloponnes.data import CAPS
from domain.peloponnes.state import SeatState


def add_goods(counters: dict[str, int], wood: int, stone: int, food: int) -> tuple[dict[str, int], int]:
    """R4/R4a: goods beyond the storage caps become luxury, on every gain. Returns new counters and the overflow."""
    after = dict(counters)
    overflow = 0
    for good, amount in (("wood", wood), ("stone", stone), ("food", food)):
        total = after[good] + amount
        cap = CAPS[good]
        if total > cap:
            overflow += total - cap
            total = cap
        after[good] = max(0, total)
    after["luxury"] += overflow
    return after, overflow


def luxury_for_coins(seat: SeatState, amount: int) -> int:
    """R5/R5a: the luxury a coin payment of ``amount`` needs (2 per missing coin)."""
    return 2 * max(0, amount - seat.coins)


def luxury_for_goods(wood_held: int, stone_held: int, wood: int, stone: int) -> int:
    """R5/R5a: the luxury a wood/stone payment needs (2 per missing unit)."""
    return 2 * (max(0, wood - wood_held) + max(0, stone - stone_held))


def pay_coins(counters: dict[str, int], amount: int) -> int:
    """R5/R5a: pay ``amount`` coins (into ``counters``), the shortfall with 2 luxury per coin; returns the luxury."""
    short = max(0, amount - counters["coins"])
    counters["coins"] -= amount - short
    counters["luxury"] -= 2 * short
    return 2 * short


def pay_goods(counters: dict[str, int], wood: int, stone: int) -> tuple[int, int, int]:
    """R5/R5a: pay wood and stone (into ``counters``), the shortfall with 2 luxury per unit.
    Returns the wood, stone and luxury spent."""
    wood_spent = min(counters["wood"], wood)
    stone_spent = min(counters["stone"], stone)
    luxury = 2 * (wood - wood_spent + stone - stone_spent)
    counters["wood"] -= wood_spent
    counters["stone"] -= stone_spent
    counters["luxury"] -= luxury
    return wood_spent, stone_spent, luxury
