"""Seeded random games keep their records: the hashes below were computed with the engine before
the issue 12 speed work (main at 1ac42c0). A faster engine must produce the same events, the same
commands and the same listings; a change of the rules that changes them must update these
hashes on purpose, saying why."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from domain.catan_alexander import GAME
from domain.kernel import Chance, engine
from domain.kernel.bots import RandomBot, play_random_game

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (3, {}),
    (4, {"board": "base"}),
    (3, {"board": "base", "layout": "random"}),
    (4, {"starting_gold": 0}),
]

# (setup index, seed) -> sha256 of the events and commands, events, commands
RECORDS: dict[tuple[int, bytes], tuple[str, int, int]] = {
    (0, b"golden-0-a"): ("0c578451b807c99565218d719a1b189f298188252f6b6e3dc068e9e7d56e1538", 1330, 798),
    (0, b"golden-0-b"): ("db91aa97683926d8270ecac1f734c11730816901e85cc28ec301102a01e7e0ca", 1435, 840),
    (1, b"golden-1-a"): ("7763012bb53c7a092269dbdf9e6cb2ae14cccaf1e60c0d880235265870beb62d", 1099, 591),
    (1, b"golden-1-b"): ("23a13acfb88f21acbdf7cd402c41632ee1b6534bff72dcbadfd338e140c42be0", 1024, 551),
    (2, b"golden-2-a"): ("78435a54a564af4c62d2c2f0f76b65a4969c819dc4f7737f696a9d538b44b67f", 1312, 774),
    (2, b"golden-2-b"): ("bb1bae7266baf7a335f24ad3907039214a74ba45679dda13d4a1ae687896c801", 1200, 697),
    (3, b"golden-3-a"): ("fcb5101c7c69f13bc16099d4fbfd1535eeb86b96540e10863d50df234d9a7d4e", 1362, 793),
    (3, b"golden-3-b"): ("bcb0be2f0b8dc51b72060a5eb3ddeedee0e5b89d06642f8795da150979c55a8d", 869, 500),
    (4, b"golden-4-a"): ("5987b494b6f9c151771a5a060d4902fbd1a38333bc8423c1e10ddcd3f6b18f85", 1389, 829),
    (4, b"golden-4-b"): ("8a0fc8e85ea4f68ceda85ff6ce86443846d5ccf1f1f3d189801784f6c692847a", 1318, 777),
}

# setup index -> sha256 of every seat's listing (and the awaited and optional seats) at every step
# of the game seeded b"list-<index>"
LISTINGS: dict[int, str] = {
    0: "491d3c095b665f8ef6ed3fbe395583f142ef11f8d21648abe18841bdfce424dc",
    1: "5a3d8a280cd7e8e61759aae5db4bbca5f0c9b4d835a4d74b4cf8a8c8d6186ac3",
    2: "358d8d80cb2c033e4426dc87ca51adace9f42b00405c3ab72ea8e1031bd502d1",
    3: "92bcb7a888a9c5f62c9c91f1faee9eb3f5946c6a132584f188a79b2d0f89471c",
    4: "43006af3a3c43bdb6c9bd33086f89787c264cff689b74d5614798a0b01e2dd28",
}


def digest(*parts: Any) -> bytes:
    return json.dumps(parts, sort_keys=True).encode()


@pytest.mark.parametrize(("setup", "seed"), sorted(RECORDS))
def test_a_seeded_random_game_keeps_its_record(setup: int, seed: bytes) -> None:
    players, options = SETUPS[setup]
    played = play_random_game(GAME, players, options, seed=seed, bot_seed=seed + b"bot")
    h = hashlib.sha256()
    for event in played.events:
        h.update(digest(event.type, event.to_dict()))
    for seat, command in played.commands:
        h.update(digest(seat, command.type, command.to_dict()))
    assert (h.hexdigest(), len(played.events), len(played.commands)) == RECORDS[(setup, seed)]


@pytest.mark.parametrize("setup", sorted(LISTINGS))
def test_a_seeded_random_game_keeps_its_listings(setup: int) -> None:
    players, options = SETUPS[setup]
    seed = f"list-{setup}".encode()
    chance, bot = Chance(seed), RandomBot(seed + b"bot")
    state, _ = engine.start(GAME, players, GAME.normalize_options(players, dict(options)), chance)
    h = hashlib.sha256()
    while not GAME.is_over(state):
        for seat in range(players):
            moves = engine.legal_moves(GAME, state, seat, Chance(b"list"))
            h.update(digest(seat, moves.complete, [[m.type, m.to_dict()] for m in moves]))
        h.update(digest(sorted(GAME.awaited(state).items()), sorted(GAME.optional(state).items())))
        seat = bot.choose_seat(list(GAME.awaited(state)))
        state, _ = engine.execute(GAME, state, seat, bot.choose(GAME, state, seat), chance)
    assert h.hexdigest() == LISTINGS[setup]
