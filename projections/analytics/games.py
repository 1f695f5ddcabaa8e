"""One game's rows: its context (the public bookkeeping of a running game), its records' rows
in ``records``, ``<game>_moves`` and its fact tables, its row of ``games`` and of ``game_seats``,
and once it has ended its scores by round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from operator import methodcaller
from typing import Any

from domain.catalog import GAMES
from domain.kernel.facts import Context, Fact, Row
from domain.kernel.game import Scoreboard
from domain.kernel.log import COMMAND_ACCEPTED, GAME_CREATED, GAME_ENDED, Record, canonical
from domain.kernel.match import SEAT_KEYED, SEAT_TAKEN
from projections.analytics.facts import TURN_STARTED, GameFacts, game_facts
from projections.analytics.rows import Rows, record_jsons
from projections.analytics.schema import GAMES_TABLE, SCORES_TABLE, SEATS_TABLE


def new_context(game_id: str, created: Record, at: datetime) -> Context:
    forked_from = created.data.get("forked_from") or {}
    options = created.data.get("options") or {}
    return {
        "game_id": game_id,
        "game": created.data["game"],
        "players": created.data["players"],
        "options": options,
        "created_at": at.isoformat(),
        "forked_from": forked_from.get("game_id"),
        "forked_from_version": forked_from.get("version"),
        # The tournament store knows which games are its tables, not the game's record: the
        # projection is told (``name_tournament``) once the tournament has recorded the table.
        "tournament": None,
        "table_players": None,  # a tournament table's players by seat: [[player, name], ...]
        "names": {},  # seat (text: a JSON key) -> the name it was taken with
        "version": 0,
        "commands": 0,
        "round": None,
    }


TablePlayers = list[tuple[int, str]]  # a tournament table's players by seat: (player number, name)


def name_tournament(ctx: Context, tournament: str | None, players: TablePlayers | None = None) -> None:
    """The tournament the game of ``ctx`` is a table of, and its players, once known (they
    never change after)."""
    if ctx["tournament"] is None and tournament is not None:
        ctx["tournament"] = tournament
    if ctx.get("table_players") is None and players is not None:
        ctx["table_players"] = [list(p) for p in players]


def add_records(ctx: Context, records: Sequence[tuple[Record, datetime]], revealed: bool, out: Rows) -> datetime | None:
    """Records of the game of ``ctx``, in order: their rows in ``records``, in ``<game>_moves``
    and in the fact tables; the time of the last one (None: none).

    ``records`` is made a column at a time (a list comprehension per column, a run of equal
    values per turn and round): no Python tuple per record. One loop visits only the records
    that move the clock, name a seat, or make a move or a fact (a record costs about a
    microsecond here, its JSON half of it).

    Facts come from public records only, so that a fact row never changes when its game ends
    (what a private record holds is in ``records`` once the game has ended); so do moves (from
    the public form of a private record).
    """
    if not records:
        return None
    game_id, game = ctx["game_id"], ctx["game"]
    items = [record for record, _ in records]
    times = [at for _, at in records]
    kinds = [record.type for record in items]
    private = [record.viewers is not None for record in items]
    publics = [record.data if record.viewers is None else (record.public or {}) for record in items]
    datas = [record.data for record in items] if revealed else publics
    assert GAME_CREATED not in kinds[1:], f"{game_id}: a second GameCreated"
    turns, rounds = _clock_columns(ctx, game, items, kinds, times, publics, out)
    _record_columns(out, game_id, game, items, kinds, private, times, datas, turns, rounds)
    ctx["version"] = items[-1].position
    ctx["commands"] += kinds.count(COMMAND_ACCEPTED)
    return times[-1]


def _record_columns(
    out: Rows,
    game_id: str,
    game: str,
    items: list[Record],
    kinds: list[str],
    private: list[bool],
    times: list[datetime],
    datas: list[dict[str, Any]],
    turns: list[Any],
    rounds: list[Any],
) -> None:
    """Rows of ``records`` onto ``out``'s columns, a column at a time."""
    count = len(items)
    (c_game_id, c_game, c_position, c_type, c_seat, c_private, c_at, c_data, c_turn, c_round) = out.columns
    c_game_id += [game_id] * count
    c_game += [game] * count
    c_position += [record.position for record in items]
    c_type += kinds
    c_seat += [seat if type(seat) is int else None for seat in map(_SEAT_OF, datas)]
    c_private += private
    c_at += times
    c_data += record_jsons(datas)
    c_turn += turns
    c_round += rounds


def _rewrite_private(ctx: Context, chosen: list[tuple[Record, datetime, Any, Any]], out: Rows) -> None:
    """Private records stored as a spectator saw them (each with its time, turn and round)
    again, in full."""
    if not chosen:
        return
    items = [record for record, _, _, _ in chosen]
    datas = [record.data for record in items]
    kinds = [record.type for record in items]
    times = [at for _, at, _, _ in chosen]
    turns = [turn for _, _, turn, _ in chosen]
    rounds = [round_ for _, _, _, round_ in chosen]
    _record_columns(out, ctx["game_id"], ctx["game"], items, kinds, [True] * len(items), times, datas, turns, rounds)


