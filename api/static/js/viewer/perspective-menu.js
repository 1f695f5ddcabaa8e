// The perspective menu: spectator, each seat this browser holds a token of, everything after the end.

import { h, seatLabel } from '../core/dom.js';
import { setPerspectiveInFragment, storedTokens } from '../core/perspectives.js';
import { loadLog, show } from '../core/viewer.js';
import { startStream } from './live.js';
import { $, app } from './state.js';

export function fillPerspectives() {
  const select = $('perspective');
  const seats = Object.keys(storedTokens(app.gameId)).map(Number).sort((a, b) => a - b);
  const options = [h('option', { value: 'spectator' }, 'Spectator')];
  for (const seat of seats) options.push(h('option', { value: `seat:${seat}` }, `${seatLabel(seat)}: your seat`));
  if (app.status === 'ended') options.push(h('option', { value: 'everything' }, 'Everything (the game is over)'));
  select.replaceChildren(...options);
  if (![...select.options].some((o) => o.value === app.perspective)) app.perspective = 'spectator';
  select.value = app.perspective;
}

export async function changePerspective(perspective) {
  app.perspective = perspective;
  setPerspectiveInFragment(perspective);
  fillPerspectives();
  await loadLog(app.logFrom ? undefined : 1); // as much of the log as was held, in the new perspective
  startStream();
  await show(app.version);
}
