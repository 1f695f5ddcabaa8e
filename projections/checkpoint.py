"""The state a projection keeps per game so that it can carry on where it stopped: the match
at the last record it applied, as a plain JSON document (the game state is pickled, as in the
aggregate's snapshots; read-model stores are internal and trusted like the event store)."""

from __future__ import annotations

import base64
import pickle
from collections import OrderedDict
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


# A decoded game state takes about three times the length of its pickle in base64 (measured with
# tracemalloc on each game's state after 150 commands: 2.4-3.0).
DECODED_BYTES_PER_ENCODED = 3


class RecentMatches:
    """The matches a projection advanced lately, kept decoded from one batch to the next: a game a
    batch touches was most often touched by the batch before, and decoding its checkpoint
    (unpickling its state) costs more than replaying its records. At most ``max_matches``, and at
    most ``max_bytes`` of their decoded states (``DECODED_BYTES_PER_ENCODED`` times the length of
    each as encoded), the least recently used going first.

    A match is taken out while a batch advances it and put back once the batch has written it:
    one that a batch left half way is never used again. It serves only the checkpoint it would
    encode (the same version and hash); after a lost race or a reset, the checkpoint is decoded."""

    def __init__(self, max_matches: int = 256, max_bytes: int = 4_000_000) -> None:
        self.max_matches = max_matches
        self.max_bytes = max_bytes
        self._matches: OrderedDict[str, tuple[Match, int]] = OrderedDict()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._matches)

    def take(self, game_id: str, checkpoint: dict[str, Any]) -> Match | None:
        """The match of ``checkpoint`` if it is kept (no longer kept until it is put back)."""
        match = self._drop(game_id)
        if match is None or (match.version, match.last_hash) != (checkpoint["version"], checkpoint["last_hash"]):
            return None
        return match

    def put(self, game_id: str, match: Match, size: int) -> None:
        """Keep ``match`` (``size``: the bytes its state takes, decoded)."""
        self._drop(game_id)
        self._matches[game_id] = (match, size)
        self.bytes += size
        while self._matches and (len(self._matches) > self.max_matches or self.bytes > self.max_bytes):
            _, (_, evicted) = self._matches.popitem(last=False)
            self.bytes -= evicted

    def _drop(self, game_id: str) -> Match | None:
        entry = self._matches.pop(game_id, None)
        if entry is None:
            return None
        self.bytes -= entry[1]
        return entry[0]


class MatchCheckpoints:
    """The matches of the games one batch touches: each loaded once (from ``recent`` when it holds
    it), advanced record by record, and written back once at the end of the batch."""

    def __init__(self, documents: Documents, recent: RecentMatches | None = None) -> None:
        self.documents = documents
        self.recent = recent
        self.matches: dict[str, Match] = {}

    def advance(self, item: ProjectedRecord) -> Match:
        """The game's match after ``item``'s record."""
        match = self.matches.get(item.game_id)
        if match is None:
            stored = self.documents.get(MATCHES, item.game_id)
            if stored is not None:
                kept = self.recent.take(item.game_id, stored) if self.recent is not None else None
                match = kept if kept is not None else decode_match(stored)
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
            encoded = encode_match(match)
            self.documents.put(MATCHES, game_id, encoded)
            if self.recent is not None:
                self.recent.put(game_id, match, DECODED_BYTES_PER_ENCODED * len(encoded["state"]))
