"""decide / evolve / advance for Alexandros. Rule numbers (Rn) refer to the rules file
``shared/games/alexandros.md``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import (
    EndTurn,
    LevyTaxes,
    MoveAlexander,
    OccupyProvince,
    RetireGovernor,
    TakeCard,
)
from domain.alexandros.data import (
    ACTIONS_PER_TURN,
    CARDS_PER_SYMBOL,
    DISPLAY_SLOTS,
    DIST,
    IS_INTERIOR,
    IS_OPEN,
    SIDE_ID,
    SIDE_SPACES,
    SPACE_CORNERS,
    SPACE_DIST,
    SPACE_SIDES,
    SPACE_SYMBOL,
    SYMBOL_SPACES,
    SYMBOLS,
    WINNING_SCORE,
    parse_point,
    parse_side,
    parse_space,
    point_coord,
    side_coord,
    space_coord,
)
from domain.alexandros.events import (
    AlexanderMoved,
    AlexanderMoveSkipped,
    CardTaken,
    DisplayRefilled,
    GameEnded,
    GameEndTriggered,
    GovernorRetired,
    ProvinceOccupied,
    StartPlayerChosen,
    SupplyShuffled,
    TaxesLevied,
    TurnEnded,
    TurnStarted,
    WallBuilt,
)
from domain.alexandros.state import (
    ACTIONS,
    BLACK,
    MOVE,
    NO_WALL,
    NOBODY,
    OVER,
    RED,
    SETUP,
    TURN_OVER,
    AlexandrosState,
    split_by_wall,
)
from domain.kernel import Chance, Command, Event, RuleViolation, Seat
from domain.kernel.errors import BAD_INPUT, BrokenInvariant

# levy_taxes stays listed after a levy: the kernel refuses unlisted commands with its WRONG_PHASE (the rules
# file's WRONG_STEP), while E8 and section 10.1 name ALREADY_LEVIED for a second levy, which decide_levy raises.
ACTION_COMMANDS = ("take_card", "occupy_province", "levy_taxes", "retire_governor", "end_turn")
MOVE_COMMANDS = ("move_alexander",)


# -- the board: freeness, closeness, provinces (R3-R11) ------------------------------------------------


def is_free(state: AlexandrosState, space: int) -> bool:
    """R5/R6: no wall on any of its sides, no governor on it, Alexander not on one of its corners."""
    walls = state.walls
    a, b, c = SPACE_SIDES[space]
    if walls[a] or walls[b] or walls[c]:
        return False
    return state.governors[space] == NOBODY and state.alexander not in SPACE_CORNERS[space]


def has_free_space(state: AlexandrosState, symbol: str) -> bool:
    return any(is_free(state, s) for s in SYMBOL_SPACES[symbol])


def closest_free_spaces(state: AlexandrosState, symbol: str) -> tuple[int, list[int]]:
    """R28: the free spaces of ``symbol`` at the minimum distance from Alexander, and that distance
    (-1 and [] when none is free)."""
    dist_row = SPACE_DIST[state.alexander]
    best, closest = -1, []
    for s in SYMBOL_SPACES[symbol]:
        if not is_free(state, s):
            continue
        d = dist_row[s]
        if best < 0 or d < best:
            best, closest = d, [s]
        elif d == best:
            closest.append(s)
    return best, closest


def province_spaces(state: AlexandrosState, space: int) -> list[int]:
    label = state.province[space]
    return [s for s, lab in enumerate(state.province) if lab == label]


def province_value(spaces: list[int]) -> int:
    """R10: the number of open spaces."""
    return sum(IS_OPEN[s] for s in spaces)


def provinces(state: AlexandrosState) -> dict[int, list[int]]:
    """Every province (R8) by its label, with its spaces in id order."""
    groups: dict[int, list[int]] = {}
    for s, label in enumerate(state.province):
        groups.setdefault(label, []).append(s)
    return groups


def single_owner_violations(state: AlexandrosState) -> list[int]:
    """R11 invariant: the labels of provinces holding governors of two seats (must stay empty)."""
    owners: dict[int, set[int]] = {}
    for s, seat in enumerate(state.governors):
        if seat != NOBODY:
            owners.setdefault(state.province[s], set()).add(seat)
    return [label for label, seats in owners.items() if len(seats) > 1]


# -- whose turn --------------------------------------------------------------------------------------


def skip_reason(state: AlexandrosState) -> str | None:
    """R33/R34: why the current seat cannot move Alexander, or None when it has a legal move."""
    free = {sym for sym in SYMBOLS if has_free_space(state, sym)}
    if not free:
        return "no_free_space"
    if any(card is not None for card in state.display):
        return None  # a display card is usable, as a normal move or as a joker (R33)
    hand = state.hands[state.seat]
    if any(hand[sym] > 0 for sym in free):
        return None
    return "no_usable_card"


def awaited(state: AlexandrosState) -> dict[Seat, tuple[str, ...]]:
    if state.step == MOVE and skip_reason(state) is None:
        return {state.seat: MOVE_COMMANDS}
    if state.step == ACTIONS and state.actions_taken < ACTIONS_PER_TURN and not someone_reached_goal(state):
        return {state.seat: ACTION_COMMANDS}
    return {}


def is_over(state: AlexandrosState) -> bool:
    return state.step == OVER


def someone_reached_goal(state: AlexandrosState) -> bool:
    return max(state.scores) >= WINNING_SCORE


# -- cards (R16, R46, R65) -----------------------------------------------------------------------------


def draw_cards(state: AlexandrosState, chance: Chance, count: int) -> list[tuple[SupplyShuffled | None, str]]:
    """Draw up to ``count`` cards from the top of the supply (R65: when it is empty, the whole discard
    pile is shuffled into a new supply first). Each card comes with the reshuffle that preceded it,
    which must be applied between the previous draw and this one; fewer cards come back when the
    supply and the discard pile run dry."""
    supply, discard, reshuffles = list(state.supply), list(state.discard), state.reshuffles
    drawn: list[tuple[SupplyShuffled | None, str]] = []
    for _ in range(count):
        shuffled = None
        if not supply:
            if not discard:
                break
            reshuffles += 1
            supply = chance.shuffle(f"deck:{reshuffles}", discard)
            shuffled = SupplyShuffled(reason="reshuffle", count=len(supply), order=list(supply))
            discard = []
        drawn.append((shuffled, supply.pop(0)))
    return drawn


def refill_events(state: AlexandrosState, chance: Chance, slots: list[int]) -> list[Event]:
    """R46/R33: turn up a card into each of ``slots`` in order, reshuffling where needed (R65)."""
    events: list[Event] = []
    for slot, (shuffled, card) in zip(slots, draw_cards(state, chance, len(slots)), strict=False):
        if shuffled is not None:
            events.append(shuffled)
        events.append(DisplayRefilled(slot=slot, card=card))
    return events


def setup_events(state: AlexandrosState, chance: Chance) -> list[Event]:
    """R16-R18: shuffle, deal one card per seat, turn up two display cards, draw the start seat."""
    cards = [sym for sym in SYMBOLS for _ in range(CARDS_PER_SYMBOL)]
    order = chance.shuffle("deck:0", cards)
    events: list[Event] = [SupplyShuffled(reason="setup", count=len(order), order=list(order))]
    n = state.players
    events += [CardTaken(seat=s, source="deal", slot=None, card=order[s]) for s in range(n)]
    events += [DisplayRefilled(slot=k, card=order[n + k]) for k in range(DISPLAY_SLOTS)]
    start = chance.below("start_player", n)
    events += [StartPlayerChosen(seat=start), TurnStarted(seat=start, turn=1)]
    return events


def close_actions_step(state: AlexandrosState, chance: Chance) -> list[Event]:
    """R22/R46: refill the emptied display slots (slot 0 first), then TurnEnded; no refill when the
    game-end flag is set (R67)."""
    events: list[Event] = []
    if state.end_reason is None:
        events += refill_events(state, chance, [k for k, card in enumerate(state.display) if card is None])
    events.append(TurnEnded(seat=state.seat))
    return events


# -- advance: the automatic steps --------------------------------------------------------------------


def final_winners(scores: list[int]) -> list[int]:
    """R70/R71: the most points win; ties share the win."""
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


def game_ended(state: AlexandrosState, reason: str, chance: Chance) -> GameEnded:
    return GameEnded(
        reason=reason, scores=list(state.scores), winners=final_winners(state.scores), seed=chance.seed_hex
    )


def advance(state: AlexandrosState, chance: Chance) -> list[Event]:
    if state.step == OVER:
        return []
    if state.step == SETUP:
        return setup_events(state, chance)
    if someone_reached_goal(state):
        return [game_ended(state, "points", chance)]  # R68: at once, remaining actions are lost
    if state.step == MOVE:
        reason = skip_reason(state)
        if reason is None:
            return []
        events: list[Event] = [AlexanderMoveSkipped(seat=state.seat, reason=reason)]
        if reason == "no_free_space" and state.end_reason is None:
            events.append(GameEndTriggered(seat=state.seat, reason=reason))  # R34, R69
        return events
    if state.step == ACTIONS:
        if state.actions_taken >= ACTIONS_PER_TURN:
            return close_actions_step(state, chance)
        return []
    if state.step == TURN_OVER:
        if state.end_reason is not None:
            return [game_ended(state, state.end_reason, chance)]  # R67, R69
        return [TurnStarted(seat=(state.seat + 1) % state.players, turn=state.turn + 1)]  # R19
    return []


# -- decide ---------------------------------------------------------------------------------------------


def decide(state: AlexandrosState, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise RuleViolation(BAD_INPUT, f"alexandros does not know the command {command.type!r}")
    return handler(state, seat, command, chance)


def _symbol(value: Any, what: str) -> str:
    if value not in SYMBOLS:
        raise RuleViolation(BAD_INPUT, f"{what} must be one of {', '.join(SYMBOLS)}, not {value!r}")
    return value


def _space(value: Any, what: str) -> int:
    space = parse_space(value)
    if space is None:
        raise RuleViolation(BAD_INPUT, f"{what} {value!r} is not a space [r,c] of the board")
    return space


def _point(value: Any, what: str) -> int:
    point = parse_point(value)
    if point is None:
        raise RuleViolation(BAD_INPUT, f"{what} {value!r} is not a point [i,x] of the board")
    return point


def _slot(value: Any) -> int:
    if type(value) is not int or not 0 <= value < DISPLAY_SLOTS:
        raise RuleViolation(BAD_INPUT, f"slot must be 0 or 1 for a display card, not {value!r}")
    return value


def _require_action_left(state: AlexandrosState) -> None:
    if state.actions_taken >= ACTIONS_PER_TURN:
        raise RuleViolation("NO_ACTIONS_LEFT", "both actions of this turn are used")


# -- R25-R41: moving Alexander and laying walls ------------------------------------------------------------


def move_symbol(state: AlexandrosState, seat: Seat, command: MoveAlexander) -> tuple[str, str, str]:
    """R26/R27: the card used, the move symbol and ``via`` (display, joker or hand)."""
    if command.source == "display":
        return display_move_symbol(state, command)
    if command.source == "hand":
        return hand_move_symbol(state, seat, command)
    raise RuleViolation(BAD_INPUT, f"source must be 'display' or 'hand', not {command.source!r}")


def display_move_symbol(state: AlexandrosState, command: MoveAlexander) -> tuple[str, str, str]:
    """R26 a/b: a face-up card gives its own symbol, or any symbol as a joker when its own has no free space."""
    slot = _slot(command.slot)
    if command.card is not None:
        raise RuleViolation(BAD_INPUT, "card is only given with source 'hand'; a display card is chosen by slot")
    joker = None if command.joker_symbol is None else _symbol(command.joker_symbol, "joker_symbol")
    card = state.display[slot]
    if card is None:
        raise RuleViolation("EMPTY_SLOT", f"display slot {slot} is empty")
    if joker is None:
        if not has_free_space(state, card):
            raise RuleViolation(
                "NO_FREE_SPACE", f"no {card} space is free; name a joker_symbol to use this card as a joker (R26 b)"
            )
        return card, card, "display"
    if has_free_space(state, card):
        raise RuleViolation("JOKER_NOT_ALLOWED", f"a {card} space is free, so this card is not a joker")
    if not has_free_space(state, joker):
        raise RuleViolation("NO_FREE_SPACE", f"no {joker} space is free")
    return card, joker, "joker"


def hand_move_symbol(state: AlexandrosState, seat: Seat, command: MoveAlexander) -> tuple[str, str, str]:
    """R26 c: the exceptional move discards a hand card, which is never a joker."""
    if command.slot is not None:
        raise RuleViolation(BAD_INPUT, "slot is only given with source 'display'")
    card = _symbol(command.card, "card")
    if command.joker_symbol is not None:
        _symbol(command.joker_symbol, "joker_symbol")
    if state.hands[seat][card] == 0:
        raise RuleViolation("CARD_NOT_IN_HAND", f"you hold no {card} card")
    if command.joker_symbol is not None:
        raise RuleViolation("JOKER_NOT_ALLOWED", "a hand card can never be a joker (R26)")
    if not has_free_space(state, card):
        raise RuleViolation("NO_FREE_SPACE", f"no {card} space is free")
    return card, card, "hand"


def check_route(state: AlexandrosState, corner: int, path: list[int]) -> None:
    """R30/R31: a chain of sides from Alexander's point to the corner, shortest in sides."""
    if not path or path[0] != state.alexander:
        raise RuleViolation("PATH_INVALID", f"the path must start at Alexander's point {point_coord(state.alexander)}")
    if path[-1] != corner:
        raise RuleViolation("PATH_INVALID", f"the path must end at the chosen corner {point_coord(corner)}")
    for a, b in itertools.pairwise(path):
        if (a, b) not in SIDE_ID:
            raise RuleViolation("PATH_INVALID", f"{point_coord(a)} to {point_coord(b)} is not a side of the board")
    distance = DIST[state.alexander][corner]
    if len(path) - 1 > distance:
        raise RuleViolation(
            "PATH_NOT_SHORTEST", f"the path has {len(path) - 1} sides; a shortest route to that corner has {distance}"
        )


