"""The bots decide from their seat's knowledge only: twin states that differ only in what the seat
cannot know give the same sample and the same decision, in all four games, for greedy and search."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from domain.alexandros.state import MOVE
from domain.catalog import GAMES
from domain.kernel import engine
from domain.kernel.bots import GreedyBot, RandomBot, make_bot, play_bot_game
from domain.kernel.chance import Chance
from domain.kernel.errors import RuleViolation
from domain.kernel.sampling import clone_state, deal, win_shares
from domain.kernel.search import Node, SearchBot

Twin = Callable[[Any, int], Any | None]  # a state and the deciding seat -> its twin, or None if not here


def find_twins(game_id: str, players: int, twin: Twin, seed: bytes = b"twins") -> tuple[Any, Any, int]:
    """Random play until a seat is awaited with a choice and ``twin`` can make a different state of it."""
    game = GAMES.get(game_id)
    chance, bot = Chance(seed), RandomBot(b"twin-walker")
    state, _ = engine.start(game, players, game.normalize_options(players, {}), chance)
    while not game.is_over(state):
        for seat in sorted(game.awaited(state)):
            if len(game.legal_moves(state, seat, Chance(b"probe"))) > 1:
                other = twin(clone_state(state), seat)
                if other is not None:
                    return state, other, seat
        seat = bot.choose_seat(game.awaited(state))
        state, _ = engine.execute(game, state, seat, bot.choose(game, state, seat), chance)
    raise AssertionError(f"{game_id}: no state to make a twin of")


def alexandros_twin(state: Any, seat: int) -> Any | None:
    """An opponent's card swapped with a supply card of another symbol, and the supply reversed."""
    for other in range(state.players):
        if other == seat:
            continue
        for symbol, count in state.hands[other].items():
            swap = next((i for i, card in enumerate(state.supply) if card != symbol), None)
            if count and swap is not None:
                state.hands[other][symbol] -= 1
                state.hands[other][state.supply[swap]] += 1
                state.supply[swap] = symbol
                state.supply.reverse()
                return state
    return None


def catan_twin(state: Any, seat: int) -> Any | None:
    """Two opponents' resource cards of different kinds swapped, their development cards traded with
    the deck's, the supply stack reversed and two face-down tokens swapped."""
    others = [s for s in range(state.players) if s != seat]
    a, b = others[0], others[1]
    give = next((g for g in range(5) if state.hands[a][g]), None)
    take = next((g for g in range(5) if state.hands[b][g] and g != give), None)
    if give is None or take is None or not state.dev_deck or len(state.tokens_on_board) < 2:
        return None
    if len(set(state.dev_deck)) < 2:
        return None
    state.hands[a][give] -= 1
    state.hands[a][take] += 1
    state.hands[b][take] -= 1
    state.hands[b][give] += 1
    state.dev_deck.reverse()
    state.supply.reverse()
    first, second = sorted(state.tokens_on_board)[:2]
    board = state.tokens_on_board
    if board[first] == board[second]:
        return None
    board[first], board[second] = board[second], board[first]
    return state


def empire_builder_twin(state: Any, seat: int) -> Any | None:
    """Another seat's sealed allocation, not yet revealed, replaced by a different legal one."""
    if seat in state.sealed:
        return None
    for other, commit in state.sealed.items():
        if len(commit) == 4:
            turn_order, armies, temples, cities = commit
            moved = (
                (turn_order + 1, armies - 1, temples, cities)
                if armies > 1
                else (turn_order - 1, armies + 1, temples, cities)
            )
            if min(moved) >= 0:
                state.sealed[other] = moved
                return state
    return None


TWINS = [
    ("alexandros", 3, alexandros_twin),
    ("catan_alexander", 3, catan_twin),
    ("empire_builder", 3, empire_builder_twin),
]


@pytest.mark.parametrize(("game_id", "players", "twin"), TWINS, ids=[t[0] for t in TWINS])
def test_twin_states_give_the_same_sample_and_the_same_decisions(game_id: str, players: int, twin: Twin) -> None:
    game = GAMES.get(game_id)
    state, other, seat = find_twins(game_id, players, twin)
    assert other != state, "the twins differ"
    assert game.view(other, seat) == game.view(state, seat), "only in what the seat cannot know"
    assert game.sample_state(state, seat, Chance(b"s")) == game.sample_state(other, seat, Chance(b"s"))
    # the estimates behind the decisions too: a bot that peeked would value its moves differently
    assert GreedyBot(b"fair").values(game, state, seat) == GreedyBot(b"fair").values(game, other, seat)
    assert SearchBot(b"fair", playouts=150).analyse(game, state, seat) == SearchBot(b"fair", playouts=150).analyse(
        game, other, seat
    )
    for make in (lambda: GreedyBot(b"fair"), lambda: SearchBot(b"fair", playouts=150)):
        assert make().choose(game, state, seat) == make().choose(game, other, seat)


