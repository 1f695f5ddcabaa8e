// The registration link's page (/join?id=TOURNAMENT&code=CODE): a person enters a name and joins
// (POST /tournaments/{id}/join). The answer's token is the player's alone: it is kept in this
// browser (entries.js) and never shown; the page then opens the tournament page, which finds it.

import { gameData, get, post } from './api.js';
import { h, words } from './dom.js';
import { playerEntry, rememberPlayer } from './entries.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tournamentId = params.get('id');
const code = params.get('code');
const tournamentPage = () => `/tournament?id=${encodeURIComponent(tournamentId)}`;

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

function joinedAs(name) {
  $('join-form').hidden = true;
  $('joined').replaceChildren(`You are registered as ${name}. `, h('a', { href: tournamentPage(), id: 'to-tournament' }, 'Open the tournament'));
  $('joined').hidden = false;
}

async function start() {
  if (!tournamentId || !code) {
    showError('This registration link is incomplete: it needs the tournament (id=…) and the registration code (code=…). Ask the organiser for the link.');
    return;
  }
  let tournament;
  try {
    tournament = await get(`/tournaments/${encodeURIComponent(tournamentId)}`);
  } catch (err) {
    showError(`${err.message}. Check the registration link.`);
    return;
  }
  const title = (await gameData(tournament.settings.game).catch(() => null))?.title || words(tournament.settings.game);
  $('title').textContent = `Join the ${title} tournament`;
  document.title = `Join the ${title} tournament — Alexandria`;
  $('about').textContent = `${tournament.players.length} registered so far; ${tournament.settings.rounds} rounds, tables of ${tournament.settings.table_size}.`;
  const mine = playerEntry(tournamentId);
  if (mine) {
    joinedAs(mine.name);
    return;
  }
  if (tournament.registration_closed) {
    showError('Registration is closed: the organiser can still enter you late.');
    return;
  }
  $('join-form').hidden = false;
  $('join-form').onsubmit = async (e) => {
    e.preventDefault();
    const name = $('join-name').value.trim();
    if (!name) return;
    $('join-button').disabled = true;
    try {
      const joined = await post(`/tournaments/${encodeURIComponent(tournamentId)}/join`, { name, code });
      rememberPlayer(tournamentId, joined);
      showError('');
      joinedAs(joined.name);
      location.assign(tournamentPage());
    } catch (err) {
      showError(`Not registered (${err.code}): ${err.message}`);
    } finally {
      $('join-button').disabled = false;
    }
  };
}

start();
