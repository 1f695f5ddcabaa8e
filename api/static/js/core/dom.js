// Small DOM and SVG helpers shared by the core and the game modules.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An HTML element: h('button', {class: 'x', onclick: f}, 'text', child). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element: s('circle', {cx: 1, cy: 2, r: 3}). */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    // Through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes.
    else if (key === 'style') node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A tooltip for an SVG shape (read by screen readers as the shape's name). */
export const title = (text) => s('title', {}, text);

export const SEAT_COLOURS = ['#d62828', '#1d5fd8', '#2a9d5f', '#e09f00', '#8338ec'];
export const SEAT_NAMES = ['red', 'blue', 'green', 'yellow', 'purple'];
export const seatColour = (seat) => (seat === null || seat === undefined ? '#888' : SEAT_COLOURS[seat % SEAT_COLOURS.length]);
/** People count from 1: seat 0 of the API is "Seat 1". */
export const seatName = (seat) => (seat === null || seat === undefined ? 'nobody' : `Seat ${Number(seat) + 1}`);

export function seatChip(seat) {
  return h('span', { class: 'chip', style: `--seat:${seatColour(seat)}` }, seatName(seat));
}

export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** "2 brick, 1 ore" from {brick: 2, ore: 1}. */
export function bundle(counts) {
  if (!counts) return 'nothing';
  const parts = Object.entries(counts).filter(([, n]) => n).map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

export const words = (id) => String(id).replaceAll('_', ' ');

/** A clickable SVG target: keyboard-focusable, announced as a button, keyed for the moves panel. */
export function target(node, key, label) {
  node.setAttribute('data-target', key);
  node.setAttribute('tabindex', '-1');
  node.setAttribute('role', 'button');
  if (label) node.setAttribute('aria-label', label);
  return node;
}
