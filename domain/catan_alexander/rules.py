"""decide / evolve / advance for Catan "Alexander the Great" and the base game option.

Rule numbers (R<n>) refer to the rules file ``shared/games/catan_alexander.md``.
``decide`` emits the direct consequences of a command; ``advance`` emits automatic steps
(setup, turn start, auction close, rewards, special cards, Advisors, game end) from the
state those events leave behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import (
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    CancelTrade,
    ChooseAdvisorRecipient,
    ConfirmTrade,
    Discard,
    MoveRobber,
    OfferTrade,
    PayBid,
    PlaceBid,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RespondTrade,
)
from domain.catan_alexander.data import (
    ADVISOR_VP,
    ADVISORS_IN_PLAY,
    BASE_DISCARD_LIMIT,
    BASE_GOAL,
    BASE_RANDOM_NUMBERS,
    BASE_SPIRAL,
    CARDS_PER_RESOURCE,
    CITIES_PER_PLAYER,
    CITY_COST,
    DEVELOPMENT_COST,
    DEVELOPMENT_DECK,
    GOLD,
    GOLD_PIECES,
    GOOD_INDEX,
    GOODS,
    KNIGHT_BID_VALUE,
    LARGEST_ARMY_MIN,
    LONGEST_ROAD_MIN,
    MAX_BID,
    PERSEPOLIS_POSITION,
    RESOURCE_INDEX,
    RESOURCES,
    ROAD_COST,
    ROADS_PER_PLAYER,
    SCENARIO_DISCARD_LIMIT,
    SCENARIO_GOAL,
    SETTLEMENT_COST,
    SETTLEMENTS_PER_PLAYER,
    TASK_ACCEPTS,
    TERRAIN_PRODUCT,
    TOKEN_CROSSINGS,
    TOKEN_MIX,
    Geometry,
)
from domain.catan_alexander.state import (
    ADVISOR_CHOICE,
    ALEXANDER,
    AUCTION,
    AUCTION_CLOSE,
    AUCTION_REOPEN,
    BEFORE_ROLL,
    DEFAULT_DISCARD,
    DISCARD,
    FOUNDING_ROAD,
    FOUNDING_SETTLEMENT,
    GAME_OVER,
    PAYMENT,
    REWARD,
    ROBBER,
    SETUP,
    TRADE_BUILD,
    TURN_START,
    Auction,
    Handdown,
    Offer,
    State,
)
from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

Goods = list[int]


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


# --------------------------------------------------------------------------------------------
# Options and the initial state
# --------------------------------------------------------------------------------------------


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """§7: board, layout (base only), starting_gold (scenario only)."""
    known = {"board", "layout", "starting_gold"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise RuleViolation("BAD_OPTIONS", f"unknown option(s) {', '.join(unknown)}; options are {sorted(known)}")
    board = options.get("board", "alexander")
    if board not in ("alexander", "base"):
        raise RuleViolation("BAD_OPTIONS", "board must be 'alexander' or 'base'")
    if board == "base":
        layout = options.get("layout", "beginner")
        if layout not in ("beginner", "random"):
            raise RuleViolation("BAD_OPTIONS", "layout must be 'beginner' or 'random'")
        if "starting_gold" in options:
            raise RuleViolation("BAD_OPTIONS", "starting_gold belongs to the scenario board only")
        return {"board": "base", "layout": layout}
    if "layout" in options:
        raise RuleViolation("BAD_OPTIONS", "layout belongs to the base board only")
    gold = options.get("starting_gold", 8)
    if gold not in (0, 8) or isinstance(gold, bool):
        raise RuleViolation("BAD_OPTIONS", "starting_gold must be 8 or 0")
    return {"board": "alexander", "starting_gold": gold}


def initial_state(players: int, options: dict[str, Any]) -> State:
    board = options.get("board", "alexander")
    state = State(players=players, board=board, options=dict(options), scenario=board == "alexander")
    geometry = state.geometry
    n = players
    state.hands = [[0] * 5 for _ in range(n)]
    state.gold = [0] * n
    state.dev_hand = [[] for _ in range(n)]
    state.dev_new = [[] for _ in range(n)]
    state.army = [0] * n
    state.tokens_won = [0] * n
    state.owner = [-1] * len(geometry.vertices)
    state.level = [0] * len(geometry.vertices)
    state.road_owner = [-1] * len(geometry.edges)
    state.buildings_of = [[] for _ in range(n)]
    state.roads_of = [[] for _ in range(n)]
    state.settlements = [0] * n
    state.cities = [0] * n
    state.roads = [0] * n
    state.road_length = [0] * n
    state.trade_rates = [[4] * 6 for _ in range(n)]
    return state


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def bundle_of(vector: Iterable[int], names: tuple[str, ...] = GOODS) -> dict[str, int]:
    return {names[i]: count for i, count in enumerate(vector) if count}


def goods_of(bundle: dict[str, int]) -> Goods:
    vector = [0] * 6
    for name, count in bundle.items():
        vector[GOOD_INDEX[name]] += count
    return vector


def parse_bundle(bundle: Any, where: str, allow_gold: bool) -> Goods:
    """A ``{good: count}`` map as a goods vector; BAD_INPUT for unknown goods or bad counts."""
    if not isinstance(bundle, dict):
        raise refuse(BAD_INPUT, f"{where} must be a map of goods to counts")
    vector = [0] * 6
    for name, count in bundle.items():
        index = GOOD_INDEX.get(name)
        if index is None:
            raise refuse(BAD_INPUT, f"{where}: unknown good {name!r}; goods are {', '.join(GOODS)}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise refuse(BAD_INPUT, f"{where}: the count of {name} must be a whole number >= 0")
        if index == GOLD and count and not allow_gold:
            raise refuse(BAD_INPUT, f"{where}: gold is not allowed here")
        vector[index] += count
    return vector


def holds(state: State, seat: int, goods: Goods) -> bool:
    hand = state.hands[seat]
    return all(hand[i] >= goods[i] for i in range(5)) and state.gold[seat] >= goods[GOLD]


def can_pay(state: State, seat: int, cost: tuple[int, ...]) -> bool:
    hand = state.hands[seat]
    return (
        hand[0] >= cost[0] and hand[1] >= cost[1] and hand[2] >= cost[2] and hand[3] >= cost[3] and hand[4] >= cost[4]
    )


def hand_size(state: State, seat: int) -> int:
    return sum(state.hands[seat])


def parse_vertex_ref(geometry: Geometry, name: Any) -> int:
    if not isinstance(name, str):
        raise refuse(BAD_INPUT, "an intersection is written like 'N(1,2)' or 'S(1,2)'")
    vertex = geometry.vertex_index.get(name.replace(" ", ""))
    if vertex is None:
        raise refuse("E_NOT_ON_BOARD", f"{name} is not an intersection of this board")
    return vertex


def parse_edge_ref(geometry: Geometry, edge: Any) -> int:
    if not isinstance(edge, list) or len(edge) != 2 or not all(isinstance(v, str) for v in edge):
        raise refuse(BAD_INPUT, "a path is a pair of intersections, e.g. ['N(1,1)', 'S(2,0)']")
    a = geometry.vertex_index.get(edge[0].replace(" ", ""))
    b = geometry.vertex_index.get(edge[1].replace(" ", ""))
    found = geometry.edge_between(a, b) if a is not None and b is not None else None
    if found is None:
        raise refuse("E_NOT_ON_BOARD", f"{edge[0]}-{edge[1]} is not a path of this board")
    return found


def parse_hex_ref(geometry: Geometry, hex_ref: Any) -> int:
    if (
        not isinstance(hex_ref, list)
        or len(hex_ref) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in hex_ref)
    ):
        raise refuse(BAD_INPUT, "a hex is written [q, r]")
    index = geometry.hex_index.get((hex_ref[0], hex_ref[1]))
    if index is None:
        raise refuse("E_NOT_LAND", f"({hex_ref[0]},{hex_ref[1]}) is not a land hex")
    return index


def hex_ref(geometry: Geometry, index: int) -> list[int]:
    q, r = geometry.hexes[index]
    return [q, r]


def check_seat(state: State, seat: Any, where: str) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise refuse(BAD_INPUT, f"{where} must be a seat number from 0 to {state.players - 1}")
    return seat


def clockwise_from(state: State, first: int) -> list[int]:
    return [(first + i) % state.players for i in range(state.players)]


def after_roll_phase(state: State) -> str:
    return ALEXANDER if state.scenario else TRADE_BUILD


def discard_limit(state: State) -> int:
    return SCENARIO_DISCARD_LIMIT if state.scenario else BASE_DISCARD_LIMIT


# --------------------------------------------------------------------------------------------
# Victory points (R55) and the end (R56-R58, §7.1)
# --------------------------------------------------------------------------------------------


def public_vp(state: State, seat: int) -> int:
    points = state.settlements[seat] + 2 * state.cities[seat]
    if state.longest_road == seat:
        points += 2
    if state.largest_army == seat:
        points += 2
    if state.scenario:
        for card, holder in state.advisors.items():
            if holder == seat:
                points += ADVISOR_VP[card]
    return points


def vp_cards(state: State, seat: int) -> int:
    return state.dev_hand[seat].count("victory_point") + state.dev_new[seat].count("victory_point")


def total_vp(state: State, seat: int) -> int:
    return public_vp(state, seat) + vp_cards(state, seat)


def reaches(state: State, seat: int, goal: int) -> bool:
    """total_vp(state, seat) >= goal, counting the hidden VP cards only when they could matter."""
    points = public_vp(state, seat)
    if points >= goal:
        return True
    if points + len(state.dev_hand[seat]) + len(state.dev_new[seat]) < goal:
        return False
    return points + vp_cards(state, seat) >= goal


def end_reason(state: State) -> str | None:
    """R19/R57 Persepolis first, then R56 (14 VP, anyone, any time); base: 10 VP on one's own turn."""
    if state.scenario:
        if state.position >= PERSEPOLIS_POSITION:
            return "persepolis"
        for s in range(state.players):
            if reaches(state, s, SCENARIO_GOAL):
                return "vp14"
        return None
    if state.phase in (FOUNDING_SETTLEMENT, FOUNDING_ROAD):
        return None
    return "vp10" if reaches(state, state.active, BASE_GOAL) else None


