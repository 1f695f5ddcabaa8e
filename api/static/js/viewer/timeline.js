// The timeline: steps by move or by record, play and pause, the slider, the link to a version.

import { show } from '../core/viewer.js';
import { $, app } from './state.js';

/** A person's step: the page follows the live game again only when stepped to its last version. */
export function jump(version) {
  stopPlaying();
  app.follow = version >= app.latest;
  app.stepping = show(version); // the step under way (the timeline benchmark waits on it)
  return app.stepping;
}

/** The versions at which a move is over: a command and the events it caused, before the next
 * command (the setup before the first command is one such step too). */
function moveEnds() {
  if (app.moveEndsOf === app.records.length) return app.moveEnds;
  const byPosition = new Map(app.records.map((r) => [r.position, r]));
  const ends = [];
  for (const r of app.records) {
    if (byPosition.get(r.position + 1)?.type === 'CommandAccepted' || r.position === app.latest) ends.push(r.position);
  }
  ends.sort((a, b) => a - b);
  app.moveEnds = ends;
  app.moveEndsOf = app.records.length;
  return ends;
}

/** The next version one step from `version` (a move, or a record with the step so chosen). */
export function stepFrom(version, direction, by = null) {
  if ((by || $('step').value) === 'record') return version + direction;
  const ends = moveEnds();
  if (direction > 0) return ends.find((v) => v > version) ?? app.latest;
  // before the records held (a long game's log is read as a window): the last version before them,
  // whose step reads the whole log — not the game's first version
  return [...ends].reverse().find((v) => v < version) ?? Math.max(1, Math.min(app.logFrom, version - 1));
}

export function updateTimeline() {
  const slider = $('slider');
  if (slider.max !== String(app.latest)) slider.max = String(app.latest);
  if (slider.value !== String(app.version)) slider.value = String(app.version);
  slider.setAttribute('aria-valuetext', `version ${app.version} of ${app.latest}`);
  $('position').textContent = `version ${app.version} / ${app.latest}`;
  $('first').disabled = $('back').disabled = app.version <= 1;
  $('forward').disabled = $('last').disabled = app.version >= app.latest;
}

/** A link to the position shown, for anyone: never a token (those stay in this browser). */
function positionLink() {
  return `${location.origin}/viewer?game=${encodeURIComponent(app.gameId)}&v=${app.version}`;
}

export async function copyLink() {
  const link = positionLink();
  $('copy-link').dataset.link = link;
  try {
    await navigator.clipboard.writeText(link);
    $('copied').textContent = `Copied: version ${app.version}`;
  } catch {
    $('copied').textContent = link; // no clipboard here: the link to copy by hand
  }
}

/** The address says the version shown; written once stepping pauses (each history write is a
 * round trip to the browser, too slow for every step of a held arrow key). */
export function updateUrl() {
  clearTimeout(app.urlTimer);
  app.urlTimer = setTimeout(writeUrl, 150);
}

function writeUrl() {
  const params = new URLSearchParams(location.search);
  if (app.version === app.latest && app.status === 'running') params.delete('v');
  else params.set('v', String(app.version));
  history.replaceState(null, '', `${location.pathname}?${params}${location.hash}`);
}

export function togglePlay() {
  if (app.playing) return stopPlaying();
  if (app.version >= app.latest) show(1);
  const perSecond = Number($('speed').value);
  $('play').textContent = 'Pause';
  $('play').setAttribute('aria-label', 'pause');
  app.playing = setInterval(() => {
    if (app.version >= app.latest) return stopPlaying();
    show(stepFrom(app.version, 1));
  }, 1000 / perSecond);
  app.follow = false;
}

export function stopPlaying() {
  if (!app.playing) return;
  clearInterval(app.playing);
  app.playing = null;
  $('play').textContent = 'Play';
  $('play').setAttribute('aria-label', 'play');
}
