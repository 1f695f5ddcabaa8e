"""A tournament's roster: creating it, registering players (by the organiser, by themselves
with the published code, bot players), check-in, withdrawals, late entries, closing registration
and the players' reveals of their committed secrets."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import uuid4

from eventsourcing.persistence import IntegrityError, RecordConflictError

from domain.catalog import GAMES
from domain.kernel.chance import SALT_BYTES
from domain.kernel.log import GENESIS
from domain.tournament import rules
from domain.tournament.log import (
    BY_ORGANISER,
    BY_SELF,
    CHECK_IN_OPENED,
    CHECKED_IN,
    LATE_ENTRY,
    PLAYER_REGISTERED,
    PLAYER_WITHDRAWN,
    REGISTRATION_CLOSED,
    SECRET_REVEALED,
    TOURNAMENT_CREATED,
    seal,
)
from domain.tournament.seeds import registration_code
from infra.games.service import Conflict, Forbidden, Invalid, token_hash
from infra.tournaments.aggregate import TournamentAggregate, unsalted_tournament_id

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService


class WrongRegistrationCode(Forbidden):
    """A self-registration whose code is not the tournament's published one."""

    code = "WRONG_REGISTRATION_CODE"


@dataclass(frozen=True)
class CreatedTournament:
    tournament_id: str
    organiser_token: str
    version: int
    registration_code: str  # what the organiser publishes for players to register themselves


@dataclass(frozen=True)
class RegisteredPlayer:
    player: int
    name: str
    token: str


@dataclass(frozen=True)
class RegisteredBot:
    player: int
    name: str
    bot: str  # the server's bot that plays the entry (no token exists for it)


