// Dedicated move forms: the building blocks a game module uses for commands that a flat list of
// moves does not express well. Every field has a label (screen readers, keyboard users); a form
// sends its command through the viewer's send(), so a refusal shows like any other.

import { h } from './dom.js';

/** A whole-number field, labelled: h('label', …, input[data-field=name]). */
export function countField(name, label, { min = 0, max = 99, value = 0, hint = '' } = {}) {
  return h(
    'label',
    { class: 'count-field' },
    h('span', {}, label),
    ' ',
    h('input', { type: 'number', inputmode: 'numeric', min, max, step: 1, value, required: true, 'data-field': name }),
    hint ? h('small', {}, ` ${hint}`) : null,
  );
}

/** A labelled checkbox carrying a value (read back with checkedValues). */
export function checkField(name, label, value, { checked = false, boardKey = null } = {}) {
  // boardKey: the board place that ticks this box when clicked (data-target), and lights up while the box is in focus
  return h('label', { class: 'check-field' }, h('input', { type: 'checkbox', 'data-field': name, value, checked: checked ? true : null, 'data-board-key': boardKey }), ` ${label}`);
}

/** The number in a form's field. */
export const count = (form, name) => Number(form.querySelector(`[data-field="${name}"]`).value) || 0;

/** The values of a form's checked boxes of one name. */
export const checkedValues = (form, name) => [...form.querySelectorAll(`[data-field="${name}"]:checked`)].map((box) => box.value);

/** {name: count} of the fields named prefix:name, leaving out zeros. */
export function counts(form, prefix) {
  const out = {};
  for (const input of form.querySelectorAll(`[data-field^="${prefix}:"]`)) {
    const n = Number(input.value) || 0;
    if (n) out[input.dataset.field.slice(prefix.length + 1)] = n;
  }
  return out;
}

/**
 * A form for one command type: a fieldset with a legend, the fields, a live status line (what the
 * current input amounts to, e.g. "3 of 15 cubes left") and a submit button. `build(form)` returns the
 * command; `status(form)` the status text; `onchange(form)` may rebuild dependent fields.
 */
export function moveForm({ type, legend, intro = '', fields, build, status = null, onchange = null, submit = 'Send', send }) {
  const line = h('p', { class: 'form-status', 'aria-live': 'polite' });
  const body = h('div', { class: 'form-fields' }, fields);
  const form = h(
    'form',
    { class: 'move-form', 'data-form': type },
    h('fieldset', {}, h('legend', {}, legend), intro ? h('p', { class: 'hint' }, intro) : null, body, line, h('button', { type: 'submit' }, submit)),
  );
  const update = () => {
    if (status) line.textContent = status(form);
  };
  form.addEventListener('change', (e) => {
    if (onchange) onchange(form, e, body);
    update();
  });
  form.addEventListener('input', update);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    form.dataset.sent = ''; // a form that was sent starts afresh when the page redraws
    await send(build(form));
    delete form.dataset.sent; // refused: the page did not redraw, the person corrects it
  });
  update();
  return form;
}

/** The forms under one heading that folds: open when they cover everything the seat may do now
 * (`types`), folded when the list of moves holds other choices, so that list stays in reach. */
export function formsBox(forms, types) {
  if (!forms.length) return [];
  const covered = new Set(forms.map((form) => form.dataset.form));
  const open = types.every((type) => covered.has(type));
  const names = forms.map((form) => form.querySelector('legend').textContent.toLowerCase());
  return [h('details', { class: 'forms', open: open ? true : null }, h('summary', {}, `Forms: ${names.join('; ')}`), forms)];
}

const fieldKey = (node) => `${node.closest('form').dataset.form}|${node.dataset.field}${node.type === 'checkbox' ? `|${node.value}` : ''}`;

/** What a person has typed into the forms (not those just sent), to keep across a redraw: a live
 * update from another seat must not wipe a half-filled trade. */
export function formValues(box) {
  const kept = new Map();
  for (const node of box.querySelectorAll('form[data-form]:not([data-sent]) [data-field]')) {
    kept.set(fieldKey(node), node.type === 'checkbox' ? node.checked : node.value);
  }
  const folder = box.querySelector('details.forms');
  if (folder) kept.set('details|open', folder.open); // opened or folded by the person: it stays so
  return kept;
}

/** Put kept values back: choices first (they may rebuild the fields that depend on them). */
export function restoreValues(box, kept) {
  if (!kept.size) return;
  const folder = box.querySelector('details.forms');
  if (folder && kept.has('details|open')) folder.open = kept.get('details|open');
  const apply = (nodes) => {
    for (const node of nodes) {
      const key = fieldKey(node);
      if (!kept.has(key)) continue;
      if (node.type === 'checkbox') node.checked = kept.get(key);
      else if (node.tagName !== 'SELECT' || [...node.options].some((o) => o.value === kept.get(key))) node.value = kept.get(key);
      if (node.tagName === 'SELECT') node.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };
  apply(box.querySelectorAll('select[data-field]'));
  apply(box.querySelectorAll('input[data-field]'));
  for (const form of box.querySelectorAll('form[data-form]')) form.dispatchEvent(new Event('input'));
}
