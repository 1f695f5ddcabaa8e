// Peloponnes: the offered tiles and the Conquest row with the bids on them, each seat's civilization,
// lands and buildings (built or marked) and counters, the disaster chits and the round.

import { h, listNames, plural, reused, reusedGroup, s, seatColour, seatName, seatTextColour, target, textLines, title, words, wrapWords } from '../core/dom.js';

const TILE_W = 118;
const TILE_H = 136;
const SMALL_W = 74;
const SMALL_H = 62;
const SEAT_ROW = 108; // a seat's row: its box is 100 high, its bid line inside it
const COUNTER_ICONS = { coins: 'coins', wood: 'wood', stone: 'stone', food: 'food', population: 'people', luxury: 'luxury' };

function tileCard(data, tileId, x, y, attrs = {}) {
  const tile = data.static.tiles[tileId];
  const building = tile.kind === 'building';
  const g = s('g', { transform: `translate(${x}, ${y})`, 'data-tile': tileId, ...attrs }, title(`${tile.name} (${tileId}): ${tile.kind}, minimum bid ${tile.min_bid}, prestige ${tile.prestige}`));
  g.append(
    s('rect', { width: TILE_W, height: TILE_H, rx: 6, fill: building ? '#f3ead7' : '#e4efd9', stroke: building ? '#9c7a3c' : '#5c8a4a', 'stroke-width': 2 }),
  );
  // the whole name, on two lines when long (never cut)
  const name = wrapWords(tile.name, 14).slice(0, 2);
  g.append(
    textLines(name, { x: 6, y: 15, lineHeight: 12, class: 'svg-small', style: 'font-weight:700;font-size:11px' }),
    s('text', { x: 6, y: 42, class: 'svg-small' }, `${tile.kind} · min bid ${tile.min_bid}`),
    s('text', { x: 6, y: 55, class: 'svg-small' }, `prestige ${tile.prestige}`),
  );
  const lines = [];
  if (building && (tile.cost_wood || tile.cost_stone)) lines.push(`cost ${tile.cost_wood} wood ${tile.cost_stone} stone`);
  const income = [['wood', tile.income_wood], ['stone', tile.income_stone], ['food', tile.income_food]].filter(([, n]) => n).map(([k, n]) => `${n} ${k}`);
  if (income.length) lines.push(`income ${income.join(', ')}`);
  if (tile.choice_income) lines.push(`income ${tile.choice_income} of choice`);
  const once = [['coins', tile.coins], ['food', tile.food], ['luxury', tile.luxury], ['people', tile.population]].filter(([, n]) => n).map(([k, n]) => `${n > 0 ? '+' : ''}${n} ${Math.abs(n) === 1 ? k.replace(/s$/, '') : k}`);
  if (once.length) lines.push(once.join(' '));
  if (tile.protects) lines.push(`protects: ${tile.protects}`);
  detailLines(lines).forEach((line, i) => g.append(s('text', { x: 6, y: DETAIL_TOP + i * DETAIL_STEP, class: 'svg-small', style: 'font-size:9.5px' }, line)));
  return g;
}

// A tile's details, from y = DETAIL_TOP down: each within the tile's width (a long line wraps, no
// word is cut), and those level with a bid's disc (bottom right, BID_R around BID_X, BID_Y) end
// before it.
const DETAIL_TOP = 70;
const DETAIL_STEP = 12;
const BID_R = 14;
const BID_X = TILE_W - 18;
const BID_Y = TILE_H - 18;
const DETAIL_MAX_LINES = 5;

function detailLines(lines) {
  const placed = [];
  for (const line of lines) {
    let words = line;
    while (words && placed.length < DETAIL_MAX_LINES) {
      const bottom = DETAIL_TOP + placed.length * DETAIL_STEP + 3; // the line's descenders
      const width = bottom >= BID_Y - BID_R - 2 ? 12 : 21; // characters beside the disc, or across
      const [first, ...rest] = wrapWords(words, width);
      placed.push(first);
      words = rest.join(' ');
    }
  }
  return placed;
}

