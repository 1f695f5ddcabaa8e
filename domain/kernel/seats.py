"""Seats are numbered 0..players-1; ``None`` as a viewer means a spectator."""

from __future__ import annotations

Seat = int
Viewer = int | None  # a seat, or None for a spectator


def seat_range(players: int) -> range:
    return range(players)


def next_seat(seat: Seat, players: int) -> Seat:
    """The seat to the left (clockwise) of ``seat``."""
    return (seat + 1) % players
