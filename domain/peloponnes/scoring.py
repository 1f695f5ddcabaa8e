"""Final scoring (rules file section 6) and the live ``Scoreboard``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.kernel import Scoreboard
from domain.peloponnes.data import TILES

if TYPE_CHECKING:
    from domain.peloponnes.state import SeatState, State


def seat_result(seat: int, s: SeatState) -> dict[str, int]:
    """Prestige = tile prestige + ⌊coins / 3⌋; population points = 3 x population; final = the lower."""
    tile_prestige = sum(TILES[b.tile_id].prestige for b in s.buildings) + sum(TILES[t].prestige for t in s.lands)
    coin_prestige = s.coins // 3
    prestige = tile_prestige + coin_prestige
    population_points = 3 * s.population
    return {
        "seat": seat,
        "tile_prestige": tile_prestige,
        "coin_prestige": coin_prestige,
        "prestige": prestige,
        "population_points": population_points,
        "final": min(prestige, population_points),
        "higher": max(prestige, population_points),
        "luxury": s.luxury,
        "rank": 0,
    }


def rank(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[int]]:
    """Tie-breaks [S§10] and R52: by (final, higher, luxury), equal keys share a rank."""

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        return (r["final"], r["higher"], r["luxury"])

    for r in results:
        r["rank"] = 1 + sum(1 for other in results if key(other) > key(r))
    winners = sorted(r["seat"] for r in results if r["rank"] == 1)
    return results, winners


def final_results(state: State) -> tuple[list[dict[str, Any]], list[int]]:
    return rank([seat_result(seat, s) for seat, s in enumerate(state.seats)])


def unfinished_prestige(s: SeatState) -> int:
    """The prestige of the seat's unfinished buildings: counted now, lost if they are abandoned (R47)."""
    return sum(TILES[b.tile_id].prestige for b in s.buildings if b.unfinished)


def scoreboard(state: State) -> Scoreboard:
    """After the end, the recorded results. While the game runs, the scores as if it ended now, with
    each seat's figures marked ``provisional`` when they count unfinished buildings (their
    ``unfinished_prestige``), which may still be abandoned."""
    if state.results is not None:
        return Scoreboard(
            scores=[r["final"] for r in state.results],
            placings=[r["rank"] for r in state.results],
            winners=list(state.winners),
            final=True,
            details={"results": [dict(r) for r in state.results]},
        )
    results, _ = final_results(state)
    for r, s in zip(results, state.seats, strict=True):
        r["unfinished_prestige"] = unfinished_prestige(s)
        r["provisional"] = r["unfinished_prestige"] > 0
    return Scoreboard(
        scores=[r["final"] for r in results],
        placings=[r["rank"] for r in results],
        winners=[],
        final=False,
        details={"results": results, "provisional": [r["seat"] for r in results if r["provisional"]]},
    )
