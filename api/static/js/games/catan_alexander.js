// Catan "Alexander the Great" and the base board: hexes with numbers, harbours, roads, settlements,
// cities, the robber, Alexander's route and position, the open auction, hand counts (a seat's own
// cards in its perspective, every hand after the end), development cards, Longest Road, Largest Army.

import { bundle, h, placeChildren, plural, reused as sharedReused, s, seatChip, seatColour, seatName, target, textLines, title, words, wrapWords } from '../core/dom.js';
import { checkField, checkedValues, countField, counts, formsBox, moveForm } from '../core/forms.js';

const TRADE_GOODS = ['brick', 'grain', 'lumber', 'ore', 'wool', 'gold']; // what a domestic trade moves (R37)

const UNIT = 34; // pixels per hex circumradius
const PAD = 40;
const PRODUCT_COLOURS = {
  brick: '#c8553d', grain: '#f2c14e', lumber: '#40916c', ore: '#8d99ae', wool: '#a7d7a0', gold: '#e0b100', null: '#e9dcc9',
};
const hexKey = (hx) => hx.join(',');
const edgeKey = (edge) => [...edge].sort().join('|');

// A board's geometry, worked out once per board: a timeline step only looks it up.
const LAYOUTS = new WeakMap();

function layout(data, boardName) {
  const board = data.static.boards[boardName];
  if (!LAYOUTS.has(board)) LAYOUTS.set(board, boardLayout(board));
  return LAYOUTS.get(board);
}