def walls_for_route(state: AlexandrosState, seat: Seat, path: list[int]) -> list[Event]:
    """R35-R39: a wall on every unwalled interior side of the route, in route order; black first,
    then red (which triggers the end, R37); sides beyond the red walls stay unwalled (R39)."""
    events: list[Event] = []
    black, red = state.black_left, state.red_left
    for a, b in itertools.pairwise(path):
        side = SIDE_ID[(a, b)]
        if not IS_INTERIOR[side] or state.walls[side] != NO_WALL:
            continue
        if black > 0:
            black -= 1
            color = "black"
        elif red > 0:
            red -= 1
            color = "red"
        else:
            break
        events.append(WallBuilt(seat=seat, side=side_coord(side), color=color, black_left=black, red_left=red))
    if red < state.red_left and state.end_reason is None:
        events.append(GameEndTriggered(seat=seat, reason="walls"))
    return events


def decide_move(state: AlexandrosState, seat: Seat, command: MoveAlexander, chance: Chance) -> list[Event]:
    target = _space(command.target, "target")
    corner = _point(command.corner, "corner")
    if not isinstance(command.path, list):
        raise RuleViolation(BAD_INPUT, "path must be a list of points [i,x]")
    path = [_point(p, "path point") for p in command.path]
    card, symbol, via = move_symbol(state, seat, command)
    if SPACE_SYMBOL[target] != symbol:
        raise RuleViolation("WRONG_SYMBOL", f"{space_coord(target)} does not show a {symbol}")
    if not is_free(state, target):
        raise RuleViolation(
            "TARGET_NOT_FREE", f"{space_coord(target)} is not free (a wall, a governor or Alexander touches it)"
        )
    distance, closest = closest_free_spaces(state, symbol)
    if target not in closest:
        nearest = ", ".join(str(space_coord(s)) for s in closest)
        raise RuleViolation("NOT_CLOSEST", f"the closest free {symbol} spaces are at distance {distance}: {nearest}")
    if corner not in SPACE_CORNERS[target]:
        raise RuleViolation("CORNER_NOT_ON_TARGET", f"{point_coord(corner)} is not a corner of {space_coord(target)}")
    check_route(state, corner, path)
    slot = command.slot if via != "hand" else None
    events: list[Event] = [
        AlexanderMoved(
            seat=seat,
            via=via,
            slot=slot,
            card=card,
            symbol=symbol,
            from_=point_coord(state.alexander),
            target=space_coord(target),
            to=point_coord(corner),
            distance=distance,
            path=[point_coord(p) for p in path],
        )
    ]
    if slot is not None:  # R33: the slot emptied by the move is refilled at once
        events += refill_events(state, chance, [slot])
    events += walls_for_route(state, seat, path)
    return events


