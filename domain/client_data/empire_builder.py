"""Empire Builder for clients: regions, provinces, arrows (direction, cost, sea routes), campaign
symbols, the components and the schematic layout (``layout.json`` beside the map)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domain.empire_builder import data

LAYOUT_FILE = Path(data.__file__).parent / "layout.json"


def layout() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
    return loaded


def static() -> dict[str, Any]:
    arrows = [
        {"from": origin, "to": to, "cost": cost, "sea": f"{origin}>{to}" in data.SEA_ROUTES}
        for origin, targets in data.ARROWS.items()
        for to, cost in targets.items()
    ]
    board = json.loads((LAYOUT_FILE.parent / "board.json").read_text(encoding="utf-8"))
    stands = {r["symbol"]: r["symbol_stands"] for r in board["regions"]}
    return {
        "regions": [
            {
                "region": r.number,
                "name": r.name,
                "campaign_name": r.campaign_name,
                "symbol": r.symbol,
                "symbol_stands": stands[r.symbol],
                "goal": r.goal,
                "provinces": list(r.provinces),
            }
            for r in data.REGIONS.values()
        ],
        "provinces": {
            p.id: {
                "name": p.name,
                "region": p.region,
                "number": p.number,
                "temple_site": p.temple_site,
                "city_site": p.city_site,
            }
            for p in data.PROVINCES.values()
        },
        "arrows": arrows,
        "symbols": sorted(data.SYMBOLS),
        "components": {
            "cubes": data.CUBES,
            "temples": data.TEMPLE_PIECES,
            "cities": data.CITY_PIECES,
            "round_vp": {"majority": data.MAJORITY_VP, "temple": data.TEMPLE_VP, "city": data.CITY_VP},
            "single_attempter_price": {"temple": data.TEMPLE_PRICE, "city": data.CITY_PRICE},
            "max_path": data.MAX_PATH,
            "last_round": data.LAST_ROUND,
            "campaigns": {"full": list(data.FULL_CAMPAIGNS), "short": list(data.SHORT_CAMPAIGNS)},
            "final_award_vp": data.AWARD_VP,
        },
        "layout": layout(),
    }
