// Whose turn it is (the headline, the tab's title, the alert on one's turn), the clocks and the
// scoreboard.

import { chips, h, morphChildren, seatChip, seatName, words } from '../core/dom.js';
import { seatOf } from '../core/perspectives.js';
import { $, app } from './state.js';

export function renderTurn(view) {
  const pane = $('turn');
  const awaited = Object.entries(view.awaited);
  const optional = Object.entries(view.optional || {});
  const rows = [];
  const me = seatOf(app.perspective);
  const mine = me !== null && view.status === 'running' && view.version === app.latest && String(me) in view.awaited;
  if (view.status === 'ended' && view.version === app.latest) {
    const winners = view.scoreboard.winners;
    rows.push(h('p', { class: 'headline' }, 'Game over. ', winners.length ? [winners.length > 1 ? 'Winners: ' : 'Winner: ', ...chips(winners)] : 'No winner.'));
  } else if (!awaited.length) {
    rows.push(h('p', { class: 'headline' }, view.status === 'ended' ? 'Game over.' : 'Nobody is awaited.'));
  } else {
    // short: the moves panel right under it lists every choice
    if (mine) rows.push(h('p', { class: 'headline your-turn', 'data-your-turn': '' }, 'Your turn: ', listed(view.awaited[String(me)], 2)));
    for (const [seat, types] of awaited) {
      if (mine && Number(seat) === me) continue;
      rows.push(h('p', { class: 'headline' }, seatChip(seat), ' to play: ', listed(types)));
    }
  }
  for (const [seat, types] of optional) rows.push(h('p', {}, seatChip(seat), ' may: ', listed(types)));
  if (view.clock && view.status === 'running') rows.push(clockLine(view.clock));
  const summary = app.module.summary ? app.module.summary(view, app.data) : null;
  if (summary) rows.push(h('p', { class: 'summary' }, summary));
  morphChildren(pane, rows);
  pane.dataset.yourTurn = mine ? 'true' : 'false';
  updateDocumentTitle(view);
  noteTurn(view, mine);
}

/** The tab's title says when it is this seat's turn, so a player in another tab sees it. */
export function updateDocumentTitle(view) {
  const me = seatOf(app.perspective);
  const mine = me !== null && view.status === 'running' && view.version === app.latest && String(me) in (view.awaited || {});
  const title = `${mine ? '● Your turn · ' : ''}${app.title || 'Game'} — Alexandria`;
  if (document.title !== title) document.title = title; // each write is news to the browser's tab
}

/** The turn told when the game moves on to this seat: at the live edge only (stepping the timeline
 * back and forth tells nothing), and never for the page's first drawing (that is no news). */
function noteTurn(view, mine) {
  if (view.version !== app.latest) return;
  const known = app.turnAtEdge;
  if (known && view.version > known.version && mine && !known.mine) announceTurn();
  if (!known || view.version > known.version) app.turnAtEdge = { version: view.version, mine };
}

/** A sound and, while the tab is in the background, a notification — only when the player asked
 * for them (the "tell me" box). */
function announceTurn() {
  if (!$('notify')?.checked) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no sound on this device: the title and the headline still say it
  }
  if (document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    new Notification(`Your turn — ${app.title}`, { body: `${seatName(seatOf(app.perspective))}, it is your move.`, tag: app.gameId });
  }
}

/** A clocked game's clocks: each seat's time left, the running one counting down on the page. */
function clockLine(clock) {
  app.clock = { ...clock, receivedAt: Date.now() };
  const line = h('p', { class: 'clocks', 'data-clocks': '' }, 'Clocks: ', clock.seats.flatMap((c, i) => [
    i ? ' · ' : '',
    seatChip(c.seat),
    ' ',
    h('span', { class: c.running ? 'clock running' : 'clock', 'data-clock-seat': c.seat, 'data-remaining-ms': c.remaining_ms }, clockText(c.remaining_ms)),
  ]));
  if (!app.clockTimer) app.clockTimer = setInterval(tickClocks, 1000);
  return line;
}

function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function tickClocks() {
  if (!app.clock) return;
  const passed = Date.now() - app.clock.receivedAt;
  for (const c of app.clock.seats) {
    if (!c.running) continue;
    const node = document.querySelector(`[data-clock-seat="${c.seat}"]`);
    if (node) node.textContent = clockText(c.remaining_ms - passed);
  }
}

/** "roll dice, end turn" — or the first few and how many more, for a long list. */
function listed(types, most = 4) {
  const shown = types.slice(0, most).map(words).join(', ');
  return types.length > most ? `${shown} and ${types.length - most} more` : shown;
}

export function renderScores(view) {
  const sb = view.scoreboard;
  const awaited = new Set(Object.keys(view.awaited).map(Number));
  const table = h(
    'table',
    { class: 'scores' },
    h('caption', {}, sb.final ? 'Final scores' : 'Scores'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Seat'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Place'))),
    h(
      'tbody',
      {},
      sb.scores.map((score, seat) =>
        h(
          'tr',
          { class: [awaited.has(seat) ? 'awaited' : '', sb.winners.includes(seat) ? 'winner' : ''].join(' '), 'data-seat': seat },
          h('th', { scope: 'row' }, seatChip(seat), seat === seatOf(app.perspective) ? ' (you)' : ''),
          h('td', {}, String(score)),
          h('td', {}, String(sb.placings[seat])),
        ),
      ),
    ),
  );
  morphChildren($('scores'), [table]);
}