# -- R45-R47: take a card -------------------------------------------------------------------------------


def decide_take_card(state: AlexandrosState, seat: Seat, command: TakeCard, chance: Chance) -> list[Event]:
    _require_action_left(state)
    if command.source == "display":
        slot = _slot(command.slot)
        card = state.display[slot]
        if card is None:
            raise RuleViolation(
                "EMPTY_SLOT", f"display slot {slot} is empty; it is refilled when your actions end (R46)"
            )
        return [CardTaken(seat=seat, source="display", slot=slot, card=card)]
    if command.source == "supply":
        if command.slot is not None:
            raise RuleViolation(BAD_INPUT, "slot is only given with source 'display'")
        drawn = draw_cards(state, chance, 1)
        if not drawn:
            raise RuleViolation("SUPPLY_EMPTY", "the supply and the discard pile are both empty")
        ((shuffled, card),) = drawn
        taken = CardTaken(seat=seat, source="supply", slot=None, card=card)
        return [taken] if shuffled is None else [shuffled, taken]
    raise RuleViolation(BAD_INPUT, f"source must be 'display' or 'supply', not {command.source!r}")


# -- R48-R56: occupy or take over a province -------------------------------------------------------------


def takeover_costs(
    state: AlexandrosState, members: list[int], governor_spaces: set[int]
) -> tuple[list[int], list[str], list[str]]:
    """R50/R53: the governors to evict, the eviction cards (2 per governor, of its space's symbol)
    and the occupation cards (1 per symbol space without a new governor), all in space order."""
    evicted = [s for s in members if state.governors[s] != NOBODY]
    eviction_cards = [SPACE_SYMBOL[s] for s in evicted for _ in range(2)]
    occupation_cards = [SPACE_SYMBOL[s] for s in members if SPACE_SYMBOL[s] is not None and s not in governor_spaces]
    return evicted, eviction_cards, occupation_cards  # type: ignore[return-value]


