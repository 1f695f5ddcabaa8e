"""The one error the domain raises when a command breaks a rule."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command was refused; nothing is recorded.

    ``code`` is stable (clients switch on it); ``message`` is for a person and must
    never reveal information the sender may not know.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class BrokenInvariant(RuntimeError):
    """A state the rules never allow was reached: a bug, never a refusal. Raised explicitly (not by
    ``assert``) so that the check holds under ``python -O`` too."""


# Codes the kernel itself raises, shared by every game.
NOT_YOUR_TURN = "NOT_YOUR_TURN"
WRONG_PHASE = "WRONG_PHASE"
BAD_INPUT = "BAD_INPUT"
UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
GAME_OVER = "GAME_OVER"
BAD_OPTIONS = "BAD_OPTIONS"
BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
ALREADY_CONTRIBUTED = "ALREADY_CONTRIBUTED"
