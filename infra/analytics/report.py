"""Reports over the analytics tables: the numbers (SQL in DuckDB, tests with scipy) and their
rendering as Markdown or HTML with PNG charts (matplotlib, no display needed).

- dice fairness: Pearson's χ² of the observed dice totals (and faces) against the fair odds;
- win rate by seat, per game and player count, with Wilson 95 % intervals (a shared win
  counts as a win for every winner);
- score distributions (final scores of every seat), game length (records, commands, rounds,
  minutes), bids per round;
- one chart per game of what its players ask most: Catan the dice, Peloponnes the price of
  tiles over the rounds, Empire Builder where the points come from, Alexandros tax points over
  the game.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import duckdb
from scipy import stats

Z95 = float(stats.norm.ppf(0.975))
TWO_DICE = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}


@dataclass(frozen=True)
class DiceFairness:
    game: str
    variant: str  # the player count and options (``variant_label``): figures of two variants are never mixed
    games: int
    rolls: int
    observed: dict[int, int]  # total -> rolls
    expected: dict[int, float]
    chi2: float
    p_value: float
    faces: dict[int, int]  # face -> count over both dice
    faces_chi2: float
    faces_p_value: float


@dataclass(frozen=True)
class SeatWinRate:
    game: str
    variant: str
    players: int
    seat: int
    games: int
    wins: int
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class Distribution:
    game: str
    variant: str
    what: str
    count: int
    mean: float
    median: float
    minimum: float
    maximum: float
    p90: float


@dataclass(frozen=True)
class RoundBids:
    game: str
    variant: str
    round: int
    bids: int
    mean_bid: float | None
    mean_price: float | None  # what the winners paid (Peloponnes awards, Catan auctions won)


@dataclass
class Report:
    game: str | None
    games: dict[str, int]  # ended games per game
    variants: list[tuple[str, str, int]] = field(default_factory=list)  # (game, variant, ended games)
    dice: list[DiceFairness] = field(default_factory=list)
    win_rates: list[SeatWinRate] = field(default_factory=list)
    scores: list[Distribution] = field(default_factory=list)
    lengths: list[Distribution] = field(default_factory=list)
    bids: list[RoundBids] = field(default_factory=list)
    # Empire Builder, per variant: mean VP a seat got in a game from each source, winners against the others
    sources: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    # Alexandros, per variant: (turn bucket, points)
    taxes_by_turn: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    # every seat's final score, per game and variant
    final_scores: dict[tuple[str, str], list[float]] = field(default_factory=dict)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # The bounds are exactly 0 and 1 at no and all successes (the formula leaves rounding dust).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def variant_label(players: int, options: str | dict[str, Any] | None) -> str:
    """A game's variant as text: its player count and options, e.g. ``3 players, board=base,
    layout=beginner`` (options in the order recorded; defaults are recorded too)."""
    chosen = json.loads(options) if isinstance(options, str) else (options or {})
    return ", ".join(
        [f"{players} players", *(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in chosen.items())]
    )


# Every figure is grouped by game and variant: the players and options (as canonical JSON text).
VARIANT = "g.game, g.players, g.options"


def _scope(game: str | None, alias: str = "g") -> tuple[str, list[Any]]:
    where = f"{alias}.status = 'ended'"
    return (where + f" AND {alias}.game = ?", [game]) if game is not None else (where, [])


def compute_report(connection: duckdb.DuckDBPyConnection, game: str | None = None) -> Report:
    where, parameters = _scope(game)

    def rows(sql: str) -> list[tuple[Any, ...]]:
        return connection.execute(sql, parameters).fetchall()

    report = Report(game, {g: n for g, n in rows(f"SELECT game, count(*) FROM games g WHERE {where} GROUP BY game")})
    report.variants = [
        (g, variant_label(players, options), int(n))
        for g, players, options, n in rows(
            f"SELECT {VARIANT}, count(*) FROM games g WHERE {where} GROUP BY ALL ORDER BY ALL"
        )
    ]
    report.dice = _dice(rows, where)
    for g, players, options, seat, games, wins in rows(
        f"SELECT {VARIANT}, s.seat, count(*), count(*) FILTER (list_contains(g.winners, s.seat)) "
        f"FROM games g, range(g.players) s(seat) WHERE {where} GROUP BY ALL ORDER BY ALL"
    ):
        low, high = wilson(wins, games)
        variant = variant_label(players, options)
        report.win_rates.append(SeatWinRate(g, variant, players, seat, games, wins, wins / games, low, high))
    distribution = "count(*), avg(x), median(x), min(x), max(x), quantile_cont(x, 0.9)"  # x: the measured value
    for g, players, options, *values in rows(
        f"SELECT {VARIANT}, {distribution} FROM (SELECT *, unnest(g.scores) AS x FROM games g WHERE {where}) g "
        "GROUP BY ALL ORDER BY ALL"
    ):
        report.scores.append(Distribution(g, variant_label(players, options), "final score", *_numbers(values)))
    for g, players, options, values in rows(
        f"SELECT {VARIANT}, flatten(list(g.scores)) FROM games g WHERE {where} GROUP BY ALL ORDER BY ALL"
    ):
        report.final_scores[(g, variant_label(players, options))] = [float(v) for v in values]
    for what, expression in (
        ("records", "g.version"),
        ("commands", "g.commands"),
        ("rounds", "g.rounds"),
        ("minutes", "epoch(g.ended_at - g.created_at) / 60"),
    ):
        for g, players, options, *values in rows(
            f"SELECT {VARIANT}, {distribution} FROM (SELECT *, {expression} AS x FROM games g WHERE {where}) g "
            "WHERE x IS NOT NULL GROUP BY ALL ORDER BY ALL"
        ):
            report.lengths.append(Distribution(g, variant_label(players, options), what, *_numbers(values)))
    report.bids = _bids(rows, where)
    for players, options, source, winners, others in rows(
        "WITH seats AS (SELECT g.game_id, g.players, g.options, s.seat, list_contains(g.winners, s.seat) AS won "
        f"FROM games g, range(g.players) s(seat) WHERE {where} AND g.game = 'empire_builder'), "
        "per AS (SELECT c.game_id, c.seat, c.kind, sum(c.vp) AS vp FROM empire_builder_contests c "
        "WHERE c.vp IS NOT NULL AND c.seat IS NOT NULL AND c.game_id IN (SELECT game_id FROM seats) GROUP BY ALL) "
        "SELECT seats.players, seats.options, k.kind, avg(coalesce(per.vp, 0)) FILTER (won), "
        "avg(coalesce(per.vp, 0)) FILTER (NOT won) "
        "FROM seats CROSS JOIN (SELECT DISTINCT kind FROM per) k "
        "LEFT JOIN per ON per.game_id = seats.game_id AND per.seat = seats.seat AND per.kind = k.kind "
        "GROUP BY ALL ORDER BY ALL"
    ):
        if winners is not None and others is not None:
            by_source = report.sources.setdefault(variant_label(players, options), {})
            by_source[source] = {"winners": float(winners), "others": float(others)}
    for players, options, bucket, points in rows(
        "SELECT g.players, g.options, (t.turn - 1) // 10 * 10 + 1 AS bucket, avg(t.points) FROM alexandros_taxes t "
        f"JOIN games g USING (game_id) WHERE {where} AND t.seat = t.levier GROUP BY ALL ORDER BY ALL"
    ):
        report.taxes_by_turn.setdefault(variant_label(players, options), []).append((int(bucket), float(points)))
    return report


def _numbers(values: Sequence[Any]) -> tuple[int, float, float, float, float, float]:
    count, mean, median, low, high, p90 = values
    return int(count), float(mean), float(median), float(low), float(high), float(p90)


def _dice(rows: Any, where: str) -> list[DiceFairness]:
    out = []
    Key = tuple[str, int, str]  # game, players, options
    per_game: dict[Key, dict[int, int]] = {}
    for g, players, options, total, count in rows(
        f"SELECT {VARIANT}, d.total, count(*) FROM catan_dice_rolls d JOIN games g USING (game_id) WHERE {where} "
        "GROUP BY ALL ORDER BY ALL"
    ):
        per_game.setdefault((g, players, options), {})[int(total)] = int(count)
    faces_of: dict[Key, dict[int, int]] = {}
    for g, players, options, face, count in rows(
        f"SELECT {VARIANT}, f.face, count(*) FROM (SELECT game_id, die1 AS face FROM catan_dice_rolls UNION ALL "
        "SELECT game_id, die2 FROM catan_dice_rolls) f JOIN games g USING (game_id) "
        f"WHERE {where} GROUP BY ALL ORDER BY ALL"
    ):
        faces_of.setdefault((g, players, options), {})[int(face)] = int(count)
    games = {
        (g, players, options): n
        for g, players, options, n in rows(
            f"SELECT {VARIANT}, count(DISTINCT d.game_id) FROM catan_dice_rolls d JOIN games g USING (game_id) "
            f"WHERE {where} GROUP BY ALL"
        )
    }
    for key, counts in per_game.items():
        rolls = sum(counts.values())
        observed = {t: counts.get(t, 0) for t in TWO_DICE}
        expected = {t: rolls * p for t, p in TWO_DICE.items()}
        chi2, p_value = stats.chisquare(list(observed.values()), list(expected.values()))
        faces = {f: faces_of.get(key, {}).get(f, 0) for f in range(1, 7)}
        faces_chi2, faces_p = stats.chisquare(list(faces.values()))
        out.append(
            DiceFairness(
                key[0],
                variant_label(key[1], key[2]),
                int(games[key]),
                rolls,
                observed,
                expected,
                float(chi2),
                float(p_value),
                faces,
                float(faces_chi2),
                float(faces_p),
            )
        )
    return out


def _bids(rows: Any, where: str) -> list[RoundBids]:
    return [
        *_round_bids(rows, where, "peloponnes", "round", "peloponnes_auction_results"),
        # Catan: the n-th auction of a game is its "round" of bidding for a temple
        *_round_bids(rows, where, "catan", "auction", "catan_auctions", " AND a.winner IS NOT NULL"),
    ]


def _round_bids(rows: Any, where: str, prefix: str, round_: str, paid: str, won: str = "") -> list[RoundBids]:
    """The bids of each ``round_`` of a game (table ``<prefix>_bids``), and what the winners paid
    (table ``paid``, its rows that ``won`` keeps)."""
    prices = {
        (g, players, options, int(r)): float(price)
        for g, players, options, r, price in rows(
            f"SELECT {VARIANT}, a.{round_}, avg(a.amount) FROM {paid} a JOIN games g USING (game_id) "
            f"WHERE {where}{won} GROUP BY ALL"
        )
    }
    return [
        RoundBids(
            g,
            variant_label(players, options),
            int(r),
            int(count),
            float(mean),
            prices.get((g, players, options, int(r))),
        )
        for g, players, options, r, count, mean in rows(
            f"SELECT {VARIANT}, b.{round_}, count(*), avg(b.amount) FROM {prefix}_bids b JOIN games g USING (game_id) "
            f"WHERE {where} AND b.action = 'bid' GROUP BY ALL ORDER BY ALL"
        )
    ]


# -- rendering ----------------------------------------------------------------------------------

ReportFormat = Literal["markdown", "html"]


class _Document:
    """Blocks of a report, rendered as Markdown or HTML."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, Any]] = []

    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(("heading", (level, text)))

    def text(self, text: str) -> None:
        self.blocks.append(("text", text))

    def table(self, header: list[str], body: list[list[Any]]) -> None:
        self.blocks.append(("table", (header, body)))

    def image(self, path: str, caption: str) -> None:
        self.blocks.append(("image", (path, caption)))

    def markdown(self) -> str:
        out = []
        for kind, value in self.blocks:
            if kind == "heading":
                out.append(f"{'#' * value[0]} {value[1]}\n")
            elif kind == "text":
                out.append(f"{value}\n")
            elif kind == "table":
                header, body = value
                out.append("| " + " | ".join(header) + " |")
                out.append("|" + "---|" * len(header))
                out.extend("| " + " | ".join(_cell(c) for c in row) + " |" for row in body)
                out.append("")
            else:
                out.append(f"![{value[1]}]({value[0]})\n")
        return "\n".join(out)

    def html(self) -> str:
        out = [
            "<!doctype html><meta charset='utf-8'><title>Alexandria analytics report</title>",
            "<style>body{font-family:sans-serif;max-width:60em;margin:auto}td,th{padding:2px 8px}"
            "table{border-collapse:collapse}tr:nth-child(even){background:#f4f4f4}</style>",
        ]
        for kind, value in self.blocks:
            if kind == "heading":
                out.append(f"<h{value[0]}>{html.escape(value[1])}</h{value[0]}>")
            elif kind == "text":
                out.append(f"<p>{html.escape(value)}</p>")
            elif kind == "table":
                header, body = value
                out.append("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
                out.extend("<tr>" + "".join(f"<td>{html.escape(_cell(c))}</td>" for c in row) + "</tr>" for row in body)
                out.append("</table>")
            else:
                out.append(
                    f"<figure><img src='{html.escape(value[0])}' alt='{html.escape(value[1])}'>"
                    f"<figcaption>{html.escape(value[1])}</figcaption></figure>"
                )
        return "\n".join(out)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e-3 and value else f"{value:.3f}".rstrip("0").rstrip(".")
    return str(value)


def write_report(report: Report, out: Path, file_format: ReportFormat = "markdown") -> Path:
    """The report as ``out/report.md`` (or ``.html``) with its charts beside it (PNG)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    doc = _Document()
    doc.heading(f"Alexandria analytics report{f': {report.game}' if report.game else ''}", 1)
    doc.text("Ended games: " + (", ".join(f"{g} {n}" for g, n in sorted(report.games.items())) or "none"))
    if report.variants:
        doc.text(
            "Every figure is split by game and variant (the player count and the options the games were created "
            "with): games of two variants are never counted together."
        )
        doc.table(["game", "variant", "ended games"], [list(v) for v in report.variants])

    def chart(name: str, caption: str, draw: Any, title: str, x: str | None, y: str, legend: bool = True) -> None:
        """A PNG chart in the report: ``draw(axes)`` plots, then the axes get their labels."""
        figure, axes = plt.subplots(figsize=(7, 3.6))
        draw(axes)
        if x is not None:
            axes.set_xlabel(x)
        axes.set_ylabel(y)
        axes.set_title(title)
        if legend:
            axes.legend()
        figure.tight_layout()
        figure.savefig(out / f"{name}.png", dpi=90)
        plt.close(figure)
        doc.image(f"{name}.png", caption)

    if report.dice:
        doc.heading("Dice fairness")
        doc.text(
            "Pearson's χ² of the observed totals of two dice against the fair odds (10 degrees of freedom), "
            "and of the faces of both dice against a uniform die (5 degrees of freedom)."
        )
        doc.table(
            ["game", "variant", "games", "rolls", "χ² totals", "p", "χ² faces", "p faces"],
            [
                [d.game, d.variant, d.games, d.rolls, d.chi2, d.p_value, d.faces_chi2, d.faces_p_value]
                for d in report.dice
            ],
        )
        for d in report.dice:
            doc.table(
                [f"total ({d.variant})", *map(str, d.observed)],
                [["observed", *d.observed.values()], ["expected", *d.expected.values()]],
            )
        for g in sorted({d.game for d in report.dice}):

            def dice(axes: Any, g: str = g) -> None:
                mine = [d for d in report.dice if d.game == g]
                for offset, d in enumerate(mine):
                    share = [d.observed[t] / d.rolls for t in TWO_DICE]
                    axes.plot([t + offset * 0.05 for t in TWO_DICE], share, "o", label=d.variant)
                axes.plot(list(TWO_DICE), list(TWO_DICE.values()), "-", color="grey", label="fair dice")
                axes.set_xticks(list(TWO_DICE))

            chart(
                f"dice_{g}",
                f"{g}: dice totals, observed share against the fair odds, by variant",
                dice,
                f"{g}: dice totals",
                "total of two dice",
                "share of rolls",
            )

    if report.win_rates:
        doc.heading("Win rate by seat")
        doc.text(
            "Share of ended games each seat won (shared wins count for every winner), with Wilson 95 % "
            "confidence intervals; seat 0 moves first."
        )
        doc.table(
            ["game", "variant", "seat", "games", "wins", "win rate", "95 % low", "95 % high"],
            [[w.game, w.variant, w.seat, w.games, w.wins, w.rate, w.low, w.high] for w in report.win_rates],
        )
        for g in sorted({w.game for w in report.win_rates}):

            def win_rates(axes: Any, g: str = g) -> None:
                variants = list(dict.fromkeys(w.variant for w in report.win_rates if w.game == g))
                for offset, variant in enumerate(variants):
                    mine = [w for w in report.win_rates if w.game == g and w.variant == variant]
                    axes.errorbar(
                        [w.seat + offset * 0.08 for w in mine],
                        [w.rate for w in mine],
                        yerr=[[w.rate - w.low for w in mine], [w.high - w.rate for w in mine]],
                        fmt="o",
                        capsize=4,
                        label=variant,
                    )
                    axes.axhline(1 / mine[0].players, linestyle=":", linewidth=0.8)
                axes.set_xticks(range(max(w.players for w in report.win_rates if w.game == g)))
                axes.set_ylim(0, 1)

            chart(
                f"win_rate_{g}",
                f"{g}: win rate by seat",
                win_rates,
                f"{g}: win rate by seat (95 % Wilson intervals)",
                "seat",
                "win rate",
            )

    if report.scores:
        doc.heading("Score distributions")
        doc.table(
            ["game", "variant", "scores", "mean", "median", "min", "max", "90th pct"], [_row(s) for s in report.scores]
        )
    if report.lengths:
        doc.heading("Game length")
        doc.table(
            ["game", "variant", "measure", "games", "mean", "median", "min", "max", "90th pct"],
            [[s.game, s.variant, s.what, *_row(s)[2:]] for s in report.lengths],
        )
    for g in sorted({g for g, _ in report.final_scores}):

        def histogram(axes: Any, g: str = g) -> None:
            for (game, variant), values in report.final_scores.items():
                if game == g:
                    axes.hist(values, bins=min(30, max(5, len(set(values)))), histtype="step", label=variant)

        chart(
            f"scores_{g}",
            f"{g}: distribution of final scores, by variant",
            histogram,
            f"{g}: final scores",
            "final score",
            "seats",
        )

    if report.bids:
        doc.heading("Bids per round")
        doc.text(
            "Peloponnes: bids placed in each round, their mean, and the mean price of the tiles won. "
            "Catan: the n-th temple auction of a game, its bids and the mean winning bid."
        )
        doc.table(
            ["game", "variant", "round / auction", "bids", "mean bid", "mean price paid"],
            [
                [b.game, b.variant, b.round, b.bids, b.mean_bid, "" if b.mean_price is None else b.mean_price]
                for b in report.bids
            ],
        )
        for g in sorted({b.game for b in report.bids}):

            def bids(axes: Any, g: str = g) -> None:
                for variant in dict.fromkeys(b.variant for b in report.bids if b.game == g):
                    mine = [b for b in report.bids if b.game == g and b.variant == variant]
                    axes.plot(
                        [b.round for b in mine], [b.mean_bid for b in mine], marker="o", label=f"mean bid, {variant}"
                    )
                    paid = [b for b in mine if b.mean_price is not None]
                    prices = [b.mean_price for b in paid]
                    axes.plot([b.round for b in paid], prices, marker="s", label=f"mean price won, {variant}")

            chart(
                f"bids_{g}",
                f"{g}: bids and prices by round",
                bids,
                f"{g}: bids by round",
                "round" if g == "peloponnes" else "auction of the game",
                "coins" if g == "peloponnes" else "cards bid",
            )

    if report.sources:
        doc.heading("Empire Builder: where the points come from")
        doc.table(
            ["variant", "source", "mean VP of a winner in a game", "mean VP of the others"],
            [[variant, s, v["winners"], v["others"]] for variant, by in report.sources.items() for s, v in by.items()],
        )

        def sources(axes: Any) -> None:
            # one pair of bars per source and variant: "source (variant)" when there are several
            several = len(report.sources) > 1
            split = {
                (f"{s} ({variant})" if several else s): v
                for variant, by in report.sources.items()
                for s, v in by.items()
            }
            winners = {n: v["winners"] for n, v in split.items()}
            others = {n: v["others"] for n, v in split.items()}
            _bar_pairs(axes, list(split), {"winners": winners, "others": others})

        chart(
            "sources_empire_builder",
            "empire_builder: VP by source, winners against the others",
            sources,
            "empire_builder: where the points come from",
            None,
            "mean VP per seat and game",
        )

    if report.taxes_by_turn:
        doc.heading("Alexandros: tax points over the game")
        doc.table(
            ["variant", "turns from", "mean points of the levier"],
            [[variant, t, p] for variant, buckets in report.taxes_by_turn.items() for t, p in buckets],
        )

        def taxes(axes: Any) -> None:
            width = 8 / len(report.taxes_by_turn)
            for offset, (variant, buckets) in enumerate(report.taxes_by_turn.items()):
                axes.bar([t + offset * width for t, _ in buckets], [p for _, p in buckets], width=width, label=variant)

        chart(
            "taxes_alexandros",
            "alexandros: points per tax levy by turn",
            taxes,
            "alexandros: what a tax levy pays the levier, by turn",
            "turn",
            "points per levy",
        )

    text = doc.markdown() if file_format == "markdown" else doc.html()
    path = out / ("report.md" if file_format == "markdown" else "report.html")
    path.write_text(text, encoding="utf-8")
    return path


def _bar_pairs(axes: Any, keys: list[Any], bars: dict[str, Mapping[Any, float]]) -> None:
    """Two bars side by side at each key (numbers where they stand, names in a row): label -> value
    per key, the first on the left."""
    at = keys if all(isinstance(k, int) for k in keys) else list(range(len(keys)))
    (left, left_values), (right, right_values) = bars.items()
    axes.bar([x - 0.2 for x in at], [left_values[k] for k in keys], 0.4, label=left)
    axes.bar([x + 0.2 for x in at], [right_values[k] for k in keys], 0.4, label=right)
    axes.set_xticks(at, [str(k) for k in keys])


def _row(d: Distribution) -> list[Any]:
    return [d.game, d.variant, d.count, d.mean, d.median, d.minimum, d.maximum, d.p90]