def test_a_sample_keeps_what_the_seat_knows_and_draws_again_what_it_does_not() -> None:
    game = GAMES.get("catan_alexander")
    state, _, seat = find_twins("catan_alexander", 3, catan_twin)
    samples = [game.sample_state(state, seat, Chance(bytes([k]))) for k in range(8)]
    for sample in samples:
        assert game.view(sample, seat) == game.view(state, seat)
    others = [s for s in range(3) if s != seat]
    assert len({repr([sample.hands[s] for s in others]) for sample in samples}) > 1
    assert len({repr(sample.dev_deck) for sample in samples}) > 1
    assert len({repr(sample.tokens_on_board) for sample in samples}) > 1
    assert all(sample.hands[seat] == state.hands[seat] for sample in samples)


def test_peloponnes_holds_nothing_hidden_so_its_sample_is_the_state() -> None:
    """Undrawn tiles and chits are kept as what is left; the draws come from the bot's own chance."""
    game = GAMES.get("peloponnes")
    state, _ = engine.start(game, 3, game.normalize_options(3, {}), Chance(b"p"))
    sample = game.sample_state(state, 0, Chance(b"s"))
    assert sample == state and sample is not state


@pytest.mark.parametrize("game_id", ["peloponnes", "empire_builder", "alexandros", "catan_alexander"])
def test_search_is_deterministic_for_a_seed_and_a_playout_budget(game_id: str) -> None:
    game = GAMES.get(game_id)
    state, _, seat = find_twins(game_id, 3, lambda s, _seat: s)
    first = SearchBot(b"same", playouts=30).analyse(game, state, seat)
    again = SearchBot(b"same", playouts=30).analyse(game, state, seat)
    assert first == again
    assert sum(line.playouts for line in first) == 30
    engine.execute(game, clone_state(state), seat, first[0].move, Chance(b"check"))  # the move is legal


def test_a_time_budget_stops_on_the_clock_it_is_given() -> None:
    game = GAMES.get("alexandros")
    state, _, seat = find_twins("alexandros", 3, lambda s, _seat: s)
    ticks = iter(range(1000))
    bot = SearchBot(b"t", playouts=10_000, seconds=5, clock=lambda: float(next(ticks)))
    bot.choose(game, state, seat)
    assert bot.last_playouts == 5  # the deadline is read before each playout after the first


def test_search_beats_random_in_a_short_alexandros_match() -> None:
    """Strength is the benchmark's (tests/benchmarks/bench_bots.py); here only that search plays to win."""
    game = GAMES.get("alexandros")
    wins = 0
    for k in range(2):
        bots = [SearchBot(b"s", playouts=20), RandomBot(b"r1"), RandomBot(b"r2")]
        bots = bots[-k:] + bots[:-k] if k else bots
        played = play_bot_game(game, bots, seed=f"m{k}".encode())
        strong = next(i for i, b in enumerate(bots) if isinstance(b, SearchBot))
        wins += strong in game.scoreboard(played.state).winners
    assert wins == 2


def test_make_bot_knows_three_bots_and_refuses_others() -> None:
    assert [make_bot(name, b"x").name for name in ("random", "greedy", "search")] == ["random", "greedy", "search"]
    with pytest.raises(RuleViolation) as refused:
        make_bot("alphazero", b"x")
    assert refused.value.code == "BAD_INPUT"


def test_deal_depends_on_the_multiset_only() -> None:
    assert deal(Chance(b"d"), "p", [3, 1, 2, 1], [2, 1]) == deal(Chance(b"d"), "p", [1, 2, 1, 3], [2, 1])
    piles = deal(Chance(b"d"), "p", [3, 1, 2, 1], [2, 1])
    assert [len(p) for p in piles] == [2, 1, 1] and sorted(card for pile in piles for card in pile) == [1, 1, 2, 3]


def test_win_shares_sum_to_one_and_follow_the_points() -> None:
    shares = win_shares([10.0, 12.0, 9.0], 2.0)
    assert abs(sum(shares) - 1) < 1e-12 and shares[1] > shares[0] > shares[2]


