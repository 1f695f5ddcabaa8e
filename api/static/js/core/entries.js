// A tournament's tokens in this browser only: the player's own entry ({player, name, token}, from
// the registration link) and the organiser's token, in local storage keyed by tournament. A token
// arrives in the fragment (#player=… or #organiser=…, which browsers never send), is stored, and
// the fragment is removed; it goes to the server only in the Authorization header and is never
// drawn on a page.

const key = (tournamentId) => `alexandria.tournament.${tournamentId}`;

function read(tournamentId) {
  try {
    const parsed = JSON.parse(localStorage.getItem(key(tournamentId)) || '{}');
    return typeof parsed === 'object' && parsed ? parsed : {};
  } catch {
    return {};
  }
}

function write(tournamentId, entry) {
  localStorage.setItem(key(tournamentId), JSON.stringify(entry));
}

/** This browser's player of the tournament: {player, name, token}, or null. */
export const playerEntry = (tournamentId) => read(tournamentId).player || null;
/** The organiser's token, when this browser holds it. */
export const organiserToken = (tournamentId) => read(tournamentId).organiser || null;

export function rememberPlayer(tournamentId, { player, name, token }) {
  write(tournamentId, { ...read(tournamentId), player: { player, name, token } });
}

export function rememberOrganiser(tournamentId, token) {
  write(tournamentId, { ...read(tournamentId), organiser: token });
}

export function forget(tournamentId, role) {
  const entry = read(tournamentId);
  delete entry[role];
  write(tournamentId, entry);
}

/** The tokens the fragment hands over ({player, organiser}), removed from the address bar. */
export function takeFromFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const given = { player: params.get('player'), organiser: params.get('organiser') };
  if (given.player || given.organiser) history.replaceState(null, '', `${location.pathname}${location.search}`);
  return given;
}
