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

// Nodes given a listener by h() or s(): morphChildren never reuses one for another (its listener
// would act on what the node was built for).
const LISTENING = new WeakSet();

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
      LISTENING.add(node);
    }
    else if (key === 'dataset') Object.assign(node.dataset, value);
    // Through the CSSOM, never as a style attribute: the page's Content-Security-Policy may refuse those.
    else if (key === 'style') setStyle(node, String(value));
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setStyle(node, text) {
  for (const rule of text.split(';')) {
    const at = rule.indexOf(':');
    if (at > 0) node.style.setProperty(rule.slice(0, at).trim(), rule.slice(at + 1).trim());
  }
}

// The nodes a board drew, kept by what they show: a timeline step draws again only what changed (a
// road built, a bid raised, an army moved) and places every other node where it already is, so
// that the browser restyles, lays out and paints only the changes. A board's key names everything
// its node shows (owner, names, labels, whether it is a target and of what): a node never shows
// another state than its key's. Kept per scope (a game and its board): another scope starts anew.
const KEPT = { scope: null, nodes: new Map() };
// Past this many nodes (a long game's many states, stepped through) the store starts again: the
// board's next drawing builds what it shows afresh, once.
const KEPT_MAX = 20000;

/** The node kept under `key` in `scope`, made by `make()` the first time. Each key is drawn at
 * most once in a drawing (a node is in one place). */
export function reused(scope, key, make) {
  if (KEPT.scope !== scope || KEPT.nodes.size > KEPT_MAX) {
    KEPT.scope = scope;
    KEPT.nodes.clear();
  }
  let node = KEPT.nodes.get(key);
  if (!node) {
    node = make();
    KEPT.nodes.set(key, node);
  }
  return node;
}

/** A group kept under `key` (made by `make()`), its children made `children` in place. */
export function reusedGroup(scope, key, make, children) {
  const group = reused(scope, key, make);
  placeChildren(group, children);
  return group;
}

/** The children of `parent` made `nodes`, in order, moving nothing that is already in place: a node
 * kept from the drawing before stays attached (the browser restyles and lays out only what is new),
 * a node not among `nodes` is removed. */
export function placeChildren(parent, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...parent.childNodes]) if (!wanted.has(child)) child.remove();
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
}

/** The children of `parent` made to look like `nodes` (freshly built, not in the page) by changing
 * only what differs: an element of the same tag keeps its place and gets the new one's attributes,
 * style and children, a text node gets the new text, the rest is replaced. A panel drawn again at
 * each timeline step then restyles and lays out only what changed. */
export function morphChildren(parent, nodes) {
  const old = [...parent.childNodes];
  nodes.forEach((node, i) => {
    const was = old[i];
    if (!was) parent.append(node);
    else if (sameKind(was, node)) morph(was, node);
    else parent.replaceChild(node, was);
  });
  for (const extra of old.slice(nodes.length)) extra.remove();
}

function sameKind(was, node) {
  return was.nodeType === node.nodeType && was.nodeName === node.nodeName && !LISTENING.has(was) && !LISTENING.has(node)
    && (was.nodeType === Node.TEXT_NODE || was.nodeType === Node.ELEMENT_NODE);
}

function morph(was, node) {
  if (was.nodeType === Node.TEXT_NODE) {
    if (was.data !== node.data) was.data = node.data;
    return;
  }
  for (const name of was.getAttributeNames()) if (name !== 'style' && !node.hasAttribute(name)) was.removeAttribute(name);
  for (const name of node.getAttributeNames()) {
    if (name !== 'style') setAttributeIfChanged(was, name, node.getAttribute(name));
  }
  // through the CSSOM, as setStyle writes it (the pages' policy may refuse style attributes)
  if (was.style.cssText !== node.style.cssText) was.style.cssText = node.style.cssText;
  morphChildren(was, [...node.childNodes]);
}

/** An attribute set only when its value changes: the same value written again still makes the
 * browser restyle the element (and, for a class or a tabindex, what depends on it). */
export function setAttributeIfChanged(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
}

/** A style property set, unless it already has that value (a write restyles the node). */
export function setStyleIfChanged(node, name, value) {
  if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}

