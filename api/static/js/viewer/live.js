// Following the live game: its stream's records and views, its end.

import { get } from '../core/api.js';
import { follow } from '../core/sse.js';
import { hideSpectators, showSpectators } from '../core/watching.js';
import { loadLog, show } from '../core/viewer.js';
import { keepRecord } from './log.js';
import { fillPerspectives } from './perspective-menu.js';
import { $, app, gamePath, token, viewKey } from './state.js';
import { updateTimeline } from './timeline.js';

export function startStream() {
  app.stream?.stop();
  app.stream = null;
  if (app.status !== 'running') {
    setLive('ended');
    hideSpectators();
    return;
  }
  const perspective = app.perspective;
  app.stream = follow(app.gameId, {
    token: perspective === 'everything' ? null : token(),
    after: Math.max(...app.records.map((r) => r.position), 0),
    onState: setLive,
    onSpectators: (count) => perspective === app.perspective && showSpectators(count),
    onRecord(record) {
      if (perspective !== app.perspective) return;
      if (!keepRecord(record)) return;
      app.latest = Math.max(app.latest, record.position);
      if (!app.follow) updateTimeline();
    },
    onView(view) {
      if (perspective !== app.perspective) return;
      app.views.set(viewKey(perspective, view.version), view);
      app.latest = Math.max(app.latest, view.version);
      if (view.status === 'ended') app.status = 'ended';
      const already = app.shown && app.shown.version === view.version && app.version === view.version;
      if (app.follow && !app.playing && !already) show(view.version);
      else updateTimeline();
    },
    async onEnd() {
      app.status = 'ended';
      hideSpectators();
      app.views.clear();
      fillPerspectives();
      await loadLog(app.logFrom ? undefined : 1); // after the end the whole log is public (as much as was held)
      const board = await get(gamePath(), { token: token() });
      app.latest = board.version;
      await show(app.latest);
    },
  });
}

export function setLive(state) {
  const labels = { live: '● live', reconnecting: '○ reconnecting…', ended: 'game over' };
  $('live').textContent = labels[state] || state;
  $('live').dataset.state = state;
}
