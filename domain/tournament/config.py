"""A tournament's configuration: checked once, recorded in ``TournamentCreated``."""

from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass
from typing import Any

from domain.kernel.bots import BOT_NAMES
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
# The bot that moves for a seat out of time. Records made before the setting name none: theirs was
# ``random`` (a recorded clock without ``bot`` means it); one set up now is ``greedy`` unless named.
DEFAULT_CLOCK_BOT = "greedy"
LEGACY_CLOCK_BOT = "random"
CLOCK_SEARCH_PLAYOUTS = 200  # the search bot's budget when the settings name none: playouts, never time
MAX_CLOCK_SEARCH_PLAYOUTS = 2_000

# Points per place by table size, in the style of Board Game Arena's Swiss tournaments.
DEFAULT_POINTS = {2: [1, 0], 3: [3, 1, 0], 4: [6, 5, 3, 1], 5: [8, 6, 4, 2, 1]}
MIN_TABLE, MAX_TABLE = 2, 5
MAX_ROUNDS = 50

# The pairing rule a tournament's seatings follow, recorded in its settings so the verifier seats
# every round again by the rule the tournament was created with. 1: the first rule (records
# without the field); 2: repeat-free with a round of lookahead, seats balanced as an assignment,
# the colour rule of 2-player tables, mixed table sizes, manual seatings and forbidden pairs; 3: rule 2
# with a lookahead that plans this round's seats for the next and keeps two rounds repeat-free; 4:
# rule 3 with seats held to perfect balance only for players who sat at tables of one size (mixed
# table sizes; where every table is of one size it seats as rule 3).
PAIRING_V1, PAIRING_V2, PAIRING_V3, PAIRING_V4 = 1, 2, 3, 4
PAIRING_VERSIONS = (PAIRING_V1, PAIRING_V2, PAIRING_V3, PAIRING_V4)
PAIRING_DEFAULT = PAIRING_V4


@dataclass(frozen=True)
class TimeControl:
    """A time budget per seat per game: ``base_ms`` at the start, ``increment_ms`` per move made."""

    base_ms: int
    increment_ms: int
    on_timeout: str  # RANDOM_MOVE: the clock's bot plays one move and the player plays on; FORFEIT: the
    # seat is played by the clock's bot for the rest of the game and placed last
    bot: str = LEGACY_CLOCK_BOT  # the clock's bot (BOT_NAMES)
    bot_playouts: int | None = None  # the search bot's playouts per move (search only): the verifier replays it

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.bot == LEGACY_CLOCK_BOT:  # recorded as before the bot was a setting
            del data["bot"]
        if self.bot_playouts is None:
            del data["bot_playouts"]
        return data


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
    pairing: int = PAIRING_V1  # the pairing rule (PAIRING_VERSIONS)
    min_table: int | None = None  # the smallest and largest table a round may seat (pairing 2 on);
    max_table: int | None = None  # None: table_size
    check_in: bool = False  # check-in is open from the tournament's creation (as if CheckInOpened came with it)

    @property
    def table_sizes(self) -> tuple[int, int]:
        """The smallest and the largest table a round may seat."""
        return (self.min_table or self.table_size, self.max_table or self.table_size)

    def points_for(self, seats: int) -> list[float]:
        """Points per place at a table of ``seats``: ``points_per_place`` at table_size; at a
        smaller or larger (mixed) table, read at each place's relative rank: the first and the
        last keep theirs, the places between are interpolated linearly."""
        points = self.points_per_place
        if seats == len(points) or seats < 2:
            return list(points[:seats])
        spread = []
        for place in range(seats):
            at = place * (len(points) - 1) / (seats - 1)
            low = int(at)
            high = min(low + 1, len(points) - 1)
            spread.append(round(points[low] + (points[high] - points[low]) * (at - low), 6))
        return spread

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["time_control"] = self.time_control.to_dict() if self.time_control is not None else None
        if not self.keys_required:  # recorded only when set, as in the games' GameCreated
            del data["keys_required"]
        if not self.check_in:  # recorded only when set: records from before the setting have none
            del data["check_in"]
        if self.pairing == PAIRING_V1:  # recorded as before the rule was versioned
            for key in ("pairing", "min_table", "max_table"):
                del data[key]
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
            pairing=data.get("pairing", PAIRING_V1),
            min_table=data.get("min_table"),
            max_table=data.get("max_table"),
            check_in=data.get("check_in", False) is True,
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
        "pairing",
        "min_table",
        "max_table",
        "check_in",
    }
    unknown = sorted(set(raw) - known)
    if unknown:
        raise _refuse(f"unknown tournament settings: {', '.join(unknown)}; the settings are {', '.join(sorted(known))}")
    table_size = _integer(raw.get("table_size", min(4, game.max_players)), "table_size", MIN_TABLE, MAX_TABLE)
    if not game.min_players <= table_size <= game.max_players:
        raise _refuse(f"{game.id} is played by {game.min_players} to {game.max_players}, not {table_size}")
    pairing = raw.get("pairing", PAIRING_DEFAULT)
    if isinstance(pairing, bool) or pairing not in PAIRING_VERSIONS:
        raise _refuse(f"pairing must be one of {', '.join(map(str, PAIRING_VERSIONS))}, not {pairing!r}")
    low, high = _table_range(game, raw, table_size, pairing)
    options = raw.get("options") or {}
    if not isinstance(options, dict):
        raise _refuse("options must be a JSON object of game options")
    options = game.normalize_options(table_size, dict(options))
    for size in range(low, high + 1):
        if game.normalize_options(size, dict(raw.get("options") or {})) != options:
            raise _refuse(
                f"the options of {game.id} differ at a table of {size}: keep min_table and max_table at {table_size}"
            )
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
        pairing=pairing,
        min_table=low if pairing != PAIRING_V1 else None,
        max_table=high if pairing != PAIRING_V1 else None,
        check_in=_flag(raw.get("check_in", False), "check_in"),
    )


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _refuse(f"{what} must be true or false, not {value!r}")
    return value


