// A game still waiting for players: who is awaited, followed until the last seat is taken.

import { ApiError, get } from '../core/api.js';
import { h, seatChip, seatName, setSeatNames } from '../core/dom.js';
import { seatOf } from '../core/perspectives.js';
import { $, app, gamePath, showError, token } from './state.js';

/** A game created with open seats has no board until its last seat is taken: say who is awaited,
 * and ask again (each read waits on the server for the next version) until the game starts. */
export async function waitForPlayers(board) {
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
