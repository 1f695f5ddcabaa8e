"""Every seed of a tournament is derived from its committed master seed and an identity, so the
organiser cannot choose the seed of any table, the first round's order or a bot's moves."""

from __future__ import annotations

import hashlib
import hmac


def derive(master_seed: bytes, label: str) -> bytes:
    return hmac.new(master_seed, label.encode(), hashlib.sha256).digest()


def table_seed(master_seed: bytes, tournament_id: str, round_number: int, table: int) -> bytes:
    """The game seed of one table: HMAC-SHA256(master, "<tournament>:<round>:<table>") as hex text."""
    return derive(master_seed, f"{tournament_id}:{round_number}:{table}").hex().encode()


def pairing_seed(master_seed: bytes, tournament_id: str, round_number: int) -> bytes:
    return derive(master_seed, f"{tournament_id}:pairing:{round_number}")


def clock_bot_seed(master_seed: bytes, tournament_id: str, game_id: str, version: int) -> bytes:
    """The random bot that moves for a seat out of time has a stream of its own per game and version."""
    return derive(master_seed, f"{tournament_id}:clock:{game_id}:{version}")
