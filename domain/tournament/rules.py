"""What may happen to a tournament, as pure decisions: each returns the data of the record to
append, or raises ``RuleViolation`` (nothing recorded)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from domain.kernel.bots import BOT_NAMES
from domain.kernel.chance import CONTRIBUTION_MAX_BYTES, CONTRIBUTION_MIN_BYTES, Chance, seed_commitment
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition, Scoreboard
from domain.kernel.names import BAD_NAME as BAD_NAME  # a registration's refusals
from domain.kernel.names import NAME_TAKEN as NAME_TAKEN
from domain.kernel.names import check_name_free, player_name
from domain.kernel.signatures import BAD_KEY, KEY_REQUIRED, parse_public_key
from domain.tournament import pairing, pairing_v2
from domain.tournament.config import (
    BALANCED,
    LEGACY_CLOCK_BOT,
    PAIRING_V1,
    TournamentConfig,
    finite_number,
    normalize_config,
)
from domain.tournament.log import (
    ADJUDICATION_KINDS,
    BY_ORGANISER,
    CHECK_IN_MISSED,
    CORRECT_RESULT,
    FORBID_PAIR,
    FORFEIT_GAME,
    MISSED_AS_ZERO,
    MISSED_ROUND_RULES,
    REGISTERED_BY,
    REPLACE_PLAYER,
    VOID_GAME,
    WITHDRAWN,
    TournamentState,
)
from domain.tournament.seeds import mixed_seed, pairing_seed
from domain.tournament.standings import ratings, standings

REGISTRATION_CLOSED = "REGISTRATION_CLOSED"
NOT_ENOUGH_PLAYERS = "NOT_ENOUGH_PLAYERS"
ROUND_NOT_FINISHED = "ROUND_NOT_FINISHED"
NO_ROUNDS_LEFT = "NO_ROUNDS_LEFT"
TOURNAMENT_OVER = "TOURNAMENT_OVER"
GAME_VOIDED = "GAME_VOIDED"
NOT_A_TABLE = "NOT_A_TABLE"
BAD_ADJUDICATION = "BAD_ADJUDICATION"
BAD_COMMITMENT = "BAD_COMMITMENT"
WRONG_SECRET = "WRONG_SECRET"
REGISTRATION_OPEN = "REGISTRATION_OPEN"
REVEALS_CLOSED = "REVEALS_CLOSED"
NOTHING_TO_REVEAL = "NOTHING_TO_REVEAL"
REVEALS_PENDING = "REVEALS_PENDING"
BAD_REGISTRATION = "BAD_REGISTRATION"
BAD_ROSTER_CHANGE = "BAD_ROSTER_CHANGE"
ALREADY_WITHDRAWN = "ALREADY_WITHDRAWN"
NO_ROUND_SEATED = "NO_ROUND_SEATED"
ROSTER_FROZEN = "ROSTER_FROZEN"
BAD_SEATING = "BAD_SEATING"
WITHDRAWN_PLAYER = "WITHDRAWN_PLAYER"
CHECK_IN_OPEN = "CHECK_IN_OPEN"
CHECK_IN_NOT_OPEN = "CHECK_IN_NOT_OPEN"
CHECK_IN_CLOSED = "CHECK_IN_CLOSED"
ALREADY_CHECKED_IN = "ALREADY_CHECKED_IN"
CHECK_IN_PENDING = "CHECK_IN_PENDING"
MAX_NAME = 60
MAX_TOURNAMENT_NAME = 100
MAX_PLAYERS = 512
MAX_REASON = 500


def created(
    game: GameDefinition[Any],
    tournament_id: str,
    raw: dict[str, Any],
    master_seed: bytes,
    at: int,
    name: Any = None,
) -> dict[str, Any]:
    """A new tournament's record; ``name`` (optional: what lists and exports call it) follows the
    rule of players' names (refused as BAD_NAME), up to MAX_TOURNAMENT_NAME characters."""
    config = normalize_config(game, raw)
    named = {} if name is None else {"name": player_name(name, MAX_TOURNAMENT_NAME)}
    return {
        "tournament_id": tournament_id,
        **named,
        "config": config.to_dict(),
        "master_seed_commitment": seed_commitment(master_seed),
        "at": at,
    }


