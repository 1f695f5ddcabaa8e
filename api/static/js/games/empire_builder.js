// Alexander the Great — the Empire Builder: the map (provinces by region, arrows with direction and
// cost, sea routes, temple and city sites, campaign symbols) drawn on the schematic layout of the
// catalog, with armies, temples, cities and majorities in seat colours; the campaign and round;
// revealed allocations; a seat's own sealed allocation only in its own perspective.

import { h, reused, reusedGroup, s, seatChip, seatColour, seatName, target, textLines, title, words, wrapWords } from '../core/dom.js';
import { count, countField, formsBox, moveForm } from '../core/forms.js';

const CUBES = 15; // every seat's cubes, all split over the four boxes (Ruling R14)
const BOXES = [
  ['turn_order', 'Turn order', 'a bid for moving early; spent'],
  ['armies', 'Armies', 'they march'],
  ['temples', 'Temples box', 'pays for movement and temples'],
  ['cities', 'Cities box', 'pays for movement and cities'],
];

const LEGEND_HEIGHT = 44;

// The map's nodes, kept by what they show (dom.js's reused()): a timeline step draws again only
// the armies, majorities, temples, cities and the campaign's highlights that changed.
const SCOPE = 'empire_builder';
const kept = (name, make) => reused(SCOPE, name, make);
const REGION_COLOURS = ['#f1e3c8', '#e3ecd2', '#f5dcc9', '#dfe3f0', '#e8dcef', '#f3e6d0'];

function arrowPath(a, b, r1, r2, offset) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const ox = -uy * offset;
  const oy = ux * offset;
  const start = [a[0] + ux * r1 + ox, a[1] + uy * r1 + oy];
  const end = [b[0] - ux * (r2 + 3) + ox, b[1] - uy * (r2 + 3) + oy];
  return { start, end, mid: [start[0] + (end[0] - start[0]) * 0.55 + ox * 1.6, start[1] + (end[1] - start[1]) * 0.55 + oy * 1.6] };
}

function armies(state) {
  const at = new Map();
  state.seats.forEach((seat) => {
    for (const [place, count] of Object.entries(seat.armies_at)) {
      if (!count) continue;
      if (!at.has(place)) at.set(place, []);
      at.get(place).push({ seat: seat.seat, count });
    }
  });
  return at;
}

/** A province: its circle (a target), id and name, and its temple and city sites, empty or built. */
function province(data, region, id, current, temples, city, [x, y], R) {
  const info = data.static.provinces[id];
  const g = s('g', { 'data-province': id });
  const circle = s('circle', { cx: x, cy: y, r: R, fill: REGION_COLOURS[(region.region - 1) % REGION_COLOURS.length], stroke: current ? '#1d3557' : '#a89f8a', 'stroke-width': current ? 3 : 1.2 },
    title(`${id} ${info.name} (${region.name})${info.temple_site ? ', temple site' : ''}${info.city_site ? ', city site' : ''}`));
  g.append(target(circle, `province:${id}`, `${id} ${info.name}`));
  g.append(
    s('text', { x, y: y - 17, 'text-anchor': 'middle', class: 'svg-small eb-id' }, id),
    textLines(wrapWords(info.name.replaceAll('-', '- '), 11).map((l) => l.replaceAll('- ', '-')), { x, y: y - 5, lineHeight: 10.5, 'text-anchor': 'middle', class: 'svg-small eb-name' }),
  );
  // sites: an outline when empty, the builder's colour when built
  let sx = x - 14;
  if (info.temple_site) {
    const owners = temples.length ? temples : [null];
    for (const owner of owners) {
      g.append(s('path', { d: `M${sx},${y + 20} l6,-10 l6,10 z`, fill: owner === null ? 'none' : seatColour(owner), stroke: owner === null ? '#776' : '#fff', 'stroke-width': 1.2,
        'data-piece': owner === null ? 'temple-site' : 'temple', 'data-seat': owner ?? null, 'pointer-events': 'none' }, title(owner === null ? 'temple site' : `temple of ${seatName(owner)}`)));
      sx += 12;
    }
  }
  if (info.city_site) {
    g.append(s('rect', { x: sx + 2, y: y + 10, width: 10, height: 10, fill: city === undefined || city === null ? 'none' : seatColour(city), stroke: city === undefined || city === null ? '#776' : '#fff', 'stroke-width': 1.2,
      'data-piece': city === undefined || city === null ? 'city-site' : 'city', 'data-seat': city ?? null, 'pointer-events': 'none' }, title(city === undefined || city === null ? 'city site' : `city of ${seatName(city)}`)));
  }
  return g;
}

