// The tournament page (/tournament?id=ID): status with the master seed's commitment and the
// tournament's fingerprint, the standings (place, player, points, tie-breaks, rating), and every
// round's tables with their players in seat order, each linked to its game in the viewer. The page
// follows the tournament's stream (server-sent events: a round seated, a result, a ruling, the
// end) and redraws on each record; a dropped connection resumes after the last record received.
// With a player token held in this browser (the registration link's) it shows the player's panel
// and "Play" beside their seat; with the organiser token, the organiser's panel.

import { ApiError, gameData, get } from './api.js';
import { coalesced } from './coalesce.js';
import { h, labelCells, plural, seatChip, words } from './dom.js';
import { organiserToken, playerEntry, rememberOrganiser, rememberPlayer, takeFromFragment } from './entries.js';
import { rememberToken } from './perspectives.js';
import { follow } from './sse.js';
import { playerPanel, playLink } from './tournament-me.js';
import { organiserPanel } from './tournament-organiser.js';

const $ = (id) => document.getElementById(id);
const TIE_BREAK_TITLES = {
  head_to_head: 'Head-to-head',
  opponents_points: "Opponents' points",
  score_sum: 'Score sum',
};
const page = { id: null, version: null, stream: null, player: null, organiser: null, tournament: null };

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
  const entry = playerEntry(page.id);
  const mine = entry?.player;
  const voided = new Set(tournament.adjudications.filter((a) => a.kind === 'void').map((a) => a.game_id));
  const rounds = tournament.rounds.map((round) => {
    const heading = `round-${round.round}-heading`;
    const tables = round.tables.map((table) => {
      const result = table.result;
      const players = h('ol', { class: 'seats' }, table.players.map((player, seat) => h('li', { 'data-player': player, 'data-seat': seat, class: player === mine ? 'you' : null },
        seatChip(seat), ' ', h('span', { class: 'name' }, names[player]), player === mine ? h('small', {}, ' (you)') : null,
        result ? h('small', {}, ` ${ordinalPlace(result.placings[seat])}, ${number(result.scores[seat])}`) : null)));
      const state = voided.has(table.game_id) ? 'void' : result ? 'ended' : 'running';
      const seat = table.players.indexOf(mine);
      const watch = h('a', { href: viewerLink(table.game_id), 'data-game-link': table.game_id, 'aria-label': `${state === 'running' ? 'Watch' : 'Replay'} round ${round.round}, table ${table.table}` }, state === 'running' ? 'watch' : 'replay');
      // Beside the bearer's own seat: play (the viewer acts with the player's token, kept for that seat).
      if (seat >= 0) rememberToken(table.game_id, seat, entry.token);
      const play = seat >= 0 && state === 'running' && !tournament.ended
        ? h('a', { href: playLink(table.game_id, seat), class: 'play-link', 'data-play-link': table.game_id, 'aria-label': `Play round ${round.round}, table ${table.table}` }, 'Play')
        : null;
      return h('tr', { 'data-game-id': table.game_id, 'data-table': table.table, class: seat >= 0 ? 'your-table' : null },
        h('th', { scope: 'row' }, `Table ${table.table}`),
        h('td', {}, players),
        h('td', {}, state),
        h('td', {}, play ? [play, ' · '] : null, watch));
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
  page.tournament = tournament;
  if (tournament.version !== page.version) {
    const [standings, data] = await Promise.all([get(`${base}/standings`), gameData(tournament.settings.game).catch(() => null)]);
    const title = data?.title || words(tournament.settings.game);
    $('title').textContent = `${title} tournament`;
    document.title = `${document.title.startsWith('● Your turn — ') ? '● Your turn — ' : ''}${title} tournament — Alexandria`;
    drawStatus(tournament, standings, title);
    drawStandings(tournament.settings, standings);
    drawRounds(tournament);
    drawRulings(tournament);
    await Promise.all([page.player?.refresh(), page.organiser?.refresh(tournament)]);
    page.version = tournament.version;
    document.body.dataset.version = tournament.version;
    // An ended tournament is final whichever tells the page first: the end record or the stream's end.
    if (tournament.ended) setLive('ended', 'final');
    document.body.dataset.ended = tournament.ended ? 'true' : 'false';
    $('layout').hidden = false;
  }
  return tournament;
}

/** Read the tournament again (a record came in, an organiser's action was taken). */
const reload = coalesced(async () => {
  try {
    await load();
    showError('');
  } catch (err) {
    showError(`The tournament could not be read: ${err.message}`);
  }
});

function followTournament(after) {
  page.stream = follow(null, {
    path: `/tournaments/${encodeURIComponent(page.id)}/stream`,
    after,
    onState(state) {
      if (state === 'live') setLive('live', 'live');
      else if (state === 'reconnecting') setLive('reconnecting', 'reconnecting…');
    },
    onRecord: () => reload(),
    async onEnd() {
      await reload();
      if (page.tournament?.ended) setLive('ended', 'final');
    },
  });
}

/** A token handed over in the fragment or pasted: the player's (the server names its player) or
 * the organiser's (the registration code answers to it); kept in this browser. */
async function takeToken(token, role = null) {
  const base = `/tournaments/${encodeURIComponent(page.id)}`;
  if (role !== 'organiser') {
    try {
      const me = await get(`${base}/me`, { token });
      rememberPlayer(page.id, { player: me.player, name: me.name, token });
      return 'player';
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401 || role === 'player') throw err;
    }
  }
  await get(`${base}/registration-code`, { token });
  rememberOrganiser(page.id, token);
  return 'organiser';
}

function startPanels() {
  const entry = playerEntry(page.id);
  page.player?.stop();
  page.player = entry ? playerPanel(page.id, entry, { onError: showError, byePoints: () => number(page.tournament?.settings.bye_points ?? 0) }) : null;
  const organiser = organiserToken(page.id);
  page.organiser = organiser ? organiserPanel(page.id, organiser, { onDone: reload }) : null;
  document.body.dataset.role = [entry ? 'player' : null, organiser ? 'organiser' : null].filter(Boolean).join(' ') || 'spectator';
}

async function start() {
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
  // A link with a token opened in this page's tab changes only the fragment: read the page again.
  window.addEventListener('hashchange', () => {
    if (/(^|[#&])(player|organiser)=/.test(location.hash)) location.reload();
  });
  const given = takeFromFragment();
  for (const role of ['player', 'organiser']) {
    if (!given[role]) continue;
    try {
      await takeToken(given[role], role);
    } catch (err) {
      showError(`The ${role}'s link did not work: ${err.message}`);
    }
  }
  $('token-form').onsubmit = async (e) => {
    e.preventDefault();
    const token = $('token-input').value.trim();
    if (!token) return;
    try {
      await takeToken(token);
      $('token-input').value = '';
      startPanels();
      page.version = null; // everything drawn again, with the new panel
      await reload();
    } catch (err) {
      showError(err.status === 401 || err.status === 403 ? 'That is neither a player token nor the organiser token of this tournament.' : err.message);
    }
  };
  startPanels();
  let tournament;
  try {
    tournament = await load();
  } catch (err) {
    showError(err.status === 404 ? `${err.message}. Check the tournament id.` : `The tournament could not be read: ${err.message}`);
    $('pick').hidden = err.status !== 404;
    return;
  }
  if (tournament.ended) return;
  followTournament(tournament.version);
}

start();