function boardLayout(board) {
  const vertices = new Map(board.vertices.map((v) => [v.vertex, v.xy]));
  const xs = board.vertices.map((v) => v.xy[0]);
  const ys = board.vertices.map((v) => v.xy[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const at = (xy) => [(xy[0] - minX) * UNIT + PAD, (xy[1] - minY) * UNIT + PAD];
  const width = (Math.max(...xs) - minX) * UNIT + 2 * PAD;
  const height = (Math.max(...ys) - minY) * UNIT + 2 * PAD;
  const edges = board.edges.map((edge) => ({ edge, key: edgeKey(edge) }));
  return { board, vertex: (name) => at(vertices.get(name)), at, width, height, edges };
}

function players(ctx) {
  // every seat's own entry where this perspective may see it: its own, or all after the end
  const list = ctx.state.players.map((p) => ({ ...p }));
  if (ctx.seatViews) ctx.seatViews.forEach((v, seat) => Object.assign(list[seat], v.players[seat]));
  return list;
}

export default {
  /** The catalog's title is the scenario's: a game on the base board says so. */
  title(view, data) {
    return view.options?.board === 'base' ? 'Catan (the base game board)' : data.title;
  },

  // On a phone the board starts at 3.2 pixels a unit: each intersection and each path between two
  // is then a target of 54 px (app.css sizes them), a settlement (14 units) of 45 px.
  touchScale: 3.2,

  draw(ctx) {
    const { svg, data, state: st } = ctx;
    const g = layout(data, st.board);
    svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
    svg.setAttribute('aria-label', `Catan board (${st.board}) at version ${ctx.view.version}: ${st.roads.length} roads, ${st.buildings.length} buildings`);
    const names = new Map(g.board.hexes.map((hx) => [hexKey(hx.hex), hx]));
    svg.append(...fixedLayers(g, st, names));
    drawRoute(svg, g, st);
    drawPieces(svg, g, st, names);
    drawDetails(ctx);
  },

  summary(view) {
    const st = view.state;
    return `Turn ${st.turn} · ${words(st.phase)}${st.roll ? ` · rolled ${st.roll}` : ''}`;
  },

  describe(record, data) {
    const d = record.data;
    const who = seatName(d.seat);
    switch (record.type) {
      case 'GameSetUp': return `The ${d.board_id} board is set up.`;
      case 'StacksShuffled': return 'The supply, the development deck and the task tokens are shuffled.';
      case 'StartingHandDealt': return `${who} receives a starting hand (${plural(d.card_count, 'card')}, ${d.gold} gold).`;
      case 'TurnStarted': return `Turn ${d.turn}: ${who} to play.`;
      case 'SupplyCardDrawn': return `${who} draws ${d.card ? `a ${d.card}` : 'a card'} from the supply.`;
      case 'SupplyClosed': return 'The supply stack is closed.';
      case 'DiceRolled': return `${who} rolls ${d.total}.`;
      case 'ResourcesProduced': return `Production: ${Object.entries(d.gains || {}).map(([seat, gain]) => `${seatName(seat)} ${bundle(gain)}`).join('; ') || 'nobody gains'}.`;
      case 'DiscardsRequired': return `Discards owed: ${Object.entries(d.owed).map(([seat, n]) => `${seatName(seat)} ${n}`).join(', ')}.`;
      case 'CardsDiscarded': return `${who} discards ${d.cards ? bundle(d.cards) : 'cards'}.`;
      case 'RobberMoved': return `${who} moves the robber to ${hexName(data, d.hex)}.`;
      case 'CardStolen': return d.stolen ? `${seatName(d.thief)} steals ${d.card ? `a ${d.card}` : 'a card'} from ${seatName(d.victim)}.` : `${seatName(d.thief)} finds nothing to steal from ${seatName(d.victim)}.`;
      case 'ArmyMoved': return `Alexander's army marches from X${d.from_position} to X${d.to_position}.`;
      case 'ArmyHalted': return `Alexander's army halts at X${d.position}.`;
      case 'TaskRevealed': return `The task at X${d.crossing} is ${words(d.task)}.`;
      case 'AuctionOpened': return `An auction opens for the ${words(d.task)} at X${d.crossing} (accepting ${d.accepted.join(', ')}).`;
      case 'BidPlaced': return `${who} bids ${d.amount}.`;
      case 'BidderDroppedOut': return `${who} drops out of the auction.`;
      case 'AuctionClosed': return d.winner === null ? `The auction at X${d.crossing} closes without a winner.` : `${seatName(d.winner)} wins the auction at X${d.crossing} for ${d.amount}.`;
      case 'BidPaid': return `${who} pays ${bundle(d.items)}${d.knights ? ` and ${plural(d.knights, 'knight')}` : ''}.`;
      case 'BidDefaulted': return `${who} cannot pay the bid of ${d.amount} and owes ${d.owed_discard} discards.`;
      case 'SettlementBuilt': return `${who} builds a settlement at ${d.vertex}${d.free ? ' (free)' : ''}.`;
      case 'TempleLeftEmpty': return `The temple at X${d.crossing} stays empty (${words(d.reason)}).`;
      case 'TaskTokenAwarded': return `${who} wins the ${words(d.task)} task (${plural(d.tokens_now, 'task')} now).`;
      case 'TaskTokenRemoved': return `The ${words(d.task)} task at X${d.crossing} is removed.`;
      case 'AdvisorChanged': return `The ${d.advisor} advisor goes to ${seatName(d.to_seat)}.`;
      case 'RoadBuilt': return `${who} builds a road ${d.edge.join('–')}${d.free ? ' (free)' : ''}.`;
      case 'CityBuilt': return `${who} builds a city at ${d.vertex}.`;
      case 'FoundingResourcesGained': return `${who} gains ${bundle(d.cards)} from the founding settlement.`;
      case 'DevelopmentCardBought': return `${who} buys a development card${d.card ? ` (${words(d.card)})` : ''}.`;
      case 'KnightPlayed': return `${who} plays a knight.`;
      case 'RoadBuildingPlayed': return `${who} plays road building.`;
      case 'YearOfPlentyPlayed': return `${who} plays year of plenty and takes ${bundle(d.taken)}.`;
      case 'MonopolyPlayed': return `${who} plays monopoly on ${d.resource}.`;
      case 'LongestRoadChanged': return d.holder === null ? 'Nobody holds the Longest Road.' : `${seatName(d.holder)} takes the Longest Road (${d.length}).`;
      case 'LargestArmyChanged': return d.holder === null ? 'Nobody holds the Largest Army.' : `${seatName(d.holder)} takes the Largest Army (${d.size}).`;
      case 'TradeOffered': return `${seatName(d.maker)} offers ${bundle(d.give)} for ${bundle(d.receive)}.`;
      case 'TradeResponded': return `${who} ${d.accept ? 'accepts' : 'declines'} offer ${d.offer_id}.`;
      case 'TradeCompleted': return `${seatName(d.maker)} and ${seatName(d.partner)} trade ${bundle(d.maker_gave)} for ${bundle(d.partner_gave)}.`;
      case 'TradeCancelled': return d.reason === 'unfunded'
        ? `Offer ${d.offer_id} is withdrawn: its maker no longer holds his side.`
        : `Offer ${d.offer_id} is withdrawn.`;
      case 'AcceptanceWithdrawn': return `${who} no longer holds his side of offer ${d.offer_id}: the acceptance is withdrawn.`;
      case 'BankTraded': return `${who} trades ${bundle(d.gave)} with the bank for ${bundle(d.received)}.`;
      case 'TurnEnded': return `${who} ends the turn.`;
      default: return null;
    }
  },

  describeMove(move, data, view) {
    switch (move.type) {
      case 'roll_dice': return 'Roll the dice';
      case 'move_alexander': return "Move Alexander's army";
      case 'discard': return `Discard ${bundle(move.cards)}`;
      case 'move_robber': return `Move the robber to ${hexName(data, move.hex)}${move.steal_from !== null && move.steal_from !== undefined ? `, stealing from ${seatName(move.steal_from)}` : ''}`;
      case 'play_knight': return `Play a knight: robber to ${hexName(data, move.hex)}${move.steal_from !== null && move.steal_from !== undefined ? `, stealing from ${seatName(move.steal_from)}` : ''}`;
      case 'place_bid': return `Bid ${move.amount}`;
      case 'pass_bid': return 'Pass (drop out of the auction)';
      case 'pay_bid': return `Pay ${bundle(move.items)}${move.knights ? ` and ${plural(move.knights, 'knight')}` : ''}`;
      case 'choose_advisor_recipient': return `Hand the advisor to ${seatName(move.seat)}`;
      case 'offer_trade': return `Offer ${bundle(move.give)} for ${bundle(move.receive)}${move.to ? ` to ${move.to.map(seatName).join(', ')}` : ''}`;
      case 'respond_trade': return `${move.accept ? 'Accept' : 'Decline'} offer ${move.offer_id}${offerTerms(view, move.offer_id)}`;
      case 'confirm_trade': return `Trade with ${seatName(move.partner)}: offer ${move.offer_id}${offerTerms(view, move.offer_id)}`;
      case 'cancel_trade': return `Withdraw offer ${move.offer_id}${offerTerms(view, move.offer_id)}`;
      case 'bank_trade': return `Trade ${move.lots || 1}× ${move.give} with the bank for ${move.receive}`;
      case 'build_road': return move.edge ? `Build a road ${move.edge.join('–')}` : 'Build a road';
      case 'build_settlement': return move.vertex ? `Build a settlement at ${move.vertex}` : 'Build a settlement';
      case 'build_city': return move.vertex ? `Build a city at ${move.vertex}` : 'Build a city';
      case 'buy_development_card': return 'Buy a development card';
      case 'play_road_building': return `Play road building: ${(move.edges || []).map((e) => e.join('–')).join(', ')}`;
      case 'play_year_of_plenty': return `Play year of plenty: ${(move.resources || []).join(', ')}`;
      case 'play_monopoly': return `Play monopoly on ${move.resource}`;
      case 'end_turn': return 'End the turn';
      default: return words(move.type || 'a command');
    }
  },

  /** A domestic trade offer (R36, R37): counts to give and to receive, and whom it is for. */
  forms({ state, seat, types, send }) {
    if (!types.includes('offer_trade')) return [];
    const me = state.players?.[seat] || {};
    const have = (good) => (good === 'gold' ? me.gold : me.hand?.[good]);
    const active = state.active;
    const others = (state.players || []).map((p) => p.seat).filter((s) => s !== seat);
    const addressees = seat === active
      ? h('fieldset', { class: 'to' }, h('legend', {}, 'To (none ticked: every other player)'), others.map((s) => checkField('to', seatName(s), s)))
      : h('p', { class: 'hint' }, 'A counter-offer goes to ', seatChip(active), ', the active player.');
    const side = (prefix, legend, withHave) => h('fieldset', { class: 'goods' }, h('legend', {}, legend),
      TRADE_GOODS.map((good) => countField(`${prefix}:${good}`, words(good), { hint: withHave && have(good) !== undefined ? `(you have ${have(good)})` : '' })));
    return formsBox([moveForm({
      type: 'offer_trade',
      legend: 'Offer a trade',
      intro: 'Each side needs at least one card; no good on both sides.',
      fields: [side('give', 'You give', true), side('receive', 'You receive', false), addressees],
      status: (form) => `Give ${bundle(counts(form, 'give'))} for ${bundle(counts(form, 'receive'))}.`,
      build: (form) => {
        const to = seat === active ? checkedValues(form, 'to').map(Number) : [active];
        return { type: 'offer_trade', give: counts(form, 'give'), receive: counts(form, 'receive'), to: to.length ? to : null };
      },
      submit: 'Offer',
      send,
    })], types);
  },

  moveTargets(move) {
    switch (move.type) {
      case 'build_road': return move.edge ? [`edge:${edgeKey(move.edge)}`] : [];
      case 'build_settlement':
      case 'build_city': return move.vertex ? [`vertex:${move.vertex}`] : [];
      case 'move_robber':
      case 'play_knight': return move.hex ? [`hex:${hexKey(move.hex)}`] : [];
      case 'play_road_building': return (move.edges || []).map((e) => `edge:${edgeKey(e)}`);
      default: return [];
    }
  },
};

/** What an open offer of the shown view trades, for the moves that answer, confirm or withdraw it. */
function offerTerms(view, offerId) {
  const offer = (view?.state?.offers || []).find((o) => o.offer_id === offerId);
  return offer ? ` (${seatName(offer.maker)} gives ${bundle(offer.give)} for ${bundle(offer.receive)})` : '';
}

function hexName(data, hex) {
  if (!hex) return 'a hex';
  for (const board of Object.values(data.static.boards)) {
    const found = board.hexes.find((hx) => hexKey(hx.hex) === hexKey(hex));
    if (found) return found.name;
  }
  return hexKey(hex);
}


// The board's fixed layers (hexes, their names and numbers, harbours) are built once per board and
// drawn again as they are: a timeline step then builds only what moves (the route, roads, buildings).
const FIXED = { key: null, layers: null };

function fixedLayers(g, st, names) {
  const key = `${st.board}|${st.hexes.map((hx) => `${hexKey(hx.hex)}:${hx.product}:${hx.number}`).join(';')}`;
  if (FIXED.key === key) return FIXED.layers;
  const hexes = s('g', { class: 'hexes' });
  const hexNames = s('g', { class: 'hex-names' }); // over every hex: a neighbour never covers a long name
  for (const hex of st.hexes) {
    const info = names.get(hexKey(hex.hex));
    const corners = info.corners.map((c) => g.vertex(c).join(',')).join(' ');
    const [cx, cy] = g.at(info.centre);
    const shape = s('polygon', { points: corners, fill: PRODUCT_COLOURS[hex.product] || PRODUCT_COLOURS.null, stroke: '#fff', 'stroke-width': 2, 'data-piece': 'hex', 'data-product': hex.product ?? '' },
      title(`${info.name}: ${hex.product || 'desert'}${hex.number ? `, ${hex.number}` : ''}`));
    hexes.append(target(shape, `hex:${hexKey(hex.hex)}`, `${info.name}, ${hex.product || 'desert'}${hex.number ? ` ${hex.number}` : ''}`));
    if (hex.number) {
      const hot = hex.number === 6 || hex.number === 8;
      hexes.append(
        s('circle', { cx, cy, r: 12, fill: '#fffaf0', stroke: '#555', 'pointer-events': 'none' }),
        s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'svg-label', style: `font-weight:700;fill:${hot ? '#b3261e' : '#222'}` }, String(hex.number)),
      );
    }
    if (st.board === 'alexander') {
      // on a white plate: legible on every terrain colour (WCAG AA), wrapped to the hex's width
      const lines = wrapWords(info.name, 11);
      const y0 = cy + (lines.length > 1 ? 17 : 22);
      const width = Math.max(...lines.map((l) => l.length)) * 4.6 + 4;
      hexNames.append(
        s('rect', { x: cx - width / 2, y: y0 - 7, width, height: lines.length * 8.5 + 1.5, rx: 2, fill: '#fff', 'fill-opacity': 0.85, 'pointer-events': 'none' }),
        textLines(lines, { x: cx, y: y0, lineHeight: 8.5, 'text-anchor': 'middle', class: 'svg-small hex-name', style: 'font-size:8px;fill:#1b1f24' }),
      );
    }
  }

  // harbours: a label just off the coast, beside the path they serve
  const harbours = s('g', { class: 'harbours' });
  for (const harbour of g.board.harbours) {
    const [a, b] = harbour.edge.map((v) => g.vertex(v));
    const land = g.board.hexes.find((hx) => harbour.edge.every((v) => hx.corners.includes(v)));
    const [cx, cy] = land ? g.at(land.centre) : [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const mx = (a[0] + b[0]) / 2;
    const my = (a[1] + b[1]) / 2;
    const dx = mx - cx;
    const dy = my - cy;
    const len = Math.hypot(dx, dy) || 1;
    const [hx, hy] = [mx + (dx / len) * 16, my + (dy / len) * 16];
    harbours.append(
      s('g', { 'data-piece': 'harbour', 'data-type': harbour.type },
        title(`harbour: ${harbour.type === 'generic' ? '3 : 1' : `2 ${harbour.type} : 1`}`),
        s('line', { x1: a[0], y1: a[1], x2: hx, y2: hy, stroke: '#7a5c3e', 'stroke-width': 2 }),
        s('line', { x1: b[0], y1: b[1], x2: hx, y2: hy, stroke: '#7a5c3e', 'stroke-width': 2 }),
        s('circle', { cx: hx, cy: hy, r: 10, fill: harbour.type === 'generic' ? '#fff' : PRODUCT_COLOURS[harbour.type], stroke: '#7a5c3e' }),
        s('text', { x: hx, y: hy + 3, 'text-anchor': 'middle', class: 'svg-small', style: 'font-size:8px' }, harbour.type === 'generic' ? '3:1' : '2:1')),
    );
  }
  FIXED.key = key;
  FIXED.layers = [hexes, hexNames, harbours];
  return FIXED.layers;
}

function drawRoute(svg, g, st) {
  // Alexander's route (scenario board): drawn again only when a task token or the army moves
  if (!g.board.route.length) return;
  const key = `route|${st.face_down_tokens.join(',')}|${st.alexander}`;
  svg.append(reused(st.board, key, () => {
    const route = s('g', { class: 'route' });
    route.append(s('polyline', { points: g.board.route.map((x) => g.vertex(x.vertex).join(',')).join(' '), fill: 'none', stroke: '#6a4c93', 'stroke-width': 3, 'stroke-opacity': 0.55, 'stroke-dasharray': '2 5', 'pointer-events': 'none' }));
    const faceDown = new Set(st.face_down_tokens);
    for (const x of g.board.route) {
      const [vx, vy] = g.vertex(x.vertex);
      if (x.kind === 'temple') route.append(s('path', { d: `M${vx},${vy - 8} l7,12 h-14 z`, fill: '#fff', stroke: '#6a4c93', 'pointer-events': 'none' }, title(`temple: ${x.site}`)));
      if (faceDown.has(x.x)) route.append(s('circle', { cx: vx, cy: vy, r: 6, fill: '#6a4c93', 'data-piece': 'task-token', 'pointer-events': 'none' }, title(`face-down task at ${x.site}`)));
    }
    const here = g.board.route[Math.min(st.alexander, g.board.route.length - 1)];
    if (here) {
      const [ax, ay] = g.vertex(here.vertex);
      route.append(s('g', { 'data-piece': 'alexander', 'data-position': st.alexander, 'pointer-events': 'none' },
        title(`Alexander's army at X${st.alexander}${here.site ? ` (${here.site})` : ''}`),
        s('circle', { cx: ax, cy: ay, r: 10, fill: '#ffd700', stroke: '#6a4c93', 'stroke-width': 3 }),
        s('text', { x: ax, y: ay + 4, 'text-anchor': 'middle', class: 'svg-small', style: 'font-weight:700' }, 'A')));
    }
    return route;
  }));
}

// The board's paths, intersections, roads, buildings and route, kept by what they show (dom.js's
// reused(), per board): a timeline step draws again only what changed (a road built, a settlement
// grown to a city) and leaves every other node where it is, in groups kept per board.
const reused = (board, key, make) => sharedReused(`catan_alexander:${board}`, key, make);

function drawPieces(svg, g, st, names) {
  // every path is a target (roads), drawn under the buildings
  const roads = new Map(st.roads.map((r) => [edgeKey(r.edge), r.seat]));
  const paths = reused(st.board, 'group:paths', () => s('g', { class: 'paths' }));
  placeChildren(paths, g.edges.map(({ edge, key: drawnKey }) => {
    const key = `edge:${drawnKey}`;
    const seat = roads.get(drawnKey);
    const built = seat !== undefined;
    return reused(st.board, built ? `${key}|road|${seat}|${seatName(seat)}` : key, () => {
      const [a, b] = edge.map((v) => g.vertex(v));
      const drawn = s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: built ? seatColour(seat) : 'transparent', 'stroke-width': built ? 7 : 9, 'stroke-linecap': 'round', 'data-piece': built ? 'road' : null, 'data-seat': built ? seat : null });
      if (built) drawn.append(title(`road of ${seatName(seat)}`));
      return target(drawn, key, `path ${edge.join(' to ')}`);
    });
  }));
  svg.append(paths);

  const buildings = new Map(st.buildings.map((b) => [b.vertex, b]));
  const spots = reused(st.board, 'group:vertices', () => s('g', { class: 'vertices' }));
  placeChildren(spots, g.board.vertices.map((v) => {
    const [x, y] = g.vertex(v.vertex);
    const building = buildings.get(v.vertex);
    const key = `vertex:${v.vertex}`;
    if (!building) return reused(st.board, key, () => target(s('circle', { cx: x, cy: y, r: 7, fill: 'transparent', class: 'spot' }), key, `intersection ${v.vertex}`));
    return reused(st.board, `${key}|${building.kind}|${building.seat}|${seatName(building.seat)}`, () => {
      const shape = building.kind === 'city'
        ? s('rect', { x: x - 9, y: y - 9, width: 18, height: 18, rx: 2, fill: seatColour(building.seat), stroke: '#fff', 'stroke-width': 2, 'data-piece': 'city', 'data-seat': building.seat }, title(`city of ${seatName(building.seat)}`))
        : s('path', { d: `M${x - 7},${y + 6} v-8 l7,-6 l7,6 v8 z`, fill: seatColour(building.seat), stroke: '#fff', 'stroke-width': 1.5, 'data-piece': 'settlement', 'data-seat': building.seat }, title(`settlement of ${seatName(building.seat)}`));
      return target(shape, key, `intersection ${v.vertex}`);
    });
  }));
  svg.append(spots);

  if (st.robber) {
    const info = names.get(hexKey(st.robber));
    const [rx, ry] = g.at(info.centre);
    svg.append(reused(st.board, `robber|${hexKey(st.robber)}`, () => s('g', { 'data-piece': 'robber', 'data-hex': hexKey(st.robber), 'pointer-events': 'none' }, title(`the robber on ${info.name}`),
      s('ellipse', { cx: rx + 16, cy: ry - 6, rx: 6, ry: 11, fill: '#222', stroke: '#fff' }))));
  }
  svg.dataset.roads = st.roads.length;
  svg.dataset.settlements = st.buildings.filter((b) => b.kind === 'settlement').length;
  svg.dataset.cities = st.buildings.filter((b) => b.kind === 'city').length;
}