_SEAT_OF = methodcaller("get", "seat")


def _clock_columns(
    ctx: Context,
    game: str,
    items: list[Record],
    kinds: list[str],
    times: list[datetime],
    publics: list[dict[str, Any]],
    out: Rows,
) -> tuple[list[Any], list[Any]]:
    """The ``turn`` and ``round`` columns of the records (a record that starts one is in it),
    advancing ``ctx``'s clock; with the moves and facts of the records that make them, at the
    turn and round they were made in."""
    game_id = ctx["game_id"]
    read = game_facts(game)
    moves, handlers, clock_kinds, visited = read.move_rows, read.facts.handlers, read.clock_kinds, read.visited
    add_move = out.rows[read.moves_table].append if read.moves_table is not None else None
    turns: list[Any] = []
    rounds: list[Any] = []
    turn, round_ = ctx.get("turn"), ctx.get("round")
    done = 0  # the records whose turn and round are in the columns
    for index, kind in enumerate(kinds):
        if kind not in visited:
            continue
        record = items[index]
        if kind in clock_kinds:
            advance_clock(read, ctx, record)
            if ctx.get("turn") != turn or ctx.get("round") != round_:
                turns += [turn] * (index - done)
                rounds += [round_] * (index - done)
                done = index
                turn, round_ = ctx.get("turn"), ctx.get("round")
        if kind == SEAT_TAKEN:
            ctx.setdefault("names", {})[str(record.data["seat"])] = record.data["name"]
            continue
        move = moves.get(kind)
        if move is not None and add_move is not None:
            add_move(move(game_id, record.position, times[index], turn, round_, publics[index]))
        handler = handlers.get(kind)
        if handler is not None and record.viewers is None:
            handler(ctx, Fact(game_id, record.position, times[index], record.data), out)
    turns += [turn] * (len(kinds) - done)
    rounds += [round_] * (len(kinds) - done)
    return turns, rounds


# The kernel's records: they change a match's bookkeeping (seats, commands), never the game's state.
KERNEL_KINDS = frozenset({GAME_CREATED, COMMAND_ACCEPTED, SEAT_TAKEN, SEAT_KEYED})


def advance_clock(read: GameFacts, ctx: Context, record: Record) -> int | None:
    """The turn and round ``record`` belongs to, in ``ctx`` (a record that starts one is in it);
    the round it starts, if it starts one. ``turn`` counts the game's ``TurnStarted`` records
    (or is the number a record gives); ``round`` is what ``scores.round`` counts (the game's
    ``facts.rounds``)."""
    if record.type == GAME_CREATED or record.type == COMMAND_ACCEPTED:
        return None
    if record.type == TURN_STARTED:
        turn = record.data.get("turn")
        ctx["turn"] = turn if type(turn) is int else (ctx.get("turn") or 0) + 1
    started = read.round_started(ctx["players"], record)
    if started is not None:
        ctx["round"] = started
    return started


def period_started(game: str, players: int, record: Record) -> int | None:
    """The round (campaign) that ``record`` starts in a game of ``game`` with ``players`` seats, if it starts one."""
    return game_facts(game).round_started(players, record)


def game_row(ctx: Context, ended: Ended | None = None) -> Row:
    row = {
        "game_id": ctx["game_id"],
        "game": ctx["game"],
        "players": ctx["players"],
        "options": canonical(ctx["options"]),
        "status": "running",
        "version": ctx["version"],
        "commands": ctx["commands"],
        "rounds": ctx.get("round"),
        "created_at": datetime.fromisoformat(ctx["created_at"]),
        "last_activity": datetime.fromisoformat(ctx["last_activity"]),
        "ended_at": None,
        "scores": None,
        "placings": None,
        "winners": None,
        "fingerprint": None,
        "seed": None,
        "forked_from": ctx["forked_from"],
        "forked_from_version": ctx["forked_from_version"],
        "tournament": ctx["tournament"],
    }
    if ended is not None:
        row.update(
            status="ended",
            ended_at=ended.at,
            scores=[float(s) for s in ended.scoreboard.scores],
            placings=list(ended.scoreboard.placings),
            winners=list(ended.scoreboard.winners),
            fingerprint=ended.fingerprint,
            seed=ended.seed,
        )
    return row