def compensation_size(cards_paid: int) -> int:
    """Ruling R56: half of all cards paid in a take-over, rounded up."""
    return (cards_paid + 1) // 2


def can_pay(hand: dict[str, int], cards: list[str]) -> bool:
    return all(hand[sym] >= n for sym, n in Counter(cards).items())


def governor_spaces(command: OccupyProvince) -> list[int]:
    """R49/R11: the listed spaces, each a different symbol space."""
    if not isinstance(command.governors, list) or not command.governors:
        raise RuleViolation(BAD_INPUT, "governors must list at least one symbol space [r,c]")
    spaces = [_space(g, "governor space") for g in command.governors]
    for s in spaces:
        if SPACE_SYMBOL[s] is None:
            raise RuleViolation(
                "NOT_SYMBOL_SPACE", f"{space_coord(s)} is an open space; governors stand on symbol spaces"
            )
    if len(set(spaces)) != len(spaces):
        raise RuleViolation("DUPLICATE_SPACE", "each governor needs a different symbol space")
    return spaces


def takeover_record(
    occupants: set[int], evicted: list[int], eviction_cards: list[str], paid: list[str], compensation: list[str]
) -> dict[str, Any] | None:
    """R52-R56: None for an occupation; for a take-over, the evicted seat, its governors, the eviction
    cards and the compensation, which must be exactly half (rounded up) of all cards paid."""
    if not evicted:
        if compensation:
            raise RuleViolation(
                "COMPENSATION_NOT_ALLOWED", "compensation is only paid when taking over an occupied province"
            )
        return None
    owed = compensation_size(len(paid))
    if len(compensation) != owed or Counter(compensation) - Counter(paid):
        raise RuleViolation(
            "BAD_COMPENSATION",
            f"give exactly {owed} of the {len(paid)} cards paid ({', '.join(paid)}) as compensation (R56)",
        )
    if len(occupants) != 1:
        raise BrokenInvariant(f"R11: a province holds governors of seats {sorted(occupants)}")
    (from_seat,) = occupants
    return {
        "from_seat": from_seat,
        "evicted": [space_coord(s) for s in evicted],
        "eviction_cards": eviction_cards,
        "compensation": compensation,
    }