function drawDetails(ctx) {
  const st = ctx.state;
  // the panel: players, own cards, auction, offers, bank
  const list = players(ctx);
  const table = h('table', {}, h('caption', {}, 'Players'),
    h('thead', {}, h('tr', {}, ...['Seat', 'Cards', 'Gold', 'Dev.', 'Knights', 'Road', 'Tasks', 'VP'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, list.map((p) => h('tr', { 'data-seat': p.seat },
      h('th', { scope: 'row' }, seatChip(p.seat)),
      h('td', { 'data-hand-size': p.hand_size }, String(p.hand_size)), h('td', {}, String(p.gold)), h('td', {}, String(p.development_cards)),
      h('td', {}, String(p.army)), h('td', {}, String(p.road_length)), h('td', {}, String(p.tokens)),
      h('td', {}, p.total_vp !== undefined ? `${p.public_vp} (${p.total_vp})` : String(p.public_vp))))));
  ctx.panel.append(table);
  for (const p of list) {
    if (!p.hand) continue;
    const cards = [];
    for (const [resource, n] of Object.entries(p.hand)) for (let i = 0; i < n; i++) cards.push(h('span', { class: 'card', 'data-piece': 'hand-card', 'data-seat': p.seat, style: `background:${PRODUCT_COLOURS[resource]}33` }, resource));
    const dev = [...(p.development || []), ...(p.development_new || []).map((c) => `${c} (new)`)].map((c) => h('span', { class: 'card', 'data-piece': 'development-card', 'data-seat': p.seat }, words(c)));
    ctx.panel.append(h('div', {}, h('h3', {}, `${seatName(p.seat)}'s hand`), h('div', { class: 'cards' }, cards.length ? cards : 'no resource cards'), dev.length ? h('div', { class: 'cards' }, dev) : null));
  }
  const titles = [];
  if (st.longest_road !== null && st.longest_road !== undefined) titles.push(h('span', {}, 'Longest Road: ', seatChip(st.longest_road), '; '));
  if (st.largest_army !== null && st.largest_army !== undefined) titles.push(h('span', {}, 'Largest Army: ', seatChip(st.largest_army)));
  if (titles.length) ctx.panel.append(h('p', {}, ...titles));
  const advisors = Object.entries(st.advisors || {});
  if (advisors.length) ctx.panel.append(h('p', {}, 'Advisors: ', ...advisors.map(([a, seat], i) => h('span', {}, i ? '; ' : '', `${a} `, seatChip(seat)))));
  if (st.auction) {
    const a = st.auction;
    ctx.panel.append(h('h3', {}, `Auction: ${words(a.task)} at crossing X${a.crossing}`),
      h('p', { 'data-piece': 'auction' }, `High bid ${a.high_bid ?? '—'}${a.high_bidder !== null && a.high_bidder !== undefined ? ` by ${seatName(a.high_bidder)}` : ''}; ${seatName(a.to_act)} to act; round ${a.round}.`));
  }
  for (const offer of st.offers || []) {
    ctx.panel.append(h('p', { 'data-piece': 'offer' }, `Offer ${offer.offer_id}: ${seatName(offer.maker)} gives ${bundle(offer.give)} for ${bundle(offer.receive)}.`));
  }
  ctx.panel.append(h('p', {}, `Bank: ${bundle(st.bank)}; gold ${st.gold_supply}; development deck ${st.development_deck}.`));
}
