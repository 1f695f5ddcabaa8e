"""One conformance suite over every game of ``domain.catalog.GAMES``, as ``eventsourcing`` runs one
application test case against every store: random games finish, replay (through JSON) and verify;
every listed move is accepted; views and legal moves ignore what the viewer cannot know; the final
scores follow from the public events; views are JSON.

What the suite must know of a game is in ``CASES``: its setups (player counts and options) and, from
``tests/domain/<game>/conformance.py``, its invariants, a function that changes what one viewer
cannot know, and the scoreboard a spectator recomputes from the public records. Properties of one
game only stay in that game's ``test_properties.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel import Chance, Command, RuleViolation, engine
from domain.kernel.game import GameDefinition
from domain.kernel.log import for_viewer
from tests.domain.alexandros import conformance as alexandros
from tests.domain.catan_alexander import conformance as catan_alexander
from tests.domain.empire_builder import conformance as empire_builder
from tests.domain.peloponnes import conformance as peloponnes
from tests.support.games import bot_game, partly_played
from tests.support.properties import (
    check_hidden_reshuffle,
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
    state_partway,
    states_along,
)

Setup = tuple[int, dict[str, Any]]


@dataclass(frozen=True)
class Case:
    """One game as the suite plays it.

    - ``setups``: the player counts and options its random games are drawn from.
    - ``knowledge``: the game's ``tests/domain/<game>/conformance.py``, whose functions the methods
      call: ``check_states(states)``, the game's invariants over the states along a replayed game;
      ``vary_hidden(state, viewer, chance)``, a state differing from ``state`` only in what
      ``viewer`` cannot know, or None where nothing may be changed; ``scores_from_public(records,
      players)``, the final scores recomputed from the records a spectator receives (the game's own
      checks of those records included); and optionally ``probes(state)``, commands (mostly
      refused) whose answers must not depend on what the seat cannot know either.
    - ``examples``: hypothesis examples per property, so that every game costs about what its own
      copies of these properties cost; ``longest``: the commands a partly played game runs at most;
      ``hidden_every``: how far apart the states are whose hidden parts are changed.
    - ``nobody_hides_at``: player counts at which a game may pass without anything hidden from one seat.
    - ``reshuffles``: whether the game holds pre-ordered face-down stacks (``reshuffle_hidden``).
    - ``sweeps``: games per setup of the slow sweep of listed moves (Catan's listings sample the
      most: trade offers, bids, payments).
    """

    setups: tuple[Setup, ...]
    knowledge: ModuleType
    examples: dict[str, int]
    longest: int
    hidden_every: int
    nobody_hides_at: frozenset[int] = frozenset()
    reshuffles: bool = False
    sweeps: int = 0

    def check_states(self, states: Iterable[Any]) -> None:
        self.knowledge.check_states(states)

    def vary_hidden(self, state: Any, viewer: int, chance: Chance) -> Any | None:
        result: Any | None = self.knowledge.vary_hidden(state, viewer, chance)
        return result

    def scores_from_public(self, public: list[dict[str, Any]], players: int) -> list[Any]:
        return list(self.knowledge.scores_from_public(public, players))

    def probes(self, state: Any) -> list[Command]:
        return list(getattr(self.knowledge, "probes", lambda _state: [])(state))


def examples(finish: int, along: int, partway: int, hidden: int, scores: int) -> dict[str, int]:
    return {"finish": finish, "along": along, "partway": partway, "hidden": hidden, "scores": scores}


CASES: dict[str, Case] = {
    "alexandros": Case(
        setups=((2, {}), (3, {}), (4, {})),
        knowledge=alexandros,
        examples=examples(finish=40, along=4, partway=20, hidden=7, scores=10),
        longest=300,
        hidden_every=4,
        reshuffles=True,
    ),
    "catan_alexander": Case(
        setups=(
            (3, {}),
            (4, {}),
            (3, {"starting_gold": 0}),
            (4, {"starting_gold": 0}),
            (3, {"board": "base"}),
            (4, {"board": "base"}),
            (3, {"board": "base", "layout": "random"}),
            (4, {"board": "base", "layout": "random"}),
        ),
        knowledge=catan_alexander,
        examples=examples(finish=24, along=6, partway=25, hidden=10, scores=12),
        longest=600,
        hidden_every=40,
        reshuffles=True,
        sweeps=3,
    ),
    "empire_builder": Case(
        setups=tuple(
            (players, options)
            for players in range(2, 6)
            for options in (
                {},
                {"short_game": True},
                {"region_scoring_variant": True},
                {"short_game": True, "region_scoring_variant": True},
            )
        ),
        knowledge=empire_builder,
        examples=examples(finish=60, along=7, partway=80, hidden=15, scores=30),
        longest=150,
        hidden_every=1,  # sealed commits are open for a few commands only
        nobody_hides_at=frozenset({2}),
    ),
    "peloponnes": Case(
        setups=(*((1, {"solo_level": level}) for level in range(1, 6)), *((n, {}) for n in range(2, 6))),
        knowledge=peloponnes,
        examples=examples(finish=60, along=12, partway=30, hidden=20, scores=30),
        longest=80,
        hidden_every=5,
    ),
}

seeds = st.binary(min_size=1, max_size=8)


def test_every_game_of_the_catalog_has_a_case() -> None:
    assert sorted(CASES) == sorted(GAME_PACKAGES)


def run_examples(game_id: str, prop: str, check: Callable[..., None], **strategies: Any) -> None:
    """``check(game, case, setup, **drawn)`` for the game's share of hypothesis examples."""
    case = CASES[game_id]
    game = GAMES.get(game_id)
    given(setup=st.sampled_from(case.setups), **strategies)(
        settings(max_examples=case.examples[prop], deadline=None)(
            lambda setup, **drawn: check(game, case, setup, **drawn)
        )
    )()


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_random_games_finish_replay_and_verify(game_id: str) -> None:
    def check(game: GameDefinition[Any], case: Case, setup: Setup, seed: bytes) -> None:
        players, options = setup
        match, records = play_recorded_game(game, players, options, seed=seed, bot_seed=seed + b"bot")
        assert game.is_over(match.state)
        assert records[-1].type == "GameEnded" and records[-1].data["seed"] == seed.hex()
        board = game.scoreboard(match.state)
        assert board.final and board.winners == records[-1].data["winners"]
        check_replay_rebuilds(game, match, records)
        check_record_verifies(game, records)
        check_views_are_json(game, match.state, players)
        case.check_states(states_along(game, match, records))

    run_examples(game_id, "finish", check, seed=seeds)


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_every_listed_move_is_accepted_along_a_game(game_id: str) -> None:
    def check(game: GameDefinition[Any], case: Case, setup: Setup, seed: bytes) -> None:
        players, options = setup
        play_recorded_game(game, players, options, seed=seed, check_each_move=True)

    run_examples(game_id, "along", check, seed=seeds)


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_listed_moves_are_accepted_in_partly_played_games(game_id: str) -> None:
    """Awaited seats, and the seats that may act unawaited when they have anything to say."""

    def check(game: GameDefinition[Any], case: Case, setup: Setup, seed: bytes, commands: int) -> None:
        players, options = setup
        state, chance = partly_played(game, players, commands, seed, options)
        check_views_are_json(game, state, players)
        for seat in game.awaited(state):
            check_legal_moves_accepted(game, state, seat, chance)
        for seat in game.optional(state):  # an optional seat may have nothing to say (an empty hand)
            if game.legal_moves(state, seat, Chance(b"moves")):
                check_legal_moves_accepted(game, state, seat, chance)

    run_examples(game_id, "partway", check, seed=seeds, commands=st.integers(0, CASES[game_id].longest))


