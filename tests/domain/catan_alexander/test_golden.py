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
    (0, b"golden-0-a"): ("ff60f60631d65f3e11ebfa08b2100cad3836fcab66b57b57c107aa32dbe7ebfb", 1330, 798),
    (0, b"golden-0-b"): ("0cde198e5e9d17a57f4059ea06b031ee4abe31fe25bf51596211864cc88cdced", 1435, 840),
    (1, b"golden-1-a"): ("4214ac6985ba3e3788ea4fb050d1ff1ca30c67451ec938b6c72c3fbf6d2470a4", 1099, 591),
    (1, b"golden-1-b"): ("e63a6eb2da3ec0964adf3e73ab72ede94de090e98a7e613a80a29af88d96a419", 1024, 551),
    (2, b"golden-2-a"): ("ea9b523573f6316960e2c8bfd9c3024476f04c0f531dd7f2548418088af86f53", 1312, 774),
    (2, b"golden-2-b"): ("60da058abc879e62fc4d8361c4886b719749090ab86d252c4b326b3eb6f5df30", 1200, 697),
    (3, b"golden-3-a"): ("5b2f51beeda9cc799dc86d433dfbbf79cd0ba0ef3e33af055dc3d5d2cb9b6c83", 1362, 793),
    (3, b"golden-3-b"): ("7f69c5d00be7482eb566912f38d87ed2d082a34efea3d22a546c059afdb99350", 869, 500),
    (4, b"golden-4-a"): ("981b48871deb77ec61817eb8b0782db90ac09d635b3ee7de8382c95f33fb4acd", 1389, 829),
    (4, b"golden-4-b"): ("0508583eca649001cfbe53e504348c3c86b0c1490b29b874f4714383f5174f78", 1318, 777),
}

# setup index -> sha256 of every seat's listing (and the awaited and optional seats) at every step
# of the game seeded b"list-<index>"
LISTINGS: dict[int, str] = {
    0: "31de47ca2e323de4732030c6e38be84b9cb9c74398290d7c9f0ae9404ad0c7ca",
    1: "586f9d6e603eb25a35e50c8a5d439a1fb9f3654a5ea0def824a897e904b22125",
    2: "fa8635777bf0381c026c048f86b151f5c602285826ab3882f2f2750a69cfc8af",
    3: "68bbfb11d4eeb80c852bbee8df16b989f0a3d6c8bac4f799a3228165d8414094",
    4: "f5a0c95819c2a3cdadf351b4b630071243ef8a03362cd7986ec48cdd6889a2d9",
}


def digest(*parts: Any) -> bytes:
    return json.dumps(parts).encode()  # key order counts: it is in the stored records


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