def stamp(state: TournamentState, now: int) -> int:
    """A decision's ``at``: the server's time, but never before the last record's (a clock set back
    must not make the log's stamps go back, which the verifier refuses)."""
    return max(now, state.last_at)


def _open(state: TournamentState) -> None:
    if state.ended is not None:
        raise RuleViolation(TOURNAMENT_OVER, "the tournament has ended")


def _name(name: Any, taken: Iterable[str]) -> str:
    """The one name rule of joins too (``domain.kernel.names``): refuses BAD_NAME and NAME_TAKEN."""
    checked = player_name(name, MAX_NAME)
    check_name_free(checked, taken)
    return checked


def _commitment(value: Any) -> str:
    """A commitment to a secret: its SHA-256, as 64 hex digits (kept in lower case)."""
    if not isinstance(value, str) or len(value) != 64:
        raise RuleViolation(BAD_COMMITMENT, "a commitment is the SHA-256 of your secret: 64 hex digits")
    try:
        return bytes.fromhex(value).hex()
    except ValueError:
        raise RuleViolation(BAD_COMMITMENT, "a commitment is the SHA-256 of your secret: 64 hex digits") from None


def register(
    state: TournamentState,
    name: Any,
    at: int,
    commitment: Any = None,
    by: Any = None,
    public_key: Any = None,
    bot: Any = None,
) -> dict[str, Any]:
    """A new player, with their commitment to a secret if they send one (contributing is optional:
    a player who contributes nothing relies on the others), and who registered them (``by``: the
    organiser or the player; None only in logs from before self-registration). With a
    ``public_key`` (required when the tournament requires keys) the player's seat in each of their
    games is keyed with it: every move of theirs must then carry their signature. ``bot``: the
    entry is one of the server's bots (``bot_entry``), which plays its seat at every table."""
    _open(state)
    if by is not None and by not in REGISTERED_BY:
        raise RuleViolation(BAD_REGISTRATION, f"a player is registered by one of {', '.join(REGISTERED_BY)}")
    if bot is not None:
        bot_entry(state, bot, by, commitment, public_key)
    if state.rounds:
        raise RuleViolation(REGISTRATION_CLOSED, "registration closed when the first round was seated")
    if state.registration_closed:
        raise RuleViolation(REGISTRATION_CLOSED, "the organiser has closed registration")
    name = _name(name, state.names)
    if len(state.names) >= MAX_PLAYERS:
        raise RuleViolation(REGISTRATION_CLOSED, f"a tournament takes at most {MAX_PLAYERS} players")
    key = player_key(state, public_key)
    data: dict[str, Any] = {"player": len(state.names), "name": name}
    if commitment is not None:
        data["commitment"] = _commitment(commitment)
    if by is not None:
        data["by"] = by
    if key is not None:
        data["public_key"] = key
    if bot is not None:
        data["bot"] = bot
    return {**data, "at": stamp(state, at)}


def bot_entry(state: TournamentState, bot: Any, by: Any, commitment: Any, public_key: Any) -> None:
    """A bot player is the organiser's entry, played by the server's bot of that name at every
    table it is seated at; it holds no secret and no key, and its moves are stamped by nobody, so
    a tournament with a time control or that requires keys takes none (BAD_REGISTRATION)."""
    if bot not in BOT_NAMES:
        raise RuleViolation(BAD_REGISTRATION, f"there is no bot {bot!r}; the bots are: {', '.join(BOT_NAMES)}")
    if by != BY_ORGANISER:
        raise RuleViolation(BAD_REGISTRATION, "only the organiser registers a bot player")
    if commitment is not None or public_key is not None:
        raise RuleViolation(BAD_REGISTRATION, "a bot player commits to no secret and registers no public_key")
    if state.settings.time_control is not None:
        raise RuleViolation(BAD_REGISTRATION, "a tournament with a time control takes no bot players")
    if state.settings.keys_required:
        raise RuleViolation(BAD_REGISTRATION, "a tournament that requires keys takes no bot players")


