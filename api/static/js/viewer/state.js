// The viewer's shared state: what the page shows (the game, its records, the version, the
// perspective, the views read so far) and the few helpers every panel reads it with.

import { tokenFor } from '../core/perspectives.js';

export const $ = (id) => document.getElementById(id);

export const app = {
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

export function showError(message) {
  const box = $('error');
  // written only when it changes: every step clears it, and a write restyles the page's top
  if (box.textContent !== (message || '')) box.textContent = message || '';
  if (box.hidden !== !message) box.hidden = !message;
}

export function token() {
  return tokenFor(app.gameId, app.perspective);
}

export const gamePath = (suffix = '') => `/games/${encodeURIComponent(app.gameId)}${suffix}`;

export const viewKey = (perspective, version) => `${perspective}@${version}`;