def decide_occupy(state: AlexandrosState, seat: Seat, command: OccupyProvince, chance: Chance) -> list[Event]:
    _require_action_left(state)
    if not isinstance(command.compensation, list):
        raise RuleViolation(BAD_INPUT, "compensation must be a list of symbols")
    compensation = [_symbol(c, "compensation card") for c in command.compensation]
    spaces = governor_spaces(command)
    if len({state.province[s] for s in spaces}) > 1:
        raise RuleViolation("SPACES_IN_DIFFERENT_PROVINCES", "all governor spaces must lie in one province")
    members = province_spaces(state, spaces[0])
    occupants = {state.governors[s] for s in members} - {NOBODY}
    if seat in occupants:
        raise RuleViolation("OWN_PROVINCE", "you already occupy this province (R51)")
    if len(spaces) > state.governor_supply[seat]:
        raise RuleViolation(
            "NOT_ENOUGH_GOVERNORS", f"you have {state.governor_supply[seat]} governors in supply, not {len(spaces)}"
        )
    evicted, eviction_cards, occupation_cards = takeover_costs(state, members, set(spaces))
    paid = eviction_cards + occupation_cards
    if not can_pay(state.hands[seat], paid):
        needed = ", ".join(f"{n} {sym}" for sym, n in sorted(Counter(paid).items()))
        raise RuleViolation("NOT_ENOUGH_CARDS", f"this costs {needed}")
    return [
        ProvinceOccupied(
            seat=seat,
            province=[space_coord(s) for s in members],
            governors=[space_coord(s) for s in spaces],
            cards_paid=occupation_cards,
            takeover=takeover_record(occupants, evicted, eviction_cards, paid, compensation),
        )
    ]


