"""The state a projection keeps per game so that it can carry on where it stopped: the match
at the last record it applied, as a plain JSON document (the game state is pickled, as in the
aggregate's snapshots; read-model stores are internal and trusted like the event store)."""

from __future__ import annotations

import base64
import pickle
from typing import Any

from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.kernel.log import GAME_CREATED, Record
from domain.kernel.match import Match
from projections.base import Documents, ProjectedRecord

MATCHES = "match"
# Projections only replay records, which never draw chance: any seed will do.
REPLAY_CHANCE_SEED = b"projection"


class OutOfOrder(Exception):
    """A record that does not follow the last one applied: a bug, never to be skipped silently."""


def encode_match(match: Match) -> dict[str, Any]:
    return {
        "game": match.game.id,
        "players": match.players,
        "options": match.options,
        "version": match.version,
        "last_hash": match.last_hash,
        "forked_from": match.forked_from,
        "waiting": match.waiting,
        "names": {str(seat): name for seat, name in match.names.items()},
        "state": base64.b64encode(pickle.dumps(match.state, protocol=pickle.HIGHEST_PROTOCOL)).decode(),
    }


def decode_match(data: dict[str, Any]) -> Match:
    match = Match(GAMES.get(data["game"]), data["players"], data["options"], Chance(REPLAY_CHANCE_SEED))
    match.state = pickle.loads(base64.b64decode(data["state"]))
    match.version = data["version"]
    match.last_hash = data["last_hash"]
    match.forked_from = data["forked_from"]
    match.waiting = data.get("waiting", False)
    match.names = {int(seat): name for seat, name in data.get("names", {}).items()}
    return match


def new_match(created: Record) -> Match:
    data = created.data
    match = Match(GAMES.get(data["game"]), data["players"], data["options"], Chance(REPLAY_CHANCE_SEED))
    match.forked_from = data.get("forked_from")
    return match


class MatchCheckpoints:
    """The matches of the games one batch touches: each loaded once, advanced record by record,
    and written back once at the end of the batch."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self.matches: dict[str, Match] = {}

    def advance(self, item: ProjectedRecord) -> Match:
        """The game's match after ``item``'s record."""
        match = self.matches.get(item.game_id)
        if match is None:
            stored = self.documents.get(MATCHES, item.game_id)
            if stored is not None:
                match = decode_match(stored)
            elif item.record.type == GAME_CREATED:
                match = new_match(item.record)
            else:
                raise OutOfOrder(f"game {item.game_id}: record {item.record.position} before its GameCreated")
            self.matches[item.game_id] = match
        if item.record.position != match.version + 1:
            raise OutOfOrder(f"game {item.game_id}: record {item.record.position} after version {match.version}")
        match.apply_record(item.record)
        return match

    def save(self) -> None:
        for game_id, match in self.matches.items():
            self.documents.put(MATCHES, game_id, encode_match(match))