def outcome(game: GameDefinition[Any], state: Any, seat: int, command: Command) -> str:
    """Whether the command is accepted, or the refusal the seat reads (drawn cards are new
    information, so only acceptance is compared)."""
    try:
        engine.execute(game, copy.deepcopy(state), seat, command, Chance(b"probe"))
    except RuleViolation as refused:
        return f"{refused.code}: {refused.message}"
    return "accepted"


def check_hidden_is_ignored(game: GameDefinition[Any], case: Case, state: Any, other: Any, viewer: int) -> None:
    """``other`` differs from ``state`` only in what ``viewer`` cannot know: he sees the same, the
    same seats are awaited, he is offered the same moves and his probes are answered alike."""
    assert game.view(other, viewer) == game.view(state, viewer)
    assert game.view(other, None) == game.view(state, None)
    assert game.awaited(other) == game.awaited(state) and game.optional(other) == game.optional(state)
    if viewer in game.awaited(state) or viewer in game.optional(state):
        assert game.legal_moves(other, viewer, Chance(b"m")) == game.legal_moves(state, viewer, Chance(b"m"))
    if viewer in game.awaited(state):
        for probe in case.probes(state):
            assert outcome(game, other, viewer, probe) == outcome(game, state, viewer, probe), probe


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_views_and_moves_ignore_what_the_viewer_cannot_know(game_id: str) -> None:
    def check(game: GameDefinition[Any], case: Case, setup: Setup, seed: bytes) -> None:
        players, options = setup
        varied = 0
        for step, (state, _) in enumerate(bot_game(game, players, seed, options)):
            if step % case.hidden_every:
                continue
            for viewer in range(players):
                other = case.vary_hidden(state, viewer, Chance(seed + bytes([viewer])))
                if other is not None and other != state:
                    check_hidden_is_ignored(game, case, state, other, viewer)
                    varied += 1
        assert varied or players in case.nobody_hides_at, "nothing hidden from any seat in a whole game"

    run_examples(game_id, "hidden", check, seed=seeds)


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_final_scores_follow_from_public_events(game_id: str) -> None:
    def check(game: GameDefinition[Any], case: Case, setup: Setup, seed: bytes) -> None:
        players, options = setup
        match, records = play_recorded_game(game, players, options, seed=seed, bot_seed=b"d" + seed)
        public = [for_viewer(r, None, reveal_all=False) for r in records]
        assert case.scores_from_public(public, players) == game.scoreboard(match.state).scores

    run_examples(game_id, "scores", check, seed=seeds)


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_a_reshuffle_of_the_hidden_stacks_changes_only_what_nobody_knows(game_id: str) -> None:
    """A game without pre-ordered hidden stacks lists nothing; a reshuffle is one event secret from
    every seat, after which every seat and spectator sees what it saw before."""
    game, case = GAMES.get(game_id), CASES[game_id]
    players = case.setups[-1][0]
    state = state_partway(game, players, seed=b"hidden")
    if not case.reshuffles:
        assert game.reshuffle_hidden(state, Chance(b"new")) == []
        return
    before, _event, after = check_hidden_reshuffle(game, state)
    assert after != before
    for viewer in [None, *range(players)]:
        assert game.view(after, viewer) == game.view(before, viewer)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "setup"), [(g, s) for g in GAME_PACKAGES for s in CASES[g].setups if CASES[g].sweeps]
)
def test_many_games_every_listed_move_is_accepted(game_id: str, setup: Setup) -> None:
    """A longer sweep of the listed-moves check (every awaited seat, every state) over several games."""
    players, options = setup
    for game in range(CASES[game_id].sweeps):
        play_recorded_game(GAMES.get(game_id), players, options, seed=f"sweep-{game}".encode(), check_each_move=True)
