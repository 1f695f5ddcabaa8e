"""What every game shares: seats, chance, errors, messages, visibility, the log and its chain,
the game definition, the engine, the registry, bots and verification."""

from domain.kernel.chance import Chance
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition, LegalMoves, Scoreboard
from domain.kernel.messages import Command, Event
from domain.kernel.seats import Seat, Viewer

__all__ = [
    "Chance",
    "Command",
    "Event",
    "GameDefinition",
    "LegalMoves",
    "RuleViolation",
    "Scoreboard",
    "Seat",
    "Viewer",
]
