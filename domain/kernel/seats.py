"""Seats are numbered 0..players-1; ``None`` as a viewer means a spectator."""

from __future__ import annotations

Seat = int
Viewer = int | None  # a seat, or None for a spectator
