// The board and the details pane drawn for a view: the game module draws, the core keeps the
// nodes it drew again, marks what appeared and the last move's places.

import { h, labelCells, morphChildren, placeChildren, removeClass, setAttributeIfChanged, setSeatNames, toggleClass } from '../core/dom.js';
import { seatOf } from '../core/perspectives.js';
import { clearPreview, keysOf, markPlayable } from './moves.js';
import { $, app } from './state.js';
import { renderScores, renderTurn } from './turn.js';
import { applyZoom } from './zoom.js';

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

export function draw(view) {
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
    toggleClass(node, 'appeared', isNew); // a game module may draw the same node again
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
    removeClass(node, 'last-move'); // a node a game module draws again (a board's fixed layers)
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
