// Live updates over GET /games/{id}/stream (server-sent events) read with fetch, because EventSource
// cannot send the Authorization header and a token must not go in the URL. After a dropped
// connection the stream resumes after the last record received (?after=N), so nothing is lost.
// With onSpectators the stream also tells how many spectators watch (?spectators=true).

// `path`: another stream of the same kind (a tournament's: /tournaments/{id}/stream).
export function follow(gameId, { token, after, onRecord, onView, onEnd, onState, onSpectators, path = null }) {
  let stopped = false;
  let controller = null;
  let lastVersion = after;
  let retry = 500;

  async function connect() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const headers = { Accept: 'text/event-stream' };
        if (token) headers.Authorization = `Bearer ${token}`;
        const counted = onSpectators ? '&spectators=true' : '';
        const response = await fetch(`${path || `/games/${encodeURIComponent(gameId)}/stream`}?after=${lastVersion}${counted}`, {
          headers,
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`stream answered ${response.status}`);
        onState?.('live');
        retry = 500;
        const ended = await read(response.body.getReader());
        if (ended) return;
      } catch (err) {
        if (stopped) return;
      }
      onState?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, retry));
      retry = Math.min(retry * 2, 8000);
    }
  }

  async function read(reader) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = parse(block);
        if (!message) continue;
        if (message.event === 'record') {
          lastVersion = Math.max(lastVersion, message.data.position);
          onRecord?.(message.data);
        } else if (message.event === 'view') {
          onView?.(message.data);
        } else if (message.event === 'spectators') {
          onSpectators?.(message.data.spectators);
        } else if (message.event === 'end') {
          onState?.('ended');
          onEnd?.(message.data);
          return true;
        }
      }
    }
  }

  function parse(block) {
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return null;
    return { event, data: JSON.parse(data.join('\n')) };
  }

  connect();
  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
    /** Drop the connection as a network failure would (the stream resumes by itself). */
    drop() {
      controller?.abort();
    },
  };
}
