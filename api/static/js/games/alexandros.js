// Alexandros: the triangle board with its symbol spaces, walls (black and red), provinces shaded by
// owner, governors, Alexandros and his last move; the display and the supply; hands (a seat's own
// in its perspective, every hand after the end); the score track.

import { bundle, h, plural, reused, reusedGroup, s, seatColour, seatName, seatTextColour, target, title, words } from '../core/dom.js';
import { checkField, checkedValues, countField, counts, formsBox, moveForm } from '../core/forms.js';

const SIDE = 40; // pixels per side length
const PAD = 24;
const SYMBOL_COLOURS = { temple: '#b08d57', amphora: '#c2562b', horse: '#6b4f2a', lyre: '#3b7a57', soldier: '#4a5d8a' };
const SYMBOL_LETTERS = { temple: 'T', amphora: 'A', horse: 'H', lyre: 'L', soldier: 'S' };
const key = (rc) => rc.join(',');
const HAND_ROW = 70; // a hand's row: its label, then its cards (46 high) — rows never overlap

// The board's nodes, kept by what they show (dom.js's reused()): a timeline step draws again only
// the walls, governors, provinces, cards and scores that changed.
const SCOPE = 'alexandros';
const kept = (name, make) => reused(SCOPE, name, make);

/** A space as a person names it: its symbol, row and place in the row (not "3,14"). */
export function placeName(space, symbol = null) {
  const [row, col] = space;
  return `${symbol ? `${symbol} ` : ''}row ${row + 1}, place ${col + 1}`;
}

/** A route as the corners it runs through. */
const route = (path) => path.map(key).join(' → ');

function geometry(data) {
  const points = new Map(data.static.points.map((p) => [key(p.point), [p.xy[0] * SIDE + PAD, p.xy[1] * SIDE + PAD]]));
  const width = Math.max(...[...points.values()].map((p) => p[0])) + PAD;
  const height = Math.max(...[...points.values()].map((p) => p[1])) + PAD;
  return { points, width, height };
}

function centroid(points, corners) {
  const xy = corners.map((c) => points.get(key(c)));
  return [xy.reduce((a, p) => a + p[0], 0) / 3, xy.reduce((a, p) => a + p[1], 0) / 3];
}

function card(x, y, symbol, attrs = {}, label = '') {
  const colour = symbol ? SYMBOL_COLOURS[symbol] || '#777' : '#556';
  return s(
    'g',
    attrs,
    title(label || (symbol ? `${words(symbol)} card` : 'a face-down card')),
    s('rect', { x, y, width: 34, height: 46, rx: 4, fill: symbol ? '#fffaf0' : '#556', stroke: colour, 'stroke-width': 2 }),
    symbol ? s('text', { x: x + 17, y: y + 29, 'text-anchor': 'middle', class: 'svg-label', fill: colour, style: 'font-weight:700;font-size:15px' }, SYMBOL_LETTERS[symbol] || '?') : null,
    symbol ? s('text', { x: x + 17, y: y + 42, 'text-anchor': 'middle', class: 'svg-small', style: 'font-size:8px' }, symbol) : null,
  );
}

function hands(ctx) {
  const st = ctx.state;
  if (ctx.perspective === 'everything' && st.hands) return st.hands.map((hand, seat) => ({ seat, hand }));
  if (ctx.seatViews) return ctx.seatViews.map((v, seat) => ({ seat, hand: v.hand || {} }));
  if (ctx.seat !== null && st.hand) return [{ seat: ctx.seat, hand: st.hand }];
  return [];
}