export default {
  // On a phone the board starts at 1.4 pixels a unit: a campaign symbol (18 units around) is then a
  // target of 50 px, and an army (app.css: 16 units around) 45 px.
  touchScale: 1.4,

  draw(ctx) {
    const { svg, data, state: st } = ctx;
    const layout = data.static.layout;
    const where = (id) => layout.locations[id];
    const R = layout.province_radius;
    const RS = layout.symbol_radius;
    const radius = (id) => (id.startsWith('C') ? RS : R);
    // room for armies beside the edge provinces, and for the legend under the map (never over it)
    svg.setAttribute('viewBox', `-24 -8 ${layout.width + 48} ${layout.height + 16 + LEGEND_HEIGHT}`);
    // the arrow heads and the legend never change
    svg.append(kept('defs', () =>
      s('defs', {},
        s('marker', { id: 'eb-head', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#5a4a35' })),
        s('marker', { id: 'eb-head-sea', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#1d6fa5' })),
        s('marker', { id: 'eb-head-free', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#fff', stroke: '#5a4a35', 'stroke-width': 1.5 })))));
    const at = armies(st);
    const regionOf = (id) => (id.startsWith('C') ? null : data.static.provinces[id].region);
    svg.setAttribute('aria-label', `Empire Builder map at version ${ctx.view.version}, campaign ${st.campaign ?? '–'}, round ${st.round ?? '–'}`);

    // arrows first, under the provinces
    const pairs = new Set(data.static.arrows.map((a) => `${a.from}>${a.to}`));
    const arrows = [];
    data.static.arrows.forEach((arrow, i) => {
      const a = where(arrow.from);
      const b = where(arrow.to);
      const twoWay = pairs.has(`${arrow.to}>${arrow.from}`);
      const p = arrowPath(a, b, radius(arrow.from), radius(arrow.to), twoWay ? 5 : 0);
      const colour = arrow.sea ? '#1d6fa5' : '#5a4a35';
      const current = st.region !== null && (regionOf(arrow.to) === st.region); // bolder into the campaign's region
      arrows.push(kept(`arrow|${i}|${current}`, () =>
        s('line', { x1: p.start[0], y1: p.start[1], x2: p.end[0], y2: p.end[1], stroke: colour, 'stroke-width': current ? 2.2 : 1.4, 'stroke-opacity': current ? 1 : 0.55,
          'stroke-dasharray': arrow.sea ? '6 4' : null, 'marker-end': `url(#${arrow.sea ? 'eb-head-sea' : arrow.cost === 0 ? 'eb-head-free' : 'eb-head'})`,
          'data-piece': 'arrow', 'data-from': arrow.from, 'data-to': arrow.to, 'data-cost': arrow.cost },
          title(`${arrow.sea ? 'sea route' : 'arrow'} ${arrow.from} → ${arrow.to}, cost ${arrow.cost}`))));
      if (arrow.cost) {
        arrows.push(
          kept(`arrow-cost|${i}`, () => s('circle', { cx: p.mid[0], cy: p.mid[1], r: 7, fill: '#fff', stroke: colour, 'pointer-events': 'none' })),
          kept(`arrow-cost-text|${i}`, () => s('text', { x: p.mid[0], y: p.mid[1] + 3.5, 'text-anchor': 'middle', class: 'svg-small', style: `fill:${colour};font-weight:700` }, String(arrow.cost))),
        );
      }
    });
    svg.append(reusedGroup(SCOPE, 'group:arrows', () => s('g', { class: 'arrows' }), arrows));

    const places = [];
    for (const region of data.static.regions) {
      for (const id of region.provinces) {
        const current = st.region === region.region;
        const temples = st.temples[id] || [];
        const city = st.cities[id];
        const built = (seat) => (seat === undefined || seat === null ? '' : `${seat}:${seatName(seat)}`);
        places.push(kept(`province|${id}|${current}|${temples.map(built).join(',')}|${built(city)}`, () => province(data, region, id, current, temples, city, where(id), R)));
      }
    }
    for (const region of data.static.regions) {
      const active = st.symbol === region.symbol;
      places.push(kept(`symbol|${region.symbol}|${active}`, () => {
        const [x, y] = where(region.symbol);
        const g = s('g', { 'data-symbol': region.symbol });
        g.append(target(s('circle', { cx: x, cy: y, r: RS, fill: active ? '#ffd166' : '#fff', stroke: '#6a4c93', 'stroke-width': 2 },
          title(`${region.symbol}: ${region.campaign_name}${region.symbol === 'C1' ? ' (Pella)' : ` (on ${region.symbol_stands})`}`)), `province:${region.symbol}`, `campaign symbol ${region.symbol}`));
        g.append(s('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'svg-small', style: 'font-weight:700;fill:#6a4c93' }, region.symbol));
        return g;
      }));
    }
    svg.append(reusedGroup(SCOPE, 'group:provinces', () => s('g', { class: 'provinces' }), places));

    // armies around their location, and the majority ring
    const pieces = [];
    for (const [place, stacks] of at) {
      const [x, y] = where(place);
      const r = radius(place);
      const most = Math.max(...stacks.map((a) => a.count));
      const leaders = stacks.filter((a) => a.count === most);
      if (!place.startsWith('C') && leaders.length === 1) {
        const leader = leaders[0].seat;
        pieces.push(kept(`majority|${place}|${leader}|${seatName(leader)}`, () => s('circle', { cx: x, cy: y, r: r + 4, fill: 'none', stroke: seatColour(leader), 'stroke-width': 4, 'data-piece': 'majority', 'data-seat': leader, 'pointer-events': 'none' },
          title(`majority of ${seatName(leader)}`))));
      }
      stacks.forEach((a, i) => {
        pieces.push(kept(`army|${place}|${i}|${a.seat}|${a.count}|${seatName(a.seat)}`, () => {
          const angle = (-Math.PI / 2) + Math.PI * 0.55 + i * 0.62;
          const ax = x + Math.cos(angle) * (r + 12);
          const ay = y + Math.sin(angle) * (r + 12);
          const piece = s('g', { 'data-piece': 'army', 'data-seat': a.seat, 'data-count': a.count, 'data-at': place },
            title(`${a.count} ${a.count === 1 ? 'army' : 'armies'} of ${seatName(a.seat)} at ${place}`),
            s('circle', { cx: ax, cy: ay, r: 13, fill: seatColour(a.seat), stroke: '#fff', 'stroke-width': 2 }),
            s('text', { x: ax, y: ay + 5, 'text-anchor': 'middle', class: 'svg-small eb-count' }, String(a.count)));
          return target(piece, `province:${place}`, `${a.count === 1 ? '1 army' : `${a.count} armies`} of ${seatName(a.seat)} at ${place}`);
        }));
      });
    }
    svg.append(reusedGroup(SCOPE, 'group:armies', () => s('g', { class: 'armies' }), pieces));
    const totalArmies = [...at.values()].flat().reduce((n, a) => n + a.count, 0);
    svg.dataset.armies = totalArmies;
    svg.dataset.temples = Object.values(st.temples).reduce((n, owners) => n + owners.length, 0);
    svg.dataset.cities = Object.values(st.cities).filter((c) => c !== null).length;

    // legend
    svg.append(kept(`legend|${layout.height}`, () => s('g', { transform: `translate(0, ${layout.height + 22})`, class: 'legend' },
      s('text', { x: 0, y: 0, class: 'svg-small' }, 'Arrows: white head = free, number = cost in buildings, dashed blue = sea route (3)'),
      s('text', { x: 0, y: 14, class: 'svg-small' }, 'Ring = majority · triangle = temple · square = city (outline: empty site)'))));

    // panel: campaign, turn order, boxes, own sealed allocation
    const panel = ctx.panel;
    panel.append(h('h3', {}, st.campaign ? `Campaign ${st.campaign}: ${st.region_name}, round ${st.round ?? '–'}` : 'Before the first campaign'));
    if (st.goal) panel.append(h('p', {}, `Goal: ${st.goal} ${data.static.provinces[st.goal]?.name || ''}${st.goal_reached ? ' (reached)' : ''}.`));
    if (st.turn_order.length) panel.append(h('p', {}, 'Turn order: ', ...st.turn_order.map((seat, i) => h('span', {}, i ? ', ' : '', seatChip(seat)))));
    const rows = st.seats.map((seat) => {
      const b = seat.boxes;
      return h('tr', { 'data-seat': seat.seat },
        h('th', { scope: 'row' }, seatChip(seat.seat)),
        h('td', {}, String(seat.vp)),
        h('td', {}, b ? String(b.turn_order) : seat.committed ? 'sealed' : '–'),
        h('td', {}, b ? String(b.armies) : '–'),
        h('td', {}, b ? String(b.temples) : '–'),
        h('td', {}, b ? String(b.cities) : '–'),
        h('td', {}, `${seat.temples_in_supply} / ${seat.cities_in_supply}`));
    });
    panel.append(h('table', {}, h('caption', {}, 'Allocations (revealed boxes); left: temples / cities in supply'),
      h('thead', {}, h('tr', {}, ...['Seat', 'VP', 'Order', 'Armies', 'Temples', 'Cities', 'Left T/C'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows)));
    // a sealed allocation is shown only to its own seat (and to everybody after the end)
    const sealed = ctx.perspective === 'everything' && ctx.seatViews
      ? ctx.seatViews.map((v, seat) => [seat, v.my_sealed_commit])
      : [[ctx.seat, st.my_sealed_commit]];
    for (const [seat, commit] of sealed) {
      if (!commit) continue;
      panel.append(h('p', { 'data-piece': 'sealed-allocation', 'data-seat': seat }, `${seatName(seat)}'s sealed allocation: `,
        Object.entries(commit).map(([k, v]) => `${words(k)} ${v}`).join(', '), '.'));
    }
  },

  summary(view) {
    const st = view.state;
    return st.campaign ? `Campaign ${st.campaign} · round ${st.round ?? '–'} · ${words(st.phase)}` : words(st.phase);
  },

  describe(record, data) {
    const d = record.data;
    const who = seatName(d.seat);
    const name = (id) => (data.static.provinces[id] ? `${data.static.provinces[id].name}` : id);
    switch (record.type) {
      case 'CampaignStarted': return `Campaign ${d.campaign} begins in region ${d.region} (${data.static.regions[d.region - 1]?.name || ''}).`;
      case 'AllocationCommitted': return d.turn_order === undefined ? `${who} seals an allocation.` : `${who} seals an allocation: turn order ${d.turn_order}, armies ${d.armies}, temples ${d.temples}, cities ${d.cities}.`;
      case 'AllocationsRevealed': return `The allocations are revealed: ${d.allocations.map((a) => `${seatName(a.seat)} ${a.turn_order}/${a.armies}/${a.temples}/${a.cities}`).join('; ')}.`;
      case 'LotDrawn': return `Lots are drawn (${words(d.purpose)}): ${d.order.map(seatName).join(', ')}.`;
      case 'TurnPositionChosen': return `${who} takes turn position ${d.position}.`;
      case 'TurnOrderSet': return `Turn order of campaign ${d.campaign}: ${d.order.map(seatName).join(', ')}.`;
      case 'RoundStarted': return `Round ${d.round} of campaign ${d.campaign} begins.`;
      case 'ReallocationCommitted': return `${who} seals a reallocation.`;
      case 'ReallocationsRevealed': return `Reallocations revealed: ${d.boxes.map((b) => `${seatName(b.seat)} ${b.temples}/${b.cities}`).join('; ')}.`;
      case 'TurnStarted': return `${who} takes turn ${d.position} of round ${d.round}.`;
      case 'ArmyMoved': return `${who} moves ${d.count} ${d.count === 1 ? 'army' : 'armies'} from ${name(d.from)} to ${name(d.path[d.path.length - 1])} (cost ${d.cost}).`;
      case 'MovementPaid': return `${who} pays ${d.temples} temple and ${d.cities} city cubes for movement.`;
      case 'GoalReached': return `${who} reaches the goal ${name(d.province)}.`;
      case 'MovementPassed': return `${who} does not move.`;
      case 'BuildAttempted': return `${who} attempts a ${d.kind} in ${name(d.province)}.`;
      case 'BuildingPassed': return `${who} does not build.`;
      case 'ProvinceScored': return d.seat === null ? `Nobody holds ${name(d.province)}.` : `${seatName(d.seat)} holds the majority in ${name(d.province)}: ${d.vp} VP.`;
      case 'TempleBuilt': return `${who} builds a temple in ${name(d.province)} for ${d.paid}: ${d.vp} VP.`;
      case 'CityFounded': return `${who} founds a city in ${name(d.province)} for ${d.paid}: ${d.vp} VP.`;
      case 'BuildAttemptFailed': return `${who}'s ${d.kind} in ${name(d.province)} fails (${words(d.reason)}).`;
      case 'CampaignEnded': return `Campaign ${d.campaign} ends (${words(d.reason)}).`;
      case 'AwardScored': return d.seat === null ? `Nobody wins the award ${words(d.award)}.` : `${seatName(d.seat)} wins ${words(d.award)}${d.region ? ` in region ${d.region}` : ''}: ${d.vp} VP.`;
      default: return null;
    }
  },

  describeMove(move, data) {
    const name = (id) => (data.static.provinces[id] ? `${id} ${data.static.provinces[id].name}` : id);
    switch (move.type) {
      // another seat's sealed allocation carries no numbers: it is only said to be made
      case 'allocate_resources': return move.turn_order === undefined ? 'Allocate (sealed)' : `Allocate: turn order ${move.turn_order}, armies ${move.armies}, temples ${move.temples}, cities ${move.cities}`;
      case 'reallocate_resources': return move.temples === undefined ? 'Reallocate (sealed)' : `Reallocate: temples ${move.temples}, cities ${move.cities}`;
      case 'choose_turn_position': return `Take turn position ${move.position}`;
      case 'move_armies':
        if (!move.groups || !move.groups.length) return 'Do not move';
        return `Move ${move.groups.map((g) => `${g.count} from ${g.from} via ${g.path.join('→')}`).join('; ')} (pay ${move.pay_temples} temple, ${move.pay_cities} city)`;
      case 'attempt_builds':
        if (!move.attempts || !move.attempts.length) return 'Do not build';
        return `Attempt ${move.attempts.map((a) => `a ${a.kind} in ${name(a.province)}`).join(' and ')}`;
      default: return words(move.type || 'a command');
    }
  },

  /** The allocation (all 15 cubes over the four boxes, R14) and the reallocation (temples + cities
   * re-split, R24) as number fields with a running total. */
  forms({ state, seat, types, send }) {
    const forms = [];
    if (types.includes('allocate_resources')) {
      forms.push(moveForm({
        type: 'allocate_resources',
        legend: `Split your ${CUBES} cubes`,
        intro: 'Behind your screen: every cube goes into one of the four boxes. The others see it only when all have committed.',
        fields: BOXES.map(([name, label, hint]) => countField(name, label, { max: CUBES, hint })),
        status: (form) => {
          const left = CUBES - BOXES.reduce((sum, [name]) => sum + count(form, name), 0);
          return left === 0 ? `All ${CUBES} cubes placed.` : left > 0 ? `${left} of ${CUBES} cubes left to place.` : `${-left} cubes too many.`;
        },
        build: (form) => ({ type: 'allocate_resources', ...Object.fromEntries(BOXES.map(([name]) => [name, count(form, name)])) }),
        submit: 'Commit the allocation',
        send,
      }));
    }
    if (types.includes('reallocate_resources')) {
      const boxes = state.seats?.[seat]?.boxes;
      const total = boxes ? (boxes.temples || 0) + (boxes.cities || 0) : null;
      forms.push(moveForm({
        type: 'reallocate_resources',
        legend: 'Re-split your temples and cities boxes',
        intro: total === null ? 'Temples + cities stays the same.' : `Temples + cities stays ${total}.`,
        fields: [
          countField('temples', 'Temples box', { max: CUBES, value: boxes?.temples ?? 0 }),
          countField('cities', 'Cities box', { max: CUBES, value: boxes?.cities ?? 0 }),
        ],
        status: (form) => {
          const sum = count(form, 'temples') + count(form, 'cities');
          return total === null || sum === total ? `Together ${sum}.` : `Together ${sum}; it must stay ${total}.`;
        },
        build: (form) => ({ type: 'reallocate_resources', temples: count(form, 'temples'), cities: count(form, 'cities') }),
        submit: 'Commit the reallocation',
        send,
      }));
    }
    return formsBox(forms, types);
  },

  moveTargets(move) {
    switch (move.type) {
      case 'move_armies': return (move.groups || []).flatMap((g) => [`province:${g.from}`, `province:${g.path[g.path.length - 1]}`]);
      case 'attempt_builds': return (move.attempts || []).map((a) => `province:${a.province}`);
      default: return [];
    }
  },
};
