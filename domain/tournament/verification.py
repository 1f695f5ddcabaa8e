"""Checking a tournament bundle offline: the tournament's log and every game of it.

A bundle is the tournament's records and every table's game record (revealed once the game has
ended). The verifier is strictly stronger than the game verifier, never weaker:

- every game passes the game verifier in full (shape, chain, seed, and a re-execution of every
  command); a game that never ended is re-executed with the seed ``TournamentEnded`` reveals for
  it, and every game's seed is the one derived from the master seed for its table;
- the tournament's log is re-executed too: every record must be exactly what the rules give in the
  tournament as it stood (each round's seating from the master seed, each registration, ruling and
  timeout, the end with its standings), with no unknown key, no stamp going back in time, and
  ``TournamentEnded`` last;
- every result is the one the re-executed game ends with (never the recorded events), and a voided
  game's record ends exactly where it was voided;
- every timeout is on the seat's clock recomputed from the stamps, and no timeout the stamps show
  was dropped.

Whatever the input, the result is a report, never an exception; each problem names the game (or
the tournament's log, or the bundle) and the position.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.bots import bot_of_seat_name
from domain.kernel.chance import creator_seed_of, seed_commitment
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, GAME_ENDED, GENESIS, Record, canonical
from domain.kernel.match import SEAT_KEYED, SEAT_TAKEN, Match
from domain.kernel.names import player_name
from domain.kernel.signatures import BY_ORGANISER, BY_SERVER
from domain.kernel.verification import JsonRefused, check_chain, read_json, verify_and_reexecute
from domain.tournament import rules
from domain.tournament.clock import GameClock, Stamped, check_clock, clock_bot
from domain.tournament.config import LEGACY_CLOCK_BOT, PAIRING_V1, normalize_config
from domain.tournament.log import (
    ADJUDICATED,
    CHECK_IN_OPENED,
    CHECKED_IN,
    FORFEIT_GAME,
    LATE_ENTRY,
    PLAYER_REGISTERED,
    PLAYER_WITHDRAWN,
    RECORD_FIELDS,
    REGISTRATION_CLOSED,
    REPLACE_PLAYER,
    RESULT_RECORDED,
    REVEAL_WITHHELD,
    ROUND_SEATED,
    SECRET_REVEALED,
    TIMED_OUT,
    TOURNAMENT_CREATED,
    TOURNAMENT_ENDED,
    VOID_GAME,
    Table,
    TournamentLog,
)
from domain.tournament.pairing import Seating
from domain.tournament.seeds import clock_bot_seed, mixed_seed, table_seed

BUNDLE_FORMAT = "alexandria-tournament-bundle/1"
BUNDLE_KEYS = ("format", "tournament_id", "fingerprint", "tournament", "games")
LOG_RECORD_KEYS = ("position", "type", "data", "viewers", "prev", "hash")
THE_LOG = "the tournament's log"
THE_BUNDLE = "the bundle"
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX = re.compile(r"(?:[0-9a-f]{2})+")
SHOWN = 200  # characters of a value quoted in a problem

FindGame = Callable[[str], GameDefinition[Any]]


@dataclass
class Finding:
    """One problem: where (a game, the tournament's log, the bundle), at which position, what."""

    where: str
    position: int | None
    message: str
    game_id: str | None = None  # the game it concerns (also for a record of the tournament's log)

    def text(self) -> str:
        at = f": position {self.position}" if self.position is not None else ""
        return f"{self.where}{at}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "position": self.position, "game_id": self.game_id, "message": self.message}


@dataclass
class TournamentReport:
    fingerprint: str  # the hash of the tournament's last record: it commits to every game's fingerprint
    chain_ok: bool
    master_seed_ok: bool | None  # None while the tournament runs (the master seed is still secret)
    games_checked: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return [f.text() for f in self.findings]

    @property
    def bad_games(self) -> list[str]:
        return list(dict.fromkeys(f.game_id for f in self.findings if f.game_id is not None))

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.master_seed_ok is True and not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fingerprint": self.fingerprint,
            "chain_ok": self.chain_ok,
            "master_seed_ok": self.master_seed_ok,
            "games_checked": self.games_checked,
            "bad_games": self.bad_games,
            "problems": self.problems,
            "findings": [f.to_dict() for f in self.findings],
        }


def verify_bundle_text(
    content: bytes | str, find_game: FindGame, fingerprint: str | None = None, commitment: str | None = None
) -> TournamentReport:
    """Check a bundle as a file holds it, however malformed (not UTF-8, not JSON, empty, duplicate
    keys, NaN, nested beyond reason): a report, never an exception."""
    try:
        text = content.decode("utf-8") if isinstance(content, bytes) else content
        bundle = read_json(text)
    except (UnicodeDecodeError, JsonRefused) as bad:
        report = TournamentReport(fingerprint=GENESIS, chain_ok=False, master_seed_ok=None)
        report.findings.append(Finding(THE_BUNDLE, None, f"cannot read the bundle as JSON ({_short(str(bad))})"))
        return report
    return verify_bundle(bundle, find_game, fingerprint, commitment)


