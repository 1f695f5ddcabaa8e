"""The game log: records, their visibility, the hash chain and the one per-viewer filter.

A record is one entry of a game's log as it is stored. Private records keep their full
``data`` plus a redacted ``public`` form and a ``digest`` (HMAC of the full data under a
key derived from the game's seed), so that anybody can check the chain from the public
forms alone, and after the game, with the revealed seed, that the hidden data is what was
committed to.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

import orjson

from domain.kernel.chance import Chance
from domain.kernel.messages import Command, Event
from domain.kernel.seats import Seat, Viewer

GENESIS = "0" * 64
GAME_CREATED = "GameCreated"
COMMAND_ACCEPTED = "CommandAccepted"
GAME_ENDED = "GameEnded"


def canonical(value: Any) -> str:
    """The canonical JSON form that hashes are computed over: the standard library's compact,
    key-sorted, unescaped form. Non-finite numbers (NaN, Infinity) are no JSON: a client would
    read them back as null and find the hash broken, so none is ever hashed.

    Plain JSON (strings, whole numbers, booleans, nulls in objects and arrays) is written by
    orjson, in the very same form at a fraction of the cost (every record is hashed, and every
    private one digested); anything else, a float above all (orjson writes exponents otherwise),
    goes the standard library's way."""
    if _plain(value):
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
        except TypeError:  # a whole number past 64 bits
            pass
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind is dict:
        return all(type(key) is str and _plain(item) for key, item in value.items())
    if kind is list:
        return all(map(_plain, value))
    return kind is str or kind is int or kind is bool or value is None


@dataclass(frozen=True, slots=True)
class Record:
    position: int  # 1-based; equals the game's version once applied
    type: str
    data: dict[str, Any]
    viewers: list[Seat] | None  # None: public
    public: dict[str, Any] | None  # the redacted form of a private record
    digest: str | None
    chance: dict[str, int] | None  # chance counters after this record, when they changed
    prev: str
    hash: str

    @property
    def is_private(self) -> bool:
        return self.viewers is not None

    def hashed_content(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "type": self.type,
            "data": self.public if self.is_private else self.data,
            "viewers": self.viewers,
            "digest": self.digest,
            "chance": self.chance,
            "prev": self.prev,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "type": self.type,
            "data": self.data,
            "viewers": self.viewers,
            "public": self.public,
            "digest": self.digest,
            "chance": self.chance,
            "prev": self.prev,
            "hash": self.hash,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Record:
        return cls(
            position=raw["position"],
            type=raw["type"],
            data=raw.get("data") or {},
            viewers=raw.get("viewers"),
            public=raw.get("public"),
            digest=raw.get("digest"),
            chance=raw.get("chance"),
            prev=raw["prev"],
            hash=raw["hash"],
        )


def record_hash(content: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(content).encode()).hexdigest()


def data_digest(key: bytes, position: int, data: dict[str, Any]) -> str:
    return hmac.new(key, f"{position}:{canonical(data)}".encode(), hashlib.sha256).hexdigest()


DIGEST_KEY_LABEL = "record-digest"


def make_record(
    *,
    position: int,
    type_: str,
    data: dict[str, Any],
    prev: str,
    chance: Chance,
    viewers: frozenset[Seat] | None = None,
    public: dict[str, Any] | None = None,
    counters: dict[str, int] | None = None,
) -> Record:
    """Seal one log entry onto the chain after ``prev``."""
    viewer_list = sorted(viewers) if viewers is not None else None
    digest = data_digest(chance.derive_key(DIGEST_KEY_LABEL), position, data) if viewer_list is not None else None
    content = {
        "position": position,
        "type": type_,
        "data": public if viewer_list is not None else data,
        "viewers": viewer_list,
        "digest": digest,
        "chance": counters,
        "prev": prev,
    }
    return Record(
        position=position,
        type=type_,
        data=data,
        viewers=viewer_list,
        public=public if viewer_list is not None else None,
        digest=digest,
        chance=counters,
        prev=prev,
        hash=record_hash(content),
    )


# type, data, viewers (None: public), public form
RecordParts = tuple[str, dict[str, Any], frozenset[Seat] | None, dict[str, Any] | None]


def event_record_parts(event: Event) -> RecordParts:
    viewers = event.viewers()
    return event.type, event.to_dict(), viewers, (event.public_form() if viewers is not None else None)


def recorded_command(command: Command) -> dict[str, Any]:
    """A command as its record holds it (and as a keyed seat signs it): its type and its fields."""
    return {"type": command.type, **command.to_dict()}


def command_record_parts(
    seat: Seat,
    command: Command,
    command_id: str | None,
    contribution: str | None = None,
    at: int | None = None,
    signature: str | None = None,
    by: str | None = None,
) -> RecordParts:
    """``CommandAccepted`` records what was asked, so the game can be re-executed to verify it.

    The client's command id is never public; a sealed command's fields are private to its sender.
    A chance contribution sent with the command is public (it is useless without the secret seed,
    and every seat may check that it was mixed in). ``at`` is the server's time (ms) stamped on a
    clocked game's commands: data, so that replay and verification never read a clock. A keyed
    seat's ``signature`` is public: anyone may check it against the seat's public key (though a
    sealed command's fields, which it covers, are only revealed with the rest after the game).
    ``by`` marks a command that is not the seat's own act (``signatures.ACTORS``: a clock rule's
    move is the server's, a forfeited seat's the organiser's ruling): public, and never signed.
    """
    data: dict[str, Any] = {
        "seat": seat,
        "command": recorded_command(command),
        "command_id": command_id,
    }
    public: dict[str, Any] = {"seat": seat, "command": {"type": command.type}}
    if at is not None:
        data["at"] = public["at"] = at
    if not command.private:
        public["command"] = data["command"]
    if contribution is not None:
        data["contribution"] = public["contribution"] = contribution
    if signature is not None:
        data["signature"] = public["signature"] = signature
    if by is not None:
        data["by"] = public["by"] = by
    return COMMAND_ACCEPTED, data, frozenset({seat}), public


def for_viewer(record: Record, viewer: Viewer, reveal_all: bool) -> dict[str, Any]:
    """The one per-viewer filter: every record a client receives passes through here.

    The result carries what the chain is computed over, so any viewer can check it.
    """
    sees_all = reveal_all or record.viewers is None or (viewer is not None and viewer in record.viewers)
    out: dict[str, Any] = {
        "position": record.position,
        "type": record.type,
        "data": record.data if sees_all else record.public,
        "viewers": record.viewers,
        "prev": record.prev,
        "hash": record.hash,
    }
    if record.is_private:
        out["public"] = record.public
        out["digest"] = record.digest
    if record.chance is not None:
        out["chance"] = record.chance
    return out
