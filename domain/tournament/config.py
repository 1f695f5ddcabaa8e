"""A tournament's configuration: checked once, recorded in ``TournamentCreated``."""

from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass
from typing import Any

from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition

BAD_TOURNAMENT = "BAD_TOURNAMENT"
# NaN and the infinities are no JSON numbers: a hash over one breaks when a client reads it back.
NON_FINITE_NUMBER = "NON_FINITE_NUMBER"

SWISS = "swiss"
BALANCED = "balanced"
FORMATS = (SWISS, BALANCED)

SCORE_SUM = "score_sum"
OPPONENTS_POINTS = "opponents_points"
HEAD_TO_HEAD = "head_to_head"
TIE_BREAKS = (HEAD_TO_HEAD, OPPONENTS_POINTS, SCORE_SUM)

RANDOM_MOVE = "random_move"
FORFEIT = "forfeit"
TIMEOUT_RULES = (RANDOM_MOVE, FORFEIT)

# Points per place by table size, in the style of Board Game Arena's Swiss tournaments.
DEFAULT_POINTS = {2: [1, 0], 3: [3, 1, 0], 4: [6, 5, 3, 1], 5: [8, 6, 4, 2, 1]}
MIN_TABLE, MAX_TABLE = 2, 5
MAX_ROUNDS = 50


@dataclass(frozen=True)
class TimeControl:
    """A time budget per seat per game: ``base_ms`` at the start, ``increment_ms`` per move made."""

    base_ms: int
    increment_ms: int
    on_timeout: str  # RANDOM_MOVE: a random legal move is played and the player plays on; FORFEIT: the
    # seat is played by the random bot for the rest of the game and placed last

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    table_size: int
    points_per_place: list[float]
    bye_points: float
    tie_breaks: list[str]
    time_control: TimeControl | None
    keys_required: bool = False  # every player registers with a public key; every game's seats are keyed

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["time_control"] = self.time_control.to_dict() if self.time_control is not None else None
        if not self.keys_required:  # recorded only when set, as in the games' GameCreated
            del data["keys_required"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        clock = data.get("time_control")
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            format=data["format"],
            rounds=data["rounds"],
            table_size=data["table_size"],
            points_per_place=list(data["points_per_place"]),
            bye_points=data["bye_points"],
            tie_breaks=list(data["tie_breaks"]),
            time_control=TimeControl(**clock) if clock is not None else None,
            keys_required=data.get("keys_required", False) is True,
        )


def _refuse(message: str) -> RuleViolation:
    return RuleViolation(BAD_TOURNAMENT, message)


def finite_number(value: Any, what: str, code: str) -> float:
    """``value`` if it is a finite number (not a bool); else ``RuleViolation``: ``NON_FINITE_NUMBER``
    for NaN and the infinities, ``code`` for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleViolation(code, f"{what} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise RuleViolation(NON_FINITE_NUMBER, f"{what} must be a finite number, not {value!r}")
    return value


def _number(value: Any, what: str) -> float:
    return finite_number(value, what, BAD_TOURNAMENT)


def _integer(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def normalize_config(game: GameDefinition[Any], raw: dict[str, Any]) -> TournamentConfig:
    """Check a requested configuration and fill its defaults (raises ``RuleViolation``)."""
    known = {
        "options",
        "format",
        "rounds",
        "table_size",
        "points_per_place",
        "bye_points",
        "tie_breaks",
        "time_control",
        "keys_required",
    }
    unknown = sorted(set(raw) - known)
    if unknown:
        raise _refuse(f"unknown tournament settings: {', '.join(unknown)}; the settings are {', '.join(sorted(known))}")
    table_size = _integer(raw.get("table_size", min(4, game.max_players)), "table_size", MIN_TABLE, MAX_TABLE)
    if not game.min_players <= table_size <= game.max_players:
        raise _refuse(f"{game.id} is played by {game.min_players} to {game.max_players}, not {table_size}")
    options = raw.get("options") or {}
    if not isinstance(options, dict):
        raise _refuse("options must be a JSON object of game options")
    options = game.normalize_options(table_size, dict(options))
    format_ = raw.get("format", SWISS)
    if format_ not in FORMATS:
        raise _refuse(f"format must be one of {', '.join(FORMATS)}, not {format_!r}")
    rounds = _integer(raw.get("rounds", 4), "rounds", 1, MAX_ROUNDS)
    points = raw.get("points_per_place", DEFAULT_POINTS[table_size])
    if not isinstance(points, list) or len(points) != table_size:
        raise _refuse(f"points_per_place must list {table_size} numbers, one per place")
    points = [_number(p, "points_per_place") for p in points]
    if any(later > earlier for earlier, later in itertools.pairwise(points)):
        raise _refuse("points_per_place must not give a later place more points than an earlier one")
    # By default a bye is worth what a place is worth on average: sitting out neither helps nor hurts.
    bye_points = _number(raw.get("bye_points", round(sum(points) / len(points), 6)), "bye_points")
    tie_breaks = raw.get("tie_breaks", list(TIE_BREAKS))
    if not isinstance(tie_breaks, list) or any(t not in TIE_BREAKS for t in tie_breaks):
        raise _refuse(f"tie_breaks must be a list of {', '.join(TIE_BREAKS)}")
    if len(set(tie_breaks)) != len(tie_breaks):
        raise _refuse("tie_breaks lists a tie-break twice")
    return TournamentConfig(
        game=game.id,
        options=options,
        format=format_,
        rounds=rounds,
        table_size=table_size,
        points_per_place=points,
        bye_points=bye_points,
        tie_breaks=tie_breaks,
        time_control=_time_control(raw.get("time_control")),
        keys_required=_flag(raw.get("keys_required", False), "keys_required"),
    )


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _refuse(f"{what} must be true or false, not {value!r}")
    return value


def _time_control(raw: Any) -> TimeControl | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _refuse("time_control must be an object {base_seconds, increment_seconds, on_timeout}")
    unknown = sorted(set(raw) - {"base_seconds", "increment_seconds", "on_timeout"})
    if unknown:
        raise _refuse(f"unknown time_control settings: {', '.join(unknown)}")
    base = _number(raw.get("base_seconds"), "time_control.base_seconds")
    increment = _number(raw.get("increment_seconds", 0), "time_control.increment_seconds")
    if base <= 0 or increment < 0 or base > 86_400 or increment > 3_600:
        raise _refuse("time_control needs base_seconds in (0, 86400] and increment_seconds in [0, 3600]")
    rule = raw.get("on_timeout", RANDOM_MOVE)
    if rule not in TIMEOUT_RULES:
        raise _refuse(f"time_control.on_timeout must be one of {', '.join(TIMEOUT_RULES)}, not {rule!r}")
    return TimeControl(base_ms=round(base * 1000), increment_ms=round(increment * 1000), on_timeout=rule)
