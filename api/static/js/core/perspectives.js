// Seat tokens and perspectives. A token never appears in a URL a server sees: it arrives in the
// fragment (#token=…, which browsers never send), is kept in this browser's local storage per game,
// and the fragment is rewritten to name only the perspective (#p=seat:1).

import { get } from './api.js';

const key = (gameId) => `alexandria.tokens.${gameId}`;

export function storedTokens(gameId) {
  try {
    const parsed = JSON.parse(localStorage.getItem(key(gameId)) || '{}');
    return typeof parsed === 'object' && parsed ? parsed : {};
  } catch {
    return {};
  }
}

function store(gameId, tokens) {
  localStorage.setItem(key(gameId), JSON.stringify(tokens));
}

/** A token the server has just handed to this browser (a join): kept under its seat. */
export function rememberToken(gameId, seat, token) {
  const tokens = storedTokens(gameId);
  tokens[seat] = token;
  store(gameId, tokens);
}

/** Ask the server whose token it is (the view names its viewer); store it under that seat. */
export async function addToken(gameId, token) {
  const board = await get(`/games/${encodeURIComponent(gameId)}`, { token });
  if (board.viewer === null || board.viewer === undefined) throw new Error('that token belongs to no seat of this game');
  const tokens = storedTokens(gameId);
  tokens[board.viewer] = token;
  store(gameId, tokens);
  return board.viewer;
}

export function forgetTokens(gameId) {
  localStorage.removeItem(key(gameId));
}

function fragment() {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

/** Tokens handed over in the fragment (#token=… or #tokens=a,b): stored, then removed from the address bar. */
export async function takeTokensFromFragment(gameId) {
  const params = fragment();
  const given = [...params.getAll('token'), ...(params.get('tokens') || '').split(',')].filter(Boolean);
  let seat = null;
  for (const token of given) seat = await addToken(gameId, token);
  if (given.length) {
    params.delete('token');
    params.delete('tokens');
    if (given.length === 1 && !params.has('p')) params.set('p', `seat:${seat}`);
    history.replaceState(null, '', `${location.pathname}${location.search}${readable(params)}`);
  }
}

/** 'spectator', 'everything' or 'seat:N', from the fragment. */
export function perspectiveFromFragment() {
  return fragment().get('p') || 'spectator';
}

export function setPerspectiveInFragment(perspective) {
  const params = fragment();
  if (perspective === 'spectator') params.delete('p');
  else params.set('p', perspective);
  history.replaceState(null, '', `${location.pathname}${location.search}${params.toString() ? `#${params}` : ''}`);
}

export function seatOf(perspective) {
  return perspective.startsWith('seat:') ? Number(perspective.slice(5)) : null;
}

export function tokenFor(gameId, perspective) {
  const seat = seatOf(perspective);
  return seat === null ? null : storedTokens(gameId)[seat] || null;
}

/** "#p=seat:1" rather than "#p=seat%3A1": the fragment is for people to read. */
function readable(params) {
  const text = params.toString().replaceAll('%3A', ':').replaceAll('%2C', ',');
  return text ? `#${text}` : '';
}