def winners_of(state: State, reason: str) -> list[int]:
    """R58: most VP, then most task tokens, then shared; base: the player who reached 10 on his turn."""
    if reason == "vp10":
        return [state.active]
    totals = [total_vp(state, s) for s in range(state.players)]
    best = max(totals)
    leaders = [s for s in range(state.players) if totals[s] == best]
    most_tokens = max(state.tokens_won[s] for s in leaders)
    return [s for s in leaders if state.tokens_won[s] == most_tokens]


def game_ended(state: State, reason: str, chance: Chance) -> ev.GameEnded:
    scores = {
        str(s): {
            "public_vp": public_vp(state, s),
            "vp_cards": vp_cards(state, s),
            "total": total_vp(state, s),
            "tokens": state.tokens_won[s],
        }
        for s in range(state.players)
    }
    hands = {
        str(s): {
            "resources": bundle_of(state.hands[s], RESOURCES),
            "gold": state.gold[s],
            "development": sorted(state.dev_hand[s] + state.dev_new[s]),
        }
        for s in range(state.players)
    }
    return ev.GameEnded(
        reason=reason,
        scores=scores,
        winners=winners_of(state, reason),
        hands=hands,
        token_order=list(state.token_order),
        seed=chance.seed_hex,
    )


# --------------------------------------------------------------------------------------------
# Setup (§3, §7.1) and turn start (R7-R9)
# --------------------------------------------------------------------------------------------


def base_layout(state: State, chance: Chance) -> tuple[list[str], list[int]]:
    """§7.1: the beginner layout, or terrains shuffled and numbers laid along the spiral."""
    geometry = state.geometry
    if state.options.get("layout", "beginner") == "beginner":
        return list(geometry.default_terrain), list(geometry.default_numbers)
    terrains = chance.shuffle("setup", sorted(geometry.default_terrain))
    numbers = [0] * len(terrains)
    tokens = iter(BASE_RANDOM_NUMBERS)
    for h in BASE_SPIRAL:
        index = geometry.hex_index[h]
        if terrains[index] != "desert":
            numbers[index] = next(tokens)
    return terrains, numbers


def setup_events(state: State, chance: Chance) -> list[Event]:
    geometry = state.geometry
    n = state.players
    dev_deck = chance.shuffle("dev", list(DEVELOPMENT_DECK))
    if not state.scenario:
        terrains, numbers = base_layout(state, chance)
        desert = terrains.index("desert")
        return [
            ev.GameSetUp(
                board_id=geometry.board_id,
                robber_hex=hex_ref(geometry, desert),
                terrains=terrains,
                numbers=numbers,
                token_crossings=[],
                supply_size=0,
                bank_piles={r: CARDS_PER_RESOURCE for r in RESOURCES},
                gold_supply=0,
                dev_deck_size=len(dev_deck),
                advisors_in_play=[],
            ),
            ev.StacksShuffled(sealed_for=[], supply=[], dev_deck=dev_deck, tokens=[]),
        ]
    per_resource = CARDS_PER_RESOURCE if n == 4 else 15
    canonical = [r for r in RESOURCES for _ in range(per_resource)]
    supply = chance.shuffle("supply", canonical)
    tokens = chance.shuffle("tokens", list(TOKEN_MIX))
    starting_gold = state.options.get("starting_gold", 8)
    bank = CARDS_PER_RESOURCE - per_resource
    out: list[Event] = [
        ev.GameSetUp(
            board_id=geometry.board_id,
            robber_hex=hex_ref(geometry, geometry.robber_start),
            terrains=list(geometry.default_terrain),
            numbers=list(geometry.default_numbers),
            token_crossings=list(TOKEN_CROSSINGS),
            supply_size=len(supply) - 5 * n,
            bank_piles={r: bank for r in RESOURCES},
            gold_supply=GOLD_PIECES - n * starting_gold,
            dev_deck_size=len(dev_deck),
            advisors_in_play=list(ADVISORS_IN_PLAY[n]),
        ),
        ev.StacksShuffled(sealed_for=[], supply=supply, dev_deck=dev_deck, tokens=tokens),
    ]
    for seat in range(n):
        dealt = supply[5 * seat : 5 * seat + 5]
        cards = {r: dealt.count(r) for r in RESOURCES if r in dealt}
        out.append(ev.StartingHandDealt(seat=seat, cards=cards, card_count=5, gold=starting_gold))
    out.append(ev.TurnStarted(turn=1, seat=0))
    return out


def turn_start_events(state: State, chance: Chance) -> list[Event]:
    """R7/R8: TurnStarted, then one supply card each (clockwise from the new active seat)."""
    seat = (state.active + 1) % state.players
    out: list[Event] = [ev.TurnStarted(turn=state.turn + 1, seat=seat)]
    if state.supply_open:
        stack = state.supply
        n = state.players
        for i, drawer in enumerate(clockwise_from(state, seat)):
            out.append(ev.SupplyCardDrawn(seat=drawer, card=RESOURCES[stack[i]]))
        left = stack[n:]
        if len(left) < n:
            counts = [0] * 5
            for card in left:
                counts[card] += 1
            out.append(ev.SupplyClosed(cards_to_bank=bundle_of(counts, RESOURCES)))
    return out


# --------------------------------------------------------------------------------------------
# Roll, production (R10-R12), seven and robber (R13-R14)
# --------------------------------------------------------------------------------------------


def produce(state: State, total: int) -> ev.ResourcesProduced:
    """R11 production with the R12 bank-shortage rule per product (gold included)."""
    owner = state.owner
    level = state.level
    robber = state.robber
    owed: dict[int, list[int]] = {}  # good -> units owed per seat
    for h, product, corners in state.producing_hexes[total]:
        if h == robber:
            continue
        for v in corners:
            seat = owner[v]
            if seat >= 0:
                units = owed.get(product)
                if units is None:
                    units = owed[product] = [0] * state.players
                units[seat] += level[v]
    gains: dict[str, dict[str, int]] = {}
    withheld: list[str] = []
    for good in sorted(owed):
        units = owed[good]
        available = state.gold_supply if good == GOLD else state.bank[good]
        if available < sum(units):
            owed_seats = [seat for seat, count in enumerate(units) if count]
            if len(owed_seats) != 1 or not available:
                withheld.append(GOODS[good])  # blocked: nobody receives any of it
                continue
            units = [0] * state.players  # a single receiver takes what is left: paid in part, not withheld
            units[owed_seats[0]] = available
        for seat, count in enumerate(units):
            if count:
                gains.setdefault(str(seat), {})[GOODS[good]] = count
    return ev.ResourcesProduced(gains={key: gains[key] for key in sorted(gains)}, withheld=withheld)


