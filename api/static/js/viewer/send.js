// Sending a move: after the undo window, signed when the seat's key is here; a refusal told in
// words after re-reading the game, and the keyboard put back where it was.

import { ApiError, get, post } from '../core/api.js';
import { listNames } from '../core/dom.js';
import { commandBody } from '../core/keys.js';
import { seatOf } from '../core/perspectives.js';
import { hideSpectators } from '../core/watching.js';
import { loadLog, show } from '../core/viewer.js';
import { setLive } from './live.js';
import { catchUpLog, keepRecord } from './log.js';
import { showRefusal } from './moves.js';
import { fillPerspectives } from './perspective-menu.js';
import { $, app, gamePath, token, viewKey } from './state.js';

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

export function restoreFocus(memo) {
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

export function sendSoon(move) {
  cancelPending();
  const wait = undoWindow();
  if (wait <= 0) return send(move);
  app.pending = { move, timer: setTimeout(() => sendPending(), wait) };
  $('pending-text').textContent = `Sending: ${app.module.describeMove(move, app.data, app.shown)}. `;
  $('pending').hidden = false;
  $('undo').focus({ preventScroll: true });
  return null;
}

export function cancelPending() {
  if (app.pending) clearTimeout(app.pending.timer);
  app.pending = null;
  $('pending').hidden = true;
}

export function sendPending() {
  const pending = app.pending;
  cancelPending();
  if (pending) send(pending.move);
}

export async function send(move) {
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
  for (const record of result.events) keepRecord(record);
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
