// The lobby: the game list (filters, pages), the tournament list (filters, pages), a new game (game, players, options from the catalog's
// schema) and the seat links to hand out; a game's open seats and joining one by name.

import { gameData, get, post } from './api.js';
import { h, plural, seatName } from './dom.js';
import { rememberToken } from './perspectives.js';

const $ = (id) => document.getElementById(id);
const PAGE = 20;
const lobby = { page: 0, cursors: [null], catalog: [], loads: 0 };
const events = { page: 0, cursors: [null], loads: 0 }; // the tournament list's pages
const STATUS_WORDS = { registering: 'registration open', running: 'running', ended: 'ended' };

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

// The catalog's option values are ids for programs; a person reads these words (an id without
// words here is shown with its underscores and dashes as spaces).
const OPTION_WORDS = {
  'alexandros-reconstructed-v1': 'the reconstructed board',
  alexander: "Alexander's campaign (the scenario board)",
  base: "the base game's board",
  beginner: 'the beginner layout',
  random: 'a random layout',
};
const optionWords = (value) => (typeof value === 'string' ? OPTION_WORDS[value] || value.replace(/[-_]+/g, ' ') : String(value));
const optionName = (name) => name.replaceAll('_', ' ');

const titleOf = (game) => lobby.catalog.find((g) => g.game === game)?.title || game;

async function loadGames() {
  const seq = ++lobby.loads; // a later load (a filter, a page) wins over one still on its way
  $('games').setAttribute('aria-busy', 'true');
  const params = new URLSearchParams();
  if ($('filter-game').value) params.set('game', $('filter-game').value);
  if ($('filter-status').value) params.set('status', $('filter-status').value);
  params.set('limit', String(PAGE));
  const cursor = lobby.cursors[lobby.page];
  if (cursor) params.set('cursor', cursor);
  let answer;
  try {
    answer = await get(`/games?${params}`);
  } catch (err) {
    if (seq === lobby.loads) $('games').removeAttribute('aria-busy');
    showError(err.message);
    return;
  }
  if (seq !== lobby.loads) return;
  // A server that pages answers {games, next_cursor}; one that does not, the whole list.
  let games;
  let next = null;
  if (Array.isArray(answer)) {
    games = answer.slice(lobby.page * PAGE, (lobby.page + 1) * PAGE);
    next = answer.length > (lobby.page + 1) * PAGE ? 'page' : null;
  } else {
    games = answer.games || answer.items || [];
    next = answer.next_cursor || null;
  }
  lobby.cursors[lobby.page + 1] = next === 'page' ? null : next;
  lobby.hasNext = Boolean(next);
  const rows = games.map((g) =>
    h('tr', { 'data-game-id': g.game_id },
      h('td', { 'data-label': 'Game' }, titleOf(g.game), Object.keys(g.options || {}).length ? h('small', {}, ` ${Object.entries(g.options).map(([k, v]) => `${optionName(k)}: ${optionWords(v)}`).join(', ')}`) : null),
      h('td', { 'data-label': 'Players' }, String(g.players)),
      h('td', { 'data-label': 'Status' }, g.status),
      h('td', { class: 'open-seats', 'data-label': 'Seats' }, seatsCell(g)),
      h('td', { 'data-label': 'Version' }, String(g.version)),
      h('td', { 'data-label': 'Last move' }, g.last_activity ? new Date(g.last_activity).toLocaleString() : ''),
      h('td', {}, h('a', { href: `/viewer?game=${encodeURIComponent(g.game_id)}` }, g.status === 'ended' ? 'replay' : 'watch'))));
  $('games').querySelector('tbody').replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 7 }, 'No games yet.'))]));
  $('page').textContent = `page ${lobby.page + 1}`;
  $('prev').disabled = lobby.page === 0;
  $('next').disabled = !lobby.hasNext;
  $('games').removeAttribute('aria-busy');
}

