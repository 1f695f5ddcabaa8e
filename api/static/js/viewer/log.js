// The log: each record in words, a button to its version, the current one marked; a long game's
// log is read as a window.

import { get } from '../core/api.js';
import { h, listNames, placeChildren, seatName, words } from '../core/dom.js';
import { loadLog } from '../core/viewer.js';
import { $, app, gamePath, token } from './state.js';
import { jump } from './timeline.js';

const BROKEN = /undefined|NaN|\[object Object\]/;
const eventWords = (type) => `${words(type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())}.`;

function sentence(record) {
  const said = rawSentence(record);
  // A field this client does not know (a newer server, a sealed record) never reaches the page as
  // "undefined": the record's kind is said instead.
  return BROKEN.test(said) ? eventWords(record.type) : said;
}

function rawSentence(record) {
  const d = record.data || {};
  if (record.type === 'GameCreated') return `A game of ${app.title} for ${d.players} players is created.`;
  if (record.type === 'SeatTaken') return `${d.name} takes seat ${Number(d.seat) + 1}.`;
  if (record.type === 'CommandAccepted') {
    const command = d.command || {};
    if (!command.type) return `${seatName(d.seat)}: a sealed command.`;
    // Another seat's sealed command shows only its type: the game module words it without its fields.
    const said = app.module.describeMove ? app.module.describeMove(command, app.data) : words(command.type);
    return `${seatName(d.seat)}: ${said}.`;
  }
  if (record.type === 'GameEnded') {
    const winners = d.winners || [];
    return `The game ends. ${winners.length ? `${listNames(winners)} ${winners.length > 1 ? 'win' : 'wins'}.` : 'Nobody wins.'}`;
  }
  return app.module.describe(record, app.data) || eventWords(record.type);
}

// What each log item says (kept beside it, not in the page): an item is kept while it says the same.
const SAID = new WeakMap();

function logItem(record) {
  const said = sentence(record);
  const li = h(
    'li',
    { class: record.type === 'CommandAccepted' ? 'command' : 'event', 'data-position': record.position },
    h('button', { type: 'button', onclick: () => jump(record.position), 'aria-label': `version ${record.position}: ${said}` },
      h('span', { class: 'pos' }, String(record.position)), ' ', said),
  );
  SAID.set(li, said);
  return li;
}

export function renderLog() {
  const earlier = app.logFrom
    ? h('li', { class: 'earlier' }, h('button', { type: 'button', onclick: async () => {
      await loadLog(1);
      highlightLog();
    } }, `Show the ${app.logFrom} earlier records`))
    : null;
  // The items already in the log are kept (the whole log read after a window of it adds only the
  // earlier records: the browser lays out only those), unless what they say has changed.
  const log = $('log');
  const held = new Map();
  for (const li of log.querySelectorAll('li[data-position]')) held.set(li.dataset.position, li);
  const items = app.records.map((record) => {
    const li = held.get(String(record.position));
    return li && SAID.get(li) === sentence(record) ? li : logItem(record);
  });
  placeChildren(log, [earlier, ...items].filter(Boolean));
}

export function highlightLog() {
  const log = $('log');
  const was = log.querySelector('li.current');
  was?.classList.remove('current');
  was?.removeAttribute('aria-current');
  const li = log.querySelector(`li[data-position="${app.version}"]`);
  if (li) {
    li.classList.add('current');
    li.setAttribute('aria-current', 'step');
  }
  // Scrolled to in the next frame: reading offsets now would lay the page out in the middle of a
  // step (and again after it); the frame lays it out once.
  if (!app.logScroll) app.logScroll = requestAnimationFrame(scrollLogToCurrent);
}

function scrollLogToCurrent() {
  app.logScroll = null;
  const log = $('log');
  const li = log.querySelector('li.current');
  if (!li) return;
  // offsets within the log itself: a panel above that grows later does not move the target
  const top = li.offsetTop;
  if (top < log.scrollTop || top + li.offsetHeight > log.scrollTop + log.clientHeight) {
    log.scrollTop = top - log.clientHeight / 2;
  }
}

/** Records after the last one held: the log catches up without a reload. */
export async function catchUpLog() {
  const after = Math.max(0, ...app.records.map((r) => r.position));
  const records = await get(`${gamePath('/events')}?after=${after}`, { token: app.perspective === 'everything' ? null : token() });
  for (const record of records) keepRecord(record);
}

/** A record the page does not hold yet: kept, and added to the log. False: already held. */
export function keepRecord(record) {
  if (app.records.some((r) => r.position === record.position)) return false;
  app.records.push(record);
  $('log').append(logItem(record));
  return true;
}
