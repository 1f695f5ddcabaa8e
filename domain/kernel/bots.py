"""The bots (``random``, ``greedy``, ``search``), a table of bots seated per seat, and full games
played by bots on the pure functions.

Every bot has a chance stream of its own (changing a bot never changes the game's dice) and decides
from what its seat may know: ``random`` picks among the seat's legal moves (which use only the seat's
knowledge), ``greedy`` and ``search`` decide on states drawn by the game's ``sample_state`` from the
seat's knowledge, never on the state they are handed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.kernel import engine
from domain.kernel.chance import Chance
from domain.kernel.errors import BAD_INPUT, RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, GAME_CREATED
from domain.kernel.match import SEAT_TAKEN
from domain.kernel.messages import Command, Event
from domain.kernel.sampling import clone_state, final_shares, win_shares
from domain.kernel.seats import Seat

BOT_NAMES = ("random", "greedy", "search")
_SEAT_NAME = "bot:"


def bot_seat_name(bot: str, seat: Seat) -> str:
    """The name a server-played seat takes in the record (``SeatTaken``): the bot's, unique per seat."""
    return f"{_SEAT_NAME}{bot}:{seat}"


def bot_of_seat_name(name: str | None) -> str | None:
    """The bot a seat name names, or None for a person's name."""
    if name is None or not name.startswith(_SEAT_NAME):
        return None
    bot = name[len(_SEAT_NAME) :].split(":")[0]
    return bot if bot in BOT_NAMES else None


class Bot(Protocol):
    """What plays a seat: a name for the record, and a move for an awaited seat."""

    name: str

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command: ...


def position_value(game: GameDefinition[Any], state: Any) -> list[float]:
    """Each seat's share of the win: the winners' of an ended game, else the game's ``evaluate``,
    else the scoreboard's scores (a point's lead counting as e)."""
    if game.is_over(state):
        board = game.scoreboard(state)
        return final_shares(board.winners, len(board.scores))
    if game.evaluate is not None:
        return game.evaluate(state)
    return win_shares([float(score) for score in game.scoreboard(state).scores], 1.0)


class RandomBot:
    """Plays uniformly at random among a seat's legal moves, with a chance stream of its own
    (changing the bot never changes the game's dice)."""

    name = "random"
    _BITS = 1 << 256

    def __init__(self, seed: bytes) -> None:
        self.rng = Chance(seed)
        self._pool = 0
        self._range = 1

    def _below(self, n: int) -> int:
        """A near-uniform pick in ``[0, n)``: one keyed hash serves many picks (a hash per move
        would cost as much as the move), and it is drawn again before the bias could exceed 2**-64."""
        if self._range < n << 64:
            self._pool = self.rng.below("bot", self._BITS)
            self._range = self._BITS
        self._pool, pick = divmod(self._pool, n)
        self._range //= n
        return pick

    def choose_seat(self, awaited: Collection[Seat]) -> Seat:
        """One of the awaited seats (a list of them, or the awaited map itself)."""
        if len(awaited) == 1:  # most of the time: no draw needed
            for seat in awaited:
                return seat
        ordered = sorted(awaited)
        return ordered[self._below(len(ordered))]

    def next_move(self, game: GameDefinition[Any], state: Any) -> tuple[Seat, Command]:
        """An awaited seat and its move."""
        seat = self.choose_seat(game.awaited(state))
        return seat, self.choose(game, state, seat)

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command:
        moves = game.legal_moves(state, seat, self.rng)
        if not moves:
            raise RuntimeError(f"{game.id}: seat {seat} is awaited but has no legal move")
        return moves[self._below(len(moves))]


class GreedyBot(RandomBot):
    """One ply: the move whose result, on a state sampled from the seat's knowledge, gives the seat
    the largest share of the win by the game's evaluation (ties broken by the bot's stream)."""

    name = "greedy"

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command:
        valued = self.values(game, state, seat)
        if len(valued) == 1:
            return valued[0][0]
        top = max(value for _, value in valued)
        best = [move for move, value in valued if value >= top - 1e-9]
        return best[self._below(len(best))]

    def values(self, game: GameDefinition[Any], state: Any, seat: Seat) -> list[tuple[Command, float]]:
        """The seat's moves with the share of the win each leads to (a lone move is not evaluated)."""
        known = game.sample_state(state, seat, self.rng)
        moves = game.legal_moves(known, seat, self.rng)
        if not moves:
            raise RuntimeError(f"{game.id}: seat {seat} is awaited but has no legal move")
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        valued = [(move, value) for move, _, value in one_ply(game, known, seat, moves, self.rng)]
        return valued or [(move, 0.0) for move in moves]


def one_ply(
    game: GameDefinition[Any], state: Any, seat: Seat, moves: Sequence[Command], chance: Chance
) -> list[tuple[Command, Any, float]]:
    """Each of ``moves`` played on a copy of ``state``: the move, the state after it and the seat's
    share of the win there (greedy's view). A move the state refuses (a move listed on another
    sample of hidden things) is left out."""
    valued = []
    for move in moves:
        try:
            after, _ = engine.execute(game, clone_state(state), seat, move, chance)
        except RuleViolation:
            continue
        valued.append((move, after, position_value(game, after)[seat]))
    return valued


