"""A player's seat key on the client side: an Ed25519 private key, its public key in the wire
format, and the signed body of a command (docs/signed-commands.md). The HTTP bot client and any
Python client use it; the server never holds a player's private key.

    key = SeatKey.generate()             # or SeatKey.load(path) / SeatKey.from_private_text(text)
    join = {"name": "Ann", "public_key": key.public_key}
    body = key.signed_body(game_id, seat, version, "move-1", {"type": "pass_turn"})
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from domain.kernel.signatures import encode, public_key_of, sign, signed_payload


@dataclass(frozen=True)
class SeatKey:
    private: Ed25519PrivateKey

    @classmethod
    def generate(cls) -> SeatKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_private_text(cls, text: str) -> SeatKey:
        """A key saved with ``private_text`` (the 32 raw private bytes, base64url without padding)."""
        raw = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @classmethod
    def load(cls, path: Path) -> SeatKey:
        return cls.from_private_text(path.read_text())

    @property
    def private_text(self) -> str:
        """The private key to keep (a secret: whoever holds it can sign as the seat)."""
        raw = self.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return encode(raw)

    @property
    def public_key(self) -> str:
        """What a join or a registration sends as ``public_key``."""
        return public_key_of(self.private)

    def signed_body(
        self,
        game_id: str,
        seat: int,
        expected_version: int,
        command_id: str | None,
        command: dict[str, Any],
        contribution: str | None = None,
    ) -> dict[str, Any]:
        """The body to POST for ``command`` (its type and every field as the game records it), with
        its controls and the seat's signature over them; a fresh command id when none is given."""
        command_id = command_id or secrets.token_urlsafe(12)
        payload = signed_payload(game_id, seat, expected_version, command_id, command, contribution)
        body = {**command, "expected_version": expected_version, "command_id": command_id}
        if contribution is not None:
            body["contribution"] = contribution
        return {**body, "signature": sign(self.private, payload)}
