// The replay viewer and play page: one layout for every game. The core owns the timeline, the log,
// perspectives, live following and the moves panel; a game module (js/games/<game>.js) draws the
// board from the catalog's static data and the view, and words its events and moves.

import { ApiError, gameData, get, post } from './api.js';
import { chips, h, labelCells, listNames, morphChildren, placeChildren, seatChip, seatLabel, seatName, setAttributeIfChanged, setSeatNames, words } from './dom.js';
import {
  addToken,
  perspectiveFromFragment,
  seatOf,
  setPerspectiveInFragment,
  storedTokens,
  takeTokensFromFragment,
  tokenFor,
} from './perspectives.js';
import { formValues, restoreValues } from './forms.js';
import { follow } from './sse.js';
import { commandBody, showSeatKey } from './keys.js';
import { hideSpectators, showSpectators } from './watching.js';
import { updateAnalysis } from './analysis.js';

const $ = (id) => document.getElementById(id);
const MOVES_SHOWN = 60;
const VIEWS_KEPT = 400;

const app = {
  gameId: null,
  module: null,
  data: null,
  records: [],
  latest: 0,
  version: 0,
  status: 'running',
  perspective: 'spectator',
  views: new Map(),
  stream: null,
  moves: null,
  target: null,
  playing: null,
  renderSeq: 0,
  shown: null,
  follow: true,
  logFrom: 0, // the log's records after this position are held (a long game's page reads a window)
};
window.alexandria = app; // for people debugging in the console, and for the browser tests
app.showVersion = (version) => show(version); // the browser tests step whole timelines with it
app.targetsOfMove = (index) => keysOf(app.moves.moves[index]);

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

function token() {
  return tokenFor(app.gameId, app.perspective);
}

const gamePath = (suffix = '') => `/games/${encodeURIComponent(app.gameId)}${suffix}`;

// -- loading ------------------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  app.gameId = params.get('game');
  wireControls();
  if (!app.gameId) {
    $('pick').hidden = false;
    $('layout').hidden = true;
    $('timeline').hidden = true;
    return;
  }
  try {
    await takeTokensFromFragment(app.gameId);
  } catch (err) {
    showError(`The seat link did not work: ${err.message}`);
  }
  app.perspective = perspectiveFromFragment();
  let board;
  try {
    board = await get(gamePath(), { token: token() });
  } catch (err) {
    showError(err.message);
    return;
  }
  app.data = await gameData(board.game);
  app.module = (await import(`../games/${board.game}.js`)).default;
  document.body.dataset.game = board.game;
  app.title = app.module.title ? app.module.title(board, app.data) : app.data.title;
  $('title').textContent = app.title;
  setSeatNames(board.names);
  updateDocumentTitle(board);
  if (board.status === 'waiting') {
    board = await waitForPlayers(board);
    if (!board) return;
  }
  app.latest = board.version;
  app.status = board.status;
  if (app.perspective === 'everything' && app.status !== 'ended') app.perspective = 'spectator';
  app.views.set(viewKey(app.perspective, board.version), board);
  fillPerspectives();
  const asked = Number(params.get('v'));
  const version = Number.isInteger(asked) && asked >= 1 && asked <= app.latest ? asked : app.latest;
  await loadLog(version);
  app.follow = version === app.latest;
  await show(version);
  startStream();
}

const viewKey = (perspective, version) => `${perspective}@${version}`;

/** A game created with open seats has no board until its last seat is taken: say who is awaited,
 * and ask again (each read waits on the server for the next version) until the game starts. */