class Registration:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments

    def create(
        self,
        game: str,
        settings: dict[str, Any] | None = None,
        master_seed: bytes | None = None,
        salted: bool = True,
        name: str | None = None,
    ) -> CreatedTournament:
        """A new tournament; the organiser's token is returned once.

        The master seed is 32 bytes of fresh secret salt, then ``master_seed`` if given: whoever
        chooses a master seed still cannot try seeds until a seating suits them. Only an in-process
        run whose records must come out the same every time (tests, benchmarks, ``tournament run``)
        passes ``salted=False`` to use ``master_seed`` as it is; no route can. Such a run's
        tournament id and game ids are derived from the master seed, and its games' seeds are
        the derived table seeds with no secret salt, so one store holds one run per seed."""
        if settings is not None and not isinstance(settings, dict):
            raise Invalid("the tournament settings must be a JSON object")
        definition = GAMES.get(game)
        chosen = master_seed or b""
        unsalted = bool(chosen) and not salted
        seed = chosen if unsalted else secrets.token_bytes(SALT_BYTES) + chosen
        tournament_id = unsalted_tournament_id(seed) if unsalted else uuid4()
        data = rules.created(definition, str(tournament_id), dict(settings or {}), seed, self.tournaments.now(), name)
        token = secrets.token_urlsafe(24)
        record = seal(1, TOURNAMENT_CREATED, data, GENESIS)
        aggregate = TournamentAggregate.start(tournament_id, seed, token_hash(token), record, salted=not unsalted)
        try:
            self.tournaments.save(aggregate)
        except (IntegrityError, RecordConflictError):
            raise Conflict(
                f"this store holds a tournament of master seed {chosen!r} already: an unsalted run needs a seed "
                "of its own (or a store of its own)"
            ) from None
        return CreatedTournament(
            str(tournament_id), token, aggregate.version, registration_code(seed, str(tournament_id))
        )

    def register(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        commitment: str | None = None,
        public_key: str | None = None,
    ) -> RegisteredPlayer:
        """A new player (the organiser registers them, and is handed their token), with the player's
        commitment to a secret (sha256 hex) and their public key if they send them."""
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            return self._register(aggregate, name, commitment, BY_ORGANISER, public_key)

    def register_bot(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        bot: Any,
        commitment: str | None = None,
        public_key: str | None = None,
    ) -> RegisteredBot:
        """A bot player, the organiser's entry: the server's bot of that name plays its seat at each of
        its tables (as a game's bot seats do); no token exists for it (nor a secret or a key: the
        rules refuse them)."""
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            data = rules.register(
                aggregate.log.state, name, self.tournaments.now(), commitment, BY_ORGANISER, public_key, bot
            )
            # Its place in the token list holds no hash: no token is the bot player's.
            aggregate.append(PLAYER_REGISTERED, data, {"player_token_hash": ""})
            self.tournaments.save(aggregate)
        return RegisteredBot(data["player"], data["name"], data["bot"])

    def join(
        self, tournament_id: str, name: Any, code: Any, commitment: str | None = None, public_key: str | None = None
    ) -> RegisteredPlayer:
        """A player registers themselves with the published registration code; the token is
        answered to them only (it is never the organiser's to see). With a ``public_key`` every
        move of theirs must carry their signature (docs/signed-commands.md)."""
        with self.tournaments.changing(tournament_id) as aggregate:
            self._check_registration_code(aggregate, code)
            return self._register(aggregate, name, commitment, BY_SELF, public_key)

    def registration_code_of(self, tournament_id: str, organiser_token: str | None) -> str:
        """The code to publish again (the organiser's)."""
        aggregate = self.tournaments.load(tournament_id)
        self.tournaments.check_organiser(aggregate, organiser_token)
        return registration_code(aggregate.seed, tournament_id)

    def _register(
        self,
        aggregate: TournamentAggregate,
        name: Any,
        commitment: str | None,
        by: str,
        public_key: str | None,
    ) -> RegisteredPlayer:
        data = rules.register(aggregate.log.state, name, self.tournaments.now(), commitment, by, public_key)
        token = secrets.token_urlsafe(24)
        aggregate.append(PLAYER_REGISTERED, data, {"player_token_hash": token_hash(token)})
        self.tournaments.save(aggregate)
        return RegisteredPlayer(data["player"], data["name"], token)

    def _check_registration_code(self, aggregate: TournamentAggregate, code: Any) -> None:
        expected = registration_code(aggregate.seed, str(aggregate.id))
        if not isinstance(code, str) or not hmac.compare_digest(code.encode(), expected.encode()):
            raise WrongRegistrationCode("this is not the tournament's registration code")

    def withdraw(self, tournament_id: str, organiser_token: str | None, player: Any, reason: Any) -> dict[str, Any]:
        """The organiser takes a player out of every round not seated yet (a recorded roster change)."""
        self.tournaments.follow_results()
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            data = rules.player_withdrawn(aggregate.log.state, player, reason, self.tournaments.now())
            aggregate.append(PLAYER_WITHDRAWN, data)
            self.tournaments.save(aggregate)
        return data

    def enter_late(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        missed_rounds: Any = None,
        public_key: str | None = None,
    ) -> tuple[RegisteredPlayer, dict[str, Any]]:
        """A late entry, seated from the next round; the organiser is handed the player's token."""
        self.tournaments.follow_results()
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            data = rules.late_entry(aggregate.log.state, name, missed_rounds, self.tournaments.now(), public_key)
            token = secrets.token_urlsafe(24)
            aggregate.append(LATE_ENTRY, data, {"player_token_hash": token_hash(token)})
            self.tournaments.save(aggregate)
        return RegisteredPlayer(data["player"], data["name"], token), data

    def open_check_in(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """The organiser asks for check-in before round 1 (whoever has not checked in when
        registration closes is withdrawn then)."""
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            data = rules.check_in_opened(aggregate.log.state, self.tournaments.now())
            aggregate.append(CHECK_IN_OPENED, data)
            self.tournaments.save(aggregate)
        return data

    def check_in(self, tournament_id: str, player_token: str | None) -> dict[str, Any]:
        """The bearer player checks in."""
        with self.tournaments.changing(tournament_id) as aggregate:
            player = self.tournaments.player_for_token(aggregate, player_token)
            data = rules.checked_in(aggregate.log.state, player, self.tournaments.now())
            aggregate.append(CHECKED_IN, data)
            self.tournaments.save(aggregate)
        return data

    def leave_out_missed_check_ins(self, aggregate: TournamentAggregate) -> list[dict[str, Any]]:
        """Withdraw, in public, every player who has not checked in (when the roster closes);
        recorded with what closes it or not at all."""
        missed = rules.check_in_missed(aggregate.log.state, self.tournaments.now())
        for withdrawal in missed:
            aggregate.append(PLAYER_WITHDRAWN, withdrawal)
        return missed

    def close_registration(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """No more players or commitments: the committed players may reveal their secrets now.
        With check-in open, everyone who has not checked in is withdrawn first."""
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            self.tournaments.registration.leave_out_missed_check_ins(aggregate)
            data = rules.registration_closed(aggregate.log.state, self.tournaments.now())
            aggregate.append(REGISTRATION_CLOSED, data)
            self.tournaments.save(aggregate)
        return data

    def reveal(self, tournament_id: str, player_token: str | None, secret: Any) -> dict[str, Any]:
        """The bearer player's secret, checked against their commitment and recorded in public."""
        with self.tournaments.changing(tournament_id) as aggregate:
            player = self.tournaments.player_for_token(aggregate, player_token)
            data = rules.secret_revealed(aggregate.log.state, player, secret, self.tournaments.now())
            aggregate.append(SECRET_REVEALED, data)
            self.tournaments.save(aggregate)
        return data
