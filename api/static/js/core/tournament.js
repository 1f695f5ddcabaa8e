// The tournament page (/tournament?id=ID): status with the master seed's commitment and the
// tournament's fingerprint, the standings (place, player, points, tie-breaks, rating), and every
// round's tables with their players in seat order, each linked to its game in the viewer. While
// the tournament runs the page polls it and redraws when its log has grown (a result came in, a
// round was seated, a ruling was made).

import { gameData, get } from './api.js';
import { h, labelCells, plural, seatChip, words } from './dom.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
const TIE_BREAK_TITLES = {
  head_to_head: 'Head-to-head',
  opponents_points: "Opponents' points",
  score_sum: 'Score sum',
};
const page = { id: null, version: null, timer: null };

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

function setLive(state, text) {
  $('live').dataset.state = state;
  $('live').textContent = text;
}

/** Points are shared on ties (3.75, 4.5 ...): at most two decimals, no trailing zeros. */
const number = (value) => (Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100));
const ordinalPlace = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
const viewerLink = (gameId) => `/viewer?game=${encodeURIComponent(gameId)}`;

/** A table cell carrying its value as the API gave it (what the tests compare). */
const cell = (field, value, text = value) => h('td', { 'data-field': field, 'data-value': JSON.stringify(value) }, text);

function statusOf(tournament, standings) {
  const seated = tournament.rounds.length;
  const total = tournament.settings.rounds;
  if (tournament.ended) return { key: 'ended', text: `ended after ${plural(total, 'round')}` };
  if (!seated) return { key: 'registering', text: `registration open (${plural(tournament.players.length, 'player')})` };
  const tables = tournament.rounds[seated - 1].tables;
  const done = tables.filter((t) => t.result).length;
  if (done < tables.length) return { key: 'playing', text: `round ${seated} of ${total} in play: ${done} of ${plural(tables.length, 'table')} finished` };
  return { key: seated < total ? 'between-rounds' : 'finished', text: seated < total ? `round ${seated} of ${total} finished; the next is not seated yet` : `all ${plural(total, 'round')} played; not ended yet` };
}

function drawStatus(tournament, standings, title) {
  const settings = tournament.settings;
  const status = statusOf(tournament, standings);
  document.body.dataset.status = status.key;
  const fact = (term, value, attrs = {}) => [h('dt', {}, term), h('dd', attrs, value)];
  const hash = (text) => h('code', { class: 'hash' }, text);
  $('status').replaceChildren(
    ...fact('Status', status.text, { id: 'tournament-status' }),
    ...fact('Game', title),
    ...fact('Format', `${words(settings.format)}, ${plural(settings.rounds, 'round')}, tables of ${settings.table_size}`),
    ...fact('Points per place', settings.points_per_place.map(number).join(' / ') + `; a bye ${number(settings.bye_points)}`),
    ...fact('Tie-breaks', settings.tie_breaks.map((t) => TIE_BREAK_TITLES[t] || words(t)).join(', ') || 'none'),
    ...(settings.time_control ? fact('Clock', `${settings.time_control.base_seconds} s + ${settings.time_control.increment_seconds} s per move; out of time: ${words(settings.time_control.on_timeout)}`) : []),
    ...fact('Master seed commitment', hash(tournament.master_seed_commitment), { id: 'commitment' }),
    ...(tournament.ended ? fact('Master seed (revealed)', hash(tournament.ended.master_seed), { id: 'master-seed' }) : []),
    ...fact('Fingerprint', hash(tournament.fingerprint), { id: 'fingerprint', title: 'the hash of the tournament log\'s last record: what an organiser publishes' }),
    ...fact('Bundle', h('a', { href: `/tournaments/${encodeURIComponent(tournament.tournament_id)}/bundle`, download: `tournament-${tournament.tournament_id}.json` }, 'download to verify offline (alexandria tournament verify)')),
  );
}

function drawStandings(settings, standings) {
  const breaks = settings.tie_breaks;
  $('standings').querySelector('thead').replaceChildren(h('tr', {},
    h('th', { scope: 'col' }, 'Place'),
    h('th', { scope: 'col' }, 'Player'),
    h('th', { scope: 'col' }, 'Points'),
    h('th', { scope: 'col' }, 'Games'),
    h('th', { scope: 'col' }, 'Byes'),
    breaks.map((t) => h('th', { scope: 'col' }, TIE_BREAK_TITLES[t] || words(t))),
    h('th', { scope: 'col', title: 'openskill Plackett-Luce: ordinal = μ − 3σ' }, 'Rating')));
  const rows = standings.standings.map((row) => h('tr', { 'data-player': row.player },
    cell('place', row.place),
    h('th', { scope: 'row', 'data-field': 'name', 'data-value': JSON.stringify(row.name) }, row.name),
    cell('points', row.points, number(row.points)),
    cell('games', row.games),
    cell('byes', row.byes),
    breaks.map((t) => cell(t, row[t], number(row[t]))),
    cell('rating', row.rating.ordinal, h('span', { title: `μ ${number(row.rating.mu)}, σ ${number(row.rating.sigma)}` }, number(row.rating.ordinal)))));
  $('standings').querySelector('tbody').replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 6 + breaks.length }, 'No players yet.'))]));
  labelCells($('standings'));
}