async function waitForPlayers(board) {
  const pane = $('waiting');
  $('layout').hidden = true;
  $('timeline').hidden = true;
  pane.hidden = false;
  document.body.dataset.status = 'waiting';
  while (board.status === 'waiting') {
    renderWaiting(board);
    try {
      board = await get(`${gamePath()}?min_version=${board.version + 1}`, { token: token() });
    } catch (err) {
      // Nobody joined while the server waited, or its reads are behind: ask again at once.
      // Anything else but a game or token that is not there: ask again after a pause.
      if (err instanceof ApiError && [401, 404].includes(err.status)) {
        showError(err.message);
        return null;
      }
      if (!(err instanceof ApiError) || !['VERSION_NOT_REACHED', 'READ_MODEL_BEHIND'].includes(err.code)) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }
  pane.hidden = true;
  $('layout').hidden = false;
  $('timeline').hidden = false;
  return board;
}

function renderWaiting(board) {
  setSeatNames(board.names);
  const open = board.open_seats || [];
  const names = Object.entries(board.names || {}).map(([seat, name]) => h('li', {}, seatChip(Number(seat)), ` ${name}`));
  const me = seatOf(app.perspective);
  $('waiting').replaceChildren(
    h('h2', {}, `Waiting for ${open.length} ${open.length === 1 ? 'player' : 'players'}`),
    h('p', {}, me === null ? 'The game starts when every seat is taken; players join by name in the lobby.' : ['You are ', seatChip(me), '. The game starts when every seat is taken; this page follows by itself.']),
    names.length ? h('ul', { class: 'names' }, names) : null,
    h('p', {}, `Open: ${open.map(seatName).join(', ')}. `, h('a', { href: '/lobby' }, 'Join in the lobby')),
  );
  document.body.dataset.waitingFor = String(open.length);
}

async function viewAt(version) {
  const cached = app.views.get(viewKey(app.perspective, version));
  if (cached) return cached;
  let view;
  if (app.perspective === 'everything') {
    view = version === app.latest && app.status === 'ended' ? await get(gamePath()) : await get(gamePath(`/versions/${version}/everything`));
  } else if (version === app.latest) {
    view = await get(gamePath(), { token: token() }); // the game may have moved on meanwhile
    app.latest = Math.max(app.latest, view.version);
  } else {
    view = await get(gamePath(`/versions/${version}`), { token: token() });
  }
  // What a perspective sees at a version never changes, so views are kept (the oldest go first).
  app.views.set(viewKey(app.perspective, view.version), view);
  if (app.views.size > VIEWS_KEPT) app.views.delete(app.views.keys().next().value);
  return view;
}

// A long game's page reads the latest records of its log first (a Catan game has over a thousand);
// the earlier ones when a person steps or asks for them.
const LOG_WINDOW = 300;

/** The log from a little before `needed` (a version the page is about to show) to the end. */
async function loadLog(needed = app.version || app.latest) {
  const windowed = Math.max(0, app.latest - LOG_WINDOW);
  const after = needed > windowed ? windowed : 0;
  app.records = await get(`${gamePath('/events')}${after ? `?after=${after}` : ''}`, { token: app.perspective === 'everything' ? null : token() });
  app.logFrom = after; // the records after this position are held
  renderLog();
}

// -- showing a version --------------------------------------------------------------------------

async function show(version) {
  version = Math.max(1, Math.min(app.latest, version));
  if (version <= app.logFrom) await loadLog(version); // before the window read so far: the whole log
  const seq = ++app.renderSeq;
  let view;
  try {
    view = await viewAt(version);
  } catch (err) {
    showError(err.message);
    return;
  }
  if (seq !== app.renderSeq) return; // a later step overtook this one
  showError('');
  app.version = view.version;
  app.shown = view;
  draw(view);
  showSeatKey(app.gameId, seatOf(app.perspective), app.records, token()); // keys.js: is the seat keyed, here?
  updateTimeline();
  highlightLog();
  updateUrl();
  await refreshMoves();
  highlightLog(); // again: the moves panel may have changed the log's height
  setTimeout(prefetchNext, 0); // after this step's drawing: the neighbours' views are read meanwhile
  const describe = (move) => app.module.describeMove(move, app.data, view);
  updateAnalysis({ gameId: app.gameId, view, ended: app.status === 'ended', latest: app.latest, seat: seatOf(app.perspective), token: token(), describe });
}

/** Replaying, the views one step either way are read while the person looks at this one: a step
 * then draws at once, forward or back. (Views at a version never change, so the reads are kept.) */
function prefetchNext() {
  if (app.prefetching) return;
  const around = [stepFrom(app.version, 1), stepFrom(app.version, -1)]
    .filter((v) => v !== app.version && v >= 1 && v <= app.latest && !app.views.has(viewKey(app.perspective, v)));
  if (!around.length) return;
  app.prefetching = true;
  const perspective = app.perspective;
  (async () => {
    for (const version of around) {
      if (perspective !== app.perspective) break;
      if (version <= app.logFrom) continue; // before the log held: read when the step is taken
      await viewAt(version).catch(() => null); // a failed read is tried again when the step is taken
    }
  })().finally(() => {
    app.prefetching = false;
  });
}

/** What a game module draws the board on: the board's top-level nodes are collected and placed
 * after the drawing, so that nodes a module keeps from one version to the next (a board's fixed
 * layers) stay attached, and its attributes are written only when they change. A timeline step
 * then restyles and lays out only what the step changed. */
function boardCanvas(board) {
  const nodes = [];
  const dataset = new Proxy(board.dataset, {
    set(target, name, value) {
      if (target[name] !== String(value)) target[name] = value;
      return true;
    },
  });
  return {
    nodes,
    dataset,
    append: (...children) => nodes.push(...children),
    setAttribute: (name, value) => setAttributeIfChanged(board, name, value),
  };
}

function draw(view) {
  const board = $('board');
  const details = document.createElement('section'); // drawn apart, then morphed into the page's
  const canvas = boardCanvas(board);
  const ctx = {
    svg: canvas,
    panel: details,
    data: app.data,
    view,
    state: view.state,
    seatViews: view.seat_views || null,
    perspective: app.perspective,
    seat: seatOf(app.perspective),
    records: app.records.filter((r) => r.position <= view.version),
  };
  setSeatNames(view.names);
  // the game's own headings (h3) sit under this one
  details.append(h('h2', { class: 'sr-only' }, 'Details of the game'));
  app.module.draw(ctx);
  placeChildren(board, canvas.nodes);
  clearPreview(); // a node a game module draws again keeps no preview of a move hovered before
  for (const table of details.querySelectorAll('table')) labelCells(table); // one block a row on a phone
  morphChildren($('details'), [...details.childNodes]);
  canvas.dataset.version = view.version;
  canvas.dataset.perspective = app.perspective;
  document.body.dataset.version = view.version;
  document.body.dataset.latest = app.latest;
  document.body.dataset.status = app.status;
  document.body.dataset.awaited = Object.keys(view.awaited).join(',');
  renderTurn(view);
  renderScores(view);
  markPlayable();
  markLastMove(ctx.records);
  markAppeared(view);
  applyZoom();
}

// A drawn node's piece key, worked out once: a game module may draw the same node again.
const PIECE_KEYS = new WeakMap();

/** A piece drawn by one's identity: what it is and where (its attributes, not its classes). */
function pieceKey(node) {
  let key = PIECE_KEYS.get(node);
  if (key === undefined) {
    key = attributesKey(node);
    PIECE_KEYS.set(node, key);
  }
  return key;
}

function attributesKey(node) {
  return node.getAttributeNames().filter((n) => n !== 'class' && n !== 'tabindex' && n !== 'data-last-move').sort().map((n) => `${n}=${node.getAttribute(n)}`).join(' ');
}

/** Pieces new since the version drawn before (a step forward, or the game moving on) fade in: a
 * person sees what changed. Stepping back or jumping far shows the board as it is. */
function markAppeared(view) {
  const pieces = [...$('board').querySelectorAll('[data-piece]')].map((node) => [node, pieceKey(node)]);
  const keys = new Set(pieces.map(([, key]) => key));
  const before = app.drawnPieces;
  const same = before && before.perspective === app.perspective;
  const forward = same && view.version > before.version && view.version - before.version <= 40;
  // the same version drawn again (a live update of it) keeps what had appeared
  const again = same && view.version === before.version ? before.appeared : null;
  const appeared = new Set();
  for (const [node, key] of pieces) {
    const isNew = (forward && !before.keys.has(key)) || Boolean(again?.has(key));
    node.classList.toggle('appeared', isNew); // a game module may draw the same node again
    if (isNew) appeared.add(key);
  }
  $('board').dataset.appeared = String(appeared.size);
  app.drawnPieces = { version: view.version, perspective: app.perspective, keys, appeared };
}

/** The places of the last command up to this version, marked on the board (and briefly animated). */
function markLastMove(records) {
  const last = [...records].reverse().find((r) => r.type === 'CommandAccepted');
  let keys = [];
  try {
    keys = last?.data?.command ? keysOf(last.data.command) : [];
  } catch {
    keys = []; // a sealed command carries no places
  }
  const board = $('board');
  for (const node of board.querySelectorAll('[data-last-move]')) {
    node.classList.remove('last-move'); // a node a game module draws again (a board's fixed layers)
    node.removeAttribute('data-last-move');
  }
  for (const key of keys) {
    for (const node of board.querySelectorAll(`[data-target="${CSS.escape(key)}"]`)) {
      node.classList.add('last-move');
      node.setAttribute('data-last-move', '');
    }
  }
  board.dataset.lastMove = last ? String(last.position) : '';
}

// -- zoom ---------------------------------------------------------------------------------------

const PHONE = window.matchMedia('(max-width: 820px)');
const SMALLEST_TEXT = 11; // CSS pixels: the least a board's text is drawn at on a phone

/** The board's scale now: CSS pixels per board unit. */
function boardScale() {
  const svg = $('board');
  const box = svg.viewBox.baseVal;
  if (!box || !box.width) return 1;
  const rect = svg.getBoundingClientRect();
  return Math.min(rect.width / box.width, rect.height / box.height || Infinity);
}

function fitScale() {
  const box = $('board').viewBox.baseVal;
  const pane = $('board-scroll');
  if (!box || !box.width) return 1;
  return Math.min(pane.clientWidth / box.width, pane.clientHeight / box.height || Infinity);
}

/** A phone starts zoomed in so that the board's smallest text is readable and its places can be
 * touched (a game module may ask for more: `touchScale`, pixels per unit); the pane pans. */
function phoneZoom() {
  let smallest = Infinity;
  for (const text of $('board').querySelectorAll('text')) {
    const size = parseFloat(getComputedStyle(text).fontSize);
    if (size) smallest = Math.min(smallest, size);
  }
  const wanted = Math.max(Number.isFinite(smallest) ? SMALLEST_TEXT / smallest : 0, app.module.touchScale || 0);
  return wanted > fitScale() * 1.01 ? wanted : null;
}

function applyZoom() {
  const svg = $('board');
  const pane = $('board-pane');
  if (app.zoom === undefined) {
    app.zoom = PHONE.matches ? phoneZoom() : null;
    app.centreBoard = app.zoom !== null; // a board larger than the pane opens at its middle
  }
  const box = svg.viewBox.baseVal;
  if (app.zoom === null || !box || !box.width) {
    delete pane.dataset.zoomed;
    svg.style.removeProperty('width');
    svg.style.removeProperty('height');
    delete svg.dataset.scale;
    return;
  }
  pane.dataset.zoomed = '';
  svg.style.setProperty('width', `${Math.round(box.width * app.zoom)}px`);
  svg.style.setProperty('height', `${Math.round(box.height * app.zoom)}px`);
  svg.dataset.scale = app.zoom.toFixed(3);
  if (app.centreBoard) {
    app.centreBoard = false;
    const scroll = $('board-scroll');
    scroll.scrollLeft = (scroll.scrollWidth - scroll.clientWidth) / 2;
    scroll.scrollTop = (scroll.scrollHeight - scroll.clientHeight) / 2;
  }
}

function zoomBy(factor) {
  const next = (app.zoom ?? boardScale()) * factor;
  app.zoom = next <= fitScale() * 1.01 ? null : Math.min(next, 6);
  applyZoom();
}

function renderTurn(view) {
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
function updateDocumentTitle(view) {
  const me = seatOf(app.perspective);
  const mine = me !== null && view.status === 'running' && view.version === app.latest && String(me) in (view.awaited || {});
  document.title = `${mine ? '● Your turn · ' : ''}${app.title || 'Game'} — Alexandria`;
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

function renderScores(view) {
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

// -- log ----------------------------------------------------------------------------------------

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

function logItem(record) {
  return h(
    'li',
    { class: record.type === 'CommandAccepted' ? 'command' : 'event', 'data-position': record.position },
    h('button', { type: 'button', onclick: () => jump(record.position), 'aria-label': `version ${record.position}: ${sentence(record)}` },
      h('span', { class: 'pos' }, String(record.position)), ' ', sentence(record)),
  );
}

function renderLog() {
  const earlier = app.logFrom
    ? h('li', { class: 'earlier' }, h('button', { type: 'button', onclick: async () => {
      await loadLog(1);
      highlightLog();
    } }, `Show the ${app.logFrom} earlier records`))
    : null;
  $('log').replaceChildren(...[earlier, ...app.records.map(logItem)].filter(Boolean));
}

function highlightLog() {
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

// -- timeline -----------------------------------------------------------------------------------

/** A person's step: the page follows the live game again only when stepped to its last version. */
function jump(version) {
  stopPlaying();
  app.follow = version >= app.latest;
  app.stepping = show(version); // the step under way (the timeline benchmark waits on it)
  return app.stepping;
}

/** The versions at which a move is over: a command and the events it caused, before the next
 * command (the setup before the first command is one such step too). */
function moveEnds() {
  if (app.moveEndsOf === app.records.length) return app.moveEnds;
  const byPosition = new Map(app.records.map((r) => [r.position, r]));
  const ends = [];
  for (const r of app.records) {
    if (byPosition.get(r.position + 1)?.type === 'CommandAccepted' || r.position === app.latest) ends.push(r.position);
  }
  ends.sort((a, b) => a - b);
  app.moveEnds = ends;
  app.moveEndsOf = app.records.length;
  return ends;
}

/** The next version one step from `version` (a move, or a record with the step so chosen). */
function stepFrom(version, direction, by = null) {
  if ((by || $('step').value) === 'record') return version + direction;
  const ends = moveEnds();
  if (direction > 0) return ends.find((v) => v > version) ?? app.latest;
  return [...ends].reverse().find((v) => v < version) ?? 1;
}

function updateTimeline() {
  const slider = $('slider');
  slider.max = String(app.latest);
  slider.value = String(app.version);
  slider.setAttribute('aria-valuetext', `version ${app.version} of ${app.latest}`);
  $('position').textContent = `version ${app.version} / ${app.latest}`;
  $('first').disabled = $('back').disabled = app.version <= 1;
  $('forward').disabled = $('last').disabled = app.version >= app.latest;
}

/** A link to the position shown, for anyone: never a token (those stay in this browser). */
function positionLink() {
  return `${location.origin}/viewer?game=${encodeURIComponent(app.gameId)}&v=${app.version}`;
}

async function copyLink() {
  const link = positionLink();
  $('copy-link').dataset.link = link;
  try {
    await navigator.clipboard.writeText(link);
    $('copied').textContent = `Copied: version ${app.version}`;
  } catch {
    $('copied').textContent = link; // no clipboard here: the link to copy by hand
  }
}

/** The address says the version shown; written once stepping pauses (each history write is a
 * round trip to the browser, too slow for every step of a held arrow key). */
function updateUrl() {
  clearTimeout(app.urlTimer);
  app.urlTimer = setTimeout(writeUrl, 150);
}

function writeUrl() {
  const params = new URLSearchParams(location.search);
  if (app.version === app.latest && app.status === 'running') params.delete('v');
  else params.set('v', String(app.version));
  history.replaceState(null, '', `${location.pathname}?${params}${location.hash}`);
}

function togglePlay() {
  if (app.playing) return stopPlaying();
  if (app.version >= app.latest) show(1);
  const perSecond = Number($('speed').value);
  $('play').textContent = 'Pause';
  $('play').setAttribute('aria-label', 'pause');
  app.playing = setInterval(() => {
    if (app.version >= app.latest) return stopPlaying();
    show(stepFrom(app.version, 1));
  }, 1000 / perSecond);
  app.follow = false;
}

function stopPlaying() {
  if (!app.playing) return;
  clearInterval(app.playing);
  app.playing = null;
  $('play').textContent = 'Play';
  $('play').setAttribute('aria-label', 'play');
}

function wireControls() {
  $('first').onclick = () => jump(1);
  $('back').onclick = () => jump(stepFrom(app.version, -1));
  $('forward').onclick = () => jump(stepFrom(app.version, 1));
  $('last').onclick = () => jump(app.latest);
  $('play').onclick = togglePlay;
  $('speed').onchange = () => {
    if (app.playing) {
      stopPlaying();
      togglePlay();
    }
  };
  $('slider').oninput = (e) => jump(Number(e.target.value));
  document.addEventListener('keydown', (e) => {
    const tag = e.target.tagName;
    if ((tag === 'INPUT' && e.target.type !== 'range') || tag === 'SELECT' || tag === 'TEXTAREA') return;
    const by = e.shiftKey ? 'record' : null; // Shift: one record, whatever the step chosen
    const steps = { ArrowLeft: () => stepFrom(app.version, -1, by), ArrowRight: () => stepFrom(app.version, 1, by), Home: () => 1, End: () => app.latest };
    if (!(e.key in steps) || !app.module) return;
    e.preventDefault();
    jump(steps[e.key]());
  });
  $('perspective').onchange = (e) => changePerspective(e.target.value);
  $('token-form').onsubmit = async (e) => {
    e.preventDefault();
    const input = $('token-input');
    if (!input.value.trim()) return;
    try {
      const seat = await addToken(app.gameId, input.value.trim());
      input.value = '';
      fillPerspectives();
      await changePerspective(`seat:${seat}`);
    } catch (err) {
      showError(err instanceof ApiError && err.status === 401 ? 'That is not a seat token of this game.' : err.message);
    }
  };
  $('pick-form').onsubmit = (e) => {
    e.preventDefault();
    const id = $('pick-game').value.trim();
    if (id) location.search = `?game=${encodeURIComponent(id)}`;
  };
  $('move-filter').oninput = () => renderMoves();
  $('undo').onclick = () => {
    cancelPending();
    $('move-list').querySelector('button.move')?.focus();
  };
  $('send-now').onclick = sendPending;
  $('zoom-in').onclick = () => zoomBy(1.25);
  $('zoom-out').onclick = () => zoomBy(1 / 1.25);
  $('zoom-fit').onclick = () => {
    app.zoom = null;
    applyZoom();
  };
  $('copy-link').onclick = copyLink;
  $('notify').checked = localStorage.getItem('alexandria:notify') === 'yes';
  $('notify').onchange = async (e) => {
    localStorage.setItem('alexandria:notify', e.target.checked ? 'yes' : 'no');
    if (e.target.checked && 'Notification' in window && Notification.permission === 'default') {
      try {
        await Notification.requestPermission();
      } catch {
        // refused or not offered: the sound and the tab's title still tell
      }
    }
  };
  $('board').addEventListener('click', onBoardClick);
  const formPreview = (e) => {
    const key = e.target.closest?.('label')?.querySelector('[data-board-key]')?.dataset.boardKey;
    if (key) preview(null, [key]);
  };
  $('move-forms').addEventListener('focusin', formPreview);
  $('move-forms').addEventListener('mouseover', formPreview);
  $('move-forms').addEventListener('focusout', clearPreview);
  $('move-forms').addEventListener('mouseleave', clearPreview);
  // a form's dependent fields change (another province): its board places change with them
  $('move-forms').addEventListener('change', () => markPlayable());
  $('move-forms').addEventListener('toggle', () => markPlayable(), true); // a forms box opened or folded
  $('board').addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('[data-target]')) {
      e.preventDefault();
      onBoardClick(e);
    }
  });
  $('custom-form').onsubmit = async (e) => {
    e.preventDefault();
    let command;
    try {
      command = JSON.parse($('custom-command').value);
    } catch (err) {
      showRefusal(`That is not JSON: ${err.message}`);
      return;
    }
    await send(command);
  };
}

// -- perspectives -------------------------------------------------------------------------------

function fillPerspectives() {
  const select = $('perspective');
  const seats = Object.keys(storedTokens(app.gameId)).map(Number).sort((a, b) => a - b);
  const options = [h('option', { value: 'spectator' }, 'Spectator')];
  for (const seat of seats) options.push(h('option', { value: `seat:${seat}` }, `${seatLabel(seat)}: your seat`));
  if (app.status === 'ended') options.push(h('option', { value: 'everything' }, 'Everything (the game is over)'));
  select.replaceChildren(...options);
  if (![...select.options].some((o) => o.value === app.perspective)) app.perspective = 'spectator';
  select.value = app.perspective;
}

async function changePerspective(perspective) {
  app.perspective = perspective;
  setPerspectiveInFragment(perspective);
  fillPerspectives();
  await loadLog(app.logFrom ? undefined : 1); // as much of the log as was held, in the new perspective
  startStream();
  await show(app.version);
}

// -- live ---------------------------------------------------------------------------------------

function startStream() {
  app.stream?.stop();
  app.stream = null;
  if (app.status !== 'running') {
    setLive('ended');
    hideSpectators();
    return;
  }
  const perspective = app.perspective;
  app.stream = follow(app.gameId, {
    token: perspective === 'everything' ? null : token(),
    after: Math.max(...app.records.map((r) => r.position), 0),
    onState: setLive,
    onSpectators: (count) => perspective === app.perspective && showSpectators(count),
    onRecord(record) {
      if (perspective !== app.perspective) return;
      if (app.records.some((r) => r.position === record.position)) return;
      app.records.push(record);
      $('log').append(logItem(record));
      app.latest = Math.max(app.latest, record.position);
      if (!app.follow) updateTimeline();
    },
    onView(view) {
      if (perspective !== app.perspective) return;
      app.views.set(viewKey(perspective, view.version), view);
      app.latest = Math.max(app.latest, view.version);
      if (view.status === 'ended') app.status = 'ended';
      const already = app.shown && app.shown.version === view.version && app.version === view.version;
      if (app.follow && !app.playing && !already) show(view.version);
      else updateTimeline();
    },
    async onEnd() {
      app.status = 'ended';
      hideSpectators();
      app.views.clear();
      fillPerspectives();
      await loadLog(app.logFrom ? undefined : 1); // after the end the whole log is public (as much as was held)
      const board = await get(gamePath(), { token: token() });
      app.latest = board.version;
      await show(app.latest);
    },
  });
}

function setLive(state) {
  const labels = { live: '● live', reconnecting: '○ reconnecting…', ended: 'game over' };
  $('live').textContent = labels[state] || state;
  $('live').dataset.state = state;
}

// -- moves --------------------------------------------------------------------------------------

async function refreshMoves() {
  const seat = seatOf(app.perspective);
  const pane = $('moves');
  const canPlay = seat !== null && app.status === 'running' && app.version === app.latest;
  pane.hidden = !canPlay;
  const typed = formValues($('move-forms'));
  if (typed.size) app.typedInForms = typed; // kept until the forms are drawn again
  $('move-forms').replaceChildren();
  if (!canPlay) {
    app.moves = null;
    markPlayable();
    return;
  }
  // The same version drawn again (a live update of what is shown) keeps the place a person chose.
  const chosen = pane.dataset.version === String(app.version) && pane.dataset.seat === String(seat) ? app.target : null;
  // Never leave an earlier version's moves clickable while this version's are on their way.
  delete pane.dataset.version;
  delete pane.dataset.seat;
  delete pane.dataset.target;
  $('move-list').replaceChildren();
  const asked = app.version;
  const askedAs = app.perspective;
  try {
    app.moves = await get(gamePath('/legal-moves'), { token: token() });
  } catch (err) {
    app.moves = null;
    showRefusal(err.message);
    return;
  }
  // a later show() or a switch of perspective asks for its own
  if (asked !== app.version || askedAs !== app.perspective) return;
  app.target = chosen && app.moves.moves.some((move) => keysOf(move).includes(chosen)) ? chosen : null;
  renderMoves();
  renderForms(seat, app.typedInForms || new Map());
  app.typedInForms = null;
  markPlayable();
  pane.dataset.version = app.moves.version;
  pane.dataset.seat = seat;
  if (app.target) pane.dataset.target = app.target;
}

/** A game's own forms for commands a flat list of moves does not express well (a trade, a split
 * of cubes, governors on chosen spaces); each sends its command like a listed move. */
function renderForms(seat, typed) {
  const view = app.shown;
  const types = [...(view.awaited[seat] || []), ...((view.optional || {})[seat] || [])];
  const forms = app.module.forms ? app.module.forms({ view, state: view.state, data: app.data, seat, types, send }) : [];
  $('move-forms').replaceChildren(...forms);
  restoreValues($('move-forms'), typed);
}

function keysOf(move) {
  return app.module.moveTargets ? app.module.moveTargets(move, app.data, app.shown) : [];
}

function renderMoves() {
  const list = $('move-list');
  const moves = app.moves ? app.moves.moves : [];
  const filter = $('move-filter').value.trim().toLowerCase();
  let shown = moves.map((move, index) => ({ move, index, label: app.module.describeMove(move, app.data, app.shown) }));
  if (app.target) shown = shown.filter(({ move }) => keysOf(move).includes(app.target));
  if (filter) shown = shown.filter(({ label }) => label.toLowerCase().includes(filter));
  const heading = $('moves-heading');
  heading.textContent = moves.length
    ? `Your moves (${moves.length}${app.moves.complete === false ? ', a sample' : ''})`
    : app.moves && app.version === app.latest ? 'Your moves: none now (not your turn)' : 'Your moves';
  // The moves at one place of the board are all listed; the whole list is cut for a person to read.
  const cap = app.target ? shown.length : MOVES_SHOWN;
  const items = shown.slice(0, cap).map(({ move, index, label }) =>
    h('li', {}, h('button', {
      type: 'button', class: 'move', 'data-type': move.type, 'data-index': index, onclick: () => sendSoon(move),
      onmouseenter: () => preview(move, keysOf(move)), onfocus: () => preview(move, keysOf(move)), onmouseleave: clearPreview, onblur: clearPreview,
    }, label)),
  );
  if (shown.length > cap) items.push(h('li', { class: 'more' }, `… ${shown.length - MOVES_SHOWN} more: filter or click the board`));
  if (app.target) {
    items.unshift(h('li', { class: 'more' }, `At ${placeLabel(app.target)}: `, h('button', { type: 'button', onclick: () => { app.target = null; renderMoves(); markPlayable(); } }, 'show all')));
  }
  list.replaceChildren(...items);
}

function markPlayable() {
  const board = $('board');
  const keys = new Set();
  if (app.moves) for (const move of app.moves.moves) for (const key of keysOf(move)) keys.add(key);
  // places a form picks from (a governor's space): a click on the board ticks the form's box
  const ticked = new Set();
  for (const box of pickBoxes()) {
    keys.add(box.dataset.boardKey);
    if (box.checked) ticked.add(box.dataset.boardKey);
  }
  // Nothing to mark (a spectator, a seat not to play): only the places marked before are unmarked.
  const nodes = keys.size || app.target
    ? board.querySelectorAll('[data-target]')
    : board.querySelectorAll('[data-target].playable, [data-target].chosen, [data-target][tabindex="0"]');
  for (const node of nodes) {
    const key = node.getAttribute('data-target');
    node.classList.toggle('playable', keys.has(key));
    node.classList.toggle('chosen', key === app.target || ticked.has(key));
    setAttributeIfChanged(node, 'tabindex', keys.has(key) ? '0' : '-1');
  }
}

/** The board place's name as its shape says it (its aria-label), for messages. */
function placeLabel(key) {
  const node = $('board').querySelector(`[data-target="${CSS.escape(key)}"]`);
  return node?.getAttribute('aria-label') || key.replace(/^[a-z]+:/, '');
}

/** While a move (or a form's box) is hovered or focused, its places light up on the board, and a
 * game module may draw more (Alexandros's route): moves that differ only by route look different. */
function preview(move, keys) {
  clearPreview();
  const board = $('board');
  for (const key of keys) board.querySelector(`[data-target="${CSS.escape(key)}"]`)?.classList.add('preview');
  const drawn = move && app.module.preview ? app.module.preview(move, app.data, app.shown) : null;
  if (drawn) {
    drawn.classList.add('route-preview');
    drawn.setAttribute('data-piece', 'route-preview');
    board.append(drawn);
  }
}

function clearPreview() {
  const board = $('board');
  for (const node of board.querySelectorAll('.preview')) node.classList.remove('preview');
  board.querySelector('.route-preview')?.remove();
}

/** The boxes of the forms a person has open that a board click ticks: with the forms folded, the
 * board plays the moves there as always. */
function pickBoxes() {
  return [...$('move-forms').querySelectorAll('input[data-board-key]')].filter((box) => !box.closest('details:not([open])'));
}

function onBoardClick(e) {
  const node = e.target.closest?.('[data-target]');
  if (!node) return;
  const key = node.getAttribute('data-target');
  const box = pickBoxes().find((b) => b.dataset.boardKey === key);
  if (box) {
    box.click(); // ticks it and tells the form (whose change marks the board again), as a click on the box would
    return;
  }
  if (!app.moves) return;
  const matching = app.moves.moves.filter((move) => keysOf(move).includes(key));
  if (!matching.length) {
    showRefusal(`No move of yours at ${placeLabel(key)}.`);
    return;
  }
  if (matching.length === 1) {
    sendSoon(matching[0]);
    return;
  }
  app.target = key;
  renderMoves();
  markPlayable();
  $('moves').dataset.target = key;
  $('move-list').querySelector('button.move')?.focus();
}

function showRefusal(message) {
  const box = $('refusal');
  box.textContent = message || '';
  box.hidden = !message;
}

/** Where the keyboard was before a move, to put it back after the redraw (the page's body is no
 * place to leave a keyboard player). */
function focusMemo() {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const onBoard = node.closest?.('[data-target]');
  if (onBoard) return { target: onBoard.getAttribute('data-target') };
  if (node.closest?.('#moves')) return { moves: true };
  return node.id ? { id: node.id } : null;
}

function restoreFocus(memo) {
  if (!memo) return;
  let node = null;
  if (memo.target) node = $('board').querySelector(`[data-target="${CSS.escape(memo.target)}"].playable`);
  if (!node && (memo.target || memo.moves)) node = $('move-list').querySelector('button.move');
  if (!node && memo.id) node = $(memo.id);
  // Nothing of the kind is left (not this seat's turn any more): the headline that says whose it is.
  if (!node || node.closest('[hidden]')) {
    node = $('turn');
    node.setAttribute('tabindex', '-1');
  }
  node.focus({ preventScroll: true });
}

/** Records after the last one held: the log catches up without a reload. */
async function catchUpLog() {
  const after = Math.max(0, ...app.records.map((r) => r.position));
  const records = await get(`${gamePath('/events')}?after=${after}`, { token: app.perspective === 'everything' ? null : token() });
  for (const record of records) {
    if (app.records.some((r) => r.position === record.position)) continue;
    app.records.push(record);
    $('log').append(logItem(record));
  }
}

/** A refusal in words a player reads, after re-reading the game: a stale version (the live
 * connection dropped while another seat moved) or an out-of-turn click must not leave every
 * further click failing the same way until a reload. */
async function recoverFrom(err) {
  let message = `Refused (${err.code}): ${err.message}`;
  if (!(err instanceof ApiError) || err.status === 0 || err.status === 401) return message;
  try {
    const view = await get(gamePath(), { token: token() });
    app.views.set(viewKey(app.perspective, view.version), view);
    app.latest = Math.max(app.latest, view.version);
    await catchUpLog();
    const me = String(seatOf(app.perspective));
    const others = Object.keys(view.awaited).map(Number);
    if (err.code === 'STALE_VERSION') {
      message = 'The game moved on while you chose: the board now shows the current position. Choose again.';
    } else if (['WRONG_PHASE', 'NOT_YOUR_TURN'].includes(err.code) && !(me in view.awaited)) {
      message = others.length ? `Not your turn: ${listNames(others)} ${others.length > 1 ? 'are' : 'is'} to play.` : 'Not your turn.';
    }
    // Redrawn only when the game moved on: a refusal at the version shown keeps what was typed.
    if (view.version !== app.shown?.version) {
      app.follow = true;
      await show(app.latest);
    }
  } catch {
    // the re-read failed too: the refusal as the server said it is all there is to show
  }
  return message;
}

// A move sent by one click waits this long, with an Undo, before it goes (a misclick costs nothing);
// a player may set it (localStorage 'alexandria:undo-ms', 0: at once).
const UNDO_MS = 1500;
function undoWindow() {
  const kept = localStorage.getItem('alexandria:undo-ms');
  return kept !== null && Number.isFinite(Number(kept)) ? Number(kept) : UNDO_MS;
}

function sendSoon(move) {
  cancelPending();
  const wait = undoWindow();
  if (wait <= 0) return send(move);
  app.pending = { move, timer: setTimeout(() => sendPending(), wait) };
  $('pending-text').textContent = `Sending: ${app.module.describeMove(move, app.data, app.shown)}. `;
  $('pending').hidden = false;
  $('undo').focus({ preventScroll: true });
  return null;
}

function cancelPending() {
  if (app.pending) clearTimeout(app.pending.timer);
  app.pending = null;
  $('pending').hidden = true;
}

function sendPending() {
  const pending = app.pending;
  cancelPending();
  if (pending) send(pending.move);
}

async function send(move) {
  showRefusal('');
  const memo = focusMemo();
  let result;
  try {
    const body = await commandBody(app.gameId, seatOf(app.perspective), app.moves ? app.moves.version : app.latest, move);
    result = await post(gamePath('/commands'), body, { token: token() });
  } catch (err) {
    showRefusal(await recoverFrom(err));
    restoreFocus(memo);
    return;
  }
  const view = await get(`${gamePath()}?min_version=${result.version}`, { token: token() });
  app.views.set(viewKey(app.perspective, view.version), view);
  for (const record of result.events) {
    if (!app.records.some((r) => r.position === record.position)) {
      app.records.push(record);
      $('log').append(logItem(record));
    }
  }
  app.latest = Math.max(app.latest, view.version);
  if (view.status === 'ended' && app.status !== 'ended') {
    app.status = 'ended';
    app.stream?.stop();
    setLive('ended');
    hideSpectators();
    app.views.clear();
    fillPerspectives();
    await loadLog(app.logFrom ? undefined : 1); // the whole log again when the page held all of it
  }
  app.follow = true;
  await show(app.latest);
  restoreFocus(memo);
}

start();