def check_in_opened(state: TournamentState, at: int) -> dict[str, Any]:
    """The organiser asks every player to check in before round 1: whoever has not checked in when
    registration closes (or round 1 is seated) is left out of the event (``check_in_missed``). A
    tournament created with the ``check_in`` setting has it open from the start (CHECK_IN_OPEN)."""
    _open(state)
    if state.registration_closed or state.rounds:
        raise RuleViolation(REGISTRATION_CLOSED, "check-in is held while registration is open, before round 1")
    if state.check_in_open:
        raise RuleViolation(CHECK_IN_OPEN, "check-in is open already")
    return {"at": stamp(state, at)}


def checked_in(state: TournamentState, player: int, at: int) -> dict[str, Any]:
    """A registered player says they are here to play. Check-in ends with registration: the roster
    must stand before the players reveal against it."""
    _open(state)
    if state.registration_closed or state.rounds:
        raise RuleViolation(CHECK_IN_CLOSED, "check-in ended when registration closed")
    if not state.check_in_open:
        raise RuleViolation(CHECK_IN_NOT_OPEN, "the organiser has not opened check-in")
    if player in state.withdrawn:
        raise RuleViolation(WITHDRAWN_PLAYER, f"player {player} is withdrawn")
    if player in state.checked_in:
        raise RuleViolation(ALREADY_CHECKED_IN, f"player {player} has checked in already")
    return {"player": player, "at": stamp(state, at)}


def check_in_missed(state: TournamentState, at: int) -> list[dict[str, Any]]:
    """When registration closes (or round 1 is seated while it is open): a withdrawal of every
    player still taking part who has not checked in, recorded just before."""
    return [
        {"player": p, "reason": CHECK_IN_MISSED, "from_round": 1, "at": stamp(state, at)}
        for p in state.missing_check_ins()
    ]


def _check_check_ins(state: TournamentState) -> None:
    """The roster closes only once everyone who has not checked in is withdrawn."""
    missing = state.missing_check_ins()
    if missing:
        raise RuleViolation(CHECK_IN_PENDING, f"players {missing} have not checked in and are not withdrawn")


def player_key(state: TournamentState, public_key: Any, replacing: int | None = None) -> str | None:
    """A player's key as recorded (None: the player has none), or ``RuleViolation``: a tournament
    that requires keys takes no player without one, and no two players share a key."""
    if public_key is None:
        if state.config is not None and state.config.keys_required:
            raise RuleViolation(KEY_REQUIRED, "this tournament requires a key of every player: send a public_key")
        return None
    key = parse_public_key(public_key)
    if any(k == key and p != replacing for p, k in state.keys.items()):
        raise RuleViolation(BAD_KEY, "another player of this tournament has registered this public_key")
    return key


def registration_closed(state: TournamentState, at: int) -> dict[str, Any]:
    """No one registers, and no one commits, any more: the committed players may now reveal. (Reveals
    wait for this, or the organiser could register one more committed entry after reading them.)"""
    _open(state)
    if state.registration_closed or state.rounds:
        raise RuleViolation(REGISTRATION_CLOSED, "registration is closed already")
    _check_check_ins(state)
    return {"players": len(state.names), "committed": sorted(state.commitments), "at": stamp(state, at)}


def secret_revealed(state: TournamentState, player: int, secret: Any, at: int) -> dict[str, Any]:
    """A committed player's secret, revealed between the close of registration and round 1."""
    _open(state)
    if not state.registration_closed:
        raise RuleViolation(REGISTRATION_OPEN, "secrets are revealed once the organiser has closed registration")
    if state.rounds:
        raise RuleViolation(REVEALS_CLOSED, "the reveals closed when round 1 was seated")
    if player not in state.commitments:
        raise RuleViolation(NOTHING_TO_REVEAL, f"player {player} committed to no secret when registered")
    if player not in state.pending_reveals():
        raise RuleViolation(NOTHING_TO_REVEAL, f"player {player} has revealed their secret already")
    low, high = 2 * CONTRIBUTION_MIN_BYTES, 2 * CONTRIBUTION_MAX_BYTES
    try:
        opened = bytes.fromhex(secret) if isinstance(secret, str) and low <= len(secret) <= high else None
    except ValueError:
        opened = None
    if opened is None:
        raise RuleViolation(
            WRONG_SECRET, f"a secret is {CONTRIBUTION_MIN_BYTES} to {CONTRIBUTION_MAX_BYTES} random bytes as hex"
        )
    if seed_commitment(opened) != state.commitments[player]:
        raise RuleViolation(WRONG_SECRET, f"this secret does not open player {player}'s commitment")
    return {"player": player, "secret": opened.hex(), "at": stamp(state, at)}


