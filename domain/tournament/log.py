"""The tournament's own log: records on a hash chain, in the kernel's record form and canonical
hashing (so ``domain.kernel.verification.check_chain`` checks it), and the state they build.

Every tournament record is public. The master seed is kept out of the log until
``TournamentEnded`` reveals it; ``TournamentCreated`` carries its commitment. A player may commit
to a secret when registered (``PlayerRegistered.commitment``: sha256 of the secret); once
``RegistrationClosed``, each reveals it (``SecretRevealed``), and the seatings and table seeds mix
the master seed with every revealed secret (``seeds.mixed_seed``). A committed player who has not
revealed when round 1 is seated gets a public ``RevealWithheld`` and is withdrawn from the event.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import seed_commitment
from domain.kernel.log import GENESIS, Record, record_hash
from domain.tournament.config import FORFEIT, TournamentConfig
from domain.tournament.standings import GameOutcome, rerank_forfeits

TOURNAMENT_CREATED = "TournamentCreated"
PLAYER_REGISTERED = "PlayerRegistered"
REGISTRATION_CLOSED = "RegistrationClosed"
SECRET_REVEALED = "SecretRevealed"
REVEAL_WITHHELD = "RevealWithheld"
ROUND_SEATED = "RoundSeated"
RESULT_RECORDED = "ResultRecorded"
TIMED_OUT = "TimedOut"
ADJUDICATED = "Adjudicated"
TOURNAMENT_ENDED = "TournamentEnded"
PLAYER_WITHDRAWN = "PlayerWithdrawn"
LATE_ENTRY = "LateEntry"
CHECK_IN_OPENED = "CheckInOpened"
CHECKED_IN = "CheckedIn"


@dataclass(frozen=True)
class Fields:
    """The keys a record type's ``data`` holds: all of ``required``, any of ``optional``, nothing else."""

    required: frozenset[str]
    optional: frozenset[str] = frozenset()

    @property
    def allowed(self) -> frozenset[str]:
        return self.required | self.optional


# Every record type of the tournament's log and the keys of its data: the verifier refuses a
# record of another type or with another key (a key nobody checks could carry anything).
RECORD_FIELDS: dict[str, Fields] = {
    # name: what lists and exports call the tournament, when the organiser gave one.
    TOURNAMENT_CREATED: Fields(
        frozenset({"tournament_id", "config", "master_seed_commitment", "at"}), frozenset({"name"})
    ),
    # commitment: the SHA-256 of the player's secret, when they contribute to the event's chance;
    # by: who registered the player (REGISTERED_BY), absent in logs from before self-registration;
    # public_key: the player's Ed25519 key, which keys their seat in each of their games;
    # bot: the server's bot (BOT_NAMES) that plays the entry's seat at every table it is seated at.
    PLAYER_REGISTERED: Fields(
        frozenset({"player", "name", "at"}), frozenset({"commitment", "by", "public_key", "bot"})
    ),
    REGISTRATION_CLOSED: Fields(frozenset({"players", "committed", "at"})),
    SECRET_REVEALED: Fields(frozenset({"player", "secret", "at"})),
    REVEAL_WITHHELD: Fields(frozenset({"player", "consequence", "at"})),
    # reason: present when the organiser seated the round by hand (a manual seating, a ruling).
    ROUND_SEATED: Fields(frozenset({"round", "tables", "byes", "at"}), frozenset({"reason"})),
    RESULT_RECORDED: Fields(
        frozenset({"game_id", "round", "table", "scores", "placings", "winners", "fingerprint", "at"})
    ),
    # bot: the clock's bot that played the rule's move, absent in logs from before it was a setting (random).
    TIMED_OUT: Fields(
        frozenset({"game_id", "round", "table", "seat", "player", "version", "expired_at", "rule", "at"}),
        frozenset({"bot"}),
    ),
    # By kind (the rules decide which): player (forfeit, replace), name (replace), game_id (forfeit,
    # void, correct), placings and scores (correct), game_version and game_fingerprint (void: where
    # the voided game's record ends), players (forbid_pair: the two, in order).
    ADJUDICATED: Fields(
        frozenset({"kind", "reason", "at"}),
        frozenset(
            {
                "player",
                "name",
                "game_id",
                "placings",
                "scores",
                "game_version",
                "game_fingerprint",
                "public_key",
                "players",
            }
        ),
    ),
    # Roster changes between rounds. from_round: the first round they change; missed_rounds: what
    # a late entry gets for each round before it (MISSED_ROUND_RULES).
    PLAYER_WITHDRAWN: Fields(frozenset({"player", "reason", "from_round", "at"})),
    LATE_ENTRY: Fields(frozenset({"player", "name", "from_round", "missed_rounds", "at"}), frozenset({"public_key"})),
    # Check-in before round 1: the organiser opens it, each player checks in; whoever has not by
    # the close of registration (or round 1's seating) is withdrawn then (PlayerWithdrawn,
    # reason CHECK_IN_MISSED).
    CHECK_IN_OPENED: Fields(frozenset({"at"})),
    CHECKED_IN: Fields(frozenset({"player", "at"})),
    # unfinished_seeds: the revealed seed of every table whose game never ended, by game id.
    TOURNAMENT_ENDED: Fields(frozenset({"standings", "master_seed", "at"}), frozenset({"unfinished_seeds"})),
}

