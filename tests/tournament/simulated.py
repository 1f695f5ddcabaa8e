"""Tournaments on the pure rules, with made-up results: for tests about seating and standings."""

from __future__ import annotations

from typing import Any

from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.tournament import rules
from domain.tournament.log import PLAYER_REGISTERED, RESULT_RECORDED, ROUND_SEATED, TOURNAMENT_CREATED, TournamentLog


def placings_of(scores: list[int]) -> list[int]:
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def simulate(
    players: int,
    rounds: int,
    table_size: int,
    format_: str = "swiss",
    seed: str = "s",
    orders: list[list[int]] | None = None,
    **settings: Any,
) -> TournamentLog:
    """Seat every round by the rules; each game's scores are drawn at random (ties happen).
    ``orders``, when given, receives the standings' order (player numbers) before each round."""
    master = f"master:{seed}".encode()
    log = TournamentLog()
    config = {"rounds": rounds, "table_size": table_size, "format": format_, **settings}
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), f"t-{seed}", config, master, 0))
    for i in range(players):
        log.append(PLAYER_REGISTERED, rules.register(log.state, f"player {i}", 0))
    dice = Chance(f"results:{seed}".encode())
    for number in range(1, rounds + 1):
        if orders is not None:
            orders.append([row["player"] for row in rules.current_standings(log.state)])
        seating = rules.plan_round(log.state, master)
        game_ids = [f"game-{number}-{t}" for t in range(1, len(seating.tables) + 1)]
        log.append(ROUND_SEATED, rules.round_seated(log.state, seating, game_ids, number))
        for table, (game_id, players_at) in enumerate(zip(game_ids, seating.tables, strict=True), start=1):
            scores = [dice.below("score", 6) for _ in players_at]
            placings = placings_of(scores)
            winners = [s for s, p in enumerate(placings) if p == 1]
            result = {"scores": scores, "placings": placings, "winners": winners}
            log.append(
                RESULT_RECORDED,
                {"game_id": game_id, "round": number, "table": table, **result, "fingerprint": "f", "at": number},
            )
    return log