def reveals_withheld(state: TournamentState, at: int) -> list[dict[str, Any]]:
    """When round 1 is seated: one public record per committed player who has not revealed. The
    last to reveal could compute the seatings first and keep quiet if they suit them ill; withholding
    therefore withdraws the entry from the event, and the seed mixes without its secret."""
    if state.rounds or not state.registration_closed:
        return []  # (with commitments and registration open, round 1 is refused: REGISTRATION_OPEN)
    return [{"player": p, "consequence": WITHDRAWN, "at": stamp(state, at)} for p in state.pending_reveals()]


def player_withdrawn(state: TournamentState, player: Any, reason: Any, at: int) -> dict[str, Any]:
    """The organiser withdraws a player from every round not seated yet (a game they are playing
    goes on; they keep their points and stay in the standings)."""
    _open(state)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(state.names):
        raise RuleViolation(BAD_ROSTER_CHANGE, f"player must be a registered player's number, not {player!r}")
    if player in state.withdrawn:
        raise RuleViolation(ALREADY_WITHDRAWN, f"player {player} is withdrawn already")
    if state.registration_closed and not state.rounds:
        # The reveals are made against the closed roster: a withdrawal after reading them would let
        # the organiser pick round 1's seating among those the roster's subsets give.
        raise RuleViolation(ROSTER_FROZEN, "between the close of registration and round 1 the roster stands")
    if reason == CHECK_IN_MISSED and player not in state.missing_check_ins():
        raise RuleViolation(BAD_ROSTER_CHANGE, f"player {player} is not one who failed to check in")
    return {"player": player, "reason": _reason(reason), "from_round": len(state.rounds) + 1, "at": stamp(state, at)}


def late_entry(
    state: TournamentState, name: Any, missed_rounds: Any, at: int, public_key: Any = None
) -> dict[str, Any]:
    """A player entered after round 1 was seated, seated from the next round; ``missed_rounds``
    says what they get for each round before it (a bye's points, or nothing); ``public_key`` as
    for a registration."""
    _open(state)
    if not state.rounds:
        raise RuleViolation(NO_ROUND_SEATED, "before round 1 a player registers (late entries come after it)")
    if len(state.rounds) >= state.settings.rounds:
        raise RuleViolation(NO_ROUNDS_LEFT, f"all {state.settings.rounds} rounds have been seated")
    rule = MISSED_AS_ZERO if missed_rounds is None else missed_rounds
    if rule not in MISSED_ROUND_RULES:
        raise RuleViolation(BAD_ROSTER_CHANGE, f"missed_rounds is one of {', '.join(MISSED_ROUND_RULES)}, not {rule!r}")
    name = _name(name, state.names)
    if len(state.names) >= MAX_PLAYERS:
        raise RuleViolation(REGISTRATION_CLOSED, f"a tournament takes at most {MAX_PLAYERS} players")
    key = player_key(state, public_key)
    return {
        "player": len(state.names),
        "name": name,
        "from_round": len(state.rounds) + 1,
        "missed_rounds": rule,
        **({"public_key": key} if key is not None else {}),
        "at": stamp(state, at),
    }


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise RuleViolation(BAD_ROSTER_CHANGE, f"a roster change needs a reason of 1 to {MAX_REASON} characters")
    return reason.strip()


