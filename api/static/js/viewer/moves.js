// The moves panel: the seat's legal moves listed, the game's forms, the playable places marked
// on the board, a click on a place.

import { get } from '../core/api.js';
import { h, removeClass, setAttributeIfChanged, toggleClass } from '../core/dom.js';
import { formValues, restoreValues } from '../core/forms.js';
import { seatOf } from '../core/perspectives.js';
import { restoreFocus, send, sendSoon } from './send.js';
import { $, app, gamePath, token } from './state.js';

const MOVES_SHOWN = 60;

export async function refreshMoves() {
  const seat = seatOf(app.perspective);
  const pane = $('moves');
  const canPlay = seat !== null && app.status === 'running' && app.version === app.latest;
  pane.hidden = !canPlay;
  const typed = formValues($('move-forms'));
  if (typed.size) app.typedInForms = typed; // kept until the forms are drawn again
  // A redraw (the live stream's, while the sender's own is under way) must not drop a keyboard
  // player's focus to the page's body with the list it was on.
  const keyboardHere = pane.contains(document.activeElement) && document.activeElement !== pane;
  $('move-forms').replaceChildren();
  if (!canPlay) {
    app.moves = null;
    markPlayable();
    if (keyboardHere) restoreFocus({ moves: true });
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
  if (keyboardHere && !pane.contains(document.activeElement)) restoreFocus({ moves: true });
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

export function keysOf(move) {
  return app.module.moveTargets ? app.module.moveTargets(move, app.data, app.shown) : [];
}

export function renderMoves() {
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

export function markPlayable() {
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
    toggleClass(node, 'playable', keys.has(key)); // a node kept between drawings keeps no bare class=""
    toggleClass(node, 'chosen', key === app.target || ticked.has(key));
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
export function preview(move, keys) {
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

export function clearPreview() {
  const board = $('board');
  for (const node of board.querySelectorAll('.preview')) removeClass(node, 'preview');
  board.querySelector('.route-preview')?.remove();
}

/** The boxes of the forms a person has open that a board click ticks: with the forms folded, the
 * board plays the moves there as always. */
function pickBoxes() {
  return [...$('move-forms').querySelectorAll('input[data-board-key]')].filter((box) => !box.closest('details:not([open])'));
}

export function onBoardClick(e) {
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

export function showRefusal(message) {
  const box = $('refusal');
  box.textContent = message || '';
  box.hidden = !message;
}
