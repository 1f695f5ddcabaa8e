// The board's zoom: a phone opens zoomed in (readable text, touchable places), the pane pans.

import { setStyleIfChanged } from '../core/dom.js';
import { $, app } from './state.js';

const PHONE = window.matchMedia('(max-width: 820px)');
const SMALLEST_TEXT = 11; // CSS pixels: the least a board's text is drawn at on a phone

/** The board's scale now: CSS pixels per board unit. */
function boardScale() {
  const svg = $('board');
  const box = svg.viewBox.baseVal;
  if (!box || !box.width) return 1;
  const rect = svg.getBoundingClientRect();
  return Math.min(rect.width / box.width, rect.height / box.height || Infinity);
}

function fitScale() {
  const box = $('board').viewBox.baseVal;
  const pane = $('board-scroll');
  if (!box || !box.width) return 1;
  return Math.min(pane.clientWidth / box.width, pane.clientHeight / box.height || Infinity);
}

/** A phone starts zoomed in so that the board's smallest text is readable and its places can be
 * touched (a game module may ask for more: `touchScale`, pixels per unit); the pane pans. */
function phoneZoom() {
  let smallest = Infinity;
  for (const text of $('board').querySelectorAll('text')) {
    const size = parseFloat(getComputedStyle(text).fontSize);
    if (size) smallest = Math.min(smallest, size);
  }
  const wanted = Math.max(Number.isFinite(smallest) ? SMALLEST_TEXT / smallest : 0, app.module.touchScale || 0);
  return wanted > fitScale() * 1.01 ? wanted : null;
}

export function applyZoom() {
  const svg = $('board');
  const pane = $('board-pane');
  if (app.zoom === undefined) {
    app.zoom = PHONE.matches ? phoneZoom() : null;
    app.centreBoard = app.zoom !== null; // a board larger than the pane opens at its middle
  }
  const box = svg.viewBox.baseVal;
  if (app.zoom === null || !box || !box.width) {
    delete pane.dataset.zoomed;
    svg.style.removeProperty('width');
    svg.style.removeProperty('height');
    delete svg.dataset.scale;
    return;
  }
  // written only when they change: each step applies the zoom again, mostly as it was
  if (pane.dataset.zoomed !== '') pane.dataset.zoomed = '';
  setStyleIfChanged(svg, 'width', `${Math.round(box.width * app.zoom)}px`);
  setStyleIfChanged(svg, 'height', `${Math.round(box.height * app.zoom)}px`);
  if (svg.dataset.scale !== app.zoom.toFixed(3)) svg.dataset.scale = app.zoom.toFixed(3);
  if (app.centreBoard) {
    app.centreBoard = false;
    const scroll = $('board-scroll');
    scroll.scrollLeft = (scroll.scrollWidth - scroll.clientWidth) / 2;
    scroll.scrollTop = (scroll.scrollHeight - scroll.clientHeight) / 2;
  }
}

export function zoomBy(factor) {
  const next = (app.zoom ?? boardScale()) * factor;
  app.zoom = next <= fitScale() * 1.01 ? null : Math.min(next, 6);
  applyZoom();
}
