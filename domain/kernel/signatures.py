"""Seat keys and signed commands: what a keyed seat signs, and the check of its signature.

A seat token is a bearer token: whoever holds it can act as the seat. A seat that registered an
Ed25519 public key must sign every command, so a record proves that each of its moves was made
by the holder of the private key, not by whoever held the token (docs/signed-commands.md).
Verifying is pure computation, so it lives in the domain and the offline verifier runs it too.

Keys are made and commands signed with ``cryptography``; signatures are checked with libsodium
(PyNaCl, from the same maintainers), whose Ed25519 check takes well under half of OpenSSL's time
and is the one piece of a keyed command's extra cost that grows with every command
(docs/benchmarks.md, "Signed commands"). libsodium also refuses keys of small order, which no
honest client makes: ``parse_public_key`` refuses them at registration, so that a key the record
accepts is one whose signatures can be checked.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nacl.bindings import crypto_core_ed25519_is_valid_point, crypto_sign_open
from nacl.exceptions import BadSignatureError

from domain.kernel.chance import hmac_sha256
from domain.kernel.errors import RuleViolation
from domain.kernel.log import canonical
from domain.kernel.seats import Seat

BAD_SIGNATURE = "BAD_SIGNATURE"  # a keyed seat's command unsigned, or signed wrongly (401)
BAD_KEY = "BAD_KEY"  # a public key that is no Ed25519 key in the wire format (400)
KEY_REQUIRED = "KEY_REQUIRED"  # a game that requires keys, joined without one (400)
KEY_ALREADY_SET = "KEY_ALREADY_SET"  # a key registered for a seat that has one, or has already acted (409)
# Who made a command that is not its seat's own act (``CommandAccepted.data.by``, never signed): the
# server (a clock rule's move for a seat out of time) or the organiser (a forfeited seat's moves).
BY_SERVER = "server"
BY_ORGANISER = "organiser"
ACTORS = (BY_SERVER, BY_ORGANISER)
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def _unpadded_base64url(text: object, size: int) -> bytes | None:
    """The ``size`` bytes that ``text`` spells in base64url without padding, or None. Only the one
    spelling of those bytes passes (its length, and the unused low bits of its last character
    zero), so a record holds each key and signature in one form."""
    length = (size * 8 + 5) // 6
    if not isinstance(text, str) or len(text) != length or not _BASE64URL.fullmatch(text):
        return None
    unused_bits = length * 6 - size * 8
    if _ALPHABET.index(text[-1]) % (1 << unused_bits):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-length % 4))
    except (binascii.Error, ValueError):
        return None


@lru_cache(maxsize=4096)
def _key_bytes(public_key: str) -> bytes:
    """A recorded public key's bytes, decoded once rather than for each of the seat's commands (a
    cache of a pure function: the same text always gives the same bytes)."""
    return _unpadded_base64url(public_key, PUBLIC_KEY_BYTES) or b""


def encode(raw: bytes) -> str:
    """Bytes in the wire format: base64url without padding."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def parse_public_key(text: object) -> str:
    """The public key as the record holds it, or ``RuleViolation(BAD_KEY)``."""
    raw = _unpadded_base64url(text, PUBLIC_KEY_BYTES)
    if raw is None:
        raise RuleViolation(
            BAD_KEY, f"public_key must be an Ed25519 public key: {PUBLIC_KEY_BYTES} bytes as base64url without padding"
        )
    if not crypto_core_ed25519_is_valid_point(raw):
        raise RuleViolation(
            BAD_KEY, "public_key is not a valid Ed25519 public key (not a point of the curve, or of small order)"
        )
    return text  # type: ignore[return-value]  # a str: _unpadded_base64url checked it


def signed_payload(
    game_id: str,
    seat: Seat,
    expected_version: int,
    command_id: str,
    command: dict[str, Any],
    contribution: str | None,
) -> bytes:
    """The exact bytes a keyed seat signs: the canonical JSON of the command and everything that
    pins it to one game, one seat and one moment, so that no signature can be replayed elsewhere."""
    payload: dict[str, Any] = {
        "game_id": game_id,
        "seat": seat,
        "expected_version": expected_version,
        "command_id": command_id,
        "command": command,
    }
    if contribution is not None:
        payload["contribution"] = contribution
    return canonical(payload).encode("utf-8")


def check_signature(public_key: str, signature: object, payload: bytes, seat: Seat) -> str:
    """The signature, once it is ``public_key``'s over ``payload``; else ``RuleViolation(BAD_SIGNATURE)``."""
    if signature is None:
        raise RuleViolation(BAD_SIGNATURE, f"seat {seat} has a key: each of its commands must carry a signature")
    raw = _unpadded_base64url(signature, SIGNATURE_BYTES)
    if raw is None:
        raise RuleViolation(
            BAD_SIGNATURE, f"signature must be {SIGNATURE_BYTES} bytes (Ed25519) as base64url without padding"
        )
    try:
        crypto_sign_open(raw + payload, _key_bytes(public_key))
    except (BadSignatureError, ValueError):
        raise RuleViolation(
            BAD_SIGNATURE,
            f"the signature is not seat {seat}'s over this command (game id, seat, expected_version, command_id, "
            "command and contribution, as docs/signed-commands.md gives them)",
        ) from None
    return signature  # type: ignore[return-value]  # a str: _unpadded_base64url checked it


def public_key_of(private: Ed25519PrivateKey) -> str:
    """A private key's public key in the wire format."""
    return encode(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def sign(private: Ed25519PrivateKey, payload: bytes) -> str:
    """The signature over ``payload`` (``signed_payload``) in the wire format."""
    return encode(private.sign(payload))


def bot_key(seed: bytes, seat: Seat) -> Ed25519PrivateKey:
    """The key the server's bot signs a seat's commands with in a game whose seats must all be
    keyed: derived from the game's secret seed, so the server keeps no key of its own, and once
    ``GameEnded`` reveals the seed anyone can check that the seat's key was the server's."""
    return Ed25519PrivateKey.from_private_bytes(hmac_sha256(seed, f"alexandria/bot-key:{seat}".encode()))