def check_can_seat(state: TournamentState) -> None:
    _open(state)
    config = state.settings
    if len(state.rounds) >= config.rounds:
        raise RuleViolation(NO_ROUNDS_LEFT, f"all {config.rounds} rounds have been seated")
    if state.rounds and not state.round_complete(len(state.rounds) - 1):
        missing = [t.game_id for t in state.rounds[-1] if t.game_id not in state.results]
        raise RuleViolation(ROUND_NOT_FINISHED, f"round {len(state.rounds)} still has games running: {missing}")
    if not state.rounds and state.commitments and not state.registration_closed:
        raise RuleViolation(
            REGISTRATION_OPEN, "players have committed to secrets: close registration and let them reveal first"
        )
    _check_check_ins(state)
    if not state.rounds and state.pending_reveals():
        raise RuleViolation(REVEALS_PENDING, f"players {state.pending_reveals()} have neither revealed nor withheld")
    players = len(state.active_players())
    smallest = config.table_sizes[0]
    if players < smallest:
        raise RuleViolation(
            NOT_ENOUGH_PLAYERS, f"a table needs {smallest} players; {players} are registered and taking part"
        )


def plan_round(state: TournamentState, master_seed: bytes) -> pairing.Seating:
    """Who sits where in the next round: a pure function of the tournament so far (with the
    players' revealed secrets) and the master seed, so the verifier seats every round again and
    compares."""
    check_can_seat(state)
    config = state.settings
    number = len(state.rounds) + 1
    mixed = mixed_seed(master_seed, state.reveals)
    seed = pairing_seed(mixed, state.tournament_id, number)
    players = state.active_players()
    tables_so_far = [t.players for t in state.tables()]
    if config.pairing != PAIRING_V1:
        return _round_v2(state, config, mixed, number)
    if config.format == BALANCED:
        return _balanced_round(state, config, mixed, number)
    order = _standings_order(state, players, seed)
    return pairing.seat_round(
        order, config.table_size, tables_so_far, Counter(state.all_byes()), state.seat_counts(), seed
    )


def _standings_order(state: TournamentState, players: list[int], seed: bytes) -> list[int]:
    """Swiss: the players by their place in the standings, those sharing one in a seeded order."""
    config = state.settings
    rows = standings(config, state.names, state.outcomes(), state.credited_byes())
    place = {row["player"]: row["place"] for row in rows}
    shuffled = pairing.seeded_order(players, seed)
    return sorted(players, key=lambda p: (place[p], shuffled.index(p)))


def _round_v2(state: TournamentState, config: TournamentConfig, mixed: bytes, number: int) -> pairing.Seating:
    """Pairing rule 2 (``domain.tournament.pairing_v2``): mixed table sizes instead of byes where
    the settings allow them, forbidden pairs honoured, a round of lookahead, balanced seats."""
    players = state.active_players()
    seed = pairing_seed(mixed, state.tournament_id, number)
    low, high = config.table_sizes
    sizes, bye_count = pairing_v2.table_sizes(len(players), config.table_size, low, high)
    forbidden = state.forbidden_pairs()
    tables_so_far = [t.players for t in state.tables()]
    if config.format == BALANCED and not forbidden and all(s == config.table_size for s in sizes):
        # The whole schedule searched at once (rule 1's), its seats planned across the rounds left.
        planned_byes, plan = _balanced_plan(state, config, mixed)
        later = plan[number - 1 :]
        return pairing.Seating(tables=pairing_v2.plan_seats(later, tables_so_far, seed), byes=planned_byes[number - 1])
    balanced = config.format == BALANCED
    order = pairing.seeded_order(players, seed) if balanced else _standings_order(state, players, seed)
    byes_so_far = Counter(state.all_byes())
    byes = pairing_v2.choose_byes(order, bye_count, byes_so_far)
    following = None
    if number < config.rounds:
        after = byes_so_far + Counter(byes)
        sitting_out = set(pairing_v2.choose_byes(order, bye_count, after))
        following = pairing_v2.NextRound([p for p in order if p not in sitting_out], sizes, number + 1 < config.rounds)
    # Perfectly balanced seats are possible only when the rounds are a multiple of the seats, and
    # at 2-player tables the standings come before the colour preference (as in FIDE's Dutch system).
    balance = config.table_size > 2 and config.rounds % config.table_size == 0
    return pairing_v2.seat_round(order, sizes, byes, tables_so_far, forbidden, seed, following, balance, config.pairing)


