// The player's panel on the tournament page, for the bearer of a player token held in this
// browser (entries.js): this round's table and seat (or the bye), the game's status and "your
// turn", told live by the table's own game stream; and "Play" beside the player's seat, which opens
// the viewer acting with the player's token (kept for that game's seat, as a seat link's is).

import { get, post } from './api.js';
import { coalesced } from './coalesce.js';
import { h, seatColour, seatInk } from './dom.js';
import { rememberToken } from './perspectives.js';
import { follow } from './sse.js';

const $ = (id) => document.getElementById(id);
const STATUS_WORDS = { running: 'in play', ended: 'finished', voided: 'voided' };

/** A seat's chip with its player's name (the page's global seat names belong to no one table). */
const nameChip = (seat, name) => h('span', { class: 'chip', 'data-chip-seat': seat, style: `--seat:${seatColour(seat)};--seat-ink:${seatInk(seat)}`, title: `${name} (seat ${seat + 1})` }, name);

export const playLink = (gameId, seat) => `/viewer?game=${encodeURIComponent(gameId)}#p=seat:${seat}`;

/** The panel of one player: `refresh()` reads /me again and redraws (after a tournament record
 * or a move at the player's table); `stop()` ends the table's stream. */
export function playerPanel(tournamentId, entry, { onError, byePoints }) {
  const panel = { me: null, stream: null, streamGame: null };
  const base = `/tournaments/${encodeURIComponent(tournamentId)}`;

  function followTable(table) {
    const gameId = table && table.status === 'running' ? table.game_id : null;
    if (gameId === panel.streamGame) return;
    panel.stream?.stop();
    panel.stream = null;
    panel.streamGame = gameId;
    if (!gameId) return;
    // The player's own token reads their seat's stream; each move there may change "your turn".
    panel.stream = follow(gameId, { token: entry.token, after: table.version, onView: refresh, onEnd: refresh });
  }

  function draw(me) {
    const box = $('me');
    const table = me.table;
    box.dataset.player = me.player;
    box.dataset.round = me.round ?? '';
    box.dataset.bye = me.bye ? 'true' : 'false';
    box.dataset.yourTurn = me.your_turn ? 'true' : 'false';
    box.dataset.table = table ? table.table : '';
    box.dataset.seat = table ? table.seat : '';
    box.dataset.gameId = table ? table.game_id : '';
    box.dataset.status = table ? table.status : '';
    const lines = [h('p', { id: 'me-name' }, 'You play as ', h('strong', {}, me.name), me.registered_by === 'organiser' ? ' (registered by the organiser)' : '')];
    if (me.withdrawn) lines.push(h('p', { id: 'me-withdrawn' }, 'You are withdrawn: no later round seats you.'));
    else if (me.check_in?.open && me.check_in.checked_in) lines.push(h('p', { id: 'me-checked-in' }, 'You have checked in.'));
    else if (me.check_in?.open) {
      // Whoever has not checked in when registration closes is left out of the event.
      const button = h('button', { id: 'me-check-in', type: 'button' }, 'Check in');
      button.onclick = async () => {
        button.disabled = true;
        try {
          await post(`${base}/check-in`, {}, { token: entry.token });
          await refresh();
        } catch (err) {
          onError(`Refused (${err.code}): ${err.message}`);
          button.disabled = false;
        }
      };
      lines.push(h('p', { id: 'me-check-in-line' }, 'Check-in is open: check in, or you are left out when registration closes. ', button));
    }
    if (!me.round) lines.push(h('p', {}, 'Round 1 is not seated yet: this page tells you your table when it is.'));
    else if (me.bye) lines.push(h('p', { id: 'me-bye' }, `Round ${me.round}: you have the bye (${byePoints()} points). No table for you this round.`));
    else if (!table) lines.push(h('p', {}, `Round ${me.round}: you have no table this round.`));
    if (table && table.round === me.round) {
      const chip = (seat) => nameChip(seat, table.players[seat].name);
      const others = table.players.map((p, seat) => seat).filter((seat) => seat !== table.seat);
      rememberToken(table.game_id, table.seat, entry.token); // the viewer acts with it at this seat only
      lines.push(
        h('p', { id: 'me-table' }, `Round ${table.round}, table ${table.table}: you are seat ${table.seat + 1} `, chip(table.seat),
          others.length ? [' against ', ...others.flatMap((seat, i) => [i ? ', ' : '', chip(seat)])] : ''),
        h('p', { id: 'me-status' }, `The game is ${STATUS_WORDS[table.status] || table.status}. `,
          me.your_turn ? h('strong', { 'data-your-turn': '', class: 'your-turn' }, 'Your turn!') : table.status === 'running' ? 'Not your turn: waiting for the others.' : ''),
        h('p', {}, h('a', { id: 'me-play', class: 'play-link', href: playLink(table.game_id, table.seat) }, table.status === 'running' ? 'Play your table' : 'Replay your table')),
      );
    }
    box.replaceChildren(...lines);
    $('me-section').hidden = false;
    const title = document.title.replace(/^● Your turn — /, '');
    document.title = me.your_turn ? `● Your turn — ${title}` : title;
  }

  const refresh = coalesced(async () => {
    try {
      panel.me = await get(`${base}/me`, { token: entry.token });
      draw(panel.me);
      followTable(panel.me.table);
    } catch (err) {
      onError(err.status === 401 ? 'This browser holds a player token this tournament does not know.' : err.message);
    }
  });

  return {
    refresh,
    get me() {
      return panel.me;
    },
    stop() {
      panel.stream?.stop();
    },
  };
}