def seat_rows(ctx: Context, ended: Ended | None = None) -> list[Row]:
    """The game's seats in ``game_seats``: who sat there (the name a seat was taken with, else
    the tournament player's), and once ended their final score and place."""
    table = ctx.get("table_players") or []
    out = []
    for seat in range(ctx["players"]):
        player = table[seat] if seat < len(table) else None
        name = (ctx.get("names") or {}).get(str(seat)) or (player[1] if player else None)
        row = {
            "game_id": ctx["game_id"],
            "game": ctx["game"],
            "players": ctx["players"],
            "seat": seat,
            "name": name,
            "tournament": ctx["tournament"],
            "tournament_player": player[0] if player else None,
            "status": "running",
            "score": None,
            "place": None,
            "won": None,
        }
        if ended is not None:
            board = ended.scoreboard
            row.update(
                status="ended",
                score=float(board.scores[seat]),
                place=board.placings[seat],
                won=seat in board.winners,
            )
        out.append(row)
    return out


@dataclass(frozen=True, slots=True)
class Ended:
    at: datetime
    scoreboard: Scoreboard
    fingerprint: str
    seed: str | None


def _records_of(
    ctx: Context | None,
    game_id: str,
    records: Iterable[tuple[Record, datetime]],
    revealed: bool,
    out: Rows,
    tournament: str | None,
    table_players: TablePlayers | None = None,
) -> Context:
    records = list(records)
    if records and records[0][0].type == GAME_CREATED:
        ctx = new_context(game_id, records[0][0], records[0][1])
    assert ctx is not None and records, f"{game_id}: a record before GameCreated"
    last_at = add_records(ctx, records, revealed, out)
    assert last_at is not None
    ctx["last_activity"] = last_at.isoformat()
    name_tournament(ctx, tournament, table_players)
    return ctx


def running_game(
    ctx: Context | None,
    game_id: str,
    records: Iterable[tuple[Record, datetime]],
    out: Rows,
    tournament: str | None = None,
    table_players: TablePlayers | None = None,
) -> Context:
    """Records of a running game (public forms), after those ``ctx`` has seen; the new context.
    ``tournament``: the tournament the game is a table of, if any (and known yet), and
    ``table_players`` its players by seat."""
    ctx = _records_of(ctx, game_id, records, False, out, tournament, table_players)
    out.add(GAMES_TABLE, game_row(ctx))
    for row in seat_rows(ctx):
        out.add(SEATS_TABLE, row)
    return ctx


def ended_game(
    ctx: Context | None,
    game_id: str,
    earlier: list[tuple[Record, datetime]],
    records: list[tuple[Record, datetime]],
    out: Rows,
    tournament: str | None = None,
    table_players: TablePlayers | None = None,
) -> None:
    """The last records of a game, up to ``GameEnded``, after those ``ctx`` has seen (``earlier``,
    whose rows are stored as a spectator saw them: their private ones are written again, in full).
    ``tournament``: the tournament the game is a table of, if any.

    The whole game is replayed (its own rules, no rule runs: events record outcomes) so that
    the scores of each round come from its own scoreboard.
    """
    ctx = _records_of(ctx, game_id, records, True, out, tournament, table_players)
    whole = earlier + records
    created, last = whole[0][0], whole[-1][0]
    assert created.type == GAME_CREATED and last.type == GAME_ENDED, f"{game_id}: not a whole ended game"
    game = GAMES.get(ctx["game"])
    players = ctx["players"]
    state = game.initial_state(players, ctx["options"])
    evolve, event_types = game.evolve, game.event_types
    read = game_facts(game.id)
    clock_kinds, unit = read.clock_kinds, read.facts.score_unit
    clock: Context = {"players": players, "turn": None, "round": None}
    private: list[tuple[Record, datetime, Any, Any]] = []  # the earlier ones, at their turn and round
    period: int | None = None
    for index, (record, at) in enumerate(whole):
        kind = record.type
        if kind in clock_kinds:
            started = advance_clock(read, clock, record)
            if started is not None:
                if period is not None:
                    _score_rows(ctx, unit, period, record.position - 1, False, game.scoreboard(state), out)
                period = started
        if record.viewers is not None and index < len(earlier):
            private.append((record, at, clock["turn"], clock["round"]))
        if kind not in KERNEL_KINDS:  # the game's own event (``Match.apply_record``, the state alone)
            state = evolve(state, event_types[kind].from_dict(record.data))
    _rewrite_private(ctx, private, out)
    scoreboard = game.scoreboard(state)
    _score_rows(ctx, unit, period, last.position, True, scoreboard, out)
    seed = last.data.get("seed")
    ended = Ended(whole[-1][1], scoreboard, last.hash, seed if isinstance(seed, str) else None)
    out.add(GAMES_TABLE, game_row(ctx, ended))
    for row in seat_rows(ctx, ended):
        out.add(SEATS_TABLE, row)


def _score_rows(
    ctx: Context, unit: str, period: int | None, position: int, final: bool, scoreboard: Scoreboard, out: Rows
) -> None:
    for seat, (score, placing) in enumerate(zip(scoreboard.scores, scoreboard.placings, strict=True)):
        out.add(
            SCORES_TABLE,
            {
                "game_id": ctx["game_id"],
                "game": ctx["game"],
                "unit": unit,
                "round": period,
                "position": position,
                "final": final,
                "seat": seat,
                "score": float(score),
                "place": placing,
            },
        )