function smallTile(data, tileId, x, y, attrs = {}, unfinished = false) {
  const tile = data.static.tiles[tileId];
  const building = tile.kind === 'building';
  return s('g', { transform: `translate(${x}, ${y})`, ...attrs },
    title(`${tile.name}${unfinished ? ' (marked, not yet built)' : ''}`),
    s('rect', { width: SMALL_W, height: SMALL_H, rx: 4, fill: building ? '#f3ead7' : '#e4efd9', stroke: building ? '#9c7a3c' : '#5c8a4a', 'stroke-width': 1.5, 'stroke-dasharray': unfinished ? '4 3' : null, 'fill-opacity': unfinished ? 0.5 : 1 }),
    textLines(wrapWords(tile.name, 13).slice(0, 2), { x: 4, y: 13, lineHeight: 11, class: 'svg-small', style: 'font-size:9px;font-weight:700' }),
    s('text', { x: 4, y: 38, class: 'svg-small', style: 'font-size:9px' }, `prestige ${tile.prestige}`),
    unfinished ? s('text', { x: 4, y: 51, class: 'svg-small', style: 'font-size:9px' }, 'marked') : null);
}

// The board's nodes, kept by what they show (dom.js's reused()): a timeline step draws again only
// the tiles, counters and bids that changed.
const kept = (key, make) => reused('peloponnes', key, make);

/** An offered tile at x, with its bid's disc: kept by the tile, its place, row and bid. */
function offeredTile(data, item, x) {
  const bid = item.bidder !== null && item.bidder !== undefined;
  const key = `offered|${item.tile_id}|${x}|${item.row}|${bid ? `${item.bidder}|${item.amount}|${seatName(item.bidder)}` : ''}`;
  return kept(key, () => {
    const card = tileCard(data, item.tile_id, x, 54, { 'data-piece': 'offered-tile', 'data-row': item.row });
    target(card, `tile:${item.tile_id}`, `${data.static.tiles[item.tile_id].name}, ${item.row}${item.bidder !== null ? `, bid ${item.amount} by ${seatName(item.bidder)}` : ''}`);
    if (bid) {
      card.append(s('g', { 'data-piece': 'bid', 'data-seat': item.bidder, 'data-amount': item.amount },
        title(`bid of ${item.amount} by ${seatName(item.bidder)}`),
        s('circle', { cx: BID_X, cy: BID_Y, r: BID_R, fill: seatColour(item.bidder), stroke: '#fff', 'stroke-width': 2 }),
        s('text', { x: BID_X, y: BID_Y + 5, 'text-anchor': 'middle', class: 'svg-label', style: 'fill:#fff;font-weight:700' }, String(item.amount))));
    }
    return card;
  });
}

/** A seat's row at y: the row is kept, and in it each part by what it shows (a counter changes
 * far more often than a seat's lands). */
function seatRow(data, seat, y, rowWidth) {
  const civ = data.static.civilizations[seat.civilization];
  const at = `seat|${seat.seat}|${y}`;
  const parts = [
    kept(`${at}|box|${rowWidth}`, () => s('rect', { x: -6, y: -6, width: rowWidth - 12, height: 100, rx: 6, fill: '#fff', stroke: seatColour(seat.seat), 'stroke-width': 2 })),
    kept(`${at}|name|${seatName(seat.seat)}|${civ ? civ.name : ''}`, () => s('text', { x: 0, y: 12, class: 'svg-label', style: `font-weight:700;fill:${seatTextColour(seat.seat)}` }, `${seatName(seat.seat)} · ${civ ? civ.name : 'no civilization yet'}`)),
  ];
  Object.keys(COUNTER_ICONS).forEach((counter, k) => {
    parts.push(kept(`${at}|${counter}|${seat[counter]}`, () => s('text', { x: (k % 2) * 78, y: 32 + Math.floor(k / 2) * 15, class: 'svg-small', 'data-counter': counter }, `${COUNTER_ICONS[counter]} ${seat[counter]}`)));
  });
  if (seat.bid) {
    const said = seat.bid.tile_id ? `bid ${seat.bid.amount} on ${data.static.tiles[seat.bid.tile_id].name}` : `displaced bid of ${seat.bid.amount}`;
    parts.push(kept(`${at}|bid|${said}`, () => textLines(wrapWords(said, 26), { x: 0, y: 78, lineHeight: 11, class: 'svg-small', 'data-piece': 'seat-bid' })));
  }
  let tx = 160;
  for (const land of seat.lands) {
    parts.push(kept(`${at}|land|${land}|${tx}`, () => smallTile(data, land, tx, 10, { 'data-piece': 'land', 'data-seat': seat.seat })));
    tx += SMALL_W + 6;
  }
  for (const building of seat.buildings) {
    const { tile_id: tile, unfinished } = building;
    parts.push(kept(`${at}|building|${tile}|${tx}|${unfinished}`, () => smallTile(data, tile, tx, 10, { 'data-piece': 'building', 'data-seat': seat.seat, 'data-unfinished': unfinished }, unfinished)));
    tx += SMALL_W + 6;
  }
  return reusedGroup('peloponnes', at, () => s('g', { transform: `translate(12, ${y})`, 'data-seat-row': seat.seat }), parts);
}