def decide_roll_dice(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    # both dice from one draw of the turn's dice stream (36 equally likely outcomes)
    outcome = chance.below(f"dice:{state.turn}", 36)
    die1, die2 = outcome // 6 + 1, outcome % 6 + 1
    total = die1 + die2
    out: list[Event] = [ev.DiceRolled(seat=seat, die1=die1, die2=die2, total=total)]
    if total != 7:
        out.append(produce(state, total))
        return out
    limit = discard_limit(state)
    owed = {str(s): hand_size(state, s) // 2 for s in range(state.players) if hand_size(state, s) > limit}
    if owed:
        out.append(ev.DiscardsRequired(owed=owed))
    return out


def check_discard(state: State, seat: int, cards: Any, owed: int) -> Goods:
    goods = parse_bundle(cards, "cards", allow_gold=False)
    if sum(goods) != owed:
        raise refuse("E_WRONG_COUNT", f"you must discard exactly {owed} resource cards")
    if not holds(state, seat, goods):
        raise refuse("E_INSUFFICIENT", "you do not hold those cards")
    return goods


def decide_discard(state: State, seat: int, command: Discard, chance: Chance) -> list[Event]:
    if state.phase == DISCARD:
        owed = state.owed_discards.get(seat, 0)
        reason = "seven"
    else:
        owed = state.default_owed
        reason = "default"
    goods = check_discard(state, seat, command.cards, owed)
    return [ev.CardsDiscarded(seat=seat, cards=bundle_of(goods), reason=reason)]


def robber_events(state: State, seat: int, hex_value: Any, steal_from: Any, cause: str, chance: Chance) -> list[Event]:
    """R14: move the robber to another land hex and steal one random resource card."""
    geometry = state.geometry
    target = parse_hex_ref(geometry, hex_value)
    if target == state.robber:
        raise refuse("E_ROBBER_SAME_HEX", "the robber must move to a different hex")
    victims = robber_victims(state, seat, target)
    if steal_from is None:
        if victims:
            raise refuse("E_INVALID_VICTIM", "choose a player to steal from among those with a building there")
    else:
        if (
            not isinstance(steal_from, int)
            or isinstance(steal_from, bool)
            or not 0 <= steal_from < state.players
            or steal_from not in victims
        ):
            raise refuse("E_INVALID_VICTIM", "that player has no settlement or city on this hex (or is you)")
    out: list[Event] = [ev.RobberMoved(seat=seat, hex=hex_ref(geometry, target), cause=cause)]
    if steal_from is not None:
        victim_hand = state.hands[steal_from]
        count = sum(victim_hand)
        if count == 0:
            out.append(ev.CardStolen(thief=seat, victim=steal_from, card=None, stolen=False))
        else:
            index = chance.below(f"steal:{state.steals + 1}", count)
            card = 0
            while index >= victim_hand[card]:
                index -= victim_hand[card]
                card += 1
            out.append(ev.CardStolen(thief=seat, victim=steal_from, card=RESOURCES[card], stolen=True))
    return out


def robber_victims(state: State, seat: int, target: int) -> list[int]:
    found = {state.owner[v] for v in state.geometry.hex_vertices[target]}
    return sorted(s for s in found if s >= 0 and s != seat)


def decide_move_robber(state: State, seat: int, command: MoveRobber, chance: Chance) -> list[Event]:
    return robber_events(state, seat, command.hex, command.steal_from, "seven", chance)


# --------------------------------------------------------------------------------------------
# Alexander's move (R15-R19) and the auctions (R20-R27)
# --------------------------------------------------------------------------------------------


def decide_move_alexander(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    geometry = state.geometry
    crossing = state.position + 1
    kind = geometry.route_kinds[crossing]
    if kind == "purple" and state.roll != 7:  # R17
        return [ev.ArmyHalted(seat=seat, position=state.position, roll_total=state.roll)]
    out: list[Event] = [
        ev.ArmyMoved(seat=seat, from_position=state.position, to_position=crossing, crossing=crossing, kind=kind)
    ]
    if kind == "temple":
        out.extend(open_auction(state, crossing, "village", 1, []))
    elif kind == "token":
        task = state.tokens_on_board[crossing]
        out.append(ev.TaskRevealed(crossing=crossing, task=task))
        out.extend(open_auction(state, crossing, task, 1, []))
    return out


def open_auction(state: State, crossing: int, task: str, round_: int, excluded: list[int]) -> list[Event]:
    """R21a/R27: the first bidder is the active player or the next non-excluded one."""
    bidders = [s for s in clockwise_from(state, state.active) if s not in excluded]
    if not bidders:
        return no_winner_events(crossing, task)
    return [
        ev.AuctionOpened(
            crossing=crossing,
            task=task,
            accepted=list(TASK_ACCEPTS[task]),
            knights_allowed=task == "battle",
            round=round_,
            excluded=sorted(excluded),
            to_act=bidders[0],
        )
    ]


def no_winner_events(crossing: int, task: str) -> list[Event]:
    """R23: the token leaves the game; a temple stays empty."""
    if task == "village":
        return [ev.TempleLeftEmpty(crossing=crossing, reason="no_bids")]
    return [ev.TaskTokenRemoved(crossing=crossing, task=task)]


def decide_place_bid(state: State, seat: int, command: PlaceBid, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    amount = command.amount
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise refuse(BAD_INPUT, "amount must be a whole number")
    if amount < 1 or amount <= auction.high_bid:
        raise refuse("E_BID_TOO_LOW", f"a bid must be at least {max(1, auction.high_bid + 1)}")
    if amount > MAX_BID:
        raise refuse("E_BID_TOO_HIGH", f"a bid is at most {MAX_BID} (Ruling R22)")
    return [ev.BidPlaced(seat=seat, amount=amount)]


def decide_pass_bid(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    return [ev.BidderDroppedOut(seat=seat)]


def bid_capacity(state: State, seat: int, task: str) -> tuple[int, int]:
    """(value of accepted cards and gold, played knights usable) for R26."""
    hand = state.hands[seat]
    cards = sum(hand[RESOURCE_INDEX[g]] for g in TASK_ACCEPTS[task] if g != "gold")
    knights = state.army[seat] if task == "battle" else 0
    return cards + state.gold[seat], knights


def can_honour(state: State, seat: int, task: str, amount: int) -> bool:
    """R26: payable iff some c in 0..k has 0 <= bid - 3c <= a + g."""
    items, knights = bid_capacity(state, seat, task)
    return any(0 <= amount - KNIGHT_BID_VALUE * c <= items for c in range(knights + 1))


def auction_close_events(state: State, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    winner = auction.high_bidder
    if winner is None:
        return [
            ev.AuctionClosed(crossing=auction.crossing, winner=None, amount=None),
            *no_winner_events(auction.crossing, auction.task),
        ]
    closed = ev.AuctionClosed(crossing=auction.crossing, winner=winner, amount=auction.high_bid)
    if can_honour(state, winner, auction.task, auction.high_bid):
        return [closed]
    owed = hand_size(state, winner) // 2  # R26, Ruling R26: resource cards only
    return [closed, ev.BidDefaulted(seat=winner, amount=auction.high_bid, owed_discard=owed)]


def auction_reopen_events(state: State, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    return open_auction(state, auction.crossing, auction.task, auction.round + 1, auction.excluded)


def decide_pay_bid(state: State, seat: int, command: PayBid, chance: Chance) -> list[Event]:
    """R25: exact payment in accepted goods, gold and (battle only) played knights."""
    auction = state.auction
    assert auction is not None
    goods = parse_bundle(command.items, "items", allow_gold=True)
    knights = command.knights
    if not isinstance(knights, int) or isinstance(knights, bool) or knights < 0:
        raise refuse(BAD_INPUT, "knights must be a whole number >= 0")
    accepted = TASK_ACCEPTS[auction.task]
    if any(goods[i] and GOODS[i] not in accepted for i in range(6)):
        raise refuse("E_NOT_ACCEPTED", f"the {auction.task} task accepts only {', '.join(accepted)}")
    if knights and auction.task != "battle":
        raise refuse("E_NOT_ACCEPTED", "knights count only in a battle")
    if not holds(state, seat, goods):
        raise refuse("E_INSUFFICIENT", "you do not hold those items")
    if knights > state.army[seat]:
        raise refuse("E_NOT_ENOUGH_KNIGHTS", "only your played knights can be paid")
    value = sum(goods) + KNIGHT_BID_VALUE * knights
    if value != auction.high_bid:
        raise refuse("E_WRONG_AMOUNT", f"the payment is worth {value}; it must be exactly {auction.high_bid}")
    return [ev.BidPaid(seat=seat, items=bundle_of(goods), knights=knights)]


def reward_events(state: State, chance: Chance) -> list[Event]:
    """R28 (temple settlement, automatic) and R29 (token)."""
    auction = state.auction
    assert auction is not None and auction.high_bidder is not None
    winner = auction.high_bidder
    if auction.task == "village":
        if state.settlements[winner] >= SETTLEMENTS_PER_PLAYER:
            return [ev.TempleLeftEmpty(crossing=auction.crossing, reason="no_piece")]
        vertex = state.geometry.vertices[state.geometry.route[auction.crossing]]
        return [ev.SettlementBuilt(seat=winner, vertex=vertex, source="temple", free=True)]
    return [
        ev.TaskTokenAwarded(
            seat=winner, crossing=auction.crossing, task=auction.task, tokens_now=state.tokens_won[winner] + 1
        )
    ]


# --------------------------------------------------------------------------------------------
# Advisors (R30-R34)
# --------------------------------------------------------------------------------------------


def advisor_of(state: State, seat: int, other_than: str | None = None) -> str | None:
    for card, holder in state.advisors.items():
        if holder == seat and card != other_than:
            return card
    return None


def advisor_events(state: State) -> list[Event]:
    """Pending hand-down with one recipient (R32), First Advisor taken (R31), award (R30)."""
    handdown = state.handdown
    if handdown is not None:
        if len(handdown.eligible) == 1:
            return [ev.AdvisorChanged(advisor=handdown.card, from_seat=handdown.giver, to_seat=handdown.eligible[0])]
        return []
    tokens = state.tokens_won
    first = state.advisors.get("first")
    if first is not None:
        for s in clockwise_from(state, state.active):
            if s != first and tokens[s] > tokens[first]:
                return [ev.AdvisorChanged(advisor="first", from_seat=first, to_seat=s)]
    free = [card for card, holder in state.advisors.items() if holder is None]
    if free:
        for s in clockwise_from(state, state.active):
            if tokens[s] >= 3 and advisor_of(state, s) is None:
                return [ev.AdvisorChanged(advisor=free[0], from_seat=None, to_seat=s)]
    return []


def decide_choose_advisor_recipient(
    state: State, seat: int, command: ChooseAdvisorRecipient, chance: Chance
) -> list[Event]:
    handdown = state.handdown
    assert handdown is not None
    if command.seat not in handdown.eligible:
        raise refuse("E_INVALID_RECIPIENT", f"the card can go to seat(s) {handdown.eligible} only")
    return [ev.AdvisorChanged(advisor=handdown.card, from_seat=seat, to_seat=command.seat)]


# --------------------------------------------------------------------------------------------
# Longest Road and Largest Army (R52-R54)
# --------------------------------------------------------------------------------------------


def road_length(state: State, seat: int) -> int:
    """R52: the longest trail of own roads, not passing through another player's building."""
    best = 0
    remaining = set(state.roads_of[seat])
    edges = state.geometry.edges
    while remaining:
        network = component_edges(state, seat, edges[min(remaining)][0])
        remaining -= network
        best = max(best, longest_trail(state, seat, network))
    return best


def longest_trail(state: State, seat: int, network: set[int]) -> int:
    """R52 within one connected network of the seat's roads: a depth-first search over trails,
    each trail's used roads kept as a bit mask (networks have at most 15 roads)."""
    edges = state.geometry.edges
    owner = state.owner
    exits: dict[int, list[tuple[int, int]]] = {}  # intersection -> (road bit, other end)
    for i, e in enumerate(network):
        a, b = edges[e]
        exits.setdefault(a, []).append((1 << i, b))
        exits.setdefault(b, []).append((1 << i, a))
    blocked = {v for v in exits if owner[v] not in (-1, seat)}  # another player's building
    # A longest trail can be taken to start where it cannot be extended backwards: at an
    # intersection with an odd number of the roads, or at another player's building.
    starts = [v for v, out in exits.items() if len(out) % 2 or v in blocked]
    if len(starts) <= 2 and all(len(exits[v]) == 1 for v in blocked):
        # Euler: a connected network with at most two odd intersections and no other player's
        # building inside it is a single trail over all its roads (the usual case, found cheaply)
        return len(network)
    total = len(network)
    if total == len(exits) - 1 and all(len(exits[v]) == 1 for v in blocked):
        return tree_diameter(exits)
    best = 0
    stack = [(v, 0, 0) for v in starts or [next(iter(exits))]]
    while stack:
        vertex, used, length = stack.pop()
        if length > best:
            best = length
            if best == total:
                break
        if length and vertex in blocked:
            continue  # a trail may end at another player's building, never pass through it
        for bit, other in exits[vertex]:
            if not used & bit:
                stack.append((other, used | bit, length + 1))
    return best


def tree_diameter(exits: dict[int, list[tuple[int, int]]]) -> int:
    """The longest trail of a network without a cycle (and no other player's building inside it) is
    its longest path: the farthest intersection from any one, then the farthest from that (two
    breadth-first passes instead of a search over every trail)."""

    def farthest(start: int) -> tuple[int, int]:
        distance = {start: 0}
        frontier = [start]
        last = start
        while frontier:
            following = []
            for v in frontier:
                for _, other in exits[v]:
                    if other not in distance:
                        distance[other] = distance[v] + 1
                        following.append(other)
                        last = other
            frontier = following
        return last, distance[last]

    end, _ = farthest(next(iter(exits)))
    return farthest(end)[1]


def component_edges(state: State, seat: int, start: int) -> set[int]:
    """The seat's roads connected to ``start`` (through any intersection)."""
    geometry = state.geometry
    found: set[int] = set()
    stack = [start]
    seen = {start}
    while stack:
        v = stack.pop()
        for e in geometry.vertex_edges[v]:
            if state.road_owner[e] == seat and e not in found:
                found.add(e)
                a, b = geometry.edges[e]
                other = b if a == v else a
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return found


def special_card_holder(holder: int | None, values: list[int], threshold: int) -> int | None:
    """R53: the holder keeps the card while he has the highest value; a sole leader takes it."""
    best = max(values)
    if holder is not None and values[holder] >= threshold and values[holder] == best:
        return holder
    if best >= threshold and values.count(best) == 1:
        return values.index(best)
    return None


def special_card_events(state: State) -> list[Event]:
    if (
        state.longest_road is None
        and max(state.road_length) < LONGEST_ROAD_MIN
        and state.largest_army is None
        and max(state.army) < LARGEST_ARMY_MIN
    ):
        return []  # the usual case: nobody qualifies for either card yet
    holder = special_card_holder(state.longest_road, state.road_length, LONGEST_ROAD_MIN)
    if holder != state.longest_road:
        length = state.road_length[holder] if holder is not None else max(state.road_length)
        return [ev.LongestRoadChanged(holder=holder, length=length)]
    holder = special_card_holder(state.largest_army, state.army, LARGEST_ARMY_MIN)
    if holder != state.largest_army:
        size = state.army[holder] if holder is not None else max(state.army)
        return [ev.LargestArmyChanged(holder=holder, size=size)]
    return []


# --------------------------------------------------------------------------------------------
# Building (R40-R44) and the base founding phase (§7.1)
# --------------------------------------------------------------------------------------------


def road_refusal(state: State, seat: int, edge: int, extra: int = -1, founding_vertex: int = -1) -> str | None:
    """Why ``seat`` may not place a road on ``edge`` (None if he may); ``extra`` is a road of his
    placed just before (Road Building)."""
    if state.road_owner[edge] != -1 or edge == extra:
        return "E_OCCUPIED"
    if state.roads[seat] + (extra >= 0) >= ROADS_PER_PLAYER:
        return "E_NO_PIECE"
    geometry = state.geometry
    a, b = geometry.edges[edge]
    if founding_vertex >= 0:
        return None if founding_vertex in (a, b) else "E_NOT_CONNECTED"
    for v in (a, b):
        occupant = state.owner[v]
        if occupant == seat:
            return None
        if occupant != -1:
            continue
        for e in geometry.vertex_edges[v]:
            if state.road_owner[e] == seat or e == extra:
                return None
    return "E_NOT_CONNECTED"


ROAD_MESSAGES = {
    "E_OCCUPIED": "there is already a road on that path",
    "E_NO_PIECE": "you have no road left in your supply",
    "E_NOT_CONNECTED": "a road must touch your own building or road (not through another player's building)",
}


def legal_road_edges(state: State, seat: int, extra: int = -1) -> list[int]:
    """Free paths touching the seat's network (the only candidates for R41)."""
    geometry = state.geometry
    if state.roads[seat] + (extra >= 0) >= ROADS_PER_PLAYER:
        return []
    road_owner = state.road_owner
    owner = state.owner
    reach = set(state.buildings_of[seat])
    for e in (*state.roads_of[seat], extra) if extra >= 0 else state.roads_of[seat]:
        for v in geometry.edges[e]:
            if owner[v] == -1 or owner[v] == seat:
                reach.add(v)
    found: set[int] = set()
    for v in reach:
        for e in geometry.vertex_edges[v]:
            if road_owner[e] == -1 and e != extra:
                found.add(e)
    return sorted(found)


def decide_build_road(state: State, seat: int, command: BuildRoad, chance: Chance) -> list[Event]:
    geometry = state.geometry
    founding = state.phase == FOUNDING_ROAD
    if not founding:
        if not can_pay(state, seat, ROAD_COST):
            raise refuse("E_INSUFFICIENT", "a road costs brick + lumber")
        if state.roads[seat] >= ROADS_PER_PLAYER:
            raise refuse("E_NO_PIECE", ROAD_MESSAGES["E_NO_PIECE"])
    edge = parse_edge_ref(geometry, command.edge)
    code = road_refusal(state, seat, edge, founding_vertex=state.founding_vertex if founding else -1)
    if code is not None:
        if founding and code == "E_NOT_CONNECTED":
            raise refuse(code, "the founding road must touch the settlement just placed")
        raise refuse(code, ROAD_MESSAGES[code])
    return [ev.RoadBuilt(seat=seat, edge=geometry.edge_ref(edge), free=founding)]


def distance_rule_ok(state: State, vertex: int) -> bool:
    owner = state.owner
    return all(owner[n] == -1 for n in state.geometry.vertex_adj[vertex])


def route_restricted(state: State, vertex: int) -> bool:
    """R42 (iii): an unpassed route intersection or one next to it."""
    return state.scenario and state.geometry.route_block[vertex] > state.position


def settlement_refusal(state: State, seat: int, vertex: int, founding: bool) -> str | None:
    if state.owner[vertex] != -1:
        return "E_OCCUPIED"
    if not distance_rule_ok(state, vertex):
        return "E_DISTANCE_RULE"
    if founding:
        return None
    geometry = state.geometry
    if not any(state.road_owner[e] == seat for e in geometry.vertex_edges[vertex]):
        return "E_NOT_CONNECTED"
    if route_restricted(state, vertex):
        return "E_ROUTE_RESTRICTED"
    return None


SETTLEMENT_MESSAGES = {
    "E_OCCUPIED": "that intersection is already built on",
    "E_DISTANCE_RULE": "a neighbouring intersection holds a settlement or city (distance rule)",
    "E_NOT_CONNECTED": "a settlement must be at the end of one of your roads",
    "E_ROUTE_RESTRICTED": "no settlement on or next to a route crossing Alexander has not passed yet (R42)",
}


def decide_build_settlement(state: State, seat: int, command: BuildSettlement, chance: Chance) -> list[Event]:
    geometry = state.geometry
    founding = state.phase == FOUNDING_SETTLEMENT
    if not founding:
        if not can_pay(state, seat, SETTLEMENT_COST):
            raise refuse("E_INSUFFICIENT", "a settlement costs brick + lumber + grain + wool")
        if state.settlements[seat] >= SETTLEMENTS_PER_PLAYER:
            raise refuse("E_NO_PIECE", "you have no settlement left in your supply")
    vertex = parse_vertex_ref(geometry, command.vertex)
    code = settlement_refusal(state, seat, vertex, founding)
    if code is not None:
        raise refuse(code, SETTLEMENT_MESSAGES[code])
    out: list[Event] = [
        ev.SettlementBuilt(
            seat=seat, vertex=geometry.vertices[vertex], source="founding" if founding else "build", free=founding
        )
    ]
    if founding and state.founding_step >= state.players:
        cards = [0] * 5
        for h in geometry.vertex_hexes[vertex]:
            product = state.hex_product[h]
            if 0 <= product < 5:
                cards[product] += 1
        out.append(ev.FoundingResourcesGained(seat=seat, cards=bundle_of(cards, RESOURCES)))
    return out


def decide_build_city(state: State, seat: int, command: BuildCity, chance: Chance) -> list[Event]:
    if not can_pay(state, seat, CITY_COST):
        raise refuse("E_INSUFFICIENT", "a city costs 3 ore + 2 grain")
    if state.cities[seat] >= CITIES_PER_PLAYER:
        raise refuse("E_NO_PIECE", "you have no city left in your supply")
    vertex = parse_vertex_ref(state.geometry, command.vertex)
    if state.owner[vertex] != seat or state.level[vertex] != 1:
        raise refuse("E_NOT_OWN_SETTLEMENT", "a city replaces one of your own settlements")
    return [ev.CityBuilt(seat=seat, vertex=state.geometry.vertices[vertex])]


# --------------------------------------------------------------------------------------------
# Development cards (R45-R51)
# --------------------------------------------------------------------------------------------


def decide_buy_development_card(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    if not can_pay(state, seat, DEVELOPMENT_COST):
        raise refuse("E_INSUFFICIENT", "a development card costs ore + grain + wool")
    if not state.dev_deck:
        raise refuse("E_DECK_EMPTY", "the development deck is empty")
    return [ev.DevelopmentCardBought(seat=seat, card=state.dev_deck[0])]


def check_card_playable(state: State, seat: int, card: str) -> None:
    """R46: own card bought before this turn, one card per turn."""
    if card not in state.dev_hand[seat]:
        raise refuse("E_NO_CARD", f"you have no {card.replace('_', ' ')} card bought before this turn")
    if state.played_dev:
        raise refuse("E_CARD_LIMIT", "you have already played a development card this turn")


def decide_play_knight(state: State, seat: int, command: PlayKnight, chance: Chance) -> list[Event]:
    check_card_playable(state, seat, "knight")
    moved = robber_events(state, seat, command.hex, command.steal_from, "knight", chance)
    return [ev.KnightPlayed(seat=seat), *moved]


def decide_play_road_building(state: State, seat: int, command: PlayRoadBuilding, chance: Chance) -> list[Event]:
    """R48 and Ruling R48: two free roads, or one when no second can be placed."""
    check_card_playable(state, seat, "road_building")
    geometry = state.geometry
    if not legal_road_edges(state, seat):
        raise refuse("E_NO_LEGAL_ROAD", "no road can be placed at all")
    edges_in = command.edges
    if not isinstance(edges_in, list) or not 1 <= len(edges_in) <= 2:
        raise refuse("E_WRONG_COUNT", "name one or two paths")
    placed: list[int] = []
    for raw in edges_in:
        edge = parse_edge_ref(geometry, raw)
        code = road_refusal(state, seat, edge, extra=placed[0] if placed else -1)
        if code is not None:
            raise refuse(code, ROAD_MESSAGES[code])
        placed.append(edge)
    if len(placed) == 1 and legal_road_edges(state, seat, extra=placed[0]):
        raise refuse("E_WRONG_COUNT", "a second road can be placed, so name two paths")
    return [
        ev.RoadBuildingPlayed(seat=seat),
        *(ev.RoadBuilt(seat=seat, edge=geometry.edge_ref(e), free=True) for e in placed),
    ]


def decide_play_year_of_plenty(state: State, seat: int, command: PlayYearOfPlenty, chance: Chance) -> list[Event]:
    """R49 and Ruling R49: two cards from the bank piles, one if only one is left."""
    check_card_playable(state, seat, "year_of_plenty")
    names = command.resources
    if not isinstance(names, list) or not all(isinstance(r, str) and r in RESOURCE_INDEX for r in names):
        raise refuse(BAD_INPUT, f"name resources among {', '.join(RESOURCES)} (never gold)")
    in_bank = sum(state.bank)
    if in_bank == 0:
        raise refuse("E_BANK_EMPTY", "the bank piles are empty")
    wanted = 2 if in_bank >= 2 else 1
    if len(names) != wanted:
        raise refuse("E_WRONG_COUNT", f"name exactly {wanted} resource card(s)")
    taken = [0] * 5
    for r in names:
        taken[RESOURCE_INDEX[r]] += 1
    if any(taken[i] > state.bank[i] for i in range(5)):
        raise refuse("E_BANK_EMPTY", "the bank does not hold those cards")
    return [ev.YearOfPlentyPlayed(seat=seat, taken=bundle_of(taken, RESOURCES))]


def decide_play_monopoly(state: State, seat: int, command: PlayMonopoly, chance: Chance) -> list[Event]:
    check_card_playable(state, seat, "monopoly")
    if command.resource not in RESOURCE_INDEX:
        raise refuse(BAD_INPUT, f"name one of {', '.join(RESOURCES)} (never gold)")
    index = RESOURCE_INDEX[command.resource]
    taken = {str(s): state.hands[s][index] for s in range(state.players) if s != seat}
    return [ev.MonopolyPlayed(seat=seat, resource=command.resource, taken=taken)]


# --------------------------------------------------------------------------------------------
# Trade (R35-R39)
# --------------------------------------------------------------------------------------------


def use_harbour(state: State, seat: int, vertex: int) -> None:
    """R38/R39: a building at a harbour lowers its owner's bank rates for good (rates only fall:
    2 with the matching 2:1 harbour, else 3 with a 3:1 harbour, gold included; else 4)."""
    harbour = state.geometry.harbour_at.get(vertex)
    if harbour is None:
        return
    rates = state.trade_rates[seat]
    if harbour == "generic":
        state.trade_rates[seat] = [min(rate, 3) for rate in rates]
    else:
        rates[GOOD_INDEX[harbour]] = 2


def check_good(state: State, name: Any, where: str) -> int:
    index = GOOD_INDEX.get(name) if isinstance(name, str) else None
    if index is None or (index == GOLD and not state.scenario):
        allowed = GOODS if state.scenario else RESOURCES
        raise refuse(BAD_INPUT, f"{where} must be one of {', '.join(allowed)}")
    return index


def decide_bank_trade(state: State, seat: int, command: BankTrade, chance: Chance) -> list[Event]:
    give = check_good(state, command.give, "give")
    receive = check_good(state, command.receive, "receive")
    lots = command.lots
    if not isinstance(lots, int) or isinstance(lots, bool):
        raise refuse(BAD_INPUT, "lots must be a whole number")
    if give == receive or lots < 1:
        raise refuse("E_INVALID_TRADE", "give one type and receive a different one, at least one lot")
    rate = state.trade_rates[seat][give]  # R38
    held = state.gold[seat] if give == GOLD else state.hands[seat][give]
    if held < rate * lots:
        raise refuse("E_INSUFFICIENT", f"you need {rate * lots} {GOODS[give]} ({rate}:1)")
    available = state.gold_supply if receive == GOLD else state.bank[receive]
    if available < lots:
        raise refuse("E_BANK_EMPTY", f"the bank holds only {available} {GOODS[receive]}")
    return [ev.BankTraded(seat=seat, gave={GOODS[give]: rate * lots}, received={GOODS[receive]: lots})]


def decide_offer_trade(state: State, seat: int, command: OfferTrade, chance: Chance) -> list[Event]:
    give = parse_bundle(command.give, "give", allow_gold=state.scenario)
    receive = parse_bundle(command.receive, "receive", allow_gold=state.scenario)
    if not any(give) or not any(receive) or any(give[i] and receive[i] for i in range(6)):
        raise refuse("E_INVALID_TRADE", "both sides need at least one item, and no type on both sides")
    if not holds(state, seat, give):
        raise refuse("E_INSUFFICIENT", "you do not hold what you offer")
    to = command.to
    active = state.active
    if seat == active:
        if to is None:
            addressees = [s for s in range(state.players) if s != seat]
        else:
            if (
                not isinstance(to, list)
                or not to
                or len(set(to)) != len(to)
                or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < state.players for s in to)
                or seat in to
            ):
                raise refuse("E_INVALID_ADDRESSEE", "address one or more other players (or null for all)")
            addressees = sorted(to)
    else:
        if to is not None and to != [active]:
            raise refuse("E_INVALID_ADDRESSEE", "you may make offers to the active player only")
        addressees = [active]
    return [
        ev.TradeOffered(
            offer_id=state.next_offer_id, maker=seat, to=addressees, give=bundle_of(give), receive=bundle_of(receive)
        )
    ]


def find_offer(state: State, offer_id: Any) -> Offer:
    offer = state.offers.get(offer_id) if isinstance(offer_id, int) else None
    if offer is None:
        raise refuse("E_NO_SUCH_OFFER", f"there is no open offer {offer_id}")
    return offer


def completed(offer: Offer, partner: int) -> ev.TradeCompleted:
    return ev.TradeCompleted(
        offer_id=offer.offer_id,
        maker=offer.maker,
        partner=partner,
        maker_gave=bundle_of(offer.give),
        partner_gave=bundle_of(offer.receive),
    )


def decide_respond_trade(state: State, seat: int, command: RespondTrade, chance: Chance) -> list[Event]:
    """R36b: an addressee accepts or declines; like a spoken answer at the table it may be changed
    while the offer is open (confirm_trade needs the partner's latest answer to be an acceptance)."""
    offer = find_offer(state, command.offer_id)
    if seat not in offer.to:
        raise refuse("E_NOT_ADDRESSED", "that offer is not addressed to you")
    if not isinstance(command.accept, bool):
        raise refuse(BAD_INPUT, "accept must be true or false")
    responded = ev.TradeResponded(offer_id=offer.offer_id, seat=seat, accept=command.accept)
    if not command.accept:
        return [responded]
    if not holds(state, seat, offer.receive):
        raise refuse("E_INSUFFICIENT", "you do not hold what you would give")
    if offer.maker != state.active and seat == state.active:
        if not holds(state, offer.maker, offer.give):
            raise refuse("E_INSUFFICIENT", "the maker no longer holds his side")
        return [responded, completed(offer, seat)]
    return [responded]


def decide_confirm_trade(state: State, seat: int, command: ConfirmTrade, chance: Chance) -> list[Event]:
    offer = find_offer(state, command.offer_id)
    if offer.maker != seat:
        raise refuse("E_NOT_OWNER", "you can confirm only your own offers")
    if offer.responses.get(command.partner) is not True:
        raise refuse("E_NOT_WILLING", "that player has not accepted this offer")
    if not holds(state, seat, offer.give) or not holds(state, command.partner, offer.receive):
        raise refuse("E_INSUFFICIENT", "one side no longer holds the items")
    return [completed(offer, command.partner)]


def decide_cancel_trade(state: State, seat: int, command: CancelTrade, chance: Chance) -> list[Event]:
    offer = find_offer(state, command.offer_id)
    if offer.maker != seat:
        raise refuse("E_NOT_OWNER", "you can cancel only your own offers")
    return [ev.TradeCancelled(offer_id=offer.offer_id, reason="maker")]


def decide_end_turn(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    """R36e: open offers close; the next turn starts at once (§10.4), nothing comes in between."""
    out: list[Event] = [ev.TradeCancelled(offer_id=i, reason="turn_ended") for i in sorted(state.offers)]
    out.append(ev.TurnEnded(seat=seat))
    out.extend(turn_start_events(state, chance))
    return out


# --------------------------------------------------------------------------------------------
# decide and advance
# --------------------------------------------------------------------------------------------

DECIDERS: dict[str, Callable[[State, int, Any, Chance], list[Event]]] = {
    "roll_dice": decide_roll_dice,
    "move_alexander": decide_move_alexander,
    "discard": decide_discard,
    "move_robber": decide_move_robber,
    "place_bid": decide_place_bid,
    "pass_bid": decide_pass_bid,
    "pay_bid": decide_pay_bid,
    "choose_advisor_recipient": decide_choose_advisor_recipient,
    "offer_trade": decide_offer_trade,
    "respond_trade": decide_respond_trade,
    "confirm_trade": decide_confirm_trade,
    "cancel_trade": decide_cancel_trade,
    "bank_trade": decide_bank_trade,
    "build_road": decide_build_road,
    "build_settlement": decide_build_settlement,
    "build_city": decide_build_city,
    "buy_development_card": decide_buy_development_card,
    "play_knight": decide_play_knight,
    "play_road_building": decide_play_road_building,
    "play_year_of_plenty": decide_play_year_of_plenty,
    "play_monopoly": decide_play_monopoly,
    "end_turn": decide_end_turn,
}


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    return DECIDERS[command.type](state, seat, command, chance)


AUTOMATIC_STEPS: dict[str, Callable[[State, Chance], list[Event]]] = {
    TURN_START: turn_start_events,
    AUCTION_CLOSE: auction_close_events,
    AUCTION_REOPEN: auction_reopen_events,
    REWARD: reward_events,
}


def advance(state: State, chance: Chance) -> list[Event]:
    phase = state.phase
    if phase == GAME_OVER:
        return []
    if phase == SETUP:
        return setup_events(state, chance)
    events = special_card_events(state)
    if events:
        return events
    if state.scenario:
        events = advisor_events(state)
        if events:
            return events
    step = AUTOMATIC_STEPS.get(phase)
    if step is not None:
        return step(state, chance)
    if phase != ADVISOR_CHOICE:
        reason = end_reason(state)
        if reason is not None:
            return [game_ended(state, reason, chance)]
    return []


# --------------------------------------------------------------------------------------------
# evolve
# --------------------------------------------------------------------------------------------


def add_goods(state: State, seat: int, goods: dict[str, int], sign: int, bank: bool = True) -> None:
    """Move goods between a seat and the bank (sign +1: to the seat)."""
    hand = state.hands[seat]
    for name, count in goods.items():
        index = GOOD_INDEX[name]
        if index == GOLD:
            state.gold[seat] += sign * count
            if bank:
                state.gold_supply -= sign * count
        else:
            hand[index] += sign * count
            if bank:
                state.bank[index] -= sign * count


def pay_cost(state: State, seat: int, cost: tuple[int, ...]) -> None:
    hand = state.hands[seat]
    for i in range(5):
        hand[i] -= cost[i]
        state.bank[i] += cost[i]


def on_game_set_up(state: State, e: ev.GameSetUp) -> None:
    geometry = state.geometry
    state.hex_product = [TERRAIN_PRODUCT[t] for t in e.terrains]
    state.hex_number = list(e.numbers)
    corners = geometry.hex_vertices
    state.producing_hexes = [
        [
            (h, state.hex_product[h], corners[h])
            for h, n in enumerate(e.numbers)
            if n == total and state.hex_product[h] >= 0
        ]
        for total in range(13)
    ]
    state.robber = geometry.hex_index[(e.robber_hex[0], e.robber_hex[1])]
    state.bank = [e.bank_piles.get(r, 0) for r in RESOURCES]
    state.gold_supply = e.gold_supply
    state.advisors = {card: None for card in e.advisors_in_play}
    if not state.scenario:
        state.phase = FOUNDING_SETTLEMENT
        state.active = 0


def on_stacks_shuffled(state: State, e: ev.StacksShuffled) -> None:
    state.dev_deck = list(e.dev_deck)
    state.token_order = list(e.tokens)
    state.tokens_on_board = dict(zip(TOKEN_CROSSINGS, e.tokens, strict=False))
    state.supply = [RESOURCE_INDEX[r] for r in e.supply]
    state.supply_open = bool(e.supply)


def on_starting_hand_dealt(state: State, e: ev.StartingHandDealt) -> None:
    for name, count in e.cards.items():
        state.hands[e.seat][RESOURCE_INDEX[name]] += count
    del state.supply[: e.card_count]
    state.gold[e.seat] = e.gold


def on_turn_started(state: State, e: ev.TurnStarted) -> None:
    state.turn = e.turn
    state.active = e.seat
    state.roll = None
    state.phase = ALEXANDER if (state.scenario and e.turn == 1) else BEFORE_ROLL


def on_supply_card_drawn(state: State, e: ev.SupplyCardDrawn) -> None:
    state.hands[e.seat][RESOURCE_INDEX[e.card]] += 1
    del state.supply[0]


def on_supply_closed(state: State, e: ev.SupplyClosed) -> None:
    for name, count in e.cards_to_bank.items():
        state.bank[RESOURCE_INDEX[name]] += count
    state.supply = []
    state.supply_open = False


def on_dice_rolled(state: State, e: ev.DiceRolled) -> None:
    state.roll = e.total
    if e.total == 7:
        state.phase = ROBBER


def on_resources_produced(state: State, e: ev.ResourcesProduced) -> None:
    for seat, gains in e.gains.items():
        add_goods(state, int(seat), gains, +1)
    state.phase = after_roll_phase(state)


def on_discards_required(state: State, e: ev.DiscardsRequired) -> None:
    state.owed_discards = {int(s): n for s, n in e.owed.items()}
    state.phase = DISCARD


def on_cards_discarded(state: State, e: ev.CardsDiscarded) -> None:
    add_goods(state, e.seat, e.cards, -1)
    if e.reason == "seven":
        del state.owed_discards[e.seat]
        if not state.owed_discards:
            state.phase = ROBBER
    else:
        state.default_owed = 0
        state.phase = AUCTION_REOPEN


def on_robber_moved(state: State, e: ev.RobberMoved) -> None:
    state.robber = state.geometry.hex_index[(e.hex[0], e.hex[1])]
    if e.cause == "seven":
        state.phase = after_roll_phase(state)


def on_card_stolen(state: State, e: ev.CardStolen) -> None:
    if e.card is not None:
        index = RESOURCE_INDEX[e.card]
        state.hands[e.victim][index] -= 1
        state.hands[e.thief][index] += 1
        state.steals += 1


def on_army_moved(state: State, e: ev.ArmyMoved) -> None:
    state.position = e.to_position
    state.phase = TRADE_BUILD  # a task opens an auction right after


def on_army_halted(state: State, e: ev.ArmyHalted) -> None:
    state.phase = TRADE_BUILD


def on_task_revealed(state: State, e: ev.TaskRevealed) -> None:
    state.tokens_on_board.pop(e.crossing, None)


def on_auction_opened(state: State, e: ev.AuctionOpened) -> None:
    state.auction = Auction(crossing=e.crossing, task=e.task, round=e.round, excluded=list(e.excluded), to_act=e.to_act)
    state.phase = AUCTION


def next_bidder(state: State, auction: Auction, after: int) -> None:
    """R21c/d: the turn passes clockwise to the next player still in, or the auction ends."""
    still_in = [
        s
        for s in clockwise_from(state, (after + 1) % state.players)
        if s not in auction.excluded and s not in auction.dropped
    ]
    if not still_in or still_in == [auction.high_bidder]:
        auction.to_act = None
        state.phase = AUCTION_CLOSE
        return
    auction.to_act = next(s for s in still_in if s != auction.high_bidder)


def on_bid_placed(state: State, e: ev.BidPlaced) -> None:
    auction = state.auction
    assert auction is not None
    auction.high_bid = e.amount
    auction.high_bidder = e.seat
    next_bidder(state, auction, e.seat)


def on_bidder_dropped_out(state: State, e: ev.BidderDroppedOut) -> None:
    auction = state.auction
    assert auction is not None
    auction.dropped.append(e.seat)
    next_bidder(state, auction, e.seat)


def on_auction_closed(state: State, e: ev.AuctionClosed) -> None:
    if e.winner is None:
        state.auction = None
        state.phase = TRADE_BUILD
    else:
        state.phase = PAYMENT


def on_bid_defaulted(state: State, e: ev.BidDefaulted) -> None:
    auction = state.auction
    assert auction is not None
    auction.excluded.append(e.seat)
    if e.owed_discard:
        state.default_owed = e.owed_discard
        state.phase = DEFAULT_DISCARD
    else:
        state.phase = AUCTION_REOPEN


def on_bid_paid(state: State, e: ev.BidPaid) -> None:
    add_goods(state, e.seat, e.items, -1)
    if e.knights:
        state.army[e.seat] -= e.knights
        state.dev_deck.extend(["knight"] * e.knights)  # R25: under the deck
    state.phase = REWARD


def task_done(state: State) -> None:
    state.auction = None
    state.phase = TRADE_BUILD


def recompute_road_lengths(state: State, seats: Iterable[int]) -> None:
    for s in seats:
        state.road_length[s] = road_length(state, s)


def on_settlement_built(state: State, e: ev.SettlementBuilt) -> None:
    geometry = state.geometry
    vertex = geometry.vertex_index[e.vertex]
    state.owner[vertex] = e.seat
    state.level[vertex] = 1
    state.buildings_of[e.seat].append(vertex)
    state.settlements[e.seat] += 1
    use_harbour(state, e.seat, vertex)
    if e.source == "build":
        pay_cost(state, e.seat, SETTLEMENT_COST)
    elif e.source == "temple":
        task_done(state)
    else:
        state.founding_vertex = vertex
        state.phase = FOUNDING_ROAD
    # a settlement cuts another player's road that passes through it (two of his roads meet there)
    owners = [state.road_owner[x] for x in geometry.vertex_edges[vertex]]
    recompute_road_lengths(state, {s for s in owners if s not in (-1, e.seat) and owners.count(s) > 1})


def on_temple_left_empty(state: State, e: ev.TempleLeftEmpty) -> None:
    task_done(state)


def on_task_token_awarded(state: State, e: ev.TaskTokenAwarded) -> None:
    state.tokens_won[e.seat] = e.tokens_now
    task_done(state)


def on_task_token_removed(state: State, e: ev.TaskTokenRemoved) -> None:
    task_done(state)


def on_advisor_changed(state: State, e: ev.AdvisorChanged) -> None:
    handdown = state.handdown
    if handdown is not None and e.advisor == handdown.card and e.from_seat == handdown.giver:
        state.handdown = None
        if state.phase == ADVISOR_CHOICE:
            state.phase = TRADE_BUILD
    elif e.advisor == "first" and e.from_seat is not None:
        previous = advisor_of(state, e.to_seat)
        if previous is not None:  # R32
            old = e.from_seat
            level = state.tokens_won[old]
            eligible = [old] + [
                s
                for s in range(state.players)
                if s not in (old, e.to_seat) and state.tokens_won[s] == level and advisor_of(state, s) is None
            ]
            state.handdown = Handdown(card=previous, giver=e.to_seat, eligible=sorted(eligible))
            if len(eligible) > 1:
                state.phase = ADVISOR_CHOICE
    state.advisors[e.advisor] = e.to_seat


def on_road_built(state: State, e: ev.RoadBuilt) -> None:
    geometry = state.geometry
    a = geometry.vertex_index[e.edge[0]]
    b = geometry.vertex_index[e.edge[1]]
    edge = geometry.edge_between(a, b)
    assert edge is not None
    state.road_owner[edge] = e.seat
    state.roads_of[e.seat].append(edge)
    state.roads[e.seat] += 1
    if state.phase == FOUNDING_ROAD:
        state.founding_step += 1
        state.founding_vertex = -1
        if state.founding_step >= 2 * state.players:
            state.phase = TURN_START
            state.active = state.players - 1  # so the next turn is seat 0's
        else:
            state.phase = FOUNDING_SETTLEMENT
            state.active = state.founding_seat()
    elif not e.free:
        pay_cost(state, e.seat, ROAD_COST)
    # a new road only extends the network it joins; the seat's other networks keep their lengths
    network = component_edges(state, e.seat, a)
    state.road_length[e.seat] = max(state.road_length[e.seat], longest_trail(state, e.seat, network))


def on_city_built(state: State, e: ev.CityBuilt) -> None:
    vertex = state.geometry.vertex_index[e.vertex]
    state.level[vertex] = 2
    state.settlements[e.seat] -= 1
    state.cities[e.seat] += 1
    pay_cost(state, e.seat, CITY_COST)


def on_founding_resources_gained(state: State, e: ev.FoundingResourcesGained) -> None:
    add_goods(state, e.seat, e.cards, +1)


def on_development_card_bought(state: State, e: ev.DevelopmentCardBought) -> None:
    pay_cost(state, e.seat, DEVELOPMENT_COST)
    del state.dev_deck[0]
    state.dev_new[e.seat].append(e.card)


def play_card(state: State, seat: int, card: str) -> None:
    state.dev_hand[seat].remove(card)
    state.played_dev = True


def on_knight_played(state: State, e: ev.KnightPlayed) -> None:
    play_card(state, e.seat, "knight")
    state.army[e.seat] += 1


def on_road_building_played(state: State, e: ev.RoadBuildingPlayed) -> None:
    play_card(state, e.seat, "road_building")


def on_year_of_plenty_played(state: State, e: ev.YearOfPlentyPlayed) -> None:
    play_card(state, e.seat, "year_of_plenty")
    add_goods(state, e.seat, e.taken, +1)


def on_monopoly_played(state: State, e: ev.MonopolyPlayed) -> None:
    play_card(state, e.seat, "monopoly")
    index = RESOURCE_INDEX[e.resource]
    for seat, count in e.taken.items():
        state.hands[int(seat)][index] -= count
        state.hands[e.seat][index] += count


def on_longest_road_changed(state: State, e: ev.LongestRoadChanged) -> None:
    state.longest_road = e.holder


def on_largest_army_changed(state: State, e: ev.LargestArmyChanged) -> None:
    state.largest_army = e.holder


def on_trade_offered(state: State, e: ev.TradeOffered) -> None:
    state.offers[e.offer_id] = Offer(
        offer_id=e.offer_id, maker=e.maker, to=list(e.to), give=goods_of(e.give), receive=goods_of(e.receive)
    )
    state.next_offer_id = e.offer_id + 1


def on_trade_responded(state: State, e: ev.TradeResponded) -> None:
    state.offers[e.offer_id].responses[e.seat] = e.accept


def on_trade_completed(state: State, e: ev.TradeCompleted) -> None:
    add_goods(state, e.maker, e.maker_gave, -1, bank=False)
    add_goods(state, e.partner, e.maker_gave, +1, bank=False)
    add_goods(state, e.partner, e.partner_gave, -1, bank=False)
    add_goods(state, e.maker, e.partner_gave, +1, bank=False)
    del state.offers[e.offer_id]


def on_trade_cancelled(state: State, e: ev.TradeCancelled) -> None:
    del state.offers[e.offer_id]


def on_bank_traded(state: State, e: ev.BankTraded) -> None:
    add_goods(state, e.seat, e.gave, -1)
    add_goods(state, e.seat, e.received, +1)


def on_turn_ended(state: State, e: ev.TurnEnded) -> None:
    seat = e.seat
    state.dev_hand[seat].extend(state.dev_new[seat])
    state.dev_new[seat] = []
    state.played_dev = False
    state.phase = TURN_START


def on_game_ended(state: State, e: ev.GameEnded) -> None:
    state.phase = GAME_OVER
    state.end_reason = e.reason
    state.winners = list(e.winners)
    state.final_totals = [e.scores[str(s)]["total"] for s in range(state.players)]


EVOLVERS: dict[str, Callable[[State, Any], None]] = {
    "GameSetUp": on_game_set_up,
    "StacksShuffled": on_stacks_shuffled,
    "StartingHandDealt": on_starting_hand_dealt,
    "TurnStarted": on_turn_started,
    "SupplyCardDrawn": on_supply_card_drawn,
    "SupplyClosed": on_supply_closed,
    "DiceRolled": on_dice_rolled,
    "ResourcesProduced": on_resources_produced,
    "DiscardsRequired": on_discards_required,
    "CardsDiscarded": on_cards_discarded,
    "RobberMoved": on_robber_moved,
    "CardStolen": on_card_stolen,
    "ArmyMoved": on_army_moved,
    "ArmyHalted": on_army_halted,
    "TaskRevealed": on_task_revealed,
    "AuctionOpened": on_auction_opened,
    "BidPlaced": on_bid_placed,
    "BidderDroppedOut": on_bidder_dropped_out,
    "AuctionClosed": on_auction_closed,
    "BidPaid": on_bid_paid,
    "BidDefaulted": on_bid_defaulted,
    "SettlementBuilt": on_settlement_built,
    "TempleLeftEmpty": on_temple_left_empty,
    "TaskTokenAwarded": on_task_token_awarded,
    "TaskTokenRemoved": on_task_token_removed,
    "AdvisorChanged": on_advisor_changed,
    "RoadBuilt": on_road_built,
    "CityBuilt": on_city_built,
    "FoundingResourcesGained": on_founding_resources_gained,
    "DevelopmentCardBought": on_development_card_bought,
    "KnightPlayed": on_knight_played,
    "RoadBuildingPlayed": on_road_building_played,
    "YearOfPlentyPlayed": on_year_of_plenty_played,
    "MonopolyPlayed": on_monopoly_played,
    "LongestRoadChanged": on_longest_road_changed,
    "LargestArmyChanged": on_largest_army_changed,
    "TradeOffered": on_trade_offered,
    "TradeResponded": on_trade_responded,
    "TradeCompleted": on_trade_completed,
    "TradeCancelled": on_trade_cancelled,
    "BankTraded": on_bank_traded,
    "TurnEnded": on_turn_ended,
    "GameEnded": on_game_ended,
}


def evolve(state: State, event: Event) -> State:
    EVOLVERS[event.type](state, event)
    return state