def _table_range(game: GameDefinition[Any], raw: dict[str, Any], table_size: int, pairing: int) -> tuple[int, int]:
    """The smallest and largest table a round may seat: ``min_table`` to ``max_table``, around
    ``table_size`` and within the game's player counts (pairing 2 on; pairing 1 seats one size)."""
    if pairing == PAIRING_V1:
        if raw.get("min_table", table_size) != table_size or raw.get("max_table", table_size) != table_size:
            raise _refuse("pairing 1 seats tables of table_size only: min_table and max_table need pairing 2")
        return table_size, table_size
    lowest, highest = max(MIN_TABLE, game.min_players), min(MAX_TABLE, game.max_players)
    low = _integer(raw.get("min_table", table_size), "min_table", lowest, highest)
    high = _integer(raw.get("max_table", table_size), "max_table", lowest, highest)
    if not low <= table_size <= high:
        raise _refuse(f"min_table ({low}) <= table_size ({table_size}) <= max_table ({high}) must hold")
    return low, high


def _time_control(raw: Any) -> TimeControl | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _refuse("time_control must be an object {base_seconds, increment_seconds, on_timeout, bot, bot_playouts}")
    unknown = sorted(set(raw) - {"base_seconds", "increment_seconds", "on_timeout", "bot", "bot_playouts"})
    if unknown:
        raise _refuse(f"unknown time_control settings: {', '.join(unknown)}")
    base = _number(raw.get("base_seconds"), "time_control.base_seconds")
    increment = _number(raw.get("increment_seconds", 0), "time_control.increment_seconds")
    if base <= 0 or increment < 0 or base > 86_400 or increment > 3_600:
        raise _refuse("time_control needs base_seconds in (0, 86400] and increment_seconds in [0, 3600]")
    rule = raw.get("on_timeout", RANDOM_MOVE)
    if rule not in TIMEOUT_RULES:
        raise _refuse(f"time_control.on_timeout must be one of {', '.join(TIMEOUT_RULES)}, not {rule!r}")
    bot, playouts = _clock_bot(raw)
    return TimeControl(round(base * 1000), round(increment * 1000), rule, bot, playouts)


def _clock_bot(raw: dict[str, Any]) -> tuple[str, int | None]:
    """The clock's bot and, for ``search``, its playouts per move (a time budget would make the
    verifier's re-execution differ from the server's move)."""
    bot = raw.get("bot", DEFAULT_CLOCK_BOT)
    if bot not in BOT_NAMES:
        raise _refuse(f"time_control.bot must be one of {', '.join(BOT_NAMES)}, not {bot!r}")
    if bot != "search":
        if "bot_playouts" in raw:
            raise _refuse("time_control.bot_playouts is the search bot's budget: it needs bot 'search'")
        return bot, None
    playouts = _integer(
        raw.get("bot_playouts", CLOCK_SEARCH_PLAYOUTS), "time_control.bot_playouts", 1, MAX_CLOCK_SEARCH_PLAYOUTS
    )
    return bot, playouts
