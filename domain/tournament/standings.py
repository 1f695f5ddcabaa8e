"""Standings: points per place (ties share the points of the places they cover), byes, the
configured tie-breaks, and ratings across the event (openskill's Plackett-Luce model)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from domain.tournament.config import HEAD_TO_HEAD, OPPONENTS_POINTS, SCORE_SUM, TournamentConfig

Player = int


@dataclass(frozen=True)
class GameOutcome:
    """One table's game as it counts: its players in seat order, their placings and scores."""

    game_id: str
    round: int
    players: list[Player]
    placings: list[int]
    scores: list[float]


def place_points(placings: Sequence[int], points_per_place: Sequence[float]) -> list[float]:
    """Points per seat: players tied on a place share the points of the places they cover."""
    points = []
    for placing in placings:
        tied = sum(1 for p in placings if p == placing)
        covered = points_per_place[placing - 1 : placing - 1 + tied]
        points.append(round(sum(covered) / tied, 6))
    return points


def rerank_forfeits(placings: Sequence[int], forfeited: set[int]) -> list[int]:
    """Placings once the seats in ``forfeited`` are put last (they share the last place); the
    others keep their order among themselves."""
    staying = [i for i in range(len(placings)) if i not in forfeited]
    result = [0] * len(placings)
    for i in staying:
        result[i] = 1 + sum(1 for j in staying if placings[j] < placings[i])
    for i in forfeited:
        result[i] = len(staying) + 1
    return result


@dataclass
class _Tally:
    points: float = 0.0
    games: int = 0
    byes: int = 0
    score_sum: float = 0.0


def standings(
    config: TournamentConfig, names: Sequence[str], outcomes: Sequence[GameOutcome], byes: Sequence[Player]
) -> list[dict[str, Any]]:
    """The table of standings, best first; players equal on points and every tie-break share a place."""
    tallies = [_Tally() for _ in names]
    points_in: dict[str, list[float]] = {}
    for outcome in outcomes:
        points = place_points(outcome.placings, config.points_for(len(outcome.players)))
        points_in[outcome.game_id] = points
        for seat, player in enumerate(outcome.players):
            tallies[player].points += points[seat]
            tallies[player].games += 1
            tallies[player].score_sum += outcome.scores[seat]
    for player in byes:
        tallies[player].points += config.bye_points
        tallies[player].byes += 1
    totals = [round(t.points, 6) for t in tallies]
    opponents = [0.0] * len(names)
    for outcome in outcomes:
        for player in outcome.players:
            opponents[player] += sum(totals[q] for q in outcome.players if q != player)
    head_to_head = _head_to_head(totals, outcomes)
    value = {
        SCORE_SUM: [round(t.score_sum, 6) for t in tallies],
        OPPONENTS_POINTS: [round(o, 6) for o in opponents],
        HEAD_TO_HEAD: head_to_head,
    }

    def key(player: Player) -> tuple[float, ...]:
        return (-totals[player], *(-value[t][player] for t in config.tie_breaks))

    order = sorted(range(len(names)), key=lambda p: (key(p), p))
    rows: list[dict[str, Any]] = []
    for index, player in enumerate(order):
        place = rows[-1]["place"] if rows and key(order[index - 1]) == key(player) else index + 1
        rows.append(
            {
                "place": place,
                "player": player,
                "name": names[player],
                "points": totals[player],
                "games": tallies[player].games,
                "byes": tallies[player].byes,
                SCORE_SUM: value[SCORE_SUM][player],
                OPPONENTS_POINTS: value[OPPONENTS_POINTS][player],
                HEAD_TO_HEAD: head_to_head[player],
            }
        )
    return rows


def _head_to_head(totals: Sequence[float], outcomes: Sequence[GameOutcome]) -> list[float]:
    """Among players equal on points: games where one placed ahead of another tied player, minus behind."""
    result = [0.0] * len(totals)
    for outcome in outcomes:
        for i, a in enumerate(outcome.players):
            for j, b in enumerate(outcome.players):
                if a != b and totals[a] == totals[b]:
                    if outcome.placings[i] < outcome.placings[j]:
                        result[a] += 1
                    elif outcome.placings[i] > outcome.placings[j]:
                        result[a] -= 1
    return result


def ratings(player_count: int, outcomes: Sequence[GameOutcome]) -> list[dict[str, float]]:
    """Each player's rating after the event's games in order (Plackett-Luce; ordinal = mu - 3 sigma)."""
    model = PlackettLuce()
    current = [model.rating() for _ in range(player_count)]
    by_round: dict[int, list[GameOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_round[outcome.round].append(outcome)
    for round_number in sorted(by_round):
        for outcome in by_round[round_number]:
            teams = [[current[p]] for p in outcome.players]
            rated = model.rate(teams, ranks=[float(p) for p in outcome.placings])
            for player, team in zip(outcome.players, rated, strict=True):
                current[player] = team[0]
    return [{"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "ordinal": round(r.ordinal(), 4)} for r in current]