/** The tournament list (GET /tournaments: filters, pages by next_cursor), each a link to its page. */
async function loadTournaments() {
  const seq = ++events.loads;
  const params = new URLSearchParams({ limit: String(PAGE) });
  if ($('tournament-game').value) params.set('game', $('tournament-game').value);
  if ($('tournament-status').value) params.set('status', $('tournament-status').value);
  if ($('tournament-name').value.trim()) params.set('name', $('tournament-name').value.trim());
  const cursor = events.cursors[events.page];
  if (cursor) params.set('cursor', cursor);
  let answer;
  try {
    answer = await get(`/tournaments?${params}`);
  } catch (err) {
    showError(err.message);
    return;
  }
  if (seq !== events.loads) return;
  events.cursors[events.page + 1] = answer.next_cursor;
  const rows = answer.tournaments.map((t) =>
    h('tr', { 'data-tournament-id': t.tournament_id, 'data-status': t.status },
      h('td', { 'data-label': 'Tournament' }, h('a', { href: `/tournament?id=${encodeURIComponent(t.tournament_id)}` }, t.name || `${titleOf(t.game)} tournament`)),
      h('td', { 'data-label': 'Game' }, `${titleOf(t.game)}, tables of ${t.table_size}`),
      h('td', { 'data-label': 'Status' }, STATUS_WORDS[t.status] || t.status),
      h('td', { 'data-label': 'Players' }, t.withdrawn ? `${t.players - t.withdrawn} (${t.withdrawn} withdrawn)` : String(t.players)),
      h('td', { 'data-label': 'Rounds' }, `${t.rounds_seated} of ${t.rounds}`),
      h('td', { 'data-label': 'Created' }, new Date(t.created_at).toLocaleString())));
  $('tournaments').querySelector('tbody').replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 6 }, 'No tournaments.'))]));
  $('tournaments-page').textContent = `page ${events.page + 1}`;
  $('tournaments-prev').disabled = events.page === 0;
  $('tournaments-next').disabled = !answer.next_cursor;
  document.body.dataset.tournamentsLoaded = String(seq);
}

/** Who sits where, the open seats, and a Join form (a name) while seats are open. */
function seatsCell(g) {
  const open = g.open_seats || [];
  const names = Object.entries(g.names || {}).map(([seat, name]) => `${seatName(Number(seat))}: ${name}`);
  const parts = [];
  if (names.length) parts.push(h('div', { class: 'names' }, names.join(', ')));
  if (!open.length) return parts.length ? parts : '—';
  parts.push(h('div', {}, `open: ${open.map(seatName).join(', ')}`));
  const id = `join-name-${g.game_id}`;
  const form = h('form', { class: 'join-form', 'data-join': g.game_id },
    h('label', { for: id }, 'Your name', h('span', { class: 'sr-only' }, ` to join ${titleOf(g.game)} (${g.game_id})`), ' '),
    // 40: the server's bound on a name (domain/kernel/match.py MAX_NAME_LENGTH); it refuses longer ones
    h('input', { id, name: 'name', type: 'text', required: true, maxlength: 40, autocomplete: 'nickname' }),
    h('button', { type: 'submit' }, 'Join'));
  form.onsubmit = (e) => join(e, g.game_id, form);
  parts.push(form);
  return parts;
}

/** Take the first open seat by name; the token goes to this browser's storage only, and the viewer
 * opens in that seat's perspective (the fragment names the seat, never the token). */
async function join(e, gameId, form) {
  e.preventDefault();
  showError('');
  const name = form.querySelector('input').value.trim();
  if (!name) return;
  const button = form.querySelector('button');
  button.disabled = true;
  let joined;
  try {
    joined = await post(`/games/${encodeURIComponent(gameId)}/join`, { name });
  } catch (err) {
    button.disabled = false;
    showError(`You did not join (${err.code}): ${err.message}`);
    return;
  }
  rememberToken(gameId, joined.seat, joined.token);
  location.assign(`/viewer?game=${encodeURIComponent(gameId)}#p=seat:${joined.seat}`);
}

function optionInput(option, players) {
  const schema = option.schema;
  const id = `option-${option.name}`;
  const applies = !option.players.length || option.players.includes(players);
  let input;
  if (schema.type === 'boolean') input = h('input', { id, type: 'checkbox', checked: schema.default ? true : null });
  else if (schema.enum) input = h('select', { id }, schema.enum.map((v) => h('option', { value: JSON.stringify(v), selected: v === schema.default ? true : null }, optionWords(v))));
  else if (schema.type === 'integer') input = h('input', { id, type: 'number', min: schema.minimum ?? null, value: schema.default ?? 0 });
  else input = h('input', { id, type: 'text', value: schema.default ?? '' });
  input.dataset.option = option.name;
  input.dataset.kind = schema.type === 'boolean' ? 'boolean' : schema.enum ? 'enum' : schema.type;
  const label = h('label', { hidden: applies ? null : true, title: option.description }, `${optionName(option.name)} `, input, h('small', {}, ` ${option.description}`));
  label.dataset.players = applies ? 'yes' : 'no';
  label.dataset.requires = JSON.stringify(option.requires || {});
  return label;
}

function valueOf(input) {
  const kind = input.dataset.kind;
  return kind === 'boolean' ? input.checked : kind === 'enum' ? JSON.parse(input.value) : kind === 'integer' ? Number(input.value) : input.value;
}

