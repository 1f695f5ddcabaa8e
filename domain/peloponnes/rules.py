"""The rules of Peloponnes: decide (commands), advance (automatic steps) and evolve (apply events).

Rule numbers (R…) refer to /work/shared/games/peloponnes.md, section 5. Every counter change is computed in
``decide``/``advance``; ``evolve`` copies the result (``after``) and moves tiles, so no rule runs on replay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT, BAD_OPTIONS
from domain.peloponnes import scoring
from domain.peloponnes.commands import (
    ChooseIncome,
    ChooseSoloSetup,
    MoveBid,
    PassTurn,
    PlaceBid,
    PlaceBuilding,
    ResolveDisaster,
    ResolveSupply,
    WithdrawBid,
)
from domain.peloponnes.data import (
    BLANK,
    CAPS,
    CHOICE_RESOURCES,
    CHOICE_TILES,
    CIVILIZATION_IDS,
    CIVILIZATIONS,
    DECLINE_LOSS,
    DISPLAY_SIZE,
    FREE_LAND_TILES,
    GOODS,
    HALF_COIN_TILES,
    INITIAL_CHITS,
    PASS_COINS,
    PROTECTORS,
    ROUNDS,
    SOLO_LEVELS,
    STACK_OF_ROUND,
    STACKS,
    STRIKE_AT,
    TILES,
    WITHDRAW_COMPENSATION,
    conquest_price,
    population_income,
)
from domain.peloponnes.events import (
    BiddingEnded,
    BidMoved,
    BidPlaced,
    BidWithdrawn,
    BuildingPlaced,
    CivilizationAssigned,
    DisasterResolved,
    DisasterRevealed,
    GameEnded,
    IncomeCollected,
    LandPlaced,
    OneTimeIncomeReceived,
    PlayerPassed,
    RoundStarted,
    SoloSetupChosen,
    StacksPrepared,
    SupplyEnded,
    SupplyResolved,
    SupplyStarted,
    TileRejected,
    TileRevealed,
    TurnOrderSet,
)
from domain.peloponnes.state import (
    AUCTION,
    BIDDING,
    CONQUEST,
    DEALING,
    DISASTER,
    DISPLACED,
    ENDED,
    HAS_BID,
    INCOME,
    NO_BID,
    PASSED,
    PLACEMENT,
    REVEAL,
    ROUND_END,
    SCORING,
    SETUP,
    SOLO_SETUP,
    SUPPLY,
    TURN_ORDER,
    WITHDRAWN,
    Building,
    SeatState,
    Slot,
    State,
)

# ------------------------------------------------------------------------------------------------
# options


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """``solo_level`` (1-5, default 1) exists only for the solo game (section 7)."""
    unknown = sorted(set(options) - {"solo_level"})
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"peloponnes has no option(s) {', '.join(unknown)}; it knows: solo_level")
    if players != 1:
        if "solo_level" in options:
            raise RuleViolation(BAD_OPTIONS, "solo_level is an option of the solo game (1 player) only")
        return {}
    level = options.get("solo_level", 1)
    if not isinstance(level, int) or isinstance(level, bool) or level not in SOLO_LEVELS:
        raise RuleViolation(BAD_OPTIONS, f"solo_level must be 1, 2, 3, 4 or 5, not {level!r}")
    return {"solo_level": level}


# ------------------------------------------------------------------------------------------------
# small rules shared by several steps


def add_goods(counters: dict[str, int], wood: int, stone: int, food: int) -> tuple[dict[str, int], int]:
    """R4/R4a: goods beyond the storage caps become luxury, on every gain. Returns new counters and the overflow."""
    after = dict(counters)
    overflow = 0
    for good, amount in (("wood", wood), ("stone", stone), ("food", food)):
        total = after[good] + amount
        cap = CAPS[good]
        if total > cap:
            overflow += total - cap
            total = cap
        after[good] = max(0, total)
    after["luxury"] += overflow
    return after, overflow


def luxury_for_coins(seat: SeatState, amount: int) -> int:
    """R5/R5a: the luxury a coin payment of ``amount`` needs (2 per missing coin)."""
    return 2 * max(0, amount - seat.coins)


def luxury_for_goods(wood_held: int, stone_held: int, wood: int, stone: int) -> int:
    """R5/R5a: the luxury a wood/stone payment needs (2 per missing unit)."""
    return 2 * (max(0, wood - wood_held) + max(0, stone - stone_held))


def pay_coins(counters: dict[str, int], amount: int) -> int:
    """R5/R5a: pay ``amount`` coins (into ``counters``), the shortfall with 2 luxury per coin; returns the luxury."""
    short = max(0, amount - counters["coins"])
    counters["coins"] -= amount - short
    counters["luxury"] -= 2 * short
    return 2 * short


def pay_goods(counters: dict[str, int], wood: int, stone: int) -> tuple[int, int, int]:
    """R5/R5a: pay wood and stone (into ``counters``), the shortfall with 2 luxury per unit.
    Returns the wood, stone and luxury spent."""
    wood_spent = min(counters["wood"], wood)
    stone_spent = min(counters["stone"], stone)
    luxury = 2 * (wood - wood_spent + stone - stone_spent)
    counters["wood"] -= wood_spent
    counters["stone"] -= stone_spent
    counters["luxury"] -= luxury
    return wood_spent, stone_spent, luxury


def max_bid(seat: SeatState) -> int:
    """R17: coins + ⌊luxury / 2⌋."""
    return seat.coins + seat.luxury // 2


def has_half_coin_bonus(seat: SeatState) -> bool:
    """R22/R22a: Market or Agora, finished or marked."""
    return seat.owns_building(HALF_COIN_TILES)


def outbid_minimum(state: State, bidder: int, slot: Slot) -> int:
    """R15: the least amount for which 2*new + h(bidder) > 2*old + h(holder)."""
    assert slot.bidder is not None
    holder_value = 2 * slot.amount + has_half_coin_bonus(state.seats[slot.bidder])
    bonus = int(has_half_coin_bonus(state.seats[bidder]))
    return (holder_value - bonus) // 2 + 1


def free_tile_price(slot: Slot) -> int:
    """The least a free display tile takes: its minimum bid in the auction row, minimum bid + 3 in the
    conquest row (R14, R16). It is also the exact solo price (section 7) and the least a moved bid
    needs (R19a)."""
    return TILES[slot.tile_id].min_bid if slot.row == AUCTION else conquest_price(slot.tile_id)


def move_targets(state: State, seat: int) -> list[str]:
    """R19a: free tiles (other than the one displaced from) whose price the unchanged amount covers."""
    amount = state.seats[seat].bid_amount
    targets = []
    for slot in state.display:
        if slot.bidder is not None or slot.tile_id == state.displaced_from:
            continue
        if amount >= free_tile_price(slot):
            targets.append(slot.tile_id)
    return targets


def protector(seat: SeatState, disaster: str) -> str | None:
    """R36: a (finished or unfinished) building protecting against ``disaster``."""
    protecting = PROTECTORS[disaster]
    for b in seat.buildings:
        if b.tile_id in protecting:
            return b.tile_id
    return None


def choice_tiles(seat: SeatState) -> list[str]:
    """R34: the seat's Port / Temple of Apollo."""
    return [b.tile_id for b in seat.buildings if b.tile_id in CHOICE_TILES]