# -- R57-R60: levy taxes ----------------------------------------------------------------------------------


def tax_scoring(state: AlexandrosState, levier: Seat) -> tuple[list[int], list[dict[str, Any]]]:
    """R58: every province with exactly one governor pays its value to that governor's owner;
    seats score from the levier on, clockwise."""
    governors_in: dict[int, list[int]] = {}
    for s, owner in enumerate(state.governors):
        if owner != NOBODY:
            governors_in.setdefault(state.province[s], []).append(s)
    singles = {label: spaces[0] for label, spaces in governors_in.items() if len(spaces) == 1}
    values = dict.fromkeys(singles, 0)
    for s, label in enumerate(state.province):
        if label in values and IS_OPEN[s]:
            values[label] += 1
    points = [0] * state.players
    scored: list[dict[str, Any]] = []
    by_seat: dict[int, list[tuple[int, int]]] = {}
    for label, governor in singles.items():
        by_seat.setdefault(state.governors[governor], []).append((governor, values[label]))
    for k in range(state.players):
        owner = (levier + k) % state.players
        for governor, value in sorted(by_seat.get(owner, [])):
            points[owner] += value
            scored.append({"seat": owner, "governor": space_coord(governor), "value": value})
    return points, scored


def decide_levy(state: AlexandrosState, seat: Seat, command: LevyTaxes, chance: Chance) -> list[Event]:
    _require_action_left(state)
    if state.levied:
        raise RuleViolation("ALREADY_LEVIED", "taxes are levied at most once per turn (R43)")
    card = _symbol(command.card, "card")
    if state.hands[seat][card] == 0:
        raise RuleViolation("CARD_NOT_IN_HAND", f"you hold no {card} card")
    if not any(state.governors[s] == seat for s in SYMBOL_SPACES[card]):
        raise RuleViolation("NO_MATCHING_GOVERNOR", f"none of your governors stands on a {card} space (R57)")
    points, scored = tax_scoring(state, seat)
    scores = [score + gain for score, gain in zip(state.scores, points, strict=True)]
    return [TaxesLevied(seat=seat, card=card, points=points, scores=scores, scored=scored)]


