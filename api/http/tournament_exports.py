"""A tournament's exports for its organiser and the world: a round's pairings and the standings as
CSV, a printable page, and the FIDE Tournament Report File (TRF16) of a 2-player event.

Everything here is public (what ``GET /tournaments/{id}`` and ``/standings`` show anyone): no
token, no hidden game data. Names are user input: every CSV cell that a spreadsheet would read as a
formula (``=``, ``+``, ``-``, ``@``, a tab or a carriage return first) is written with a ``'``
before it, every HTML text is escaped, and a TRF line holds a name only within its columns.

The rendering functions are pure functions of the tournament's state (and its standings), so a
test feeds them a state it made by hand."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any

from domain.catalog import GAMES
from domain.tournament.log import MISSED_AS_BYES, TournamentState
from infra.games.service import Conflict, GameNotFound

CSV_TYPE = "text/csv; charset=utf-8"
TRF_TYPE = "text/plain; charset=utf-8"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TRF_NAME_WIDTH = 33  # columns 15-47 of a player line


class RoundNotSeated(GameNotFound):
    """A round the tournament has not seated (yet)."""

    code = "UNKNOWN_ROUND"


class NotForTrf(Conflict):
    """The TRF describes 2-player games: a tournament of larger tables has no TRF."""

    code = "TRF_NEEDS_TWO_PLAYER_TABLES"


# -- CSV ---------------------------------------------------------------------------------------------


def safe_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: text that starts like a formula gets a ``'`` before it
    (numbers are ours and are left as they are)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def number(value: float) -> str:
    """6.0 as ``6``, 2.5 as ``2.5``, no exponent."""
    return str(int(value)) if float(value).is_integer() else repr(round(float(value), 6))


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


PAIRINGS_HEADER = ("round", "table", "seat", "player", "name", "game_id", "bye")


def pairings_rows(state: TournamentState, number_: int) -> list[list[Any]]:
    """Round ``number_``'s tables in order, each seat in its order (seat 1 moves first), then the
    players with the bye."""
    if not 1 <= number_ <= len(state.rounds):
        raise RoundNotSeated(
            f"round {number_} is not seated: the tournament has {len(state.rounds)} round(s) seated so far"
        )
    rows: list[list[Any]] = []
    for table in state.rounds[number_ - 1]:
        for seat, player in enumerate(table.players):
            rows.append([number_, table.table, seat + 1, player, state.names[player], table.game_id, ""])
    for player in state.byes[number_ - 1]:
        rows.append([number_, "", "", player, state.names[player], "", "bye"])
    return rows


def pairings_csv(state: TournamentState, number_: int) -> str:
    return csv_text(PAIRINGS_HEADER, pairings_rows(state, number_))


def standings_columns(state: TournamentState) -> list[str]:
    return ["place", "player", "name", "points", "games", "byes", *state.settings.tie_breaks, "rating", "withdrawn"]


def standings_csv(state: TournamentState, rows: Sequence[dict[str, Any]]) -> str:
    """The standings, best first, with the tournament's tie-breaks in the order they break ties."""
    breaks = state.settings.tie_breaks
    return csv_text(
        standings_columns(state),
        (
            [
                row["place"],
                row["player"],
                row["name"],
                number(row["points"]),
                row["games"],
                row["byes"],
                *(number(row[b]) for b in breaks),
                f"{row['rating']['ordinal']:.2f}" if "rating" in row else "",
                "yes" if row["player"] in state.withdrawn else "",
            ]
            for row in rows
        ),
    )


# -- the printable page --------------------------------------------------------------------------------

TIE_BREAK_TITLES = {"head_to_head": "Head-to-head", "opponents_points": "Opp. points", "score_sum": "Score sum"}


def title_of(state: TournamentState) -> str:
    game = GAMES.get(state.settings.game).title
    return state.name or f"{game} tournament"


def _cells(tag: str, cells: Iterable[Any]) -> str:
    return "".join(f"<{tag}>{escape(str(c))}</{tag}>" for c in cells)


def print_page(state: TournamentState, rows: Sequence[dict[str, Any]]) -> str:
    """The latest round's pairings and the standings on one page, styled for paper
    (``/static/print.css``); no script at all."""
    title = title_of(state)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} — pairings and standings</title>",
        '<link rel="stylesheet" href="/static/print.css"><link rel="icon" href="data:,">',
        '</head><body class="print">',
        f"<header><h1>{escape(title)}</h1>",
        f"<p>{escape(GAMES.get(state.settings.game).title)} · {escape(state.settings.format)} · "
        f"{len(state.rounds)} of {state.settings.rounds} rounds seated"
        f"{' · ended' if state.ended is not None else ''} · tournament {escape(state.tournament_id)}</p></header>",
    ]
    if state.rounds:
        number_ = len(state.rounds)
        parts.append(f'<section class="pairings"><h2>Round {number_}: pairings</h2>')
        parts.append('<table><thead><tr><th scope="col">Table</th>')
        size = max(len(t.players) for t in state.rounds[-1])
        parts.append("".join(f'<th scope="col">Seat {s + 1}</th>' for s in range(size)))
        parts.append('<th scope="col">Result</th></tr></thead><tbody>')
        voided = state.voided()
        for table in state.rounds[-1]:
            names = [f"{state.names[p]} (#{p})" for p in table.players] + [""] * (size - len(table.players))
            result = state.results.get(table.game_id)
            shown = (
                "void"
                if table.game_id in voided
                else "places " + ", ".join(map(str, result["placings"]))
                if result is not None
                else "playing"
            )
            parts.append(f"<tr><th scope='row'>{table.table}</th>{_cells('td', names)}<td>{escape(shown)}</td></tr>")
        parts.append("</tbody></table>")
        byes = state.byes[-1]
        if byes:
            parts.append(f"<p>Bye: {escape(', '.join(f'{state.names[p]} (#{p})' for p in byes))}</p>")
        parts.append("</section>")
    breaks = state.settings.tie_breaks
    heads = ["Place", "Player", "Points", "Games", "Byes", *(TIE_BREAK_TITLES.get(b, b) for b in breaks)]
    parts.append('<section class="standings"><h2>Standings</h2><table><thead><tr>')
    parts.append("".join(f'<th scope="col">{escape(h)}</th>' for h in heads))
    parts.append("</tr></thead><tbody>")
    for row in rows:
        name = f"{row['name']} (#{row['player']})" + (" — withdrawn" if row["player"] in state.withdrawn else "")
        cells = [row["place"], name, number(row["points"]), row["games"], row["byes"]]
        parts.append(f"<tr>{_cells('td', [*cells, *(number(row[b]) for b in breaks)])}</tr>")
    parts.append("</tbody></table></section>")
    parts.append("</body></html>")
    return "\n".join(parts)