export default {
  // On a phone the board starts at 2 pixels a unit: a corner's target (app.css: 11.5 units around it)
  // is then 44 px across, and the middle of each space (11.5 units from its sides) 46 px.
  touchScale: 2,

  draw(ctx) {
    const { svg, data, state: st } = ctx;
    const g = geometry(data);
    const boardHeight = g.height;
    const handsTop = Math.max(84, 24 + st.scores.length * 22 + 12); // under the display and the score track
    const trayHeight = handsTop + st.hand_sizes.length * HAND_ROW + 10;
    svg.setAttribute('viewBox', `0 0 ${g.width} ${boardHeight + trayHeight}`);
    svg.setAttribute('aria-label', `Alexandros board at version ${ctx.view.version}: ${plural(st.walls.length, 'wall')}, ${plural(st.governors.length, 'governor')}`);

    const owner = new Map();
    for (const province of st.provinces) for (const space of province.spaces) owner.set(key(space), province.owner);
    const spaces = [];
    for (const space of data.static.spaces) {
      const who = owner.get(key(space.space));
      const unowned = who === null || who === undefined;
      spaces.push(kept(`space|${key(space.space)}|${unowned ? '' : who}`, () => {
        const corners = space.corners.map((c) => g.points.get(key(c)).join(',')).join(' ');
        const poly = s('polygon', {
          points: corners,
          fill: unowned ? (space.symbol ? '#f4ecd8' : '#efe7d2') : seatColour(who),
          'fill-opacity': unowned ? 1 : 0.35,
          stroke: '#c9bd9f',
          'stroke-width': 1,
          'data-space': key(space.space),
          'data-owner': who ?? '',
        });
        return target(poly, `space:${key(space.space)}`, placeName(space.space, space.symbol));
      }));
      if (space.symbol) {
        const [cx, cy] = centroid(g.points, space.corners);
        spaces.push(
          kept(`symbol|${key(space.space)}`, () => s('circle', { cx, cy, r: 8, fill: '#fff', stroke: SYMBOL_COLOURS[space.symbol], 'stroke-width': 2, 'data-piece': 'symbol', 'pointer-events': 'none' })),
          kept(`symbol-letter|${key(space.space)}`, () => s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'svg-small', fill: SYMBOL_COLOURS[space.symbol], style: 'font-weight:700' }, SYMBOL_LETTERS[space.symbol])),
        );
      }
    }
    svg.append(reusedGroup(SCOPE, 'group:spaces', () => s('g', { class: 'spaces' }), spaces));

    const walls = st.walls.map((wall) => kept(`wall|${route(wall.side)}|${wall.color}`, () => {
      const [a, b] = wall.side.map((p) => g.points.get(key(p)));
      return s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: wall.color === 'red' ? '#d00000' : '#111', 'stroke-width': 5, 'stroke-linecap': 'round', 'data-piece': 'wall', 'data-color': wall.color },
        title(`${wall.color} wall`));
    }));
    svg.append(reusedGroup(SCOPE, 'group:walls', () => s('g', { class: 'walls' }), walls));

    const cornersOf = new Map(data.static.spaces.map((sp) => [key(sp.space), sp.corners]));
    const governors = st.governors.map((gov) => kept(`governor|${key(gov.space)}|${gov.seat}|${seatName(gov.seat)}`, () => {
      const [cx, cy] = centroid(g.points, cornersOf.get(key(gov.space)));
      return s('circle', { cx, cy, r: 9, fill: seatColour(gov.seat), stroke: '#fff', 'stroke-width': 2, 'data-piece': 'governor', 'data-seat': gov.seat, 'pointer-events': 'none' },
        title(`governor of ${seatName(gov.seat)} on ${key(gov.space)}`));
    }));
    svg.append(reusedGroup(SCOPE, 'group:governors', () => s('g', { class: 'governors' }), governors));

    // Alexandros's last move, from the log up to this version
    const lastMove = [...ctx.records].reverse().find((r) => r.type === 'AlexanderMoved');
    if (lastMove && lastMove.data.path && lastMove.data.path.length > 1) {
      const path = lastMove.data.path.map((p) => g.points.get(key(p)).join(',')).join(' ');
      svg.append(kept(`last-move|${path}|${lastMove.data.seat}`, () => s('polyline', { points: path, fill: 'none', stroke: seatColour(lastMove.data.seat), 'stroke-width': 3, 'stroke-dasharray': '6 4', 'data-piece': 'last-move', 'pointer-events': 'none' })));
    }
    // the corners never change
    svg.append(kept('points', () => {
      const points = s('g', { class: 'points' });
      for (const [name, [x, y]] of g.points) {
        points.append(target(s('circle', { cx: x, cy: y, r: 5, fill: 'transparent' }), `point:${name}`, `corner ${name}`));
      }
      return points;
    }));
    const [ax, ay] = g.points.get(key(st.alexander));
    svg.append(kept(`alexander|${key(st.alexander)}`, () =>
      s('g', { 'data-piece': 'alexander', 'data-point': key(st.alexander), 'pointer-events': 'none' },
        title(`Alexandros at ${key(st.alexander)}`),
        s('circle', { cx: ax, cy: ay, r: 10, fill: '#ffd700', stroke: '#6b4f00', 'stroke-width': 3 }),
        s('text', { x: ax, y: ay + 4, 'text-anchor': 'middle', class: 'svg-small', style: 'font-weight:700' }, 'A'))));

    // the tray: display, supply, hands, score track
    const tray = [kept('display-label', () => s('text', { x: 0, y: 14, class: 'svg-label' }, 'Display'))];
    st.display.forEach((symbol, slot) => {
      tray.push(kept(`display|${slot}|${symbol}`, () => {
        const c = card(slot * 40, 20, symbol, { 'data-piece': 'display-card' }, `display slot ${slot + 1}: ${symbol || 'empty'}`);
        return target(c, `display:${slot}`, `display card ${slot + 1}: ${symbol || 'empty'}`);
      }));
    });
    tray.push(kept('supply-label', () => s('text', { x: 90, y: 14, class: 'svg-label' }, 'Supply')), kept(`supply|${st.supply_count}`, () => {
      const supply = card(90, 20, null, { 'data-piece': 'supply' }, `supply: ${plural(st.supply_count, 'card')}`);
      supply.append(s('text', { x: 107, y: 48, 'text-anchor': 'middle', class: 'svg-small', fill: '#fff', style: 'fill:#fff' }, String(st.supply_count)));
      return target(supply, 'supply', `the supply, ${plural(st.supply_count, 'card')}`);
    }));

    let y = handsTop;
    const shown = hands(ctx);
    const known = new Set(shown.map((x) => x.seat));
    for (let seat = 0; seat < st.hand_sizes.length; seat++) {
      const at = `hand|${seat}|${y}`;
      const said = `${seatName(seat)}: ${plural(st.hand_sizes[seat], 'card')}`;
      const row = [kept(`${at}|label|${said}`, () => s('text', { x: 0, y: 12, class: 'svg-label', style: `fill:${seatTextColour(seat)};font-weight:600` }, said))];
      let x = 0;
      if (known.has(seat)) {
        const hand = shown.find((e) => e.seat === seat).hand;
        const own = seat === ctx.seat; // a seat's own cards are targets (to play them)
        for (const [symbol, n] of Object.entries(hand)) {
          for (let i = 0; i < n; i++) {
            const cardX = x;
            row.push(kept(`${at}|card|${cardX}|${symbol}|${own}`, () => {
              const c = card(cardX, 18, symbol, { 'data-piece': 'hand-card', 'data-seat': seat });
              return own ? target(c, `hand:${symbol}`, `your ${symbol} card`) : c;
            }));
            x += 36;
          }
        }
      } else {
        for (let i = 0; i < Math.min(st.hand_sizes[seat], 12); i++) {
          const backX = x;
          row.push(kept(`${at}|back|${backX}`, () => s('rect', { x: backX, y: 18, width: 20, height: 28, rx: 3, fill: '#556', stroke: '#fff', 'data-piece': 'hand-back', 'data-seat': seat })));
          x += 14;
        }
      }
      tray.push(reusedGroup(SCOPE, at, () => s('g', { transform: `translate(0, ${y})`, 'data-hand-of': seat }), row));
      y += HAND_ROW;
    }
    svg.append(reusedGroup(SCOPE, `group:tray|${boardHeight}`, () => s('g', { transform: `translate(${PAD}, ${boardHeight})` }), tray));

    // score track along the right of the tray
    // beside the display and the supply, above the hands (which may be long)
    const winning = data.static.components.winning_score;
    const track = [kept(`track-title|${winning}`, () => s('text', { x: 0, y: 12, class: 'svg-label' }, `Score track (to ${winning})`))];
    st.scores.forEach((score, seat) => {
      const w = Math.min(1, score / winning) * 230;
      track.push(
        kept(`track-bar|${seat}`, () => s('rect', { x: 0, y: 20 + seat * 22, width: 230, height: 16, fill: '#eee', stroke: '#ccc' })),
        kept(`score|${seat}|${score}`, () => s('rect', { x: 0, y: 20 + seat * 22, width: w, height: 16, fill: seatColour(seat), 'data-piece': 'score', 'data-seat': seat, 'data-score': score })),
        kept(`score-text|${seat}|${score}`, () => s('text', { x: 236, y: 33 + seat * 22, class: 'svg-small' }, String(score))),
      );
    });
    svg.append(reusedGroup(SCOPE, `group:track|${boardHeight}`, () => s('g', { transform: `translate(${PAD + 150}, ${boardHeight + 4})`, 'aria-label': 'score track' }), track));

    svg.dataset.walls = st.walls.length;
    svg.dataset.governors = st.governors.length;

    ctx.panel.append(h('div', {},
      h('h3', {}, `Turn ${st.turn}, step: ${words(st.step)}`),
      h('p', {}, `Walls left: ${st.black_left} black, ${st.red_left} red. Governors in supply: `, st.governor_supply.map((n, seat) => `${seatName(seat)} ${n}`).join(', '), '.'),
      st.discard.length ? h('p', {}, `Discard pile: ${plural(st.discard.length, 'card')}.`) : null,
      st.end_flag ? h('p', {}, `The end is triggered (${words(st.end_flag)}).`) : null,
    ));
  },

  summary(view) {
    const st = view.state;
    return `Turn ${st.turn} · ${words(st.step)} · actions taken ${st.actions_taken}`;
  },

  describe(record) {
    const d = record.data;
    const who = seatName(d.seat);
    switch (record.type) {
      case 'SupplyShuffled': return `The supply of ${plural(d.count, 'card')} is shuffled (${words(d.reason)}).`;
      case 'StartPlayerChosen': return `${who} starts.`;
      case 'CardTaken': return `${who} takes ${d.card ? `a ${d.card} card` : 'a card'} ${d.source === 'display' ? `from display slot ${d.slot + 1}` : d.source === 'deal' ? 'in the deal' : 'from the supply'}.`;
      case 'DisplayRefilled': return `A ${d.card} card fills display slot ${d.slot + 1}.`;
      case 'TurnStarted': return `Turn ${d.turn}: ${who} to play.`;
      case 'AlexanderMoved': return `${who} plays a ${d.card} card and moves Alexandros ${plural(d.distance, 'step')} to the ${placeName(d.target, d.symbol)}.`;
      case 'WallBuilt': return `${who} builds a ${d.color} wall (${d.black_left} black, ${d.red_left} red left).`;
      case 'GameEndTriggered': return `${who} triggers the end of the game (${words(d.reason)}).`;
      case 'AlexanderMoveSkipped': return `${who} cannot move Alexandros (${words(d.reason)}).`;
      case 'ProvinceOccupied': return `${who} occupies a province of ${plural(d.province.length, 'space')} with ${plural(d.governors.length, 'governor')}${d.takeover ? ', taking it over' : ''}.`;
      case 'TaxesLevied': return `${who} levies taxes with a ${d.card} card: scores are now ${d.scores.join(' / ')}.`;
      case 'GovernorRetired': return `${who} retires a governor from ${placeName(d.space)}.`;
      case 'TurnEnded': return `${who} ends the turn.`;
      default: return null;
    }
  },

  describeMove(move) {
    switch (move.type) {
      case 'move_alexander': {
        const source = move.source === 'display' ? `the display card in slot ${move.slot + 1}` : `a ${move.card} card from the hand`;
        // moves to one space differ by their route: the label names it, hovering shows it on the board
        return `Move Alexandros to the ${placeName(move.target)} with ${source}${move.joker_symbol ? ` as ${move.joker_symbol}` : ''}, ${plural(move.path.length - 1, 'step')} via ${route(move.path)}`;
      }
      case 'take_card': return move.source === 'display' ? `Take the display card in slot ${move.slot + 1}` : 'Draw a card from the supply';
      case 'occupy_province': return `Occupy with governors on ${move.governors.map((sp) => placeName(sp)).join('; ')}${move.compensation && move.compensation.length ? `, paying ${move.compensation.join(', ')}` : ''}`;
      case 'levy_taxes': return `Levy taxes with a ${move.card} card`;
      case 'retire_governor': return `Retire the governor on ${placeName(move.space)}`;
      case 'end_turn': return 'End the turn';
      default: return words(move.type || 'a command');
    }
  },

  /** Occupying or taking over a province (R48–R56): the province, the symbol spaces for the new
   * governors, what that costs, and on a take-over the cards for the evicted seat. The listed moves
   * are only a sample of these choices. */
  forms({ state: st, data, seat, types, send }) {
    if (!types.includes('occupy_province')) return [];
    const symbolOf = new Map(data.static.spaces.map((sp) => [key(sp.space), sp.symbol]));
    const governorAt = new Map(st.governors.map((g) => [key(g.space), g.seat]));
    const provinces = st.provinces
      .map((province, index) => ({ province, index }))
      .filter(({ province }) => province.symbol_spaces.length && province.owner !== seat);
    if (!provinces.length) return [];
    const label = ({ province }) =>
      `value ${province.value}, ${plural(province.symbol_spaces.length, 'symbol space')} from the ${placeName(province.symbol_spaces[0], symbolOf.get(key(province.symbol_spaces[0])))}${province.owner === null || province.owner === undefined ? '' : `, held by ${seatName(province.owner)}`}`;
    const select = h('select', { 'data-field': 'province' }, provinces.map((p) => h('option', { value: p.index }, label(p))));
    const chosen = (form) => st.provinces[Number(form.querySelector('[data-field="province"]').value)];
    /** The cards a take-over's eviction costs (R53) and the occupation's (R50), by symbol. */
    const cost = (form) => {
      const province = chosen(form);
      const on = new Set(checkedValues(form, 'space'));
      const paid = {};
      const add = (symbol, n) => { paid[symbol] = (paid[symbol] || 0) + n; };
      const takeover = province.owner !== null && province.owner !== undefined;
      if (takeover) for (const sp of province.spaces) if (governorAt.has(key(sp))) add(symbolOf.get(key(sp)), 2);
      for (const sp of province.symbol_spaces) if (!on.has(key(sp))) add(symbolOf.get(key(sp)), 1);
      return { paid, takeover, total: Object.values(paid).reduce((a, b) => a + b, 0) };
    };
    const dependent = (form) => {
      const province = chosen(form);
      const spaces = h('fieldset', { class: 'spaces' }, h('legend', {}, `Governors on (you have ${st.governor_supply[seat]} in supply)`),
        province.symbol_spaces.map((sp) => checkField('space', placeName(sp, symbolOf.get(key(sp))), key(sp), { boardKey: `space:${key(sp)}` })));
      const takeover = province.owner !== null && province.owner !== undefined;
      const compensation = takeover
        ? h('fieldset', { class: 'compensation' }, h('legend', {}, `Cards for ${seatName(province.owner)} (half of what you pay, rounded up)`),
          Object.keys(SYMBOL_COLOURS).map((symbol) => countField(`comp:${symbol}`, words(symbol))))
        : null;
      return [spaces, compensation];
    };
    const holder = h('div', { class: 'dependent' });
    const form = moveForm({
      type: 'occupy_province',
      legend: 'Occupy a province',
      intro: 'Tick the spaces for your governors here or on the board. Each symbol space without a new governor costs one card of its symbol; taking over also costs 2 cards per governor there.',
      fields: [h('label', {}, 'Province ', select), holder],
      onchange: (f, e) => {
        if (e.target === select) holder.replaceChildren(...dependent(f).filter(Boolean));
      },
      status: (f) => {
        const { paid, takeover, total } = cost(f);
        const you = st.hand ? ` (your hand: ${bundle(st.hand)})` : '';
        return `You pay ${bundle(paid)}${you}.${takeover ? ` ${Math.ceil(total / 2)} of them go to the evicted seat.` : ''}`;
      },
      build: (f) => {
        const compensation = Object.entries(counts(f, 'comp')).flatMap(([symbol, n]) => Array(n).fill(symbol));
        return { type: 'occupy_province', governors: checkedValues(f, 'space').map((k) => k.split(',').map(Number)), compensation };
      },
      submit: 'Occupy',
      send,
    });
    holder.replaceChildren(...dependent(form).filter(Boolean));
    form.dispatchEvent(new Event('input'));
    return formsBox([form], types);
  },

  /** A move of Alexandros drawn on the board while it is hovered: its route, corner to corner. */
  preview(move, data) {
    if (move.type !== 'move_alexander' || !move.path) return null;
    const g = geometry(data);
    return s('polyline', { points: move.path.map((p) => g.points.get(key(p)).join(',')).join(' '), fill: 'none', stroke: '#1d3557', 'stroke-width': 4, 'stroke-linejoin': 'round', 'stroke-dasharray': '2 4' });
  },

  moveTargets(move) {
    switch (move.type) {
      case 'move_alexander': return [`space:${key(move.target)}`, `point:${key(move.corner)}`, move.source === 'display' ? `display:${move.slot}` : `hand:${move.card}`];
      case 'take_card': return [move.source === 'display' ? `display:${move.slot}` : 'supply'];
      case 'occupy_province': return move.governors.map((sp) => `space:${key(sp)}`);
      case 'levy_taxes': return [`hand:${move.card}`];
      case 'retire_governor': return [`space:${key(move.space)}`];
      default: return [];
    }
  },
};