/** A class taken off, and the class attribute with it once empty: a node kept between drawings
 * then carries the same attributes as one drawn afresh (never a bare `class=""`). */
export function removeClass(node, name) {
  if (!node.classList.contains(name)) return;
  node.classList.remove(name);
  if (!node.classList.length) node.removeAttribute('class');
}

/** A class put on or taken off (`removeClass`). */
export function toggleClass(node, name, on) {
  if (on) node.classList.add(name);
  else removeClass(node, name);
}

/** A tooltip for an SVG shape (read by screen readers as the shape's name). */
export const title = (text) => s('title', {}, text);

// Seat colours on the board; green is dark enough for white text, yellow carries dark text (WCAG AA 4.5:1).
export const SEAT_COLOURS = ['#d62828', '#1d5fd8', '#1e7a46', '#e09f00', '#8338ec'];
const SEAT_INKS = ['#fff', '#fff', '#fff', '#1b1f24', '#fff'];
// The same colours as text on a light ground (yellow text would be 2.3:1 there).
const SEAT_TEXT = ['#c1121f', '#1a5fcf', '#1e7a46', '#8a5a00', '#6f2dbd'];
export const SEAT_NAMES = ['red', 'blue', 'green', 'yellow', 'purple'];
export const seatColour = (seat) => (seat === null || seat === undefined ? '#5b6470' : SEAT_COLOURS[seat % SEAT_COLOURS.length]);
export const seatInk = (seat) => (seat === null || seat === undefined ? '#fff' : SEAT_INKS[seat % SEAT_INKS.length]);
export const seatTextColour = (seat) => (seat === null || seat === undefined ? '#5b6470' : SEAT_TEXT[seat % SEAT_TEXT.length]);

// The names people joined with (a view's `names`, or a tournament table's players): the viewer adds
// those of every view it reads (a past version's view may carry none), read wherever a seat is named.
const joinedNames = new Map();
export function setSeatNames(names) {
  for (const [seat, name] of Object.entries(names || {})) if (name) joinedNames.set(Number(seat), String(name));
}
/** People count from 1: seat 0 of the API is "Seat 1" — or the name its player joined with. */
export const seatName = (seat) => {
  if (seat === null || seat === undefined) return 'nobody';
  return joinedNames.get(Number(seat)) ?? `Seat ${Number(seat) + 1}`;
};
/** "Ann (seat 1)" where a name is known: the seat number still tells the turn order. */
export const seatLabel = (seat) => (joinedNames.has(Number(seat)) ? `${seatName(seat)} (seat ${Number(seat) + 1})` : seatName(seat));

export function seatChip(seat) {
  return h('span', { class: 'chip', 'data-chip-seat': seat ?? '', style: `--seat:${seatColour(seat)};--seat-ink:${seatInk(seat)}`, title: seatLabel(seat) }, seatName(seat));
}

/** Chips with commas and "and" between them: "Ann, Ben and Cleo", never "Seat 1Seat 2". */
export function chips(seats) {
  const out = [];
  seats.forEach((seat, i) => {
    if (i) out.push(i === seats.length - 1 ? ' and ' : ', ');
    out.push(seatChip(seat));
  });
  return out;
}

/** "Ann, Ben and Cleo" as text. */
export function listNames(seats) {
  const names = seats.map(seatName);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join('');
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

/** Each body cell labelled with its column's heading (data-label): on a phone a wide table shows
 * one block per row, each value named (the .stack-table style), and nothing scrolls sideways. */
export function labelCells(table) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, i) => {
      if (heads[i] && cell.tagName === 'TD') cell.dataset.label = heads[i];
    });
  }
  table.classList.add('stack-table');
}

/** Words broken into lines of at most `width` characters (a longer word keeps its own line, whole):
 * board labels wrap, they are never cut. */
export function wrapWords(text, width) {
  const lines = [];
  for (const word of String(text).split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** An SVG text of several lines (tspans), the first line's baseline at y. */
export function textLines(lines, { x, y, lineHeight, ...attrs }) {
  return s('text', { x, y, ...attrs }, lines.map((line, i) => s('tspan', { x, dy: i ? lineHeight : 0 }, line)));
}
