// Seat keys in the browser (docs/signed-commands.md): an Ed25519 key made with WebCrypto when a seat
// is joined, kept in this browser's IndexedDB, its public key sent with the join, and every command
// of the seat signed over the canonical JSON the server checks.
//
// A key is made non-extractable unless the player asks for an exportable one: a non-extractable
// private key never leaves this browser (not even to its own scripts), so it cannot be moved to
// another device either. Only an exportable key can be exported (with the seat's token, as one
// text to paste on the other device); an imported key is kept exportable, since a copy exists.

import { post } from './api.js';
import { rememberToken } from './perspectives.js';

const DB_NAME = 'alexandria-keys';
const STORE = 'seat-keys';
const ALGORITHM = { name: 'Ed25519' };
const EXPORT_FORMAT = 'alexandria-seat-key/1';

let opened = null;

function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

async function inStore(mode, act) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = act(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
  });
}

const idOf = (gameId, seat) => `${gameId}:${seat}`;

/** Bytes as base64url without padding (the wire format). */
export function b64url(bytes) {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromB64url(text) {
  const padded = text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** The records' canonical JSON: keys sorted at every level, no spaces, non-ASCII as it is. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

let supported = null;

/** Whether this browser signs Ed25519 (WebCrypto); tried once per page. */
export function keysSupported() {
  supported ??= crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']).then(() => true, () => false);
  return supported;
}

/** A new key pair; the private key non-extractable unless ``exportable``. */
export async function newSeatKey({ exportable = false } = {}) {
  const pair = await crypto.subtle.generateKey(ALGORITHM, exportable, ['sign', 'verify']);
  const publicKey = b64url(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey, exportable };
}

/** Keep a seat's key in this browser: ``gameId`` as the seat's record names it (its signatures are over it). */
export function keepSeatKey(gameId, seat, key, token = null) {
  const record = { id: idOf(gameId, seat), gameId, seat, privateKey: key.privateKey, publicKey: key.publicKey, exportable: key.exportable, token };
  return inStore('readwrite', (store) => store.put(record));
}

/** The seat's key kept in this browser, or null. */
export async function seatKey(gameId, seat) {
  if (seat === null || seat === undefined) return null;
  return (await inStore('readonly', (store) => store.get(idOf(gameId, seat)))) || null;
}

function randomId() {
  return b64url(crypto.getRandomValues(new Uint8Array(12)));
}

/** The command's body with its controls and the seat's signature (the wire format of docs/signed-commands.md). */
export async function signedBody(key, version, move, { commandId = randomId(), contribution = null } = {}) {
  const payload = { command: move, command_id: commandId, expected_version: version, game_id: key.gameId, seat: key.seat };
  if (contribution !== null) payload.contribution = contribution;
  const bytes = new TextEncoder().encode(canonical(payload));
  const signature = b64url(await crypto.subtle.sign(ALGORITHM, key.privateKey, bytes));
  const body = { ...move, expected_version: version, command_id: commandId, signature };
  if (contribution !== null) body.contribution = contribution;
  return body;
}

/** An exportable seat key (with the seat's token) as one text to import on another device. */
export async function exportSeatKey(key, token) {
  if (!key.exportable) throw new Error('this key was made non-extractable: it cannot leave this browser');
  const pkcs8 = b64url(await crypto.subtle.exportKey('pkcs8', key.privateKey));
  return JSON.stringify({ format: EXPORT_FORMAT, game_id: key.gameId, seat: key.seat, public_key: key.publicKey, private_pkcs8: pkcs8, token });
}

/** Keep a key exported on another device; answers {gameId, seat, token}. */
export async function importSeatKey(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('that is not an exported seat key (not JSON)');
  }
  if (!parsed || parsed.format !== EXPORT_FORMAT) throw new Error(`that is not an exported seat key (${EXPORT_FORMAT})`);
  const privateKey = await crypto.subtle.importKey('pkcs8', fromB64url(parsed.private_pkcs8), ALGORITHM, true, ['sign']);
  const key = { privateKey, publicKey: parsed.public_key, exportable: true };
  // The pair must match: sign and check with the public key the record shows.
  const publicKey = await crypto.subtle.importKey('raw', fromB64url(parsed.public_key), ALGORITHM, true, ['verify']);
  const probe = new TextEncoder().encode('alexandria key check');
  if (!(await crypto.subtle.verify(ALGORITHM, publicKey, await crypto.subtle.sign(ALGORITHM, privateKey, probe), probe))) {
    throw new Error('the exported private key does not match its public key');
  }
  await keepSeatKey(parsed.game_id, parsed.seat, key, parsed.token || null);
  return { gameId: parsed.game_id, seat: parsed.seat, token: parsed.token || null };
}

/** The seat's recorded public key (its latest SeatTaken or SeatKeyed record: a replacement's re-keying wins), or null. */
export function recordedKey(records, seat) {
  const keyed = records.filter((r) => (r.type === 'SeatTaken' || r.type === 'SeatKeyed') && r.data && r.data.seat === seat && r.data.public_key);
  return keyed.length ? keyed[keyed.length - 1].data.public_key : null;
}

// -- the viewer's seat key panel ------------------------------------------------------------------

const el = (id) => document.getElementById(id);
let shownFor = null;

/** The body to send for ``move`` at ``version``: signed when this browser holds the seat's key. */
export async function commandBody(gameId, seat, version, move) {
  const key = await seatKey(gameId, seat);
  return key ? signedBody(key, version, move) : { ...move, expected_version: version };
}

/** Whether the seat may still take a key of its own: no key recorded, no command sent, the game not over. */
function keyableLater(records, seat) {
  return !records.some((r) => r.type === 'GameEnded' || (r.type === 'CommandAccepted' && r.data && r.data.seat === seat));
}

/** Key a seat taken with a token (a seat link, or a game created with tokens): a key made here, its
 * public key registered for the seat (POST /games/{id}/key, once, before the seat's first command). */
export async function registerSeatKey(gameId, seat, token, { exportable = false } = {}) {
  const key = await newSeatKey({ exportable });
  await post(`/games/${encodeURIComponent(gameId)}/key`, { public_key: key.publicKey }, { token });
  await keepSeatKey(gameId, seat, key, token);
  return key;
}

/** Say whether the perspective's seat is keyed, whose key signs its moves here, and offer export/import.
 * A tournament's table (``tournament``) is never keyed here: its seats take their players' keys at
 * registration, and the server refuses a key from the viewer. */
export async function showSeatKey(gameId, seat, records, token, { tournament = false } = {}) {
  const panel = el('seat-key');
  if (!panel) return;
  const recorded = seat === null ? null : recordedKey(records, seat);
  const key = seat === null ? null : await seatKey(gameId, seat);
  const later = !tournament && seat !== null && token && !recorded && keyableLater(records, seat) && (await keysSupported());
  const state = `${gameId}:${seat}:${recorded}:${key ? key.publicKey : ''}:${later}:${tournament}`;
  if (state === shownFor) return;
  shownFor = state;
  const form = el('key-register-form');
  form.hidden = !later;
  form.onsubmit = async (e) => {
    e.preventDefault();
    form.querySelector('button').disabled = true;
    try {
      const made = await registerSeatKey(gameId, seat, token, { exportable: el('key-register-exportable').checked });
      const keyed = { type: 'SeatKeyed', data: { seat, public_key: made.publicKey } };
      await showSeatKey(gameId, seat, [...records, keyed], token);
    } catch (err) {
      el('seat-key-state').textContent = `The seat was not keyed: ${err.message}`;
    } finally {
      form.querySelector('button').disabled = false;
    }
  };
  panel.hidden = false;
  panel.dataset.keyed = recorded ? 'true' : 'false';
  panel.dataset.tournament = tournament ? 'true' : 'false';
  panel.dataset.held = key && key.publicKey === recorded ? 'true' : 'false';
  const short = (text) => `${text.slice(0, 10)}…`;
  el('seat-key-state').textContent = seat === null
    ? 'To play a seat of this game from this device, import the key exported on the other one.'
    : !recorded && later
    ? 'This seat has no key yet: key it here before its first move, and this browser signs each of its moves.'
    : !recorded && tournament
    ? 'This tournament seat has no key: a player\'s key is given at registration, and the record holds this seat\'s moves on the server\'s word.'
    : !recorded
    ? 'This seat has no key: the record holds its moves on the server\'s word.'
    : key && key.publicKey === recorded
      ? `This seat is keyed (${short(recorded)}): this browser signs each of its moves.`
      : `This seat is keyed (${short(recorded)}), but this browser does not hold its key: import it to play here.`;
  const exportButton = el('key-export');
  exportButton.hidden = !(key && key.exportable);
  exportButton.onclick = async () => {
    el('key-export-text').value = await exportSeatKey(key, token);
    el('key-export-text').hidden = false;
  };
  el('key-import-form').onsubmit = async (e) => {
    e.preventDefault();
    try {
      const imported = await importSeatKey(el('key-import-text').value);
      if (imported.token) rememberToken(imported.gameId, imported.seat, imported.token);
      location.hash = `p=seat:${imported.seat}`;
      location.reload();
    } catch (err) {
      el('seat-key-state').textContent = `The key was not imported: ${err.message}`;
    }
  };
}
