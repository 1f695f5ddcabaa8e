// The replay viewer and play page: one layout for every game. This entry loads the game and shows
// a version of it; the page's panels live in js/viewer/ (the board, the log, the timeline, the turn
// and scores, the moves panel and sending, live following, the perspective menu, the controls).
// A game module (js/games/<game>.js) draws the board from the catalog's static data and the view,
// and words its events and moves.

import { updateAnalysis } from './analysis.js';
import { gameData, get } from './api.js';
import { setSeatNames } from './dom.js';
import { showSeatKey } from './keys.js';
import { perspectiveFromFragment, seatOf, takeTokensFromFragment } from './perspectives.js';
import { draw } from '../viewer/board.js';
import { wireControls } from '../viewer/controls.js';
import { startStream } from '../viewer/live.js';
import { highlightLog, renderLog } from '../viewer/log.js';
import { keysOf, refreshMoves } from '../viewer/moves.js';
import { fillPerspectives } from '../viewer/perspective-menu.js';
import { $, app, gamePath, showError, token, viewKey } from '../viewer/state.js';
import { stepFrom, updateTimeline, updateUrl } from '../viewer/timeline.js';
import { updateDocumentTitle } from '../viewer/turn.js';
import { waitForPlayers } from '../viewer/waiting.js';

const VIEWS_KEPT = 400;

window.alexandria = app; // for people debugging in the console, and for the browser tests
app.showVersion = (version) => show(version); // the browser tests step whole timelines with it
app.targetsOfMove = (index) => keysOf(app.moves.moves[index]);

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
  app.tournament = Boolean(board.tournament); // a tournament's table: its seats are keyed at registration
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
export async function loadLog(needed = app.version || app.latest) {
  const windowed = Math.max(0, app.latest - LOG_WINDOW);
  const after = needed > windowed ? windowed : 0;
  app.records = await get(`${gamePath('/events')}${after ? `?after=${after}` : ''}`, { token: app.perspective === 'everything' ? null : token() });
  app.logFrom = after; // the records after this position are held
  renderLog();
}

// -- showing a version --------------------------------------------------------------------------

export async function show(version) {
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
  showSeatKey(app.gameId, seatOf(app.perspective), app.records, token(), { tournament: app.tournament }); // keys.js: is the seat keyed, here?
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
  // A step back to the log's window's start: the whole log is read now, while the person looks,
  // and not by the step that leaves the window (it would wait for the log, then lay it all out).
  if (app.logFrom && stepFrom(app.version, -1) <= app.logFrom + 1) {
    app.prefetching = true;
    loadLog(1).then(highlightLog).catch(() => null).finally(() => {
      app.prefetching = false;
    });
    return;
  }
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

start();