function drawRounds(tournament) {
  const names = tournament.players.map((p) => p.name);
  const voided = new Set(tournament.adjudications.filter((a) => a.kind === 'void').map((a) => a.game_id));
  const rounds = tournament.rounds.map((round) => {
    const heading = `round-${round.round}-heading`;
    const tables = round.tables.map((table) => {
      const result = table.result;
      const players = h('ol', { class: 'seats' }, table.players.map((player, seat) => h('li', { 'data-player': player, 'data-seat': seat },
        seatChip(seat), ' ', h('span', { class: 'name' }, names[player]),
        result ? h('small', {}, ` ${ordinalPlace(result.placings[seat])}, ${number(result.scores[seat])}`) : null)));
      const state = voided.has(table.game_id) ? 'void' : result ? 'ended' : 'running';
      return h('tr', { 'data-game-id': table.game_id, 'data-table': table.table },
        h('th', { scope: 'row' }, `Table ${table.table}`),
        h('td', {}, players),
        h('td', {}, state),
        h('td', {}, h('a', { href: viewerLink(table.game_id), 'data-game-link': table.game_id, 'aria-label': `${state === 'running' ? 'Watch' : 'Replay'} round ${round.round}, table ${table.table}` }, state === 'running' ? 'watch' : 'replay')));
    });
    return h('section', { class: 'round', 'data-round': round.round, 'aria-labelledby': heading },
      h('h3', { id: heading }, `Round ${round.round}`),
      h('table', {},
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Table'), h('th', { scope: 'col' }, 'Players in seat order'), h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col' }, 'Viewer'))),
        h('tbody', {}, tables)),
      round.byes.length ? h('p', { class: 'byes' }, `Bye: ${round.byes.map((p) => names[p]).join(', ')}`) : null);
  });
  $('rounds').replaceChildren(...(rounds.length ? rounds : [h('p', {}, 'No round is seated yet.')]));
}

function drawRulings(tournament) {
  const names = tournament.players.map((p) => p.name);
  const items = [
    ...tournament.adjudications.map((a) => h('li', {}, `${words(a.kind)}${a.game_id ? ` of game ${a.game_id}` : ''}${a.player !== undefined && a.player !== null ? ` (${names[a.player] ?? `player ${a.player}`})` : ''}: ${a.reason}`)),
    ...tournament.timeouts.map((t) => h('li', {}, `time out: ${names[t.player]} in round ${t.round}, table ${t.table} (${words(t.rule)})`)),
  ];
  $('rulings').replaceChildren(...items);
  $('rulings-section').hidden = !items.length;
}

async function load() {
  const base = `/tournaments/${encodeURIComponent(page.id)}`;
  const tournament = await get(base);
  if (tournament.version !== page.version) {
    const [standings, data] = await Promise.all([get(`${base}/standings`), gameData(tournament.settings.game).catch(() => null)]);
    const title = data?.title || words(tournament.settings.game);
    $('title').textContent = `${title} tournament`;
    document.title = `${title} tournament — Alexandria`;
    drawStatus(tournament, standings, title);
    drawStandings(tournament.settings, standings);
    drawRounds(tournament);
    drawRulings(tournament);
    page.version = tournament.version;
    document.body.dataset.version = tournament.version;
    document.body.dataset.ended = tournament.ended ? 'true' : 'false';
    $('layout').hidden = false;
  }
  return tournament;
}

async function poll() {
  page.timer = null;
  let tournament;
  try {
    tournament = await load();
    showError('');
  } catch (err) {
    if (err.status === 404) {
      showError(`${err.message}. Check the tournament id.`);
      $('pick').hidden = false;
      return;
    }
    setLive('reconnecting', 'reconnecting…');
    page.timer = setTimeout(poll, POLL_MS);
    return;
  }
  if (tournament.ended) {
    setLive('ended', 'final');
    return;
  }
  setLive('live', 'live');
  page.timer = setTimeout(poll, POLL_MS);
}

function start() {
  const params = new URLSearchParams(location.search);
  $('pick-form').onsubmit = (e) => {
    e.preventDefault();
    const id = $('pick-tournament').value.trim();
    if (id) location.search = `?id=${encodeURIComponent(id)}`;
  };
  page.id = params.get('id');
  if (!page.id) {
    $('pick').hidden = false;
    return;
  }
  $('pick-tournament').value = page.id;
  poll();
}

start();