def can_build(seat: SeatState, tile_id: str) -> bool:
    tile = TILES[tile_id]
    return luxury_for_goods(seat.wood, seat.stone, tile.cost_wood, tile.cost_stone) <= seat.luxury


def can_mark(seat: SeatState) -> bool:
    return luxury_for_coins(seat, 1) <= seat.luxury


def land_fits(seat: SeatState, tile_id: str) -> bool:
    """R28/R28a: the new land shares a produced good with the current last land (any tile fits an empty row)."""
    return not seat.lands or bool(TILES[tile_id].produces & TILES[seat.lands[-1]].produces)


def feed_limit(seat: SeatState) -> int:
    """R46a: inhabitants that may be fed with luxury."""
    return min(max(0, seat.population - seat.food), seat.luxury // 2)


def unfinished(seat: SeatState) -> list[str]:
    return [b.tile_id for b in seat.buildings if b.unfinished]


def completion_cost(tile_ids: Iterable[str]) -> tuple[int, int]:
    wood = stone = 0
    for tile_id in tile_ids:
        wood += TILES[tile_id].cost_wood
        stone += TILES[tile_id].cost_stone
    return wood, stone


# -- who has a decision (R50) --------------------------------------------------------------------


def has_placement_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    tile_id = s.won
    if tile_id is None or not TILES[tile_id].is_building:
        return False
    if s.population < TILES[tile_id].inhabitants_needed:
        return False
    return can_build(s, tile_id) and can_mark(s)


def has_income_decision(state: State, seat: int) -> bool:
    return any(b.tile_id in CHOICE_TILES for b in state.seats[seat].buildings)


def has_disaster_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    disaster = state.strike
    if disaster == "earthquake":
        return bool(s.buildings) and s.wood >= 1 and s.stone >= 1 and protector(s, disaster) is None
    if disaster == "tempest":
        return bool(s.lands) and s.food >= 1 and s.coins >= 1 and protector(s, disaster) is None
    return False


def has_supply_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    if s.food < s.population and s.luxury >= 2:
        return True
    return any(
        luxury_for_goods(s.wood, s.stone, TILES[t].cost_wood, TILES[t].cost_stone) <= s.luxury for t in unfinished(s)
    )


# ------------------------------------------------------------------------------------------------
# awaited


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    phase = state.phase
    if phase == BIDDING:
        if state.displaced is not None:
            return {state.displaced: ("move_bid", "withdraw_bid")}
        if state.turn_index < len(state.turn_order):
            return {state.turn_order[state.turn_index]: ("place_bid", "pass_turn")}
        return {}
    if phase == PLACEMENT:
        return {s: ("place_building",) for s in state.pending if has_placement_decision(state, s)}
    if phase == INCOME:
        return {s: ("choose_income",) for s in state.pending if has_income_decision(state, s)}
    if phase == DISASTER:
        if state.strike is None:
            return {}
        return {s: ("resolve_disaster",) for s in state.pending if has_disaster_decision(state, s)}
    if phase == SUPPLY:
        return {s: ("resolve_supply",) for s in state.pending if has_supply_decision(state, s)}
    if phase == SOLO_SETUP:
        return {0: ("choose_solo_setup",)}
    return {}


def is_over(state: State) -> bool:
    return state.phase == ENDED


# ------------------------------------------------------------------------------------------------
# advance: the automatic steps


def advance(state: State, chance: Chance) -> list[Event]:
    step = _AUTOMATIC_STEPS.get(state.phase)
    return step(state, chance) if step is not None else []


def setup_events(state: State, chance: Chance) -> list[Event]:
    """Setup steps 5-6 (section 3): stacks and chits are shuffled; their order is drawn as they are revealed."""
    return [StacksPrepared({s: len(t) for s, t in STACKS.items()}, len(INITIAL_CHITS))]


def deal_civilizations(state: State, chance: Chance) -> list[Event]:
    """Setup steps 2-3: deal one civilization per seat; the lowest turn number starts."""
    dealt = shuffled_civilizations(chance)[: state.players]
    events: list[Event] = [CivilizationAssigned(seat, civ, start_counters(civ)) for seat, civ in enumerate(dealt)]
    order = sorted(range(state.players), key=lambda seat: CIVILIZATIONS[dealt[seat]].turn_number)
    events.append(TurnOrderSet(0, order, {}))
    return events


def shuffled_civilizations(chance: Chance) -> list[str]:
    """Chance point 1 (section 9): the 7 civilization tiles shuffled; seat i gets the i-th, the rest stay in the box."""
    return chance.shuffle("civilizations", list(CIVILIZATION_IDS))


def undealt_civilizations(state: State) -> list[str]:
    """The civilizations left in the box at setup, shown once the game has ended (section 8): the
    tiles the public deal (``CivilizationAssigned``) did not give out. Not recomputed from the seed,
    which a fork replaces while keeping the original deal."""
    if state.seed is None or state.is_solo:
        return []
    dealt = {s.civilization for s in state.seats}
    return sorted(civ for civ in CIVILIZATION_IDS if civ not in dealt)


def start_counters(civ_id: str) -> dict[str, int]:
    civ = CIVILIZATIONS[civ_id]
    return {
        "coins": civ.coins,
        "wood": civ.wood,
        "stone": civ.stone,
        "food": civ.food,
        "population": civ.population,
        "luxury": 0,
    }


def next_round_or_final_supply(state: State, chance: Chance) -> list[Event]:
    """R9/R51: after step g, the next round starts; after round 8 the final supply round."""
    if state.round >= ROUNDS:
        return [SupplyStarted("game_end", None)]
    upcoming = state.round + 1
    k = auction_slots(state)
    return [RoundStarted(upcoming, STACK_OF_ROUND[upcoming], k, DISPLAY_SIZE - k)]


def auction_slots(state: State) -> int:
    """R10: k = number of players; solo: 6 - level."""
    if state.solo_level is not None:
        return SOLO_LEVELS[state.solo_level].auction_slots
    return state.players


def reveal_next_tile(state: State, chance: Chance) -> list[Event]:
    """R8/R10/R12: draw one tile at a time; a supply tile interrupts the reveal with a supply round."""
    if state.supply_due is not None:
        return [SupplyStarted("tile", state.supply_due)]
    stack = STACK_OF_ROUND[state.round]
    remaining = state.stacks[stack]
    tile_id = remaining[chance.below(f"stack:{stack}", len(remaining))]
    in_auction = sum(1 for s in state.display if s.row == AUCTION)
    if in_auction < state.auction_slots:
        return [TileRevealed(state.round, tile_id, AUCTION, in_auction)]
    return [TileRevealed(state.round, tile_id, CONQUEST, len(state.display) - in_auction)]


def supply_step(state: State, chance: Chance) -> list[Event]:
    """R45-R50: automatic seats first in turn order; the supply round ends when nobody is left."""
    for seat in state.pending:
        if not has_supply_decision(state, seat):
            # no decision: nothing to feed with luxury and no completion affordable (R50)
            return [supply_resolution(state, seat, 0, [], automatic=True)]
    if not state.pending:
        assert state.supply_trigger is not None
        return [SupplyEnded(state.supply_trigger)]
    return []


def bidding_step(state: State, chance: Chance) -> list[Event]:
    """R19b: a displaced seat with no tile to move to withdraws; R20/R23/R25: the end of the bidding."""
    if state.displaced is not None:
        if not move_targets(state, state.displaced):
            return [withdrawal(state, state.displaced, automatic=True)]
        return []
    if state.turn_index < len(state.turn_order):
        return []
    awards = [
        {"seat": s.bidder, "tile_id": s.tile_id, "amount": s.amount} for s in state.display if s.bidder is not None
    ]
    discarded = [s.tile_id for s in state.display if s.bidder is None]
    return [BiddingEnded(state.round, awards, discarded), new_turn_order(state)]


def new_turn_order(state: State) -> TurnOrderSet:
    """R23/R23a: by final bid amount, highest first; passes and withdrawals count 0; ties keep the old order."""
    values = {seat: 0 for seat in state.turn_order}
    for slot in state.display:
        if slot.bidder is not None:
            values[slot.bidder] = slot.amount
    order = sorted(state.turn_order, key=lambda seat: -values[seat])
    return TurnOrderSet(state.round, order, {str(seat): values[seat] for seat in sorted(values)})


def placement_step(state: State, chance: Chance) -> list[Event]:
    """R26-R31 for the seats without a choice, in turn order (R49)."""
    for seat in state.pending:
        if not has_placement_decision(state, seat):
            return place_tile(state, seat, mode=None)
    return []


def income_step(state: State, chance: Chance) -> list[Event]:
    """R32-R33: the seats without Port/Temple of Apollo collect automatically."""
    for seat in state.pending:
        if not has_income_decision(state, seat):
            return [round_income(state, seat, [])]
    return []


def disaster_step(state: State, chance: Chance) -> list[Event]:
    """R35: flip two chits, one after the other; a struck disaster is resolved before the next chit."""
    if state.strike is not None:
        for seat in state.pending:
            if not has_disaster_decision(state, seat):
                return [disaster_outcome(state, seat, keep=[], automatic=True)]
        return []
    if state.draws >= 2:
        return next_round_or_final_supply(state, chance)
    chit = state.chits[chance.below("disasters", len(state.chits))]
    draw = state.draws + 1
    if chit == BLANK:
        return [DisasterRevealed(state.round, draw, chit, False, None)]
    on_tile = state.chits_on_tile[chit] + 1
    return [DisasterRevealed(state.round, draw, chit, on_tile == STRIKE_AT, on_tile)]


def final_scoring(state: State, chance: Chance) -> list[Event]:
    results, winners = scoring.final_results(state)
    solo = None
    if state.solo_level is not None:
        target = SOLO_LEVELS[state.solo_level].target
        solo = {"level": state.solo_level, "target": target, "reached": results[0]["final"] >= target}
    return [GameEnded(results, winners, chance.seed_hex, solo)]


_AUTOMATIC_STEPS: dict[str, Callable[[State, Chance], list[Event]]] = {
    SETUP: setup_events,
    DEALING: deal_civilizations,
    ROUND_END: next_round_or_final_supply,
    REVEAL: reveal_next_tile,
    SUPPLY: supply_step,
    BIDDING: bidding_step,
    PLACEMENT: placement_step,
    INCOME: income_step,
    DISASTER: disaster_step,
    SCORING: final_scoring,
}


# ------------------------------------------------------------------------------------------------
# outcomes shared by commands and automatic steps


def withdrawal(state: State, seat: int, automatic: bool) -> BidWithdrawn:
    """R19: the bid comes back plus 1 coin; luxury spent on it is not restored (11.27)."""
    s = state.seats[seat]
    after = s.counters()
    after["coins"] += s.bid_amount + WITHDRAW_COMPENSATION
    assert state.displaced_from is not None
    return BidWithdrawn(seat, state.displaced_from, s.bid_amount, WITHDRAW_COMPENSATION, automatic, after)


def place_tile(state: State, seat: int, mode: str | None) -> list[Event]:
    """Steps d-e for the tile a seat won: place it (R26/R28) or reject it (R29), then its one-time income (R31).
    ``mode`` is the seat's choice ("build"/"mark"), or None when it has no choice."""
    s = state.seats[seat]
    tile_id = s.won
    assert tile_id is not None
    placed = (
        building_placement(s, seat, tile_id, mode) if TILES[tile_id].is_building else land_placement(s, seat, tile_id)
    )
    if isinstance(placed, TileRejected):
        return [placed]
    after = placed.after if isinstance(placed, BuildingPlaced) else s.counters()
    return [placed, one_time_income(s, tile_id, after, seat)]


def building_placement(s: SeatState, seat: int, tile_id: str, mode: str | None) -> BuildingPlaced | TileRejected:
    """R26/R26a/R26b: inhabitants first, then build (wood/stone) or mark (1 coin); neither -> rejected."""
    tile = TILES[tile_id]
    if s.population < tile.inhabitants_needed:
        return TileRejected(seat, tile_id, "not_enough_inhabitants")
    automatic = mode is None
    if mode is None:
        if can_build(s, tile_id):
            mode = "build"
        elif can_mark(s):
            mode = "mark"
        else:
            return TileRejected(seat, tile_id, "cannot_pay")
    after = s.counters()
    if mode == "build":
        wood, stone, luxury = pay_goods(after, tile.cost_wood, tile.cost_stone)
        return BuildingPlaced(seat, tile_id, "built", wood, stone, 0, luxury, automatic, after)
    luxury = pay_coins(after, 1)
    return BuildingPlaced(seat, tile_id, "marked", 0, 0, 1, luxury, automatic, after)


def land_placement(s: SeatState, seat: int, tile_id: str) -> LandPlaced | TileRejected:
    """R28/R28b: the new land must share a good with the last one unless the seat owns Barracks."""
    fits = land_fits(s, tile_id)
    waived = not fits and s.owns_building(FREE_LAND_TILES)
    if not fits and not waived:
        return TileRejected(seat, tile_id, "land_mismatch")
    return LandPlaced(seat, tile_id, len(s.lands), waived)


def one_time_income(s: SeatState, tile_id: str, after: dict[str, int], seat: int) -> OneTimeIncomeReceived:
    """R31: population change, coins, food (with overflow, R4a) and luxury printed on the tile."""
    tile = TILES[tile_id]
    after, overflow = add_goods(after, 0, 0, tile.food)
    after["population"] = max(0, after["population"] + tile.population)
    after["coins"] += tile.coins
    after["luxury"] += tile.luxury
    return OneTimeIncomeReceived(seat, tile_id, tile.population, tile.coins, tile.food, tile.luxury, overflow, after)


def round_income(state: State, seat: int, choices: list[dict[str, str]]) -> IncomeCollected:
    """R33-R34: inhabitants (Arkadia), goods with overflow, then coins and luxury from population."""
    s = state.seats[seat]
    civ = CIVILIZATIONS[s.civilization or ""]
    gain = civ.income_population
    wood, stone, food = civ.income_wood, civ.income_stone, civ.income_food
    for tile_id in (*(b.tile_id for b in s.buildings), *s.lands):  # unfinished buildings too (R27)
        tile = TILES[tile_id]
        wood += tile.income_wood
        stone += tile.income_stone
        food += tile.income_food
    # solo extra incomes (R53) and the Port/Temple choices (R34) are one unit each
    units = [*s.extra_incomes, *(c["resource"] for c in choices)]
    wood += units.count("wood")
    stone += units.count("stone")
    food += units.count("food")
    choice_coins = units.count("coin")
    after, overflow = add_goods(s.counters(), wood, stone, food)
    after["population"] += gain
    coins, luxury = population_income(after["population"])
    after["coins"] += coins + choice_coins
    after["luxury"] += luxury
    return IncomeCollected(
        seat, gain, wood, stone, food, [dict(c) for c in choices], overflow, coins + choice_coins, luxury, after
    )


def earthquake(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R37/R42/R43: 1 wood + 1 stone per kept building; the others go to the box, their marker coins back."""
    lost = [b for b in s.buildings if b.tile_id not in keep]
    return {
        "wood_spent": len(keep),
        "stone_spent": len(keep),
        "removed_tiles": [b.tile_id for b in lost],
        "coins_returned": sum(b.unfinished for b in lost),
    }


def tempest(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R40/R42: 1 food + 1 coin per kept land tile; the others go to the box."""
    return {"food_spent": len(keep), "coins_spent": len(keep), "removed_tiles": [t for t in s.lands if t not in keep]}


def drought(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R38: a third of the food, rounded down."""
    return {"food_lost": s.food // 3}


def plague(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R39: a third of the inhabitants, rounded down."""
    return {"population_lost": s.population // 3}


def decline(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R41: 10 luxury goods, or all if fewer."""
    return {"luxury_lost": min(DECLINE_LOSS, s.luxury)}


DISASTER_EFFECTS: dict[str, Callable[[SeatState, list[str]], dict[str, Any]]] = {
    "earthquake": earthquake,
    "tempest": tempest,
    "drought": drought,
    "plague": plague,
    "decline": decline,
}
NOTHING_LOST: dict[str, Any] = {
    "wood_spent": 0,
    "stone_spent": 0,
    "food_spent": 0,
    "coins_spent": 0,
    "food_lost": 0,
    "population_lost": 0,
    "luxury_lost": 0,
    "coins_returned": 0,
}


def disaster_outcome(state: State, seat: int, keep: list[str], automatic: bool) -> DisasterResolved:
    """R36: a protected seat loses nothing; otherwise the striking disaster's effect (R37-R43)."""
    disaster = state.strike
    assert disaster is not None
    s = state.seats[seat]
    shield = protector(s, disaster)
    # a fresh list per event: events must never share a mutable field
    outcome = {**NOTHING_LOST, "removed_tiles": [], **(DISASTER_EFFECTS[disaster](s, keep) if shield is None else {})}
    after = s.counters()
    after["wood"] -= outcome["wood_spent"]
    after["stone"] -= outcome["stone_spent"]
    after["food"] -= outcome["food_spent"] + outcome["food_lost"]
    after["coins"] += outcome["coins_returned"] - outcome["coins_spent"]
    after["population"] -= outcome["population_lost"]
    after["luxury"] -= outcome["luxury_lost"]
    return DisasterResolved(
        seat=seat, disaster=disaster, automatic=automatic, after=after, protected_by=shield, **outcome
    )


def supply_resolution(state: State, seat: int, fed_with_luxury: int, complete: list[str], automatic: bool) -> Event:
    """R46-R48: feed (food first, then the chosen luxury), then complete or abandon unfinished buildings."""
    s = state.seats[seat]
    after = s.counters()
    population_before = s.population
    food_spent = min(s.food, s.population)
    fed = food_spent + fed_with_luxury
    lost = max(0, s.population - fed)
    after["food"] -= food_spent
    after["luxury"] -= 2 * fed_with_luxury
    after["population"] -= lost
    wood_spent, stone_spent, luxury_for_buildings = pay_goods(after, *completion_cost(complete))
    kept = set(complete)
    abandoned = [t for t in unfinished(s) if t not in kept]
    returned = len(complete) + len(abandoned)
    after["coins"] += returned
    return SupplyResolved(
        seat,
        population_before,
        food_spent,
        2 * fed_with_luxury,
        lost,
        list(complete),
        wood_spent,
        stone_spent,
        luxury_for_buildings,
        abandoned,
        returned,
        automatic,
        after,
    )


# ------------------------------------------------------------------------------------------------
# decide


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RuleViolation(BAD_INPUT, f"peloponnes has no command {command.type!r}")
    return handler(state, seat, command)


def decide_solo_setup(state: State, seat: int, command: ChooseSoloSetup) -> list[Event]:
    """Section 7.2 and R53: a civilization of table 2.3 and the level's number of distinct extra incomes."""
    if command.civilization not in CIVILIZATIONS:
        raise RuleViolation(
            "UNKNOWN_CIVILIZATION",
            f"{command.civilization!r} is no civilization; choose one of {', '.join(CIVILIZATION_IDS)}",
        )
    for good in command.extra_incomes:
        if good not in GOODS:
            raise RuleViolation(BAD_INPUT, f"an extra income is wood, stone or food, not {good!r}")
    assert state.solo_level is not None
    needed = SOLO_LEVELS[state.solo_level].extra_incomes
    if len(command.extra_incomes) != needed:
        raise RuleViolation(
            "EXTRA_INCOME_COUNT", f"solo level {state.solo_level} takes exactly {needed} extra income(s)"
        )
    if len(set(command.extra_incomes)) != len(command.extra_incomes):
        raise RuleViolation("EXTRA_INCOME_DUPLICATE", "the extra incomes must be different goods (R53)")
    civ = command.civilization
    return [
        SoloSetupChosen(seat, civ, list(command.extra_incomes)),
        CivilizationAssigned(seat, civ, start_counters(civ)),
        TurnOrderSet(0, [0], {}),
    ]


def decide_place_bid(state: State, seat: int, command: PlaceBid) -> list[Event]:
    """R14-R17, R22; solo R54."""
    slot = state.slot(command.tile_id)
    if slot is None:
        raise RuleViolation("TILE_NOT_OFFERED", f"{command.tile_id!r} is not in this round's display")
    amount = command.amount
    if amount < 1:
        raise RuleViolation("INVALID_AMOUNT", "a bid is at least 1 coin")
    s = state.seats[seat]
    tile = TILES[slot.tile_id]
    outbid = None
    if state.is_solo:
        price = free_tile_price(slot)
        if amount != price:
            raise RuleViolation("SOLO_PRICE", f"in the solo game {slot.tile_id} costs exactly {price}")
    elif slot.row == CONQUEST:
        if slot.bidder is not None:
            raise RuleViolation("CONQUEST_TAKEN", f"{slot.tile_id} is already conquered this round")
        price = conquest_price(slot.tile_id)
        if amount != price:
            raise RuleViolation("CONQUEST_PRICE", f"{slot.tile_id} in the conquest row costs exactly {price}")
    elif slot.bidder is None:
        if amount < tile.min_bid:
            raise RuleViolation("BELOW_MINIMUM", f"the minimum bid for {slot.tile_id} is {tile.min_bid}")
    else:
        least = outbid_minimum(state, seat, slot)
        if amount < least:
            raise RuleViolation(
                "NOT_ENOUGH_TO_OUTBID", f"to outbid the {slot.amount} on {slot.tile_id} you must bid at least {least}"
            )
        outbid = slot.bidder
    if amount > max_bid(s):
        raise RuleViolation("CANNOT_AFFORD", f"you can bid at most {max_bid(s)} (coins + half your luxury goods, R17)")
    after = s.counters()
    luxury = pay_coins(after, amount)
    return [BidPlaced(seat, slot.tile_id, slot.row, amount, luxury, after, outbid)]


def decide_pass(state: State, seat: int, command: PassTurn) -> list[Event]:
    """R18: 3 coins from the bank, no tile this round."""
    after = state.seats[seat].counters()
    after["coins"] += PASS_COINS
    return [PlayerPassed(seat, PASS_COINS, after)]


def decide_move_bid(state: State, seat: int, command: MoveBid) -> list[Event]:
    """R19/R19a: the unchanged amount moves to a free tile it covers."""
    slot = state.slot(command.tile_id)
    if slot is None:
        raise RuleViolation("TILE_NOT_OFFERED", f"{command.tile_id!r} is not in this round's display")
    if slot.tile_id == state.displaced_from:
        raise RuleViolation("SAME_TILE", f"your bid was just outbid on {slot.tile_id}; move it to another tile")
    if slot.bidder is not None:
        raise RuleViolation("TILE_TAKEN", f"{slot.tile_id} already holds a bid; a bid moves only to a free tile")
    amount = state.seats[seat].bid_amount
    if slot.row == AUCTION:
        if amount < TILES[slot.tile_id].min_bid:
            raise RuleViolation(
                "BELOW_MINIMUM", f"your bid of {amount} is below the minimum {TILES[slot.tile_id].min_bid}"
            )
    elif amount < conquest_price(slot.tile_id):
        raise RuleViolation(
            "BELOW_CONQUEST_PRICE",
            f"your bid of {amount} is below {slot.tile_id}'s conquest price {conquest_price(slot.tile_id)}",
        )
    assert state.displaced_from is not None
    return [BidMoved(seat, state.displaced_from, slot.tile_id, amount)]


def decide_withdraw(state: State, seat: int, command: WithdrawBid) -> list[Event]:
    return [withdrawal(state, seat, automatic=False)]


def decide_place_building(state: State, seat: int, command: PlaceBuilding) -> list[Event]:
    """R26a: the seat chooses between building and marking when it can afford both."""
    if command.mode not in ("build", "mark"):
        raise RuleViolation(BAD_INPUT, f"mode is 'build' or 'mark', not {command.mode!r}")
    s = state.seats[seat]
    assert s.won is not None
    affordable = can_build(s, s.won) if command.mode == "build" else can_mark(s)
    if not affordable:
        raise RuleViolation("CANNOT_AFFORD", f"you cannot {command.mode} {s.won}")
    return place_tile(state, seat, command.mode)


def decide_choose_income(state: State, seat: int, command: ChooseIncome) -> list[Event]:
    """R34: one resource per Port / Temple of Apollo."""
    owned = sorted(choice_tiles(state.seats[seat]))
    for choice in command.choices:
        if set(choice) != {"tile_id", "resource"}:
            raise RuleViolation(BAD_INPUT, "each choice is {tile_id, resource}")
    named = sorted(c["tile_id"] for c in command.choices)
    if named != owned:
        raise RuleViolation(
            "CHOICES_MISMATCH", f"give exactly one choice for each of your choice tiles: {', '.join(owned)}"
        )
    for choice in command.choices:
        if choice["resource"] not in CHOICE_RESOURCES:
            raise RuleViolation(
                "INVALID_RESOURCE", f"{choice['resource']!r} is not one of {', '.join(CHOICE_RESOURCES)}"
            )
    ordered = [{"tile_id": c["tile_id"], "resource": c["resource"]} for c in command.choices]
    return [round_income(state, seat, ordered)]


def decide_resolve_supply(state: State, seat: int, command: ResolveSupply) -> list[Event]:
    """R46a, R47, R48."""
    s = state.seats[seat]
    limit = feed_limit(s)
    if not 0 <= command.feed_with_luxury <= limit:
        raise RuleViolation("LUXURY_FEED_LIMIT", f"you may feed between 0 and {limit} inhabitants with luxury")
    own = unfinished(s)
    for tile_id in command.complete:
        if tile_id not in own:
            raise RuleViolation("NOT_UNFINISHED", f"{tile_id!r} is not one of your unfinished buildings")
    if len(set(command.complete)) != len(command.complete):
        raise RuleViolation("DUPLICATE_TILE", "a building is named twice")
    wood, stone = completion_cost(command.complete)
    luxury_left = s.luxury - 2 * command.feed_with_luxury
    if luxury_for_goods(s.wood, s.stone, wood, stone) > luxury_left:
        raise RuleViolation(
            "CANNOT_AFFORD", "these completions need more wood/stone than you hold plus the luxury left after feeding"
        )
    return [supply_resolution(state, seat, command.feed_with_luxury, list(command.complete), automatic=False)]


def decide_resolve_disaster(state: State, seat: int, command: ResolveDisaster) -> list[Event]:
    """R42: keep (and pay for) at most min(wood, stone) buildings or min(food, coins) land tiles."""
    s = state.seats[seat]
    earthquake = state.strike == "earthquake"
    own = [b.tile_id for b in s.buildings] if earthquake else list(s.lands)
    for tile_id in command.keep:
        if tile_id not in own:
            kind = "buildings" if earthquake else "land tiles"
            raise RuleViolation("NOT_OWN_TILE", f"{tile_id!r} is not one of your {kind}")
    if len(set(command.keep)) != len(command.keep):
        raise RuleViolation("DUPLICATE_TILE", "a tile is named twice")
    limit = min(s.wood, s.stone) if earthquake else min(s.food, s.coins)
    if len(command.keep) > limit:
        raise RuleViolation("TOO_MANY_KEPT", f"you can pay for at most {limit} tile(s)")
    return [disaster_outcome(state, seat, list(command.keep), automatic=False)]


_HANDLERS: dict[type, Callable[[State, int, Any], list[Event]]] = {
    ChooseSoloSetup: decide_solo_setup,
    PlaceBid: decide_place_bid,
    PassTurn: decide_pass,
    MoveBid: decide_move_bid,
    WithdrawBid: decide_withdraw,
    PlaceBuilding: decide_place_building,
    ChooseIncome: decide_choose_income,
    ResolveSupply: decide_resolve_supply,
    ResolveDisaster: decide_resolve_disaster,
}


# ------------------------------------------------------------------------------------------------
# evolve


def evolve(state: State, event: Event) -> State:
    _APPLY[type(event)](state, event)
    return state


def _stacks_prepared(state: State, e: StacksPrepared) -> None:
    state.phase = SOLO_SETUP if state.is_solo else DEALING


def _civilization_assigned(state: State, e: CivilizationAssigned) -> None:
    s = state.seats[e.seat]
    s.civilization = e.civilization
    s.set_counters(e.after)


def _solo_setup_chosen(state: State, e: SoloSetupChosen) -> None:
    state.seats[e.seat].extra_incomes = list(e.extra_incomes)


def _turn_order_set(state: State, e: TurnOrderSet) -> None:
    state.turn_order = list(e.order)
    if e.round == 0:
        state.phase = ROUND_END
    else:
        _enter_placement(state)


def _round_started(state: State, e: RoundStarted) -> None:
    state.round = e.round
    state.phase = REVEAL
    state.display = []
    state.auction_slots = e.auction_slots
    state.draws = 0
    for s in state.seats:
        s.bid_status = NO_BID
        s.bid_tile = None
        s.bid_amount = 0
        s.won = None


def _tile_revealed(state: State, e: TileRevealed) -> None:
    state.stacks[TILES[e.tile_id].stack].remove(e.tile_id)
    state.display.append(Slot(e.tile_id, e.row))
    if TILES[e.tile_id].supply:
        state.supply_due = e.tile_id
    elif len(state.display) == DISPLAY_SIZE:
        _enter_bidding(state)


def _enter_bidding(state: State) -> None:
    state.phase = BIDDING
    state.turn_index = 0
    state.displaced = None
    state.displaced_from = None


def _supply_started(state: State, e: SupplyStarted) -> None:
    state.phase = SUPPLY
    state.supply_due = None
    state.supply_trigger = e.trigger
    state.pending = list(state.turn_order)


def _supply_resolved(state: State, e: SupplyResolved) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    completed = set(e.completed)
    abandoned = set(e.abandoned)
    kept = []
    for b in s.buildings:
        if b.tile_id in completed:
            b.unfinished = False
        if b.tile_id in abandoned:
            state.box.append(b.tile_id)
        else:
            kept.append(b)
    s.buildings = kept
    state.pending.remove(e.seat)


def _supply_ended(state: State, e: SupplyEnded) -> None:
    state.supply_trigger = None
    if e.trigger == "game_end":
        state.phase = SCORING
    elif len(state.display) == DISPLAY_SIZE:
        _enter_bidding(state)
    else:
        state.phase = REVEAL


def _bid_placed(state: State, e: BidPlaced) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    slot = state.slot(e.tile_id)
    assert slot is not None
    if e.outbid_seat is not None:
        loser = state.seats[e.outbid_seat]
        loser.bid_status = DISPLACED
        loser.bid_tile = None
        state.displaced = e.outbid_seat
        state.displaced_from = e.tile_id
    slot.bidder = e.seat
    slot.amount = e.amount
    s.bid_status = HAS_BID
    s.bid_tile = e.tile_id
    s.bid_amount = e.amount
    state.turn_index += 1


def _bid_moved(state: State, e: BidMoved) -> None:
    slot = state.slot(e.to_tile_id)
    assert slot is not None
    slot.bidder = e.seat
    slot.amount = e.amount
    s = state.seats[e.seat]
    s.bid_status = HAS_BID
    s.bid_tile = e.to_tile_id
    state.displaced = None
    state.displaced_from = None


def _bid_withdrawn(state: State, e: BidWithdrawn) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.bid_status = WITHDRAWN
    s.bid_tile = None
    s.bid_amount = 0
    state.displaced = None
    state.displaced_from = None


def _player_passed(state: State, e: PlayerPassed) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.bid_status = PASSED
    state.turn_index += 1


def _bidding_ended(state: State, e: BiddingEnded) -> None:
    for award in e.awards:
        state.seats[award["seat"]].won = award["tile_id"]
    state.box.extend(e.discarded)
    state.display = []  # every display tile is now won (seat.won) or in the box
    state.phase = TURN_ORDER


def _enter_placement(state: State) -> None:
    state.phase = PLACEMENT
    state.pending = [seat for seat in state.turn_order if state.seats[seat].won is not None]
    if not state.pending:
        _enter_income(state)


def _placement_done(state: State, seat: int) -> None:
    state.seats[seat].won = None
    state.pending.remove(seat)
    if not state.pending:
        _enter_income(state)


def _building_placed(state: State, e: BuildingPlaced) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.buildings.append(Building(e.tile_id, e.mode == "marked"))
    s.won = None


def _land_placed(state: State, e: LandPlaced) -> None:
    s = state.seats[e.seat]
    s.lands.append(e.tile_id)
    s.won = None


def _tile_rejected(state: State, e: TileRejected) -> None:
    state.box.append(e.tile_id)
    _placement_done(state, e.seat)


def _one_time_income(state: State, e: OneTimeIncomeReceived) -> None:
    state.seats[e.seat].set_counters(e.after)
    _placement_done(state, e.seat)


def _enter_income(state: State) -> None:
    """R32: no round income in round 8."""
    if state.round >= ROUNDS:
        _enter_disaster(state)
        return
    state.phase = INCOME
    state.pending = list(state.turn_order)


def _income_collected(state: State, e: IncomeCollected) -> None:
    state.seats[e.seat].set_counters(e.after)
    state.pending.remove(e.seat)
    if not state.pending:
        _enter_disaster(state)


def _enter_disaster(state: State) -> None:
    state.phase = DISASTER
    state.draws = 0
    state.strike = None
    state.pending = []


def _disaster_revealed(state: State, e: DisasterRevealed) -> None:
    state.chits.remove(e.chit)
    state.draws = e.draw
    if e.chit == BLANK:
        state.box_chits.append(e.chit)
        return
    assert e.chits_on_tile is not None
    state.chits_on_tile[e.chit] = e.chits_on_tile
    if e.strikes:
        state.strike = e.chit
        state.pending = list(state.turn_order)


def _disaster_resolved(state: State, e: DisasterResolved) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    if e.removed_tiles:
        removed = set(e.removed_tiles)
        if e.disaster == "earthquake":
            s.buildings = [b for b in s.buildings if b.tile_id not in removed]
        else:
            s.lands = [t for t in s.lands if t not in removed]
        state.box.extend(e.removed_tiles)
    state.pending.remove(e.seat)
    if not state.pending:
        state.strike = None


def _game_ended(state: State, e: GameEnded) -> None:
    state.phase = ENDED
    state.results = [dict(r) for r in e.results]
    state.winners = list(e.winners)
    state.seed = e.seed


_APPLY: dict[type, Callable[[State, Any], None]] = {
    StacksPrepared: _stacks_prepared,
    CivilizationAssigned: _civilization_assigned,
    SoloSetupChosen: _solo_setup_chosen,
    TurnOrderSet: _turn_order_set,
    RoundStarted: _round_started,
    TileRevealed: _tile_revealed,
    SupplyStarted: _supply_started,
    SupplyResolved: _supply_resolved,
    SupplyEnded: _supply_ended,
    BidPlaced: _bid_placed,
    BidMoved: _bid_moved,
    BidWithdrawn: _bid_withdrawn,
    PlayerPassed: _player_passed,
    BiddingEnded: _bidding_ended,
    BuildingPlaced: _building_placed,
    LandPlaced: _land_placed,
    TileRejected: _tile_rejected,
    OneTimeIncomeReceived: _one_time_income,
    IncomeCollected: _income_collected,
    DisasterRevealed: _disaster_revealed,
    DisasterResolved: _disaster_resolved,
    GameEnded: _game_ended,
}