export default {
  draw(ctx) {
    const { svg, data, state: st } = ctx;
    const offered = [...st.auction.map((t) => ({ ...t, row: 'auction' })), ...st.conquest.map((t) => ({ ...t, row: 'conquest' }))];
    const rowWidth = Math.max(...st.seats.map((seat) => 170 + (seat.lands.length + seat.buildings.length) * (SMALL_W + 6)), 150 + offered.length * (TILE_W + 10) + 60, 900);
    const height = 200 + st.seats.length * SEAT_ROW + 30;
    svg.setAttribute('viewBox', `0 0 ${rowWidth} ${height}`);
    svg.setAttribute('aria-label', `Peloponnes at version ${ctx.view.version}: round ${st.round}, ${plural(offered.length, 'tile')} offered`);

    const head = `Round ${st.round} of ${data.static.rounds} · ${words(st.phase)} · stacks left ${Object.entries(st.stacks_left).map(([k, n]) => `${k}:${n}`).join(' ')} · disaster chits left ${st.chits_left}, strike ${st.strike ?? 0}/${data.static.strike_at}`;
    svg.append(kept(`head|${head}`, () => s('text', { x: 12, y: 20, class: 'svg-label', style: 'font-weight:600' }, head)));

    // the offered tiles: the auction row, then the Conquest row
    let x = 12;
    let lastRow = null;
    for (const item of offered) {
      if (item.row !== lastRow) {
        svg.append(kept(`row-name|${item.row}|${x}`, () => s('text', { x, y: 46, class: 'svg-label', style: 'font-weight:600' }, item.row === 'auction' ? 'Auction' : 'Conquest')));
        lastRow = item.row;
      }
      svg.append(offeredTile(data, item, x));
      x += TILE_W + 10;
      if (lastRow === 'auction' && offered[offered.indexOf(item) + 1]?.row === 'conquest') x += 20;
    }
    const drawn = Object.entries(st.chits_on_tile || {}).filter(([, n]) => n);
    if (drawn.length) {
      const chits = `disaster chits drawn: ${drawn.map(([k, n]) => `${words(k)} ${n}`).join(', ')}`;
      svg.append(kept(`chits|${chits}`, () => s('text', { x: 12, y: 36, class: 'svg-small' }, chits)));
    }

    // each seat: civilization, counters, lands and buildings
    st.seats.forEach((seat, i) => svg.append(seatRow(data, seat, 196 + i * SEAT_ROW, rowWidth)));
    svg.dataset.offered = offered.length;
    svg.dataset.lands = st.seats.reduce((n, seat) => n + seat.lands.length, 0);
    svg.dataset.buildings = st.seats.reduce((n, seat) => n + seat.buildings.length, 0);

    const panel = ctx.panel;
    panel.append(h('h3', {}, `Round ${st.round}: ${words(st.phase)}`));
    if (st.turn_order.length) panel.append(h('p', {}, `Turn order: ${listNames(st.turn_order)}.`));
    if (st.results) panel.append(h('p', {}, `Results: ${st.results.map((r) => `${seatName(r.seat)} ${Object.entries(r).filter(([k]) => k !== 'seat').map(([k, v]) => `${words(k)} ${v}`).join(', ')}`).join('; ')}.`));
    if (st.undealt_civilizations && st.undealt_civilizations.length) panel.append(h('p', {}, `Civilizations not dealt: ${st.undealt_civilizations.map((c) => data.static.civilizations[c]?.name || c).join(', ')}.`));
  },

  summary(view) {
    const st = view.state;
    return `Round ${st.round} · ${words(st.phase)}`;
  },

  describe(record, data) {
    const d = record.data;
    const who = seatName(d.seat);
    const tile = (id) => (id && data.static.tiles[id] ? data.static.tiles[id].name : id || 'a tile');
    switch (record.type) {
      case 'StacksPrepared': return `The tile stacks (${Object.entries(d.stack_sizes).map(([k, n]) => `${k} ${n}`).join(', ')}) and ${d.disaster_chits} disaster chits are prepared.`;
      case 'CivilizationAssigned': return `${who} plays ${data.static.civilizations[d.civilization]?.name || d.civilization}.`;
      case 'SoloSetupChosen': return `${who} chooses ${data.static.civilizations[d.civilization]?.name || d.civilization} for the solo game.`;
      case 'TurnOrderSet': return `Turn order${d.round ? ` for round ${d.round + 1}` : ''}: ${d.order.map(seatName).join(', ')}.`;
      case 'RoundStarted': return `Round ${d.round} begins (stack ${d.stack}).`;
      case 'TileRevealed': return `${tile(d.tile_id)} is revealed in the ${d.row} row.`;
      case 'SupplyStarted': return 'Supply: every seat feeds its people and keeps up its buildings.';
      case 'SupplyResolved': return `${who} feeds ${d.population_before} people (${d.food_spent} food${d.luxury_for_food ? `, ${d.luxury_for_food} luxury` : ''})${d.inhabitants_lost ? `, losing ${d.inhabitants_lost}` : ''}.`;
      case 'SupplyEnded': return 'The supply ends.';
      case 'BidPlaced': return `${who} bids ${d.amount} on the ${tile(d.tile_id)}${d.outbid_seat !== null && d.outbid_seat !== undefined ? `, outbidding ${seatName(d.outbid_seat)}` : ''}.`;
      case 'BidMoved': return `${who} moves a bid of ${d.amount} from the ${tile(d.from_tile_id)} to the ${tile(d.to_tile_id)}.`;
      case 'BidWithdrawn': return `${who} withdraws the bid on the ${tile(d.tile_id)}.`;
      case 'PlayerPassed': return `${who} passes and takes ${plural(d.coins_gained, 'coin')}.`;
      case 'BiddingEnded': return `Bidding ends: ${d.awards.map((a) => `${seatName(a.seat)} wins the ${tile(a.tile_id)} for ${a.amount}`).join('; ') || 'no tile is won'}.`;
      case 'BuildingPlaced': return `${who} ${d.mode === 'built' ? 'builds' : 'marks'} the ${tile(d.tile_id)}.`;
      case 'LandPlaced': return `${who} adds the ${tile(d.tile_id)} to its lands.`;
      case 'TileRejected': return `${who} cannot take the ${tile(d.tile_id)} (${words(d.reason)}).`;
      case 'OneTimeIncomeReceived': return `${who} receives the one-time income of the ${tile(d.tile_id)}.`;
      case 'IncomeCollected': return `${who} collects income: ${plural(d.coins, 'coin')}, ${d.wood} wood, ${d.stone} stone, ${d.food} food${d.population_gain ? `, ${d.population_gain} people` : ''}.`;
      case 'DisasterRevealed': return `Disaster chit ${d.draw}: ${words(d.chit)}${d.strikes ? ' strikes!' : '.'}`;
      case 'DisasterResolved': return `${who} suffers the ${words(d.disaster)}${d.protected_by ? ` (protected by the ${tile(d.protected_by)})` : ''}${d.removed_tiles && d.removed_tiles.length ? `, losing ${d.removed_tiles.map(tile).join(', ')}` : ''}.`;
      default: return null;
    }
  },

  describeMove(move, data) {
    const tile = (id) => (id && data.static.tiles[id] ? data.static.tiles[id].name : id);
    switch (move.type) {
      case 'place_bid': return `Bid ${move.amount} on the ${tile(move.tile_id)}`;
      case 'move_bid': return `Move your bid to the ${tile(move.tile_id)}`;
      case 'pass_turn': return 'Pass (take coins)';
      case 'withdraw_bid': return 'Withdraw your bid';
      case 'place_building': return move.mode === 'build' ? 'Build the building now' : 'Mark the building (build it later)';
      case 'choose_income': return `Choose income: ${move.choices.map((c) => `${c.resource} from the ${tile(c.tile_id)}`).join(', ')}`;
      case 'resolve_supply': return `Supply: feed ${move.feed_with_luxury} with luxury${move.complete.length ? `, complete ${move.complete.map(tile).join(', ')}` : ''}`;
      case 'resolve_disaster': return `Disaster: keep ${move.keep.length ? move.keep.map(tile).join(', ') : 'nothing'}`;
      case 'choose_solo_setup': return `Solo: ${data.static.civilizations[move.civilization]?.name || move.civilization}${move.extra_incomes.length ? ` with ${move.extra_incomes.join(', ')}` : ''}`;
      default: return words(move.type || 'a command');
    }
  },

  moveTargets(move) {
    if (move.type === 'place_bid' || move.type === 'move_bid') return [`tile:${move.tile_id}`];
    return [];
  },
};
