"""Peloponnes for clients: every tile, civilization and disaster, and the fixed numbers of the rules."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.peloponnes import data


def static() -> dict[str, Any]:
    return {
        "tiles": {tile_id: dataclasses.asdict(tile) for tile_id, tile in data.TILES.items()},
        "civilizations": {c: dataclasses.asdict(data.CIVILIZATIONS[c]) for c in data.CIVILIZATION_IDS},
        "stacks": data.STACKS,
        "rounds": data.ROUNDS,
        "stack_of_round": {str(r): s for r, s in data.STACK_OF_ROUND.items()},
        "display_size": data.DISPLAY_SIZE,
        "caps": data.CAPS,
        "goods": list(data.GOODS),
        "counters": list(data.COUNTERS),
        "disasters": list(data.DISASTERS),
        "disaster_chits": data.DISASTER_CHITS,
        "strike_at": data.STRIKE_AT,
        "protectors": {d: sorted(tiles) for d, tiles in data.PROTECTORS.items()},
        "pass_coins": data.PASS_COINS,
        "withdraw_compensation": data.WITHDRAW_COMPENSATION,
        "conquest_surcharge": data.CONQUEST_SURCHARGE,
        "solo_levels": {str(n): dataclasses.asdict(level) for n, level in data.SOLO_LEVELS.items()},
    }