def _balanced_plan(
    state: TournamentState, config: TournamentConfig, mixed: bytes
) -> tuple[list[list[int]], list[list[list[int]]]]:
    """A balanced schedule's byes and tables for every round, from the active players."""
    players = state.active_players()
    byes_so_far: Counter[int] = Counter()
    byes_by_round: list[list[int]] = []
    for r in range(1, config.rounds + 1):
        order = pairing.seeded_order(players, pairing_seed(mixed, state.tournament_id, r))
        byes = pairing.choose_byes(order, config.table_size, byes_so_far)
        byes_so_far.update(byes)
        byes_by_round.append(byes)
    plan = pairing.plan_balanced(
        tuple(players),
        config.table_size,
        tuple(tuple(b) for b in byes_by_round),
        pairing_seed(mixed, state.tournament_id, 0),
    )
    return byes_by_round, plan


def _balanced_round(state: TournamentState, config: TournamentConfig, mixed: bytes, number: int) -> pairing.Seating:
    byes, plan = _balanced_plan(state, config, mixed)
    seed = pairing_seed(mixed, state.tournament_id, number)
    rng_tables = Chance(seed)
    counts = state.seat_counts()
    seated = [pairing.seat_order(g, counts, rng_tables, f"seats:{i}") for i, g in enumerate(plan[number - 1])]
    return pairing.Seating(tables=seated, byes=byes[number - 1])


def manual_seating(state: TournamentState, tables: Any, byes: Any, reason: Any) -> pairing.Seating:
    """The organiser's own seating of the next round (a ruling, recorded with its reason): tables
    of player numbers in seat order, and who sits out. Every active player is seated or sits out
    exactly once, no withdrawn player is, and every table's size is one the settings allow."""
    check_can_seat(state)
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise RuleViolation(BAD_SEATING, f"a manual seating needs a reason of 1 to {MAX_REASON} characters")
    byes = [] if byes is None else byes
    if not isinstance(tables, list) or not tables or not all(isinstance(t, list) for t in tables):
        raise RuleViolation(BAD_SEATING, "tables must be a non-empty list of tables, each a list of player numbers")
    if not isinstance(byes, list):
        raise RuleViolation(BAD_SEATING, "byes must be a list of player numbers")
    named = [p for t in tables for p in t] + byes
    count = len(state.names)
    strangers = [p for p in named if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < count]
    if strangers:
        raise RuleViolation(BAD_SEATING, f"{strangers[0]!r} is no registered player's number (0 to {count - 1})")
    twice = sorted(p for p, n in Counter(named).items() if n > 1)
    if twice:
        raise RuleViolation(BAD_SEATING, f"player(s) {', '.join(map(str, twice))} placed more than once")
    withdrawn = [p for p in named if p in state.withdrawn]
    if withdrawn:
        raise RuleViolation(WITHDRAWN_PLAYER, f"player(s) {', '.join(map(str, withdrawn))} are withdrawn")
    missing = [p for p in state.active_players() if p not in named]
    if missing:
        raise RuleViolation(BAD_SEATING, f"player(s) {', '.join(map(str, missing))} are neither seated nor given a bye")
    low, high = state.settings.table_sizes
    wrong = [i + 1 for i, t in enumerate(tables) if not low <= len(t) <= high]
    if wrong:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise RuleViolation(BAD_SEATING, f"table(s) {', '.join(map(str, wrong))}: a table seats {allowed} players")
    return pairing.Seating(tables=[list(t) for t in tables], byes=list(byes), reason=reason.strip())


def round_seated(
    state: TournamentState,
    seating: pairing.Seating,
    game_ids: list[str],
    at: int,
    seed_commitments: list[str] | None = None,
) -> dict[str, Any]:
    """The seated round; each table names its game and (when created by the service) the game's
    seed commitment, so the tournament's log commits to every game's seed from the start. A
    manual seating records its reason."""
    number = len(state.rounds) + 1
    commitments: list[str | None] = list(seed_commitments) if seed_commitments else [None] * len(game_ids)
    manual = {"reason": seating.reason} if seating.reason is not None else {}
    return manual | {
        "round": number,
        "tables": [
            {"table": i + 1, "game_id": game_id, "players": players}
            | ({"seed_commitment": commitment} if commitment is not None else {})
            for i, (players, game_id, commitment) in enumerate(zip(seating.tables, game_ids, commitments, strict=True))
        ],
        "byes": seating.byes,
        "at": stamp(state, at),
    }


