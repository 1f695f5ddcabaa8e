"""A forger's best: change a tournament record and seal the chain again from there."""

from __future__ import annotations

from typing import Any

from domain.tournament.log import seal


def reseal_from(records: list[dict[str, Any]], index: int) -> None:
    """Re-seal ``records[index:]`` in place after an edit, so the tournament's chain holds again."""
    prev = records[index - 1]["hash"] if index else records[0]["prev"]
    for i in range(index, len(records)):
        record = seal(records[i]["position"], records[i]["type"], records[i]["data"], prev)
        records[i] = {**records[i], "prev": record.prev, "hash": record.hash}
        prev = record.hash