# Adjudication kinds: each is a compensating record with a reason, never an edit.
FORFEIT_GAME = "forfeit"  # a player loses a game: placed last, and the bot plays the seat if it still runs
VOID_GAME = "void"  # a game counts for nobody
REPLACE_PLAYER = "replace"  # someone else plays on under the entry (a new name and a new player token)
CORRECT_RESULT = "correct"  # the placings (and scores) of a game are not what its record says
FORBID_PAIR = "forbid_pair"  # two players are never seated together by the automatic pairing again
ADJUDICATION_KINDS = (FORFEIT_GAME, VOID_GAME, REPLACE_PLAYER, CORRECT_RESULT, FORBID_PAIR)

# Who registered a player: the organiser (who is then handed the player's token), or the player
# themselves with the published registration code (only they ever see their token).
BY_ORGANISER = "organiser"
BY_SELF = "self"
REGISTERED_BY = (BY_ORGANISER, BY_SELF)

# What a late entry gets for each round it missed: the points of a bye, or nothing.
MISSED_AS_BYES = "bye"
MISSED_AS_ZERO = "zero"
MISSED_ROUND_RULES = (MISSED_AS_BYES, MISSED_AS_ZERO)

# The reason recorded when a player who had not checked in is left out of the event.
CHECK_IN_MISSED = "did not check in"

# What a withheld reveal costs: the entry takes no further part, and the seed mixes without it.
WITHDRAWN = "withdrawn"


def seal(position: int, type_: str, data: dict[str, Any], prev: str) -> Record:
    """One public record on the chain after ``prev`` (the kernel's hashed form)."""
    unsealed = Record(position, type_, data, None, None, None, None, prev, "")
    return Record(position, type_, data, None, None, None, None, prev, record_hash(unsealed.hashed_content()))


@dataclass
class Table:
    round: int
    table: int
    game_id: str
    players: list[int]  # in seat order
    seed_commitment: str | None = None  # the game's, as recorded when the table was seated