def verify_bundle(
    bundle: Any, find_game: FindGame, fingerprint: str | None = None, commitment: str | None = None
) -> TournamentReport:
    """Check a bundle (as read by ``domain.kernel.verification.read_json``); ``fingerprint`` and
    ``commitment`` are what the organiser published: the hash of the tournament's last record and
    ``TournamentCreated``'s master seed commitment."""
    checker = _BundleChecker(bundle, find_game)
    try:
        checker.run(fingerprint, commitment)
    except Exception as bug:  # a defect anywhere must still give a report, never a traceback
        checker.report.findings.append(
            Finding(THE_BUNDLE, None, f"the bundle cannot be checked here ({type(bug).__name__}: {_short(bug)})")
        )
    return checker.report


# -- helpers -------------------------------------------------------------------------------------------


def _short(value: Any) -> str:
    try:
        text = value if isinstance(value, str) else canonical(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _first_difference(found: dict[str, Any], expected: dict[str, Any]) -> str:
    keys = sorted(set(found) | set(expected))
    key = next((k for k in keys if k not in found or k not in expected), None) or next(
        (k for k in keys if canonical(found[k]) != canonical(expected[k])), None
    )
    if key is None:
        return "it differs"
    return f"{key} is {_describe(found, key)}, the rules give {_describe(expected, key)}"


def _describe(side: dict[str, Any], key: str) -> str:
    return _short(side[key]) if key in side else "nothing (no such key)"


def _without_position(message: str, position: int | None) -> str:
    prefix = f"position {position}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def _as_requested(config: dict[str, Any]) -> dict[str, Any]:
    """Recorded settings as an organiser requests them, so the rules can normalise them again."""
    settings = {k: v for k, v in config.items() if k != "game"}
    settings.setdefault("pairing", PAIRING_V1)  # recorded before the pairing rule was versioned
    clock = settings.get("time_control")
    timing = {"base_ms", "increment_ms", "on_timeout"}
    if isinstance(clock, dict) and timing <= set(clock) <= timing | {"bot", "bot_playouts"}:
        base, increment = clock["base_ms"], clock["increment_ms"]
        if _is_int(base) and _is_int(increment):
            settings["time_control"] = {
                "base_seconds": base / 1000,
                "increment_seconds": increment / 1000,
                "on_timeout": clock["on_timeout"],
                "bot": clock.get("bot", LEGACY_CLOCK_BOT),  # a clock recorded without one had the random bot
                **({"bot_playouts": clock["bot_playouts"]} if "bot_playouts" in clock else {}),
            }
    return settings


class _Stop(Exception):
    """The tournament's log cannot be replayed past this record."""


@dataclass
class _Game:
    """One table's game as checked: its records and, once re-executed, the game they give."""

    raw: list[Any]
    ok: bool  # it passed the game verifier (complete, or re-executed in full, or incomplete where allowed)
    complete: bool
    match: Match | None
    records: list[Record] = field(default_factory=list)


class _BundleChecker:
    def __init__(self, bundle: Any, find_game: FindGame) -> None:
        self.bundle = bundle
        self.find_game = find_game
        self.report = TournamentReport(fingerprint=GENESIS, chain_ok=False, master_seed_ok=None)
        self.raw: list[Any] = []
        self.games: dict[str, Any] = {}
        self.log = TournamentLog()
        self.master_seed: bytes | None = None
        self.unfinished_seeds: dict[str, bytes] | None = None
        self.checked: dict[str, _Game] = {}
        self.timeouts: list[tuple[int, dict[str, Any]]] = []  # (position in the log, data)
        self.forfeits_at: list[tuple[int, str, int]] = []  # adjudicated forfeits: (at, game_id, player)
        self.voids: dict[str, tuple[int, dict[str, Any]]] = {}
        self.seat_keys: dict[str, dict[int, str]] = {}  # game id -> its seats' keys: the players' when seated
        # game id -> seat -> the keys of the replacements ruled while the game was played, in order
        self.replacement_keys: dict[str, dict[int, list[str]]] = {}
        self.replayable = 0  # records in order, from the first
        self.replayed = False  # every record was replayed: the tournament's state is whole

    # -- findings ----------------------------------------------------------------------------------

    def on_log(self, position: int | None, message: str, game_id: str | None = None) -> None:
        self.report.findings.append(Finding(THE_LOG, position, message, game_id))

    def on_game(self, table: Table, position: int | None, message: str) -> None:
        where = f"game {table.game_id} (round {table.round}, table {table.table})"
        self.report.findings.append(Finding(where, position, message, table.game_id))

    def on_bundle(self, message: str) -> None:
        self.report.findings.append(Finding(THE_BUNDLE, None, message))

    # -- the whole run -----------------------------------------------------------------------------

    def run(self, fingerprint: str | None, commitment: str | None) -> None:
        if not self._bundle_shape():
            return
        raw = self.raw
        for position, record in enumerate(raw, start=1):
            if not self._record_shape(record, position):
                return
        bad = check_chain(raw)
        self.report.fingerprint = raw[-1]["hash"]
        if bad is not None:
            self.on_log(bad, "the hash chain breaks: the record is not sealed onto the one before")
            return
        self.report.chain_ok = True
        self._published(fingerprint, commitment)
        self.replayable = self._order()
        self._reveal()
        self._replay()
        self._check_games()

    def _bundle_shape(self) -> bool:
        bundle = self.bundle
        if not isinstance(bundle, dict):
            self.on_bundle(f"a tournament bundle is a JSON object with format {BUNDLE_FORMAT!r}, not {_short(bundle)}")
            return False
        if bundle.get("format") != BUNDLE_FORMAT:
            self.on_bundle(f"a tournament bundle has format {BUNDLE_FORMAT!r}, not {_short(bundle.get('format'))}")
            return False
        unknown = sorted(str(k) for k in bundle if k not in BUNDLE_KEYS)
        if unknown:
            self.on_bundle(f"unknown key(s) {', '.join(unknown)}: a bundle holds only {', '.join(BUNDLE_KEYS)}")
        raw, games = bundle.get("tournament"), bundle.get("games")
        if not isinstance(raw, list) or not raw:
            self.on_bundle("the bundle needs the tournament's records: a non-empty list under 'tournament'")
            return False
        if not isinstance(games, dict):
            self.on_bundle("the bundle needs its games: an object of game records under 'games'")
            return False
        self.raw, self.games = raw, games
        return True

    def _record_shape(self, record: Any, position: int) -> bool:
        def refuse(message: str) -> bool:
            self.on_log(position, message)
            return False

        if not isinstance(record, dict):
            return refuse(f"a record is a JSON object, not {_short(record)}")
        unknown = sorted(str(k) for k in record if k not in LOG_RECORD_KEYS)
        if unknown:
            return refuse(f"unknown key(s) {', '.join(unknown)} in the record (only {', '.join(LOG_RECORD_KEYS)})")
        missing = [k for k in LOG_RECORD_KEYS if k not in record]
        if missing:
            return refuse(f"the record lacks {', '.join(missing)}")
        if not _is_int(record["position"]) or record["position"] != position:
            return refuse(f"the record says it is position {_short(record['position'])}")
        if record["viewers"] is not None:
            return refuse("every record of a tournament's log is public (viewers null)")
        for key in ("prev", "hash"):
            if not isinstance(record[key], str) or not HEX64.fullmatch(record[key]):
                return refuse(f"{key} must be 64 hex digits, not {_short(record[key])}")
        kind, data = record["type"], record["data"]
        fields = RECORD_FIELDS.get(kind) if isinstance(kind, str) else None
        if fields is None:
            return refuse(f"{_short(kind)} is no record type of a tournament's log")
        if not isinstance(data, dict):
            return refuse(f"the data of {kind} must be an object, not {_short(data)}")
        odd = sorted(set(data) - fields.allowed)
        if odd:
            return refuse(f"unknown key(s) {', '.join(map(str, odd))} in the data of {kind}")
        lacking = sorted(fields.required - set(data))
        if lacking:
            return refuse(f"the data of {kind} lacks {', '.join(lacking)}")
        if not _is_int(data["at"]):
            return refuse(f"at (the server's time) must be whole milliseconds, not {_short(data['at'])}")
        return True

    def _published(self, fingerprint: str | None, commitment: str | None) -> None:
        raw, n = self.raw, len(self.raw)
        last = raw[-1]["hash"]
        if fingerprint is not None and last != fingerprint.strip().lower():
            self.on_log(
                n,
                f"the fingerprint (the hash of the last record) is {last}, not the published {_short(fingerprint)}: "
                "this is not the published tournament",
            )
        given = self.bundle.get("fingerprint")
        if given is not None and given != last:
            self.on_bundle(f"its fingerprint {_short(given)} is not the hash of the tournament's last record {last}")
        created = raw[0]["data"]
        if commitment is not None and created.get("master_seed_commitment") != commitment.strip().lower():
            self.on_log(
                1,
                f"the master seed commitment is {_short(created.get('master_seed_commitment'))}, "
                f"not the published {_short(commitment)}",
            )
        tournament_id = self.bundle.get("tournament_id")
        if tournament_id is not None and tournament_id != created.get("tournament_id"):
            self.on_bundle(f"its tournament_id {_short(tournament_id)} is not the one TournamentCreated records")

    def _order(self) -> int:
        """``TournamentCreated`` first and only there; ``TournamentEnded`` last: nothing follows the
        end. Returns how many records can be replayed (those before the first out of order)."""
        for position, record in enumerate(self.raw, start=1):
            if (record["type"] == TOURNAMENT_CREATED) != (position == 1):
                self.on_log(position, "a tournament's log starts with TournamentCreated, and only there")
                return position - 1
            if record["type"] == TOURNAMENT_ENDED and position != len(self.raw):
                following = self.raw[position]["type"]
                self.on_log(position + 1, f"{following} follows TournamentEnded: nothing is accepted after the end")
                return position
        return len(self.raw)

    def _reveal(self) -> None:
        """The master seed (and the seeds of games that never ended) that ``TournamentEnded`` reveals."""
        last, n = self.raw[-1], len(self.raw)
        if last["type"] != TOURNAMENT_ENDED:
            self.on_log(n + 1, f"the log ends at position {n}: the tournament has not ended, its master seed is secret")
            return
        data = last["data"]
        seed_hex = data["master_seed"]
        seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) and HEX.fullmatch(seed_hex) else b""
        self.report.master_seed_ok = bool(seed) and seed_commitment(seed) == self.raw[0]["data"].get(
            "master_seed_commitment"
        )
        if not self.report.master_seed_ok:
            self.on_log(n, "the revealed master seed does not match the commitment in TournamentCreated")
        else:
            self.master_seed = seed
        unfinished = data.get("unfinished_seeds")
        if unfinished is None:
            return
        if not isinstance(unfinished, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and HEX.fullmatch(v) for k, v in unfinished.items()
        ):
            self.on_log(n, "unfinished_seeds must map each unfinished game's id to its seed, as hex")
            return
        self.unfinished_seeds = {k: bytes.fromhex(v) for k, v in unfinished.items()}

    # -- the tournament's log, re-executed ----------------------------------------------------------

    def _replay(self) -> None:
        last_at: int | None = None
        for position, raw in enumerate(self.raw[: self.replayable], start=1):
            data = raw["data"]
            if last_at is not None and data["at"] < last_at:
                self.on_log(position, f"at {data['at']} goes back in time (the record before says {last_at})")
            last_at = max(data["at"], last_at or data["at"])
            try:
                self._check_record(raw["type"], data, position)
                self.log.apply_record(Record.from_dict(raw))
            except _Stop:
                return
            except RuleViolation as refusal:
                self.on_log(position, f"{raw['type']} is against the rules here ({refusal.message})")
                return
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as bad:
                self.on_log(position, f"{raw['type']} cannot be replayed ({type(bad).__name__}: {_short(bad)})")
                return
        self.replayed = self.replayable == len(self.raw)

    def _stop(self, position: int, message: str, game_id: str | None = None) -> _Stop:
        self.on_log(position, message, game_id)
        return _Stop()

    def _same(self, kind: str, data: dict[str, Any], expected: dict[str, Any], position: int, keys: Any = None) -> None:
        """The record's data must be what the rules give (on ``keys``, or every key)."""
        compared = set(expected) if keys is None else set(keys)
        found = {k: data.get(k) for k in compared}
        wanted = {k: expected.get(k) for k in compared}
        if canonical(found) != canonical(wanted) or (keys is None and set(data) != set(expected)):
            raise self._stop(position, f"{kind} is not what the rules give here: {_first_difference(data, expected)}")

    def _check_record(self, kind: str, data: dict[str, Any], position: int) -> None:
        state = self.log.state
        at = data["at"]
        if kind == TOURNAMENT_CREATED:
            config = data["config"]
            if not isinstance(config, dict) or not isinstance(config.get("game"), str):
                raise self._stop(position, "config must be the tournament's settings, naming its game")
            if not isinstance(data["tournament_id"], str):
                raise self._stop(position, "tournament_id must be a string")
            game = self.find_game(config["game"])
            settings = _as_requested(config)
            if self.master_seed is not None:
                expected = rules.created(game, data["tournament_id"], settings, self.master_seed, at, data.get("name"))
                self._same(kind, data, expected, position)
            elif canonical(normalize_config(game, settings).to_dict()) != canonical(config):
                raise self._stop(position, "config is not the settings as the rules record them")
            elif "name" in data and data["name"] != player_name(data["name"], rules.MAX_TOURNAMENT_NAME):
                raise self._stop(position, "name is not a tournament name as the rules record it")
        elif kind == PLAYER_REGISTERED:
            expected = rules.register(
                state, data["name"], at, data.get("commitment"), data.get("by"), data.get("public_key"), data.get("bot")
            )
            self._same(kind, data, expected, position, expected)
        elif kind == CHECK_IN_OPENED:
            self._same(kind, data, rules.check_in_opened(state, at), position)
        elif kind == CHECKED_IN:
            self._same(kind, data, rules.checked_in(state, data["player"], at), position)
        elif kind == REGISTRATION_CLOSED:
            self._same(kind, data, rules.registration_closed(state, at), position)
        elif kind == SECRET_REVEALED:
            self._same(kind, data, rules.secret_revealed(state, data["player"], data["secret"], at), position)
        elif kind == REVEAL_WITHHELD:
            withheld = rules.reveals_withheld(state, at)
            if not withheld:
                raise self._stop(position, "a reveal is withheld, but none was due")
            self._same(kind, data, withheld[0], position)
        elif kind == PLAYER_WITHDRAWN:
            self._same(kind, data, rules.player_withdrawn(state, data["player"], data["reason"], at), position)
        elif kind == LATE_ENTRY:
            entry = rules.late_entry(state, data["name"], data["missed_rounds"], at, data.get("public_key"))
            self._same(kind, data, entry, position)
        elif kind == ROUND_SEATED:
            self._check_seating(data, position)
        elif kind == RESULT_RECORDED:
            self._check_result(data, position)
        elif kind == TIMED_OUT:
            self._check_timed_out(data, position)
        elif kind == ADJUDICATED:
            self._check_adjudicated(data, position)
        elif kind == TOURNAMENT_ENDED and self.master_seed is not None:
            expected = rules.ended(state, self.master_seed, at)
            self._same(kind, data, expected, position, expected)

    def _check_seating(self, data: dict[str, Any], position: int) -> None:
        state = self.log.state
        tables = data["tables"]
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise self._stop(position, "tables must be a list of tables")
        game_ids = [t.get("game_id") for t in tables]
        commitments = [t.get("seed_commitment") for t in tables]
        known = {t.game_id for t in state.tables()}
        named = all(isinstance(g, str) for g in game_ids)
        if not named or len(set(game_ids)) != len(game_ids) or known & set(game_ids):
            raise self._stop(position, "every table names a game of its own")
        if not all(isinstance(c, str) and HEX64.fullmatch(c) for c in commitments):
            raise self._stop(position, "every table records its game's seed commitment (64 hex digits)")
        if "reason" in data:  # the organiser's manual seating: held to the rules of one
            players = [t.get("players") for t in tables]
            seating = rules.manual_seating(state, players, data["byes"], data["reason"])
        elif self.master_seed is not None:
            seating = rules.plan_round(state, self.master_seed)
        else:  # the seating cannot be drawn again before the master seed is revealed
            rules.check_can_seat(state)
            seating = Seating(tables=[t.get("players") for t in tables], byes=data["byes"])
        if len(seating.tables) != len(tables):
            raise self._stop(position, f"the rules seat {len(seating.tables)} tables, the record {len(tables)}")
        expected = rules.round_seated(state, seating, game_ids, data["at"], commitments)
        for table in expected["tables"]:
            players = table["players"] if isinstance(table["players"], list) else []
            keys = {s: state.keys[p] for s, p in enumerate(players) if isinstance(p, int) and p in state.keys}
            self.seat_keys[table["game_id"]] = keys
        if canonical(expected) != canonical(data):
            raise self._stop(
                position,
                f"round {_short(data['round'])} is not seated as the rules and the master seed seat it: "
                f"{_first_difference(data, expected)}",
            )

    def _table(self, game_id: Any, position: int) -> Table:
        table = self.log.state.table_of(game_id) if isinstance(game_id, str) else None
        if table is None:
            raise self._stop(position, f"{_short(game_id)} is no table of the tournament seated before this record")
        return table

    def _check_result(self, data: dict[str, Any], position: int) -> None:
        state = self.log.state
        table = self._table(data["game_id"], position)
        game = self._game(table)
        if game.ok and not game.complete:
            n = len(game.raw)
            self.on_game(
                table, n + 1, f"the record ends at position {n} without GameEnded, but {THE_LOG} records a result"
            )
            raise self._stop(position, f"a result is recorded for game {table.game_id}, but its game has not ended")
        if game.match is None or not game.complete:
            raise self._stop(position, f"a result is recorded for game {table.game_id}, but its record does not verify")
        if table.game_id in state.results:
            raise self._stop(position, f"a second result for game {table.game_id}", table.game_id)
        scoreboard = game.match.game.scoreboard(game.match.state)
        expected = rules.result_recorded(state, table.game_id, scoreboard, game.raw[-1]["hash"], data["at"])
        assert expected is not None
        if canonical(expected) != canonical(data):
            n = len(game.raw)
            self.on_log(
                position,
                f"the result of game {table.game_id} is not the one its re-executed record (to its position {n}) "
                f"ends with: {_first_difference(data, expected)}",
                table.game_id,
            )

    def _check_timed_out(self, data: dict[str, Any], position: int) -> None:
        state = self.log.state
        table = self._table(data["game_id"], position)
        if state.settings.time_control is None:
            raise self._stop(position, "a timeout is recorded, but the tournament has no clocks", table.game_id)
        seat, version = data["seat"], data["version"]
        if not _is_int(seat) or not 0 <= seat < len(table.players) or not _is_int(version) or version < 1:
            raise self._stop(position, "a timeout names a seat of its game and a version", table.game_id)
        if any(t["game_id"] == table.game_id and t["seat"] == seat and t["version"] == version for t in state.timeouts):
            raise self._stop(position, f"the timeout of seat {seat} at version {version} is recorded twice")
        expected = rules.timed_out(state, table.game_id, seat, version, data["expired_at"], data["at"])
        self._same(TIMED_OUT, data, expected, position)
        if not _is_int(data["expired_at"]) or data["at"] < data["expired_at"]:
            raise self._stop(position, "a timeout is recorded before the time it says the seat ran out", table.game_id)
        self.timeouts.append((position, data))

    def _check_adjudicated(self, data: dict[str, Any], position: int) -> None:
        request = {k: v for k, v in data.items() if k != "at"}
        expected = rules.adjudicated(self.log.state, request, data["at"])
        self._same(ADJUDICATED, data, expected, position, expected)
        extra = set(data) - set(expected)
        if data["kind"] == VOID_GAME:
            extra -= {"game_version", "game_fingerprint"}
            if ("game_version" in data) != ("game_fingerprint" in data):
                raise self._stop(position, "a void records both the game's version and its fingerprint")
            if "game_version" in data and (
                not _is_int(data["game_version"])
                or not isinstance(data["game_fingerprint"], str)
                or not HEX64.fullmatch(data["game_fingerprint"])
            ):
                raise self._stop(position, "game_version is a version and game_fingerprint a hash")
            self.voids[data["game_id"]] = (position, data)
        if extra:
            raise self._stop(position, f"{', '.join(sorted(extra))} is no field of a {data['kind']} ruling")
        if data["kind"] == FORFEIT_GAME:
            self.forfeits_at.append((data["at"], data["game_id"], data["player"]))
        if data["kind"] == REPLACE_PLAYER and "public_key" in data:
            # The games still being played may hand the player's seat to the replacement's key.
            state = self.log.state
            done = set(state.results) | state.voided()
            for table in state.tables():
                if data["player"] in table.players and table.game_id not in done:
                    seat = table.players.index(data["player"])
                    self.replacement_keys.setdefault(table.game_id, {}).setdefault(seat, []).append(data["public_key"])

    # -- the games ---------------------------------------------------------------------------------

    def _game(self, table: Table) -> _Game:
        """The table's game, checked by the game verifier once (re-executed in full)."""
        found = self.checked.get(table.game_id)
        if found is not None:
            return found
        raw = self.games.get(table.game_id)
        if not isinstance(raw, list) or not raw:
            self.on_game(table, None, "missing from the bundle")
            game = self.checked[table.game_id] = _Game([], False, False, None)
            return game
        seed = (self.unfinished_seeds or {}).get(table.game_id)
        ended = isinstance(raw[-1], dict) and raw[-1].get("type") == GAME_ENDED
        report, match = verify_and_reexecute(raw, self.find_game, seed=None if ended else seed)
        self.report.games_checked += 1
        ok = not report.problems and (report.verified or not report.complete)
        game = self.checked[table.game_id] = _Game(raw, ok, report.complete, match)
        if report.problems:
            first = report.first_bad_position
            self.on_game(table, first, f"its record does not verify: {_without_position(report.problems[0], first)}")
            return game
        game.records = [Record.from_dict(r) for r in raw]
        self._check_created(table, game)
        return game

    def _check_created(self, table: Table, game: _Game) -> None:
        created = game.raw[0]["data"]
        config = self.log.state.settings
        if created.get("game") != config.game or created.get("players") != len(table.players):
            game.ok = False
            self.on_game(
                table,
                1,
                f"its record is a {_short(created.get('players'))}-player {_short(created.get('game'))}, "
                "not this table's game",
            )
        elif canonical(created.get("options")) != canonical(config.options):
            game.ok = False
            self.on_game(table, 1, "its options are not the tournament's")
        elif created.get("seed_commitment") != table.seed_commitment:
            game.ok = False
            self.on_game(table, 1, "its seed commitment is not the one the tournament recorded when seating the table")
        elif (created.get("keys_required") is True) != config.keys_required:
            game.ok = False
            self.on_game(table, 1, "its keys_required is not the tournament's")
        else:
            self._check_keys(table, game)
            self._check_bot_seats(table, game)

    def _check_bot_seats(self, table: Table, game: _Game) -> None:
        """A bot player's seat is the server's seat of its bot (named by it in ``SeatTaken``), and
        no other seat is: nobody's moves pass for a bot's, nor a bot's for a person's."""
        if game.match is None:
            return
        bots = self.log.state.bots
        for seat, player in enumerate(table.players):
            found, expected = bot_of_seat_name(game.match.names.get(seat)), bots.get(player)
            if found != expected:
                game.ok = False
                where = next(
                    (r.position for r in game.records if r.type == SEAT_TAKEN and r.data.get("seat") == seat), None
                )
                self.on_game(
                    table,
                    where,
                    f"seat {seat} is played by {_short(found or 'a person')}, but its player {player} is "
                    f"{_short(expected or 'a person')}",
                )
                return

    def _check_keys(self, table: Table, game: _Game) -> None:
        """Each seat is keyed with its player's registered key, and only a keyed player's seat is:
        a seat the server keyed with a key of its own could be signed for by the server."""
        if game.match is None:
            return
        wanted = self.seat_keys.get(table.game_id, {})
        replacements = self.replacement_keys.get(table.game_id, {})
        for seat in range(len(table.players)):
            found, expected = game.match.keys.get(seat), wanted.get(seat)
            rekeys = [r for r in game.records if r.type == SEAT_KEYED and r.data.get("seat") == seat and "by" in r.data]
            allowed = replacements.get(seat, [])
            stray = next((r for r in rekeys if r.data["public_key"] not in allowed), None)
            if stray is not None:
                game.ok = False
                self.on_game(
                    table,
                    stray.position,
                    f"seat {seat} is handed to key {_short(stray.data['public_key'])} by the organiser, but no "
                    f"replacement of player {table.players[seat]} ruled while the game was played has that key",
                )
                return
            if rekeys:
                expected = rekeys[-1].data["public_key"]
            if found != expected:
                where = next(
                    (
                        r.position
                        for r in game.records
                        if r.type in (SEAT_KEYED, SEAT_TAKEN) and r.data.get("seat") == seat
                    ),
                    None,
                )
                game.ok = False
                self.on_game(
                    table,
                    where,
                    f"seat {seat} is keyed with {_short(found)}, but its player {table.players[seat]} registered "
                    f"{_short(expected)}",
                )
                return

    def _check_games(self) -> None:
        state = self.log.state
        for table in state.tables():
            game = self._game(table)
            if not game.ok:
                continue
            self._check_seed(table, game)
            self._check_void(table, game)
            self._check_clock(table, game)
            if self.replayed and state.ended is not None and game.complete and table.game_id not in state.results:
                self.on_game(table, len(game.raw), "the game ended, but the tournament has no result for it")
        if not self.replayed:  # the tables seated after the replay stopped are not known
            return
        seated = {t.game_id for t in state.tables()}
        unfinished = {t.game_id for t in state.tables() if not self._game(t).complete}
        for extra in sorted(set(self.unfinished_seeds or {}) - unfinished):
            self.on_log(len(self.raw), f"TournamentEnded reveals a seed for {_short(extra)}, no unfinished game of it")
        for extra in sorted(str(g) for g in self.games if g not in seated):
            self.report.findings.append(Finding(f"game {extra}", None, "in the bundle, but no table of the tournament"))

    def _check_seed(self, table: Table, game: _Game) -> None:
        """The game's seed is the server's fresh salt, then the creator's seed (the table's derived
        seed); the game verifier has checked the whole seed against the commitment."""
        if self.master_seed is None:
            return
        n = len(game.raw)
        state = self.log.state
        derived = table_seed(mixed_seed(self.master_seed, state.reveals), state.tournament_id, table.round, table.table)
        if game.complete:
            revealed = game.raw[-1]["data"].get("seed")
            if not isinstance(revealed, str) or creator_seed_of(revealed) != derived:
                self.on_game(table, n, "its seed is not the one derived from the master seed for this table")
            return
        seeds = self.unfinished_seeds
        if seeds is None:  # a log from before the end revealed unfinished games' seeds: checked as far as it goes
            return
        seed = seeds.get(table.game_id)
        if seed is None:
            self.on_log(
                len(self.raw), f"TournamentEnded does not reveal the seed of game {table.game_id}", table.game_id
            )
        elif game.match is None or creator_seed_of(seed.hex()) != derived:
            self.on_game(table, n, "the seed revealed for it is not the one derived from the master seed for it")

    def _check_void(self, table: Table, game: _Game) -> None:
        """A voided game's record ends exactly where it was voided (nothing is played after)."""
        void = self.voids.get(table.game_id)
        if void is None:
            if not game.complete and self.log.state.ended is not None:
                n = len(game.raw)
                self.on_game(
                    table, n + 1, f"the record ends at position {n}: the game never ended, and it is not voided"
                )
            return
        position, data = void
        version, fingerprint = data.get("game_version"), data.get("game_fingerprint")
        # A command stamped after the void was played after it (stamps never run ahead of the server's time).
        late = next((r for r in game.records if _is_int(r.data.get("at")) and r.data["at"] > data["at"]), None)
        if late is not None:
            self.on_game(
                table,
                late.position,
                f"a command stamped {late.data['at']}, after the void (position {position} "
                f"of {THE_LOG}, at {data['at']})",
            )
        if version is None:  # a void recorded before voids named where the game stops
            return
        n = len(game.raw)
        if n != version or game.raw[-1]["hash"] != fingerprint:
            where = version + 1 if n > version else n
            self.on_game(
                table,
                where,
                f"the game was voided at version {version} (position {position} of {THE_LOG}), "
                f"but its record ends at position {n}",
            )

    def _check_clock(self, table: Table, game: _Game) -> None:
        """The game's stamps and timeouts by the clock's one check (``check_clock``, which the
        service asks before recording a timeout), each finding named in the game or in the log."""
        state = self.log.state
        control = state.settings.time_control
        acts = {r.position: r for r in game.records if r.type == COMMAND_ACCEPTED and "by" in r.data}
        if control is None:
            stamped = next((r for r in game.records if r.type == COMMAND_ACCEPTED and "at" in r.data), None)
            if stamped is not None:
                self.on_game(table, stamped.position, "a command of a game without clocks carries a stamp")
            ruled = {p for _, g, p in self.forfeits_at if g == table.game_id}
            for position, record in acts.items():
                player = table.players[record.data["seat"]]
                if record.data["by"] != BY_ORGANISER or player not in ruled:
                    self.on_game(
                        table,
                        position,
                        f"a command by {_short(record.data['by'])} for seat {record.data['seat']}, but in a game "
                        f"without clocks only a seat the organiser ruled forfeited is played for its player",
                    )
            for position, message in self._wrong_rule_moves(table, game, set(acts)):
                self.on_game(table, position, message)
            return
        definition = self.find_game(state.settings.game)
        clock = GameClock(
            definition, len(table.players), state.settings.options, control, state.round_times[table.round - 1]
        )
        clock.feed(game.records)
        timeouts = [(q, t) for q, t in self.timeouts if t["game_id"] == table.game_id]
        forfeits = [
            (at, table.players.index(who))
            for at, g, who in self.forfeits_at
            if g == table.game_id and who in table.players
        ]
        check = check_clock(clock, [t for _, t in timeouts], forfeits)
        wrong_moves = self._wrong_rule_moves(table, game, {m.position for m in check.rule_moves})
        keyed = set(self.seat_keys.get(table.game_id, {}))
        wrong_moves += self._acts_problems(acts, check.rule_moves, forfeits, keyed)
        wrong_moves.sort(key=lambda found: found[0])
        # In the record's order, as the check finds them: a wrong rule's move after the clock's findings at it.
        for finding in check.findings:
            while wrong_moves and (finding.position is None or wrong_moves[0][0] < finding.position):
                self.on_game(table, *wrong_moves.pop(0))
            if finding.timeout is None:
                self.on_game(table, finding.position, finding.message)
            else:
                self.on_log(timeouts[finding.timeout][0], finding.message, table.game_id)
        for position, message in wrong_moves:
            self.on_game(table, position, message)

    @staticmethod
    def _acts_problems(
        acts: dict[int, Record], moves: list[Stamped], forfeits: list[tuple[int, int]], keyed: set[int]
    ) -> list[tuple[int, str]]:
        """Every move of the clock rule (a timeout's, a forfeited seat's) is recorded as no act of
        the seat's, and nothing else is: the organiser's where they had ruled the seat forfeited by
        its stamp, else the server's. An unkeyed seat's rule move may carry no ``by``: records made
        before acts were named have none, and an unkeyed seat's command proves no author anyway."""
        problems: list[tuple[int, str]] = []
        rule = {m.position: m for m in moves}
        for position in sorted(set(acts) | set(rule)):
            act, move = acts.get(position), rule.get(position)
            if move is None:
                assert act is not None
                problems.append((position, f"a command by {_short(act.data['by'])} where no clock rule plays the seat"))
            elif act is None:
                if move.mover not in keyed:
                    continue
                problems.append(
                    (position, f"the clock rule's move for seat {move.mover} is recorded as the seat's own command")
                )
            else:
                ruled = any(s == move.mover and move.at is not None and t <= move.at for t, s in forfeits)
                allowed = {BY_SERVER, BY_ORGANISER} if ruled else {BY_SERVER}
                if act.data["by"] not in allowed:
                    problems.append((position, f"the clock rule's move is recorded by {_short(act.data['by'])}"))
        return problems

    def _wrong_rule_moves(self, table: Table, game: _Game, positions: set[int]) -> list[tuple[int, str]]:
        """The clock rule's moves (at ``positions``) that are not the clock's bot's (its stream for
        the game and version), against the game as the records before each leave it."""
        if self.master_seed is None or not positions:
            return []
        state = self.log.state
        definition = self.find_game(state.settings.game)
        shadow = Match.replay(definition, len(table.players), state.settings.options)
        wrong: list[tuple[int, str]] = []
        for record in game.records[: max(positions)]:
            if record.position in positions and (problem := self._rule_move_problem(table, record, shadow)):
                wrong.append((record.position, problem))
            shadow.apply_record(record)
        return wrong

    def _rule_move_problem(self, table: Table, record: Record, shadow: Match) -> str | None:
        assert self.master_seed is not None
        version, seat = record.position - 1, record.data["seat"]
        seed = clock_bot_seed(self.master_seed, self.log.state.tournament_id, table.game_id, version)
        bot = clock_bot(self.log.state.settings.time_control, seed)
        try:
            command = bot.choose(shadow.game, shadow.state, seat)
        except RuntimeError:  # no legal move: the record says otherwise
            command = None
        expected = None if command is None else {"type": command.type, **command.to_dict()}
        if canonical(expected) == canonical(record.data["command"]):
            return None
        return (
            f"the clock rule's move for seat {seat} is {_short(record.data['command'])}, but the {bot.name} "
            f"bot (its stream for this game and version {version}) plays {_short(expected)}"
        )