# -- R61: retire a governor --------------------------------------------------------------------------------


def decide_retire(state: AlexandrosState, seat: Seat, command: RetireGovernor, chance: Chance) -> list[Event]:
    _require_action_left(state)
    space = _space(command.space, "space")
    if state.governors[space] != seat:
        raise RuleViolation("NOT_YOUR_GOVERNOR", f"no governor of yours stands on {space_coord(space)}")
    return [GovernorRetired(seat=seat, space=space_coord(space))]


def decide_end_turn(state: AlexandrosState, seat: Seat, command: EndTurn, chance: Chance) -> list[Event]:
    """R44: actions are optional."""
    return close_actions_step(state, chance)


_DECIDERS: dict[type, Callable[..., list[Event]]] = {
    MoveAlexander: decide_move,
    TakeCard: decide_take_card,
    OccupyProvince: decide_occupy,
    LevyTaxes: decide_levy,
    RetireGovernor: decide_retire,
    EndTurn: decide_end_turn,
}


# -- evolve -------------------------------------------------------------------------------------------------


def _discard_rest(state: AlexandrosState, paid: list[str], kept: list[str]) -> None:
    rest = list(paid)
    for card in kept:
        rest.remove(card)
    state.discard.extend(rest)


def evolve(state: AlexandrosState, event: Event) -> AlexandrosState:
    _EVOLVERS[type(event)](state, event)
    return state


def _shuffled(state: AlexandrosState, e: SupplyShuffled) -> None:
    state.supply = list(e.order)
    if e.reason == "reshuffle":
        state.discard = []
        state.reshuffles += 1


def _card_taken(state: AlexandrosState, e: CardTaken) -> None:
    if e.source == "display":
        state.display[e.slot] = None  # type: ignore[index]
    else:
        state.supply.pop(0)
    state.hands[e.seat][e.card] += 1
    if e.source != "deal":
        state.actions_taken += 1


def _refilled(state: AlexandrosState, e: DisplayRefilled) -> None:
    state.supply.pop(0)
    state.display[e.slot] = e.card


