"""What a forger holding an ended game's revealed record can do: edit it, then recompute the
hash chain and every private digest with the revealed seed, so that only re-execution (or a
published fingerprint) can tell."""

from __future__ import annotations

import copy
from typing import Any

from domain.kernel.chance import Chance
from domain.kernel.log import DIGEST_KEY_LABEL, GENESIS, canonical, data_digest, record_hash


def reseal(records: list[dict[str, Any]], seed_hex: str | None = None) -> list[dict[str, Any]]:
    """Renumber the records, recompute every digest (with the revealed seed) and the chain."""
    seed_hex = seed_hex or records[-1]["data"]["seed"]
    key = Chance.from_hex(seed_hex).derive_key(DIGEST_KEY_LABEL)
    out: list[dict[str, Any]] = []
    prev = GENESIS
    for position, original in enumerate(copy.deepcopy(records), start=1):
        record = dict(original)
        record["position"] = position
        record["prev"] = prev
        private = record.get("viewers") is not None
        if private:
            record["digest"] = data_digest(key, position, record["data"])
        content = {
            "position": position,
            "type": record["type"],
            "data": record.get("public") if private else record["data"],
            "viewers": record.get("viewers"),
            "digest": record.get("digest") if private else None,
            "chance": record.get("chance"),
            "prev": prev,
        }
        record["hash"] = record_hash(content)
        prev = record["hash"]
        out.append(record)
    return out


def as_export(records: list[dict[str, Any]]) -> str:
    """The records as ``/export`` and ``alexandria simulate`` write them (JSON lines)."""
    return "".join(canonical(r) + "\n" for r in records)