@dataclass
class TournamentState:
    tournament_id: str = ""
    name: str | None = None
    config: TournamentConfig | None = None
    master_seed_commitment: str = ""
    created_at: int = 0
    names: list[str] = field(default_factory=list)
    commitments: dict[int, str] = field(default_factory=dict)  # player -> sha256 of their secret
    registered_by: dict[int, str] = field(default_factory=dict)  # player -> BY_ORGANISER or BY_SELF, when recorded
    keys: dict[int, str] = field(default_factory=dict)  # player -> their public key (the latest: a replacement's)
    registration_closed: bool = False
    reveals: dict[int, str] = field(default_factory=dict)  # player -> the revealed secret (hex)
    withdrawn: list[int] = field(default_factory=list)  # players withdrawn (a withheld reveal, or by the organiser)
    late_entries: dict[int, dict[str, Any]] = field(default_factory=dict)  # player -> their LateEntry's data
    bots: dict[int, str] = field(default_factory=dict)  # player -> the server's bot that plays them
    check_in_open: bool = False  # check-in asked for before round 1: by the organiser, or the check_in setting
    checked_in: list[int] = field(default_factory=list)  # players who checked in, in order
    rounds: list[list[Table]] = field(default_factory=list)
    round_times: list[int] = field(default_factory=list)
    byes: list[list[int]] = field(default_factory=list)
    seating_reasons: list[str | None] = field(default_factory=list)  # each round's manual seating's reason, or None
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    timeouts: list[dict[str, Any]] = field(default_factory=list)
    adjudications: list[dict[str, Any]] = field(default_factory=list)
    ended: dict[str, Any] | None = None
    last_at: int = 0  # the latest record's stamp: a decision is never stamped earlier

    @property
    def settings(self) -> TournamentConfig:
        assert self.config is not None, "a tournament starts with TournamentCreated"
        return self.config

    def active_players(self) -> list[int]:
        """The players who are seated: every registered player but the withdrawn."""
        return [p for p in range(len(self.names)) if p not in self.withdrawn]

    @property
    def check_in_taken(self) -> bool:
        """Check-in takes players now: the organiser opened it, and the roster has not closed."""
        return self.check_in_open and not self.registration_closed and not self.rounds

    def missing_check_ins(self) -> list[int]:
        """While check-in is open (before the roster closes): the players still taking part who
        have not checked in. A bot player needs no check-in: the server is there to play it."""
        if not self.check_in_taken:
            return []
        return [p for p in self.active_players() if p not in self.checked_in and p not in self.bots]

    def pending_reveals(self) -> list[int]:
        """Committed players who have neither revealed nor been withdrawn for withholding."""
        return [p for p in sorted(self.commitments) if p not in self.reveals and p not in self.withdrawn]

    def tables(self) -> list[Table]:
        return [t for tables in self.rounds for t in tables]

    def table_of(self, game_id: str) -> Table | None:
        return next((t for t in self.tables() if t.game_id == game_id), None)

    def forbidden_pairs(self) -> frozenset[tuple[int, int]]:
        """The pairs of players the organiser's rulings keep apart in automatic pairings."""
        forbids = [a["players"] for a in self.adjudications if a["kind"] == FORBID_PAIR]
        return frozenset((low, high) for low, high in forbids)

    def voided(self) -> set[str]:
        return {a["game_id"] for a in self.adjudications if a["kind"] == VOID_GAME}

    def forfeited(self, game_id: str) -> set[int]:
        """The players who forfeited this game (adjudicated, or out of time under the forfeit rule)."""
        players = ruled_forfeits(self, game_id)
        players |= {t["player"] for t in self.timeouts if t["rule"] == FORFEIT and t["game_id"] == game_id}
        return players

    def round_complete(self, index: int) -> bool:
        voided = self.voided()
        return all(t.game_id in self.results or t.game_id in voided for t in self.rounds[index])

    def outcomes(self) -> list[GameOutcome]:
        """Every game as it counts for the standings: its result, corrected, with forfeits put last."""
        voided = self.voided()
        corrections = {a["game_id"]: a for a in self.adjudications if a["kind"] == CORRECT_RESULT}
        outcomes = []
        for table in self.tables():
            result = corrections.get(table.game_id) or self.results.get(table.game_id)
            if result is None or table.game_id in voided:
                continue
            forfeited = {table.players.index(p) for p in self.forfeited(table.game_id) if p in table.players}
            placings = rerank_forfeits(result["placings"], forfeited) if forfeited else list(result["placings"])
            outcomes.append(GameOutcome(table.game_id, table.round, table.players, placings, list(result["scores"])))
        return outcomes

    def all_byes(self) -> list[int]:
        return [p for byes in self.byes for p in byes]

    def credited_byes(self) -> list[int]:
        """The byes as the standings count them: every round's byes, and each round a late entry
        missed when its rule credits those rounds as byes."""
        missed = [
            p
            for p, entry in self.late_entries.items()
            if entry["missed_rounds"] == MISSED_AS_BYES
            for _ in range(entry["from_round"] - 1)
        ]
        return self.all_byes() + missed

    def seat_counts(self) -> dict[int, Counter[int]]:
        counts: dict[int, Counter[int]] = {p: Counter() for p in range(len(self.names))}
        for table in self.tables():
            for seat, player in enumerate(table.players):
                counts[player][seat] += 1
        return counts