def test_the_twin_test_catches_a_bot_that_peeks() -> None:
    """With the copy of the state (what a sampler that forgets nothing gives), the same twins tell apart."""
    peeking = dataclasses.replace(GAMES.get("alexandros"), sample_state=lambda s, _seat, _chance: clone_state(s))
    state, other, seat = find_twins("alexandros", 3, alexandros_twin)
    assert peeking.sample_state(state, seat, Chance(b"s")) != peeking.sample_state(other, seat, Chance(b"s"))
    assert SearchBot(b"fair", playouts=150).analyse(peeking, state, seat) != SearchBot(b"fair", playouts=150).analyse(
        peeking, other, seat
    )


def test_search_judges_an_alexandros_position_once_the_turn_under_way_is_done() -> None:
    """After the move and before the actions a position says little (the move was made for them):
    the search's cut-off plays the rest of the turn greedily, then evaluates."""
    game = GAMES.get("alexandros")
    chance, bot = Chance(b"underway"), RandomBot(b"walker")
    state, _ = engine.start(game, 3, game.normalize_options(3, {}), chance)
    while game.turn_underway(state) is None:
        seat = bot.choose_seat(game.awaited(state))
        state, _ = engine.execute(game, state, seat, bot.choose(game, state, seat), chance)
    mover = game.turn_underway(state)
    assert mover == state.seat and mover in game.awaited(state)
    judged = SearchBot(b"s", playouts=1)._finish_turn(game, clone_state(state))
    assert game.turn_underway(judged) is None
    assert judged.seat != mover or game.is_over(judged)
    assert SearchBot(b"s", playouts=1)._finish_turn(game, judged) is judged  # a finished turn stays as it is


def test_the_search_judges_an_alexandros_move_by_the_next_turns_and_near_the_end_by_the_last_ones() -> None:
    """A move is answered by the next seats' turns (their walls, levies and take-overs): the cut-off
    plays ``NEXT_TURNS`` turns greedily before it evaluates; within ``ENDGAME_WALLS`` black walls of
    the end, the last turns decide the game (the last walls cut provinces, the last levies, who has
    the last turn), and it plays up to ``ENDGAME_TURNS``."""
    game = GAMES.get("alexandros")
    chance, walker = Chance(b"endgame"), RandomBot(b"walker")
    state, _ = engine.start(game, 3, game.normalize_options(3, {}), chance)
    early = SearchBot(b"s", playouts=1)._roll_out(game, clone_state(state))
    assert game.greedy_turns(state) == 2 and early.turn == state.turn + 2
    while state.black_left > 8 or state.step != MOVE or not game.awaited(state):
        assert not game.is_over(state), "the walk ended the game before its last walls"
        seat = walker.choose_seat(game.awaited(state))
        state, _ = engine.execute(game, state, seat, walker.choose(game, state, seat), chance)
    assert game.greedy_turns(state) == 4
    judged = SearchBot(b"s", playouts=1)._roll_out(game, clone_state(state))
    assert game.is_over(judged) or judged.turn >= state.turn + 4


def _alexandros_tree(greedy_turns: Callable[[Any], int] | None, playouts: int) -> list[Node]:
    """The nodes of a search's tree after ``playouts`` playouts from the first move of a seeded
    Alexandros game (with ``greedy_turns`` in place of the game's own, if given)."""
    game = GAMES.get("alexandros")
    if greedy_turns is not None:
        game = dataclasses.replace(game, greedy_turns=greedy_turns)
    state, _ = engine.start(game, 3, game.normalize_options(3, {}), Chance(b"tree"))
    (seat,) = game.awaited(state)
    bot = SearchBot(b"tree", playouts=playouts)
    first = game.sample_state(state, seat, bot.rng)
    root = bot._grow(game, state, seat, first, list(game.legal_moves(first, seat, bot.rng)))
    nodes, todo = [], list(root.children.values())
    while todo:
        node = todo.pop()
        nodes.append(node)
        todo += node.children.values()
    return nodes


def test_where_the_turns_to_come_are_played_greedily_the_tree_holds_the_seats_own_turn_only() -> None:
    """Alexandros plays the next turns greedily after the tree: the tree searches the seat's move and
    its actions, and no other seat's move (a few of dozens tried at random were a poor model of a
    reply). A game without turns played greedily keeps every seat in its tree."""
    own_turn = _alexandros_tree(None, playouts=300)
    first = own_turn[0].mover
    assert {node.mover for node in own_turn} == {first}
    assert any(node.children for node in own_turn), "the seat's actions after its move are searched too"
    every_seat = _alexandros_tree(lambda _state: 0, playouts=300)
    assert {node.mover for node in every_seat} != {first}