/** An option applies for this player count and when the options it requires have their values. */
function showApplicableOptions() {
  const inputs = [...$('new-options').querySelectorAll('[data-option]')];
  const current = Object.fromEntries(inputs.map((input) => [input.dataset.option, valueOf(input)]));
  for (const input of inputs) {
    const label = input.closest('label');
    const requires = JSON.parse(label.dataset.requires);
    const ok = label.dataset.players === 'yes' && Object.entries(requires).every(([k, v]) => current[k] === v);
    label.hidden = !ok;
  }
}

async function fillNewGame() {
  const data = await gameData($('new-game').value);
  const players = $('new-players');
  const chosen = Number(players.value) || data.min_players;
  players.replaceChildren(...Array.from({ length: data.max_players - data.min_players + 1 }, (_, i) => {
    const n = data.min_players + i;
    return h('option', { value: n, selected: n === Math.max(data.min_players, Math.min(chosen, data.max_players)) ? true : null }, String(n));
  }));
  const n = Number(players.value);
  $('new-options').replaceChildren(h('legend', {}, 'Options'), ...(data.options.length ? data.options.map((o) => optionInput(o, n)) : [h('p', {}, 'This game has no options.')]));
  $('new-options').onchange = showApplicableOptions;
  showApplicableOptions();
}

function readOptions() {
  const options = {};
  for (const input of $('new-options').querySelectorAll('[data-option]')) {
    if (input.closest('label').hidden) continue;
    options[input.dataset.option] = valueOf(input);
  }
  return options;
}

async function create(e) {
  e.preventDefault();
  showError('');
  const body = { game: $('new-game').value, players: Number($('new-players').value), options: readOptions() };
  if ($('new-seed').value.trim()) body.seed = $('new-seed').value.trim();
  if ($('new-open').checked) body.open_seats = true;
  let created;
  try {
    created = await post('/games', body);
  } catch (err) {
    showError(`The game was not created (${err.code}): ${err.message}`);
    return;
  }
  const base = `${location.origin}/viewer?game=${encodeURIComponent(created.game_id)}`;
  const links = created.seats.map((seat) => {
    const url = `${base}#token=${seat.token}`;
    return h('li', { 'data-seat': seat.seat }, `${seatName(seat.seat)}: `, h('a', { href: url, 'data-seat-link': seat.seat }, url));
  });
  const open = created.open_seats || [];
  if (open.length) {
    links.push(h('li', { 'data-open-seats': open.join(',') }, `${plural(open.length, 'seat')} open (${open.map(seatName).join(', ')}): players join by name in the lobby's list of games.`));
  }
  links.push(h('li', {}, 'Spectators: ', h('a', { href: base, 'data-spectator-link': '' }, base)));
  if (created.seats.length) {
    const all = `${base}#tokens=${created.seats.map((s) => s.token).join(',')}`;
    links.push(h('li', {}, 'Every seat on this device (hot seat): ', h('a', { href: all, 'data-all-seats-link': '' }, 'open')));
  }
  $('seat-links').replaceChildren(...links);
  $('created').hidden = false;
  loadGames();
}

async function start() {
  try {
    lobby.catalog = await get('/games/catalog');
  } catch (err) {
    showError(err.message);
    return;
  }
  for (const g of lobby.catalog) {
    $('tournament-game').append(h('option', { value: g.game }, g.title));
    $('filter-game').append(h('option', { value: g.game }, g.title));
    $('new-game').append(h('option', { value: g.game }, g.title));
  }
  $('filters').onsubmit = (e) => {
    e.preventDefault();
    lobby.page = 0;
    lobby.cursors = [null];
    loadGames();
  };
  $('prev').onclick = () => { lobby.page = Math.max(0, lobby.page - 1); loadGames(); };
  $('next').onclick = () => { lobby.page += 1; loadGames(); };
  $('tournament-filters').onsubmit = (e) => {
    e.preventDefault();
    events.page = 0;
    events.cursors = [null];
    loadTournaments();
  };
  $('tournaments-prev').onclick = () => { events.page = Math.max(0, events.page - 1); loadTournaments(); };
  $('tournaments-next').onclick = () => { events.page += 1; loadTournaments(); };
  $('new-game').onchange = () => { $('new-players').value = ''; fillNewGame(); };
  $('new-players').onchange = fillNewGame;
  $('create').onsubmit = create;
  await fillNewGame();
  await Promise.all([loadGames(), loadTournaments()]);
  document.body.dataset.ready = 'true'; // for the browser tests: every control is wired
}

start();
