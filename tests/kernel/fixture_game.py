"""A tiny game used only to test the kernel: sealed guesses of a die roll, three rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.kernel import Chance, Command, Event, GameDefinition, RuleViolation, Scoreboard, Viewer
from domain.kernel.options import OptionSpec

DEFAULT_ROUNDS = 3


@dataclass(frozen=True, slots=True)
class CommitGuess(Command):
    type = "commit_guess"
    private = True
    guess: int


@dataclass(frozen=True, slots=True)
class GuessCommitted(Event):
    private_to = ("seat",)
    hidden = ("guess",)
    seat: int
    guess: int


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    round: int
    value: int
    guesses: list[int]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    scores: list[int]
    seed: str


@dataclass
class State:
    players: int
    rounds: int = DEFAULT_ROUNDS
    round: int = 1
    guesses: dict[int, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    over: bool = False


def initial_state(players: int, options: dict[str, Any]) -> State:
    return State(players=players, rounds=options.get("rounds", DEFAULT_ROUNDS), scores=[0] * players)


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    rounds = options.get("rounds", DEFAULT_ROUNDS)
    if set(options) - {"rounds"} or not isinstance(rounds, int) or not 1 <= rounds <= 1000:
        raise RuleViolation("BAD_OPTIONS", "the only option is rounds, a number from 1 to 1000")
    return {"rounds": rounds}


def advance(state: State, chance: Chance) -> list[Event]:
    if state.over:
        return []
    if len(state.guesses) == state.players:
        guesses = [state.guesses[s] for s in range(state.players)]
        return [DieRolled(state.round, chance.die("dice"), guesses)]
    if state.round > state.rounds:
        return [GameEnded(list(state.scores), chance.seed_hex)]
    return []


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    assert isinstance(command, CommitGuess)
    if not 1 <= command.guess <= 6:
        raise RuleViolation("GUESS_RANGE", "a guess is a number from 1 to 6")
    return [GuessCommitted(seat, command.guess)]


def evolve(state: State, event: Event) -> State:
    if isinstance(event, GuessCommitted):
        state.guesses[event.seat] = event.guess
    elif isinstance(event, DieRolled):
        for seat, guess in enumerate(event.guesses):
            if guess == event.value:
                state.scores[seat] += 1
        state.guesses = {}
        state.round += 1
    elif isinstance(event, GameEnded):
        state.over = True
    return state


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    if state.over or state.round > state.rounds:
        return {}
    return {s: ("commit_guess",) for s in range(state.players) if s not in state.guesses}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return {
        "round": state.round,
        "committed": sorted(state.guesses),
        "my_guess": state.guesses.get(viewer) if viewer is not None else None,
        "scores": state.scores,
    }


def legal_moves(state: State, seat: int, rng: Chance) -> list[Command]:
    return [CommitGuess(g) for g in range(1, 7)]


def scoreboard(state: State) -> Scoreboard:
    best = max(state.scores)
    return Scoreboard(
        scores=list(state.scores),
        placings=[1 + sum(o > s for o in state.scores) for s in state.scores],
        winners=[s for s, v in enumerate(state.scores) if v == best] if state.over else [],
        final=state.over,
    )


GAME: GameDefinition[State] = GameDefinition(
    id="sealed_guess",
    title="Sealed guess (kernel test fixture)",
    min_players=2,
    max_players=3,
    commands=(CommitGuess,),
    events=(GuessCommitted, DieRolled, GameEnded),
    option_rules=normalize_options,
    options=(
        OptionSpec(
            "rounds", "rounds to play", {"type": "integer", "minimum": 1, "maximum": 1000, "default": DEFAULT_ROUNDS}
        ),
    ),
    initial_state=initial_state,
    advance=advance,
    decide=decide,
    evolve=evolve,
    awaited=awaited,
    is_over=lambda s: s.over,
    view=view,
    legal_moves=legal_moves,
    scoreboard=scoreboard,
)