def _start_player(state: AlexandrosState, e: StartPlayerChosen) -> None:
    state.seat = e.seat


def _turn_started(state: AlexandrosState, e: TurnStarted) -> None:
    state.seat, state.turn, state.step = e.seat, e.turn, MOVE
    state.actions_taken, state.levied = 0, False


def _moved(state: AlexandrosState, e: AlexanderMoved) -> None:
    if e.via == "hand":
        state.hands[e.seat][e.card] -= 1
        state.discard.append(e.card)
    else:
        state.display[e.slot] = None  # type: ignore[index]
        state.hands[e.seat][e.card] += 1
    state.alexander = parse_point(e.to)  # type: ignore[assignment]
    state.step = ACTIONS


def _wall(state: AlexandrosState, e: WallBuilt) -> None:
    side = parse_side(e.side)
    assert side is not None
    state.walls[side] = BLACK if e.color == "black" else RED
    state.black_left, state.red_left = e.black_left, e.red_left
    a, b = SIDE_SPACES[side]
    if state.province[a] == state.province[b]:  # only a wall inside one province can split it
        split_by_wall(state.province, state.walls, a, b)


def _end_triggered(state: AlexandrosState, e: GameEndTriggered) -> None:
    state.end_reason = e.reason


def _skipped(state: AlexandrosState, e: AlexanderMoveSkipped) -> None:
    state.step = ACTIONS


def _occupied(state: AlexandrosState, e: ProvinceOccupied) -> None:
    hand = state.hands[e.seat]
    paid = list(e.cards_paid)
    if e.takeover is not None:
        paid = list(e.takeover["eviction_cards"]) + paid
        from_seat = e.takeover["from_seat"]
        for coord in e.takeover["evicted"]:
            state.governors[parse_space(coord)] = NOBODY  # type: ignore[index]
            state.governor_supply[from_seat] += 1
        for card in e.takeover["compensation"]:
            state.hands[from_seat][card] += 1
        kept = list(e.takeover["compensation"])
    else:
        kept = []
    for card in paid:
        hand[card] -= 1
    _discard_rest(state, paid, kept)
    for coord in e.governors:
        state.governors[parse_space(coord)] = e.seat  # type: ignore[index]
        state.governor_supply[e.seat] -= 1
    state.actions_taken += 1
    others = [c for c in e.province if state.governors[parse_space(c)] not in (NOBODY, e.seat)]  # type: ignore[index]
    if others:
        raise BrokenInvariant(f"R11: province {e.province} holds governors of seat {e.seat} and others at {others}")


def _levied(state: AlexandrosState, e: TaxesLevied) -> None:
    state.hands[e.seat][e.card] -= 1
    state.discard.append(e.card)
    state.scores = list(e.scores)
    state.levied = True
    state.actions_taken += 1


def _retired(state: AlexandrosState, e: GovernorRetired) -> None:
    state.governors[parse_space(e.space)] = NOBODY  # type: ignore[index]
    state.governor_supply[e.seat] += 1
    state.actions_taken += 1


def _turn_ended(state: AlexandrosState, e: TurnEnded) -> None:
    state.step = TURN_OVER


def _ended(state: AlexandrosState, e: GameEnded) -> None:
    state.step = OVER
    state.end = e.reason
    state.winners = list(e.winners)


_EVOLVERS: dict[type, Callable[[AlexandrosState, Any], None]] = {
    SupplyShuffled: _shuffled,
    CardTaken: _card_taken,
    DisplayRefilled: _refilled,
    StartPlayerChosen: _start_player,
    TurnStarted: _turn_started,
    AlexanderMoved: _moved,
    WallBuilt: _wall,
    GameEndTriggered: _end_triggered,
    AlexanderMoveSkipped: _skipped,
    ProvinceOccupied: _occupied,
    TaxesLevied: _levied,
    GovernorRetired: _retired,
    TurnEnded: _turn_ended,
    GameEnded: _ended,
}