class BotTable:
    """The bots of a game, one per seat: the awaited seat to move (the lowest when several are
    awaited, as sealed moves do not see each other) and its bot's move."""

    def __init__(self, bots: Mapping[Seat, Bot]) -> None:
        self.bots = dict(bots)

    def next_move(self, game: GameDefinition[Any], state: Any) -> tuple[Seat, Command]:
        seats = [seat for seat in game.awaited(state) if seat in self.bots]
        if not seats:
            raise RuntimeError(f"{game.id}: no bot plays an awaited seat")
        seat = min(seats)
        return seat, self.bots[seat].choose(game, state, seat)


def make_bot(
    name: str,
    seed: bytes,
    playouts: int | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Bot:
    """A bot by name. ``search`` takes a budget per decision: ``playouts`` (deterministic for a given
    seed), and or ``seconds`` measured on ``clock``, which the edge passes in (the domain reads no clock)."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "search":
        from domain.kernel.search import DEFAULT_PLAYOUTS, SearchBot  # search builds on this module

        return SearchBot(seed, playouts=playouts or DEFAULT_PLAYOUTS, seconds=seconds, clock=clock)
    raise RuleViolation(BAD_INPUT, f"there is no bot {name!r}; the bots are: {', '.join(BOT_NAMES)}")


class SeatLog:
    """A full state consistent with what ``seat`` knows, followed from its log as the API gives it
    to the seat (``/games/{id}/events`` with its token), record after record: every event applied,
    each hidden part by the game's stand-in (``GameDefinition.observe``). A bot decides on it as
    on the server's state: ``sample_state`` draws the stand-ins again. ``follow`` takes the records
    after the last one followed, so a client reads and applies each record once."""

    def __init__(self, game: GameDefinition[Any], seat: Seat) -> None:
        self.game = game
        self.seat = seat
        self.position = 0  # the last record followed
        self._state: Any = None

    @property
    def state(self) -> Any:
        if self._state is None:
            raise ValueError("a game's log starts with GameCreated")
        return self._state

    def follow(self, records: Sequence[Mapping[str, Any]]) -> SeatLog:
        game, seat = self.game, self.seat
        for record in records:
            self.position = record.get("position", self.position + 1)
            kind, data = record["type"], dict(record["data"] or {})
            if kind == GAME_CREATED:
                self._state = game.initial_state(data["players"], data["options"])
                continue
            if kind in (COMMAND_ACCEPTED, SEAT_TAKEN) or self._state is None:
                continue
            viewers = record.get("viewers")
            whole = viewers is None or seat in viewers
            if game.observe is not None:
                data = game.observe(self._state, kind, data, whole, seat)
            elif not whole:
                raise ValueError(f"{game.id} has no stand-ins for the hidden parts of {kind}")
            self._state = game.evolve(self._state, game.event_types[kind].from_dict(data))
        return self


def seat_state(game: GameDefinition[Any], records: Sequence[Mapping[str, Any]], seat: Seat) -> Any:
    """The state ``SeatLog`` follows from a seat's whole log."""
    return SeatLog(game, seat).follow(records).state


@dataclass
class PlayedGame:
    state: Any
    events: list[Event]
    commands: list[tuple[Seat, Command]]


def play_random_game(
    game: GameDefinition[Any],
    players: int,
    options: dict[str, Any] | None = None,
    seed: bytes = b"game",
    bot_seed: bytes = b"bot",
    max_commands: int = 20_000,
) -> PlayedGame:
    """A whole game played by random bots on the pure functions (no store)."""
    chance = Chance(seed)
    bot = RandomBot(bot_seed)
    normalized = game.normalize_options(players, dict(options or {}))
    state, events = engine.start(game, players, normalized, chance)
    commands: list[tuple[Seat, Command]] = []
    while not game.is_over(state):
        if len(commands) >= max_commands:
            raise RuntimeError(f"{game.id}: no end after {max_commands} commands")
        awaited = game.awaited(state)
        if not awaited:
            raise RuntimeError(f"{game.id}: deadlock - the game is not over but awaits nobody")
        seat = bot.choose_seat(awaited)
        command = bot.choose(game, state, seat)
        state, new_events = engine.execute(game, state, seat, command, chance)
        events.extend(new_events)
        commands.append((seat, command))
    return PlayedGame(state=state, events=events, commands=commands)


def play_bot_game(
    game: GameDefinition[Any],
    bots: Sequence[Bot],
    options: dict[str, Any] | None = None,
    seed: bytes = b"game",
    max_commands: int = 20_000,
) -> PlayedGame:
    """A whole game on the pure functions, seat ``i`` played by ``bots[i]`` (no store)."""
    players = len(bots)
    chance = Chance(seed)
    table = BotTable(dict(enumerate(bots)))
    state, events = engine.start(game, players, game.normalize_options(players, dict(options or {})), chance)
    commands: list[tuple[Seat, Command]] = []
    while not game.is_over(state):
        if len(commands) >= max_commands:
            raise RuntimeError(f"{game.id}: no end after {max_commands} commands")
        seat, command = table.next_move(game, state)
        state, new_events = engine.execute(game, state, seat, command, chance)
        events.extend(new_events)
        commands.append((seat, command))
    return PlayedGame(state=state, events=events, commands=commands)
