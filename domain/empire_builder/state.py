"""The game state: plain mutable dataclasses, changed only by ``rules.evolve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Phases. The awaited command of each is in rules.awaited; "turns" splits further by ``step``.
SETUP = "setup"
ALLOCATION = "allocation"
TURN_ORDER = "turn_order"
ROUND_START = "round_start"
REALLOCATION = "reallocation"
TURNS = "turns"
CAMPAIGN_OVER = "campaign_over"
GAME_OVER = "game_over"
PHASES = (SETUP, ALLOCATION, TURN_ORDER, ROUND_START, REALLOCATION, TURNS, CAMPAIGN_OVER, GAME_OVER)

# Steps of the active seat's turn (R26)
MOVE = "move"
BUILD = "build"
DONE = "done"


@dataclass
class Player:
    vp: int = 0
    # the boxes of the player board (§2.2); all 0 between CampaignStarted and the reveal
    turn_order: int = 0
    armies: int = 0
    temples: int = 0
    cities: int = 0
    spent: int = 0
    temples_built: int = 0
    cities_built: int = 0
    at: dict[str, int] = field(default_factory=dict)  # location (Ck or province) -> armies standing there


@dataclass
class State:
    players: int
    short_game: bool
    region_scoring_variant: bool
    oldest_seat: int
    seats: list[Player]
    phase: str = SETUP
    campaign: int = 0
    round: int = 0
    # the open sealed step's commits, seat -> its secret numbers; never shown to other seats (§8)
    sealed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # turn order of the running campaign (R16-R22)
    lots: list[list[int]] = field(default_factory=list)  # the orders of this campaign's LotDrawn, in order
    chosen: dict[int, int] = field(default_factory=dict)  # seat -> position chosen by command
    lot_needed: tuple[str, list[int]] | None = None  # (purpose, candidates) of the next lot to draw
    chooser: int | None = None  # the seat whose choose_turn_position is due
    final_order: list[int] | None = None  # the complete order, waiting to be set by TurnOrderSet
    order: list[int] = field(default_factory=list)  # seats by position, set by TurnOrderSet
    # the running round
    position: int = -1  # index into ``order`` of the active seat
    step: str = DONE
    goal_reached: bool = False
    attempts: list[tuple[str, str, int]] = field(default_factory=list)  # (province, kind, seat) this round
    # built pieces, for ever (R6): province -> owner of each temple there / owner of its city
    temples: dict[str, list[int]] = field(default_factory=dict)
    cities: dict[str, int] = field(default_factory=dict)
    winners: list[int] = field(default_factory=list)

    @property
    def active_seat(self) -> int | None:
        if self.phase == TURNS and 0 <= self.position < len(self.order):
            return self.order[self.position]
        return None


def initial_state(players: int, options: dict[str, Any]) -> State:
    return State(
        players=players,
        short_game=options["short_game"],
        region_scoring_variant=options["region_scoring_variant"],
        oldest_seat=options["oldest_seat"],
        seats=[Player() for _ in range(players)],
    )