# -- TRF16 ---------------------------------------------------------------------------------------------


def _date(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _trf_line(fields: Sequence[tuple[int, str]]) -> str:
    """A fixed-column line: each text ends at its (1-based) column."""
    line = ""
    for end, text in fields:
        line += " " * (end - len(text) - len(line)) + text
    return line.rstrip()


def _trf_text(value: str, width: int) -> str:
    """Text as one TRF field: no line break or tab can leave its columns."""
    return "".join(c if c.isprintable() else " " for c in value)[:width]


def trf(state: TournamentState, rows: Sequence[dict[str, Any]]) -> str:
    """The FIDE Tournament Report File (TRF16) of a 2-player event: the header lines, then one
    ``001`` line per player (starting rank = player number + 1): points, rank, and per round the
    opponent's starting rank, the colour (``w``: seat 1, who moves first; ``b``: seat 2) and the
    result (``1`` ``=`` ``0`` played; ``+`` ``-`` a forfeit, a voided game as ``-`` for both;
    ``U`` a pairing bye, ``F``/``H`` a late entry's missed round credited with a full/half point,
    ``Z`` a round without a game otherwise: withdrawn, or missed for zero; blank: still playing)."""
    config = state.settings
    if config.table_size != 2:
        raise NotForTrf(
            f"the TRF records 2-player games; this tournament's tables seat {config.table_size} "
            "(its pairings and standings are in pairings.csv and standings.csv)"
        )
    game = GAMES.get(config.game)
    lines = [
        f"012 {_trf_text(title_of(state), 200)}",
        f"042 {_date(state.created_at):%Y/%m/%d}",
    ]
    if state.ended is not None:
        lines.append(f"052 {_date(state.ended['at']):%Y/%m/%d}")
    lines.append(f"062 {len(state.names)}")
    system = "Swiss-System" if config.format == "swiss" else "Round-robin (balanced)"
    lines.append(f"092 Individual: {system} ({game.title})")
    if config.time_control is not None:
        control = config.time_control
        lines.append(f"122 {number(control.base_ms / 1000)}s + {number(control.increment_ms / 1000)}s per move")
    if state.round_times:
        lines.append(
            _trf_line([(3, "132"), *((99 + 10 * r, f"{_date(at):%y/%m/%d}") for r, at in enumerate(state.round_times))])
        )
    lines.append(f"XXR {config.rounds}")
    win = config.points_per_place[0]
    outcomes = {o.game_id: o for o in state.outcomes()}
    voided = state.voided()
    ranked = {row["player"]: row for row in rows}
    for player, name in enumerate(state.names):
        row = ranked[player]
        fields: list[tuple[int, str]] = [
            (3, "001"),
            (8, str(player + 1)),
            (14 + len(_trf_text(name, TRF_NAME_WIDTH)), _trf_text(name, TRF_NAME_WIDTH)),
            (84, f"{row['points']:.1f}"),
            (89, str(row["place"])),
        ]
        late = state.late_entries.get(player)
        for index, tables in enumerate(state.rounds):
            table = next((t for t in tables if player in t.players), None)
            if table is not None:
                seat = table.players.index(player)
                other = table.players[1 - seat]
                outcome = outcomes.get(table.game_id)
                forfeited = state.forfeited(table.game_id)
                if table.game_id in voided or player in forfeited:
                    result = "-"
                elif other in forfeited:
                    result = "+"
                elif outcome is None:
                    result = ""
                else:
                    mine, theirs = outcome.placings[seat], outcome.placings[1 - seat]
                    result = "1" if mine < theirs else "=" if mine == theirs else "0"
                entry = (f"{other + 1:4d}", "wb"[seat], result)
            elif player in state.byes[index]:
                entry = ("0000", "-", "U")
            elif late is not None and index + 1 < late["from_round"] and late["missed_rounds"] == MISSED_AS_BYES:
                entry = ("0000", "-", "F" if config.bye_points == win else "H" if 2 * config.bye_points == win else "U")
            else:
                entry = ("0000", "-", "Z")
            base = 10 * index
            fields += [(95 + base, entry[0]), (97 + base, entry[1]), (99 + base, entry[2])]
        lines.append(_trf_line(fields))
    return "\n".join(lines) + "\n"
