"""The report's numbers, each checked against a value computed here straight from the event
store's records (not from the analytics tables), with formulas written out independently."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import chi2 as chi2_distribution

from domain.kernel.bots import RandomBot
from domain.kernel.log import Record
from infra.analytics.report import Report, compute_report, write_report
from infra.analytics.store import Analytics
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from tests.support.analytics import simulated_store

GAMES_EACH = 2


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GameService, list[CreatedGame]]]:
    service, ended, _running = simulated_store(tmp_path_factory.mktemp("analytics-report"), games_each=GAMES_EACH)
    yield service, ended
    service.close()


@pytest.fixture(scope="module")
def report(store: tuple[GameService, list[CreatedGame]]) -> Report:
    analytics = Analytics.for_service(store[0])
    with analytics.reading() as connection:
        return compute_report(connection)


def logs(service: GameService, ended: list[CreatedGame], game: str) -> list[list[Record]]:
    out = []
    for created in ended:
        records = service.records(created.game_id)
        if records[0].data["game"] == game:
            out.append(records)
    return out


def test_dice_fairness_is_pearsons_chi_square_of_the_rolls(
    store: tuple[GameService, list[CreatedGame]], report: Report
) -> None:
    service, ended = store
    totals = Counter(
        r.data["total"] for log in logs(service, ended, "catan_alexander") for r in log if r.type == "DiceRolled"
    )
    rolls = sum(totals.values())
    ways = {t: 6 - abs(7 - t) for t in range(2, 13)}  # of the 36 outcomes of two dice
    statistic = sum((totals[t] - rolls * w / 36) ** 2 / (rolls * w / 36) for t, w in ways.items())
    (dice,) = report.dice
    assert (dice.game, dice.games, dice.rolls) == ("catan_alexander", GAMES_EACH, rolls)
    assert dice.observed == {t: totals[t] for t in range(2, 13)}
    assert dice.chi2 == pytest.approx(statistic)
    assert dice.p_value == pytest.approx(chi2_distribution.sf(statistic, df=10))
    faces = Counter(
        f
        for log in logs(service, ended, "catan_alexander")
        for r in log
        if r.type == "DiceRolled"
        for f in (r.data["die1"], r.data["die2"])
    )
    expected_face = 2 * rolls / 6
    face_statistic = sum((faces[f] - expected_face) ** 2 / expected_face for f in range(1, 7))
    assert dice.faces_chi2 == pytest.approx(face_statistic)
    assert dice.faces_p_value == pytest.approx(chi2_distribution.sf(face_statistic, df=5))


def wilson_bounds(wins: int, games: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = wins / games
    spread = z * math.sqrt(p * (1 - p) / games + z**2 / (4 * games**2))
    return (p + z**2 / (2 * games) - spread) / (1 + z**2 / games), (p + z**2 / (2 * games) + spread) / (
        1 + z**2 / games
    )


def test_win_rate_by_seat_with_wilson_intervals(store: tuple[GameService, list[CreatedGame]], report: Report) -> None:
    service, ended = store
    for game in ("peloponnes", "empire_builder", "alexandros", "catan_alexander"):
        winners = []
        for created in ended:
            match = service.load(created.game_id).match
            if match.game.id == game:
                winners.append(match.game.scoreboard(match.state).winners)
        rates = [w for w in report.win_rates if w.game == game]
        assert [w.seat for w in rates] == [0, 1, 2]
        for rate in rates:
            wins = sum(rate.seat in w for w in winners)
            assert (rate.games, rate.wins) == (len(winners), wins)
            assert (rate.low, rate.high) == pytest.approx(wilson_bounds(wins, len(winners)))
            assert rate.low <= rate.rate <= rate.high


def test_scores_length_and_bids_per_round(store: tuple[GameService, list[CreatedGame]], report: Report) -> None:
    service, ended = store
    for game in ("peloponnes", "empire_builder", "alexandros", "catan_alexander"):
        finals: list[float] = []
        commands = []
        for log in logs(service, ended, game):
            ended_record = log[-1]
            assert ended_record.type == "GameEnded"
            commands.append(sum(r.type == "CommandAccepted" for r in log))
        for created in ended:
            match = service.load(created.game_id).match
            if match.game.id == game:
                finals += [float(s) for s in match.game.scoreboard(match.state).scores]
        (scores,) = [s for s in report.scores if s.game == game]
        assert (scores.count, scores.mean, scores.median) == (
            len(finals),
            pytest.approx(statistics.mean(finals)),
            pytest.approx(statistics.median(finals)),
        )
        assert (scores.minimum, scores.maximum) == (min(finals), max(finals))
        (length,) = [s for s in report.lengths if s.game == game and s.what == "commands"]
        assert (length.count, length.mean, length.maximum) == (
            GAMES_EACH,
            pytest.approx(statistics.mean(commands)),
            max(commands),
        )
    per_round: dict[int, list[int]] = {}
    for log in logs(service, ended, "peloponnes"):
        current = 0
        for r in log:
            if r.type == "RoundStarted":
                current = r.data["round"]
            elif r.type == "BidPlaced":
                per_round.setdefault(current, []).append(r.data["amount"])
    found = {b.round: b for b in report.bids if b.game == "peloponnes"}
    assert set(found) == set(per_round)
    for number, amounts in per_round.items():
        assert (found[number].bids, found[number].mean_bid) == (len(amounts), pytest.approx(statistics.mean(amounts)))


def test_where_empire_builder_points_come_from(store: tuple[GameService, list[CreatedGame]], report: Report) -> None:
    service, ended = store
    kinds = {"ProvinceScored": "province", "TempleBuilt": "temple", "CityFounded": "city", "AwardScored": "award"}
    totals: dict[str, dict[bool, list[float]]] = {}
    games = [c for c in ended if service.load(c.game_id).match.game.id == "empire_builder"]
    seen = {
        kinds[r.type]
        for c in games
        for r in service.records(c.game_id)
        if r.type in kinds and r.data["seat"] is not None
    }
    for created in games:
        match = service.load(created.game_id).match
        winners = match.game.scoreboard(match.state).winners
        records = service.records(created.game_id)
        for kind in seen:
            for seat in range(match.players):
                got = sum(r.data["vp"] for r in records if kinds.get(r.type) == kind and r.data["seat"] == seat)
                totals.setdefault(kind, {True: [], False: []})[seat in winners].append(got)
    (sources,) = report.sources.values()  # one variant: 3 players, the default options
    assert set(sources) == seen
    for kind, split in totals.items():
        assert sources[kind]["winners"] == pytest.approx(statistics.mean(split[True]))
        assert sources[kind]["others"] == pytest.approx(statistics.mean(split[False]))


@pytest.mark.slow  # 13 charts drawn
def test_the_written_report_shows_the_numbers(
    store: tuple[GameService, list[CreatedGame]], report: Report, tmp_path: Path
) -> None:
    markdown = write_report(report, tmp_path / "md").read_text()
    (dice,) = report.dice
    row = f"| catan_alexander | {dice.variant} | {GAMES_EACH} | {dice.rolls} | {dice.chi2:.3f}"
    assert row.rstrip("0").rstrip(".") in markdown
    for name in (
        "dice_catan_alexander",
        "win_rate_peloponnes",
        "scores_alexandros",
        "bids_peloponnes",
        "sources_empire_builder",
        "taxes_alexandros",
    ):
        assert f"]({name}.png)" in markdown
        assert (tmp_path / "md" / f"{name}.png").stat().st_size > 1000
    with Analytics.for_service(store[0]).reading() as connection:
        one_game = compute_report(connection, "alexandros")
    assert set(one_game.games) == {"alexandros"} and not one_game.dice and not one_game.sources
    page = write_report(one_game, tmp_path / "html", "html").read_text()
    assert page.startswith("<!doctype html>") and "<img src='taxes_alexandros.png'" in page
    assert "catan_alexander" not in page


def test_an_empty_database_gives_an_empty_report(tmp_path: Path) -> None:
    service, _, _ = simulated_store(tmp_path, games_each=0, running=0)
    with Analytics.for_service(service).reading() as connection:
        empty: Any = compute_report(connection)
    assert empty.games == {} and empty.dice == [] and empty.win_rates == []
    assert "Ended games: none" in write_report(empty, tmp_path / "out").read_text()
    service.close()


CATAN_VARIANTS = [({"board": "alexander"}, 3), ({"board": "base"}, 3), ({"board": "base"}, 4)]


def test_every_figure_is_split_by_options_and_player_count(tmp_path: Path) -> None:
    """Catan's two boards and its player counts are never counted together: each figure is
    computed here per (board, players) straight from the records."""
    service, _, _ = simulated_store(tmp_path, games_each=0, running=0)
    games: dict[tuple[str, int], list[str]] = {}
    for number, (options, players) in enumerate(CATAN_VARIANTS * 2):
        created = service.create_game("catan_alexander", players, options, f"split-{number}".encode())
        play_with_bot(service, created, RandomBot(f"split-bot-{number}".encode()))
        games.setdefault((options["board"], players), []).append(created.game_id)
    with Analytics.for_service(service).reading() as connection:
        split = compute_report(connection)
    labels = {
        ("alexander", 3): "3 players, board=alexander, starting_gold=8",
        ("base", 3): "3 players, board=base, layout=beginner",
        ("base", 4): "4 players, board=base, layout=beginner",
    }
    assert split.variants == [("catan_alexander", labels[key], 2) for key in sorted(labels)]
    for key, ids in games.items():
        records = [service.records(game_id) for game_id in ids]
        players = key[1]
        rounds = []
        for log in records:
            turns = [r.data["turn"] for r in log if r.type == "TurnStarted"]
            rounds.append((max(turns) - 1) // players + 1)
        (length,) = [d for d in split.lengths if d.variant == labels[key] and d.what == "rounds"]
        assert (length.count, length.mean, length.maximum) == (2, pytest.approx(statistics.mean(rounds)), max(rounds))
        rolls = sum(r.type == "DiceRolled" for log in records for r in log)
        (dice,) = [d for d in split.dice if d.variant == labels[key]]
        assert (dice.games, dice.rolls) == (2, rolls)
        winners = []
        for game_id in ids:
            match = service.load(game_id).match
            winners.append(match.game.scoreboard(match.state).winners)
        rates = [w for w in split.win_rates if w.variant == labels[key]]
        assert [(w.seat, w.games, w.wins) for w in rates] == [
            (seat, 2, sum(seat in w for w in winners)) for seat in range(players)
        ]
        assert len(split.final_scores[("catan_alexander", labels[key])]) == 2 * players
    markdown = write_report(split, tmp_path / "report").read_text()
    for label in labels.values():
        assert f"| catan_alexander | {label} | rounds |" in markdown
    service.close()