def check_playable(state: TournamentState, game_id: str) -> None:
    """A table's game takes commands until the tournament ends or the game is voided: after either
    record nothing may change what it closed (the verifier re-executes the game as it was then)."""
    _open(state)
    if game_id in state.voided():
        raise RuleViolation(GAME_VOIDED, f"game {game_id} was voided: it takes no more commands")


def result_from_scoreboard(scoreboard: Scoreboard) -> dict[str, Any]:
    return {
        "scores": list(scoreboard.scores),
        "placings": list(scoreboard.placings),
        "winners": list(scoreboard.winners),
    }


def result_recorded(
    state: TournamentState, game_id: str, scoreboard: Scoreboard, fingerprint: str, at: int
) -> dict[str, Any] | None:
    """A game's result once it has ended; None when it is recorded already (results are idempotent
    by game id), the game is no table of this tournament, was voided, or the tournament has ended
    (the end record is the last)."""
    table = state.table_of(game_id)
    if table is None or game_id in state.results or game_id in state.voided() or state.ended is not None:
        return None
    return {
        "game_id": game_id,
        "round": table.round,
        "table": table.table,
        **result_from_scoreboard(scoreboard),
        "fingerprint": fingerprint,
        "at": stamp(state, at),
    }


def timed_out(
    state: TournamentState, game_id: str, seat: int, version: int, expired_at: int, at: int
) -> dict[str, Any]:
    table = state.table_of(game_id)
    control = state.settings.time_control
    assert table is not None and control is not None
    bot = {} if control.bot == LEGACY_CLOCK_BOT else {"bot": control.bot}  # the bot whose move the rule plays
    return {
        "game_id": game_id,
        "round": table.round,
        "table": table.table,
        "seat": seat,
        "player": table.players[seat],
        "version": version,
        "expired_at": expired_at,
        "rule": control.on_timeout,
        **bot,
        "at": stamp(state, at),
    }


def adjudicated(
    state: TournamentState,
    request: dict[str, Any],
    at: int,
    game_tip: Callable[[str], tuple[int, str]] | None = None,
) -> dict[str, Any]:
    """An organiser's ruling: a compensating record with its reason. A void closes the game as it
    stands: the record names the game's version and last hash (``game_tip``), so nothing played
    after it can pass as part of the game."""
    _open(state)
    kind = request.get("kind")
    if kind not in ADJUDICATION_KINDS:
        raise RuleViolation(BAD_ADJUDICATION, f"kind must be one of {', '.join(ADJUDICATION_KINDS)}, not {kind!r}")
    reason = request.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise RuleViolation(BAD_ADJUDICATION, f"an adjudication needs a reason of 1 to {MAX_REASON} characters")
    record: dict[str, Any] = {"kind": kind, "reason": reason.strip(), "at": stamp(state, at)}
    if kind == FORBID_PAIR:
        return {**record, "players": _forbidden_pair(state, request.get("players"))}
    player = request.get("player")
    if kind in (FORFEIT_GAME, REPLACE_PLAYER):
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(state.names):
            raise RuleViolation(
                BAD_ADJUDICATION, f"player must be a registered player's number (0 to {len(state.names) - 1})"
            )
        record["player"] = player
    if kind == REPLACE_PLAYER:
        if player in state.bots:
            raise RuleViolation(
                BAD_ADJUDICATION, f"player {player} is a bot player: withdraw it instead of replacing it"
            )
        name = _name(request.get("name"), (n for i, n in enumerate(state.names) if i != player))
        record["name"] = name
        # The one who plays on signs with their own key (in the games seated from now on; a running
        # game's seat is re-keyed by the organiser, a record of the game that says so).
        key = player_key(state, request.get("public_key"), replacing=player)
        if key is None and player in state.keys:
            raise RuleViolation(KEY_REQUIRED, f"player {player} is keyed: the replacement sends a public_key of theirs")
        if key is not None:
            record["public_key"] = key
        return record
    game_id = request.get("game_id")
    table = state.table_of(game_id) if isinstance(game_id, str) else None
    if table is None:
        raise RuleViolation(NOT_A_TABLE, f"game_id must name a game of this tournament, not {game_id!r}")
    record["game_id"] = game_id
    if kind == FORFEIT_GAME and player not in table.players:
        raise RuleViolation(BAD_ADJUDICATION, f"player {player} does not play game {game_id}")
    if kind == CORRECT_RESULT:
        record.update(_corrected(request, len(table.players)))
    if kind == VOID_GAME:
        if game_id in state.voided():
            raise RuleViolation(BAD_ADJUDICATION, f"game {game_id} is void already")
        if game_tip is not None:
            record["game_version"], record["game_fingerprint"] = game_tip(table.game_id)
    return record


