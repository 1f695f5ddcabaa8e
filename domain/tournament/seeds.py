"""Every seed of a tournament is derived from its committed master seed (for the seatings and the
tables: mixed with the players' revealed secrets) and an identity, so the organiser cannot choose
the seed of any table, the first round's order or a bot's moves."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from domain.kernel.chance import mixed_key


def derive(master_seed: bytes, label: str) -> bytes:
    return hmac.new(master_seed, label.encode(), hashlib.sha256).digest()


def mixed_seed(master_seed: bytes, reveals: Mapping[int, str]) -> bytes:
    """The seed every seating and every table's seed is derived from: the master seed with each
    player's revealed secret mixed in, in player order, as a game mixes its seats' contributions.
    The organiser commits to the master seed before anyone commits to a secret, so while one
    secret it does not know is unrevealed it cannot tell which seatings the event will have;
    with no reveals it is the master seed itself."""
    key = master_seed
    for player in sorted(reveals):
        key = mixed_key(key, player, reveals[player])
    return key


def table_seed(master_seed: bytes, tournament_id: str, round_number: int, table: int) -> bytes:
    """The game seed of one table: HMAC-SHA256(master, "<tournament>:<round>:<table>") as hex text."""
    return derive(master_seed, f"{tournament_id}:{round_number}:{table}").hex().encode()


def pairing_seed(master_seed: bytes, tournament_id: str, round_number: int) -> bytes:
    return derive(master_seed, f"{tournament_id}:pairing:{round_number}")


def clock_bot_seed(master_seed: bytes, tournament_id: str, game_id: str, version: int) -> bytes:
    """The clock's bot that moves for a seat out of time has a stream of its own per game and version."""
    return derive(master_seed, f"{tournament_id}:clock:{game_id}:{version}")


def registration_code(master_seed: bytes, tournament_id: str) -> str:
    """The code an organiser publishes (as a link) for players to register themselves: derived
    from the secret master seed, so nothing needs storing and nobody can guess it from the
    public record (it is no part of any other seed)."""
    return derive(master_seed, f"{tournament_id}:registration").hex()[:24]
