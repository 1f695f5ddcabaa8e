"""What a game provides to the platform: one ``GameDefinition`` per game package.

The rules are plain functions over plain state. ``evolve`` may update the state in place
and returns it; ``decide``, ``advance``, ``awaited``, ``view``, ``legal_moves`` and
``scoreboard`` never change it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from domain.kernel.chance import Chance
from domain.kernel.facts import AnalyticsFacts
from domain.kernel.messages import Command, Event
from domain.kernel.options import OptionSpec, check_option_types
from domain.kernel.sampling import clone_state
from domain.kernel.seats import Seat, Viewer

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """Scores per seat (index = seat), placings (1 = first; ties share a place), winners."""

    scores: list[int | float]
    placings: list[int]
    winners: list[Seat]
    final: bool
    details: dict[str, Any] = field(default_factory=dict)


class LegalMoves(list[Command]):
    """A seat's legal commands, and whether they are all of them.

    ``complete`` is False when the list is a selection from a space too large to list (sampled
    routes, trade offers, subsets): every command listed is accepted, others may be too. A game's
    ``legal_moves`` may return a plain list, which means complete.
    """

    __slots__ = ("complete",)

    def __init__(self, moves: Iterable[Command] = (), complete: bool = True) -> None:
        super().__init__(moves)
        self.complete = complete


@dataclass(frozen=True)
class GameDefinition(Generic[S]):
    """Everything the platform needs to run one game.

    - ``options`` declares each option with its JSON Schema (what the catalog shows clients).
      ``normalize_options(players, options)`` checks given options against those schemas
      (``domain.kernel.options``: one typed check for every game), then hands them to the game's
      ``option_rules(players, options)``, which checks which apply together and fills defaults
      (raises ``RuleViolation``); the result is recorded in ``GameCreated``.
    - ``initial_state(players, options)`` is the state before any event.
    - ``advance(state, chance)`` returns the next automatic events (setup, reveals,
      income, scoring, ``GameEnded`` ...), or ``[]`` when a seat is awaited or the game is over.
    - ``decide(state, seat, command, chance)`` returns the events a legal command causes or
      raises ``RuleViolation``. The platform has already checked that the seat is awaited
      for this command type.
    - ``evolve(state, event)`` applies one event.
    - ``awaited(state)`` maps each awaited seat to the command types it may send: the game
      waits for one of them to act.
    - ``optional(state)`` maps seats that may act without being waited for (a counter-offer
      in another player's turn) to those command types; by default nobody.
    - ``view(state, viewer)`` is what ``viewer`` (a seat, or None for a spectator) may know.
    - ``legal_moves(state, seat, rng)`` lists commands ``decide`` accepts (a sample drawn
      with ``rng`` where the space is huge, then a ``LegalMoves`` with ``complete=False``);
      it uses only what ``seat`` may know.
    - ``reshuffle_hidden(state, chance)`` returns the events that put every face-down stack
      the state holds in a fresh order drawn from ``chance`` (only the undrawn future: nothing
      anyone has seen). The platform calls it when a game's chance changes under it: on a fork
      (new seed) and when a seat contributes chance. By default a game holds no pre-ordered
      hidden stack and returns ``[]``.
    - ``clocked(state)``: the seats whose tournament clocks run now (``clocked_seats``); by default
      (None) every awaited seat. A game narrows it where a seat is awaited for an answer that
      another seat's own clock already bounds (Catan: answers to a trade offer).
    - ``sample_state(state, seat, chance)`` is what a bot decides on: a fresh full state in which
      everything ``seat`` may not know (other hands, face-down stacks, sealed commits) is drawn again
      with ``chance`` from what it does know, so that twin states differing only in hidden things give
      the same sample. It never changes ``state``. By default a game hides nothing and it is a copy.
    - ``evaluate(state)`` estimates each seat's share of the win (non-negative, summing to 1) in a
      running game, for the greedy bot and the search's cut-off playouts; ``None`` falls back on the
      scoreboard's scores (``domain.kernel.bots.position_value``).
    - ``playout_depth`` is how many random commands the search bot plays below its tree before the
      evaluation: 0 where the evaluation sees far enough; more where a move shows its worth only later
      (a bid, once the round's tiles are awarded).
    - ``turn_underway(state)`` is the seat whose turn has begun and is not done, where a position
      halfway through a turn cannot be judged by the evaluation (Alexandros: after the move, before
      the actions); the search plays the rest of that turn greedily before it evaluates. ``None``
      (the default): every position can be judged as it stands.
    - ``greedy_turns(state)`` is how many whole turns the search plays greedily below its tree (after
      the turn under way), every seat by greedy's choice, before it evaluates: where what the next turns
      bring decides more than the evaluation sees (Alexandros: the next seats' turns, whose walls cut
      provinces and whose levies and take-overs answer a move; near its end, the last turns). Where it
      is more than 0, the tree stops at the end of the searching seat's turn: the turns after it are
      played greedily, not searched. 0 (the default): none, and the tree goes on through every seat.
    - ``observe(state, event_type, data, whole, seat)`` lets a seat's client follow its own log
      (``domain.kernel.bots.SeatLog``): given an event as ``seat`` received it (``whole`` False:
      the public form, hidden fields left out), the full data to apply, with stand-ins for what
      the seat cannot know, chosen so that the state stays consistent with the seat's knowledge (it
      may rearrange stand-ins already in ``state``, never what ``seat`` knows). ``None``: the game
      has no hidden events.
    - ``facts`` is what the analytics tables know of the game (``domain.kernel.facts``): its fact
      tables, by record type the handlers that make their rows and the moves, and its rounds. By
      default none: the game has only the tables every game has.
    - The last event of every game is ``GameEnded`` with a ``seed`` field (``chance.seed_hex``).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    commands: tuple[type[Command], ...]
    events: tuple[type[Event], ...]
    option_rules: Callable[[int, dict[str, Any]], dict[str, Any]]
    initial_state: Callable[[int, dict[str, Any]], S]
    advance: Callable[[S, Chance], list[Event]]
    decide: Callable[[S, Seat, Command, Chance], list[Event]]
    evolve: Callable[[S, Event], S]
    awaited: Callable[[S], Mapping[Seat, tuple[str, ...]]]
    is_over: Callable[[S], bool]
    view: Callable[[S, Viewer], Mapping[str, Any]]  # returns the TypedDict of the game's views.py
    legal_moves: Callable[[S, Seat, Chance], list[Command]]
    scoreboard: Callable[[S], Scoreboard]
    optional: Callable[[S], Mapping[Seat, tuple[str, ...]]] = lambda _state: {}
    reshuffle_hidden: Callable[[S, Chance], list[Event]] = lambda _state, _chance: []
    clocked: Callable[[S], Iterable[Seat]] | None = None
    options: tuple[OptionSpec, ...] = ()
    sample_state: Callable[[S, Seat, Chance], S] = lambda state, _seat, _chance: clone_state(state)
    evaluate: Callable[[S], list[float]] | None = None
    observe: Callable[[S, str, dict[str, Any], bool, Seat], dict[str, Any]] | None = None
    playout_depth: int = 0
    turn_underway: Callable[[S], Seat | None] = lambda _state: None
    greedy_turns: Callable[[S], int] = lambda _state: 0
    facts: AnalyticsFacts = field(default_factory=AnalyticsFacts)

    def clocked_seats(self, state: S) -> set[Seat]:
        """The seats whose clocks run now: the awaited ones unless the game says otherwise."""
        return set(self.awaited(state) if self.clocked is None else self.clocked(state))

    def normalize_options(self, players: int, options: Any) -> dict[str, Any]:
        """The options recorded for a new game of ``players``: typed by their schemas, then the game's rules."""
        return self.option_rules(players, check_option_types(self.options, options))

    # Built once per definition (``Match.apply_record`` asks for every record); treat as read-only.
    @cached_property
    def command_types(self) -> dict[str, type[Command]]:
        return {c.type: c for c in self.commands}

    @cached_property
    def event_types(self) -> dict[str, type[Event]]:
        return {e.type: e for e in self.events}
