"""Replay frames: the match of every game at every FRAME_INTERVAL-th version (kept by the board
read model, ``projections.board``).

Version v is served from the nearest frame at or before it plus the few records after that
frame (at most FRAME_INTERVAL - 1 replay steps of a few µs each). Storing every version's
views instead would multiply the store by (seats + 1) views per version for a read that is
rare; storing only frames keeps it to one compact checkpoint per FRAME_INTERVAL versions.
"""

from __future__ import annotations

FRAMES = "frames"
FRAME_INTERVAL = 20


def frame_key(game_id: str, version: int) -> str:
    return f"{game_id}/{version}"


def nearest_frame(version: int) -> int:
    """The version of the frame to start from for ``version`` (version 1 always has a frame)."""
    return max(1, version - version % FRAME_INTERVAL)


def has_frame(version: int) -> bool:
    return version == 1 or version % FRAME_INTERVAL == 0