def _forbidden_pair(state: TournamentState, players: Any) -> list[int]:
    """The two players a forbid_pair ruling keeps apart, in order (pairing rule 2 honours it)."""
    if state.settings.pairing == PAIRING_V1:
        raise RuleViolation(
            BAD_ADJUDICATION, "this tournament's pairing rule (1) takes no forbidden pairs: they need pairing 2"
        )
    count = len(state.names)
    if (
        not isinstance(players, list)
        or len(players) != 2
        or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < count for p in players)
        or players[0] == players[1]
    ):
        raise RuleViolation(
            BAD_ADJUDICATION, f"players must be two different registered players' numbers (0 to {count - 1})"
        )
    pair = sorted(players)
    if (pair[0], pair[1]) in state.forbidden_pairs():
        raise RuleViolation(BAD_ADJUDICATION, f"players {pair[0]} and {pair[1]} are a forbidden pair already")
    return pair


def _corrected(request: dict[str, Any], seats: int) -> dict[str, Any]:
    placings, scores = request.get("placings"), request.get("scores")
    if (
        not isinstance(placings, list)
        or len(placings) != seats
        or any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= seats for p in placings)
    ):
        raise RuleViolation(BAD_ADJUDICATION, f"placings must list {seats} places (1 = first), one per seat")
    if any(p != 1 + sum(1 for q in placings if q < p) for p in placings):
        raise RuleViolation(
            BAD_ADJUDICATION, "placings must be places as a game ranks them (ties share, e.g. 1, 2, 2, 4)"
        )
    if scores is None:
        scores = [0] * seats
    if not isinstance(scores, list) or len(scores) != seats:
        raise RuleViolation(BAD_ADJUDICATION, f"scores must list {seats} numbers, one per seat")
    scores = [finite_number(s, "a score", BAD_ADJUDICATION) for s in scores]
    return {"placings": placings, "scores": scores}


def current_standings(state: TournamentState) -> list[dict[str, Any]]:
    return standings(state.settings, state.names, state.outcomes(), state.credited_byes())


def standings_view(state: TournamentState) -> dict[str, Any]:
    """The live standings with each player's rating across the event."""
    rows = current_standings(state)
    rated = ratings(len(state.names), state.outcomes())
    return {
        "rounds_seated": len(state.rounds),
        "rounds": state.settings.rounds,
        "ended": state.ended is not None,
        "standings": [{**row, "rating": rated[row["player"]]} for row in rows],
    }


def ended(
    state: TournamentState, master_seed: bytes, at: int, unfinished_seeds: dict[str, str] | None = None
) -> dict[str, Any]:
    """The end: the final standings and the master seed; ``unfinished_seeds`` (present when there is
    one) reveals the seed of every table's game that never ended (a voided one), so that it can be
    re-executed too."""
    _open(state)
    config = state.settings
    if len(state.rounds) < config.rounds or not state.round_complete(len(state.rounds) - 1):
        raise RuleViolation(
            ROUND_NOT_FINISHED,
            f"the tournament ends after its {config.rounds} rounds are played ({len(state.rounds)} seated)",
        )
    data: dict[str, Any] = {"standings": current_standings(state), "master_seed": master_seed.hex()}
    if unfinished_seeds:
        data["unfinished_seeds"] = dict(sorted(unfinished_seeds.items()))
    return {**data, "at": stamp(state, at)}