def ruled_forfeits(state: TournamentState, game_id: str) -> set[int]:
    """The players of a game the organiser ruled forfeited (not by a timeout)."""
    return {a["player"] for a in state.adjudications if a["kind"] == FORFEIT_GAME and a["game_id"] == game_id}


def evolve(state: TournamentState, record: Record) -> TournamentState:
    data = record.data
    if isinstance(data.get("at"), int):
        state.last_at = max(state.last_at, data["at"])
    if record.type == TOURNAMENT_CREATED:
        state.tournament_id = data["tournament_id"]
        state.name = data.get("name")
        state.config = TournamentConfig.from_dict(data["config"])
        state.check_in_open = state.config.check_in  # the setting opens check-in with the tournament
        state.master_seed_commitment = data["master_seed_commitment"]
        state.created_at = data["at"]
    elif record.type == PLAYER_REGISTERED:
        if data.get("commitment") is not None:
            state.commitments[len(state.names)] = data["commitment"]
        if data.get("by") is not None:
            state.registered_by[len(state.names)] = data["by"]
        if data.get("public_key") is not None:
            state.keys[len(state.names)] = data["public_key"]
        if data.get("bot") is not None:
            state.bots[len(state.names)] = data["bot"]
        state.names.append(data["name"])
    elif record.type == CHECK_IN_OPENED:
        state.check_in_open = True
    elif record.type == CHECKED_IN:
        if data["player"] in state.checked_in:
            raise ValueError(f"player {data['player']} has checked in already")
        state.checked_in.append(data["player"])
    elif record.type == REGISTRATION_CLOSED:
        state.registration_closed = True
    elif record.type == SECRET_REVEALED:
        _apply_reveal(state, data["player"], data["secret"])
    elif record.type == REVEAL_WITHHELD:
        if data["player"] not in state.pending_reveals():
            raise ValueError(f"player {data['player']} had no reveal to withhold")
        state.withdrawn.append(data["player"])
    elif record.type == ROUND_SEATED:
        state.rounds.append(
            [
                Table(data["round"], t["table"], t["game_id"], list(t["players"]), t.get("seed_commitment"))
                for t in data["tables"]
            ]
        )
        state.byes.append(list(data["byes"]))
        state.seating_reasons.append(data.get("reason"))
        state.round_times.append(data["at"])
    elif record.type == RESULT_RECORDED:
        state.results[data["game_id"]] = data
    elif record.type == TIMED_OUT:
        state.timeouts.append(data)
    elif record.type == ADJUDICATED:
        state.adjudications.append(data)
        if data["kind"] == REPLACE_PLAYER:
            state.names[data["player"]] = data["name"]
            if data.get("public_key") is not None:
                state.keys[data["player"]] = data["public_key"]
    elif record.type == PLAYER_WITHDRAWN:
        if data["player"] in state.withdrawn:
            raise ValueError(f"player {data['player']} is withdrawn already")
        state.withdrawn.append(data["player"])
    elif record.type == LATE_ENTRY:
        state.late_entries[len(state.names)] = data
        if data.get("public_key") is not None:
            state.keys[len(state.names)] = data["public_key"]
        state.names.append(data["name"])
    elif record.type == TOURNAMENT_ENDED:
        state.ended = data
    else:
        raise ValueError(f"a tournament log has no record type {record.type!r}")
    return state


def _apply_reveal(state: TournamentState, player: int, secret: str) -> None:
    # A replayed log must hold what the rules checked: a reveal opens its player's commitment.
    if player not in state.pending_reveals() or seed_commitment(bytes.fromhex(secret)) != state.commitments[player]:
        raise ValueError(f"player {player}'s revealed secret does not open their commitment")
    state.reveals[player] = secret


class TournamentLog:
    """A tournament's state and the tip of its chain; ``append`` seals and applies one record."""

    def __init__(self) -> None:
        self.state = TournamentState()
        self.version = 0
        self.last_hash = GENESIS

    def append(self, type_: str, data: dict[str, Any]) -> Record:
        record = seal(self.version + 1, type_, data, self.last_hash)
        self.apply_record(record)
        return record

    def apply_record(self, record: Record) -> None:
        evolve(self.state, record)
        self.version = record.position
        self.last_hash = record.hash

    @classmethod
    def replay(cls, records: list[Record]) -> TournamentLog:
        log = cls()
        for record in records:
            log.apply_record(record)
        return log
