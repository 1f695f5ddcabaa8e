// The API as the page uses it: JSON over fetch, the bearer's token in the Authorization header
// (never in a URL), refusals as ApiError carrying the server's {code, message}.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function request(method, path, { token = null, body = undefined, signal = undefined } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', `the server cannot be reached (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: `HTTP_${response.status}`, message: text || response.statusText };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

export const get = (path, options) => request('GET', path, options);
export const post = (path, body, options = {}) => request('POST', path, { ...options, body });

const catalogCache = new Map();

/** A game's static data (boards, tiles, cards, names): fetched once per page. */
export function gameData(game) {
  if (!catalogCache.has(game)) catalogCache.set(game, get(`/games/catalog/${encodeURIComponent(game)}`));
  return catalogCache.get(game);
}
