// The engine's analysis beside the board: for an ended game, the search bot's best moves for the
// seat awaited at the version shown, with their estimated win chances (GET /games/{id}/analysis);
// for a person playing only bots in a casual game, a "Hint" button that asks the same for their
// own seat, now. A running game with people (or a tournament's) shows nothing here.

import { get } from './api.js';
import { h, morphChildren, seatChip, words } from './dom.js';

const PLAYOUTS = 300;
const LINES_SHOWN = 5;
const BOT_NAME = /^bot:/;
const STEPPING_PAUSE_MS = 150; // how long a version stays shown before its analysis is asked for

let panel = null;
let asked = 0; // the latest request: an answer to an older one is dropped
const answers = new Map(); // `${version}:${seat}` -> analysis (an ended game's never change)

function ensurePanel() {
  if (panel && panel.isConnected) {
    panel.hidden = false;
    return panel;
  }
  panel = h('section', { id: 'analysis', class: 'analysis', 'aria-labelledby': 'analysis-heading', 'aria-live': 'polite' });
  const turn = document.getElementById('turn');
  if (turn) turn.after(panel);
  return panel;
}

/** Whether every seat but `seat` is the server's bot (the names they took their seats with). */
function againstBotsOnly(view, seat) {
  const names = view.names || {};
  for (let other = 0; other < view.players; other += 1) {
    if (other !== seat && !BOT_NAME.test(names[String(other)] || '')) return false;
  }
  return true;
}

const percent = (chance) => `${Math.round(chance * 1000) / 10} %`;

function linesList(analysis, describe) {
  if (!analysis.lines.length) return h('p', {}, 'Nobody moves at this version.');
  const best = analysis.lines.slice(0, LINES_SHOWN);
  return h(
    'ol',
    { class: 'analysis-lines' },
    ...best.map((line) =>
      h(
        'li',
        { 'data-win-chance': String(line.win_chance) },
        h('span', { class: 'analysis-move' }, describe(line.move)),
        ' ',
        h('strong', { class: 'analysis-chance' }, percent(line.win_chance)),
        h('span', { class: 'analysis-playouts' }, ` (${line.playouts} playouts)`),
      ),
    ),
  );
}

function render(analysis, describe, heading) {
  const seatLine = analysis.seat === null ? [] : [h('p', {}, 'For ', seatChip(analysis.seat), ` at version ${analysis.version}:`)];
  const budget = h('p', { class: 'analysis-budget' }, `${analysis.budget.searched} playouts of the search bot, from that seat's knowledge only.`);
  // in place: what the answer for the step before said alike is left as it was
  morphChildren(ensurePanel(), [h('h3', { id: 'analysis-heading' }, heading), ...seatLine, linesList(analysis, describe), budget]);
  panel.dataset.version = String(analysis.version);
  panel.dataset.state = 'shown';
}

function failed(err, heading) {
  ensurePanel().replaceChildren(h('h3', { id: 'analysis-heading' }, heading), h('p', { class: 'error' }, err.message || String(err)));
  panel.dataset.state = 'failed';
}

async function ask(gameId, version, seat, token) {
  const params = new URLSearchParams({ playouts: String(PLAYOUTS) });
  if (version !== null) params.set('v', String(version));
  if (seat !== null) params.set('seat', String(seat));
  return get(`/games/${encodeURIComponent(gameId)}/analysis?${params}`, { token });
}

/**
 * Called by the viewer after it draws a version: `{ gameId, view, ended, latest, seat, token, describe }`,
 * `ended` whether the game has ended (a past version's view tells how it was then), `seat` the
 * page's perspective seat (null for a spectator), `describe(move)` the game's words.
 */
export async function updateAnalysis({ gameId, view, ended, latest, seat, token, describe }) {
  const say = describe || ((move) => words(move.type));
  const request = ++asked;
  if (ended) {
    const awaited = Object.keys(view.awaited || {}).map(Number);
    const key = `${view.version}:${awaited[0] ?? ''}`;
    // the same words as the step before are left as they are (a step restyles only what changed)
    morphChildren(ensurePanel(), [h('h3', { id: 'analysis-heading' }, 'Analysis'), h('p', {}, awaited.length ? 'The search bot is thinking…' : 'Nobody moves at this version.')]);
    panel.dataset.state = awaited.length ? 'thinking' : 'shown';
    panel.dataset.version = String(view.version);
    if (!awaited.length) return;
    try {
      // asked once the person stops stepping: a version stepped past is not searched for
      if (!answers.has(key)) await new Promise((resolve) => setTimeout(resolve, STEPPING_PAUSE_MS));
      if (request !== asked) return;
      const analysis = answers.get(key) || (await ask(gameId, view.version, null, null));
      answers.set(key, analysis);
      if (request === asked) render(analysis, say, 'Analysis');
    } catch (err) {
      if (request === asked) failed(err, 'Analysis');
    }
    return;
  }
  const mine = seat !== null && view.status === 'running' && view.version === latest && String(seat) in (view.awaited || {});
  if (!mine || !againstBotsOnly(view, seat)) {
    ensurePanel().replaceChildren();
    panel.hidden = true;
    panel.dataset.state = 'none';
    return;
  }
  const button = h('button', { type: 'button', id: 'hint', class: 'hint' }, 'Hint');
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.textContent = 'Thinking…';
    try {
      const analysis = await ask(gameId, null, null, token);
      if (request === asked) render(analysis, say, 'Hint');
    } catch (err) {
      if (request === asked) failed(err, 'Hint');
    }
  });
  ensurePanel().replaceChildren(h('h3', { id: 'analysis-heading' }, 'Hint'), h('p', {}, 'Stuck? The search bot can suggest a move from what your seat knows. ', button));
  panel.dataset.state = 'hint';
}
