// The page's controls wired once: buttons, keys, forms and the board's clicks.

import { ApiError } from '../core/api.js';
import { addToken } from '../core/perspectives.js';
import { clearPreview, markPlayable, onBoardClick, preview, renderMoves, showRefusal } from './moves.js';
import { changePerspective, fillPerspectives } from './perspective-menu.js';
import { cancelPending, send, sendPending } from './send.js';
import { $, app, showError, token } from './state.js';
import { copyLink, jump, stepFrom, stopPlaying, togglePlay } from './timeline.js';
import { applyZoom, zoomBy } from './zoom.js';

export function wireControls() {
  $('first').onclick = () => jump(1);
  $('back').onclick = () => jump(stepFrom(app.version, -1));
  $('forward').onclick = () => jump(stepFrom(app.version, 1));
  $('last').onclick = () => jump(app.latest);
  $('play').onclick = togglePlay;
  $('speed').onchange = () => {
    if (app.playing) {
      stopPlaying();
      togglePlay();
    }
  };
  $('slider').oninput = (e) => jump(Number(e.target.value));
  document.addEventListener('keydown', (e) => {
    const tag = e.target.tagName;
    if ((tag === 'INPUT' && e.target.type !== 'range') || tag === 'SELECT' || tag === 'TEXTAREA') return;
    const by = e.shiftKey ? 'record' : null; // Shift: one record, whatever the step chosen
    const steps = { ArrowLeft: () => stepFrom(app.version, -1, by), ArrowRight: () => stepFrom(app.version, 1, by), Home: () => 1, End: () => app.latest };
    if (!(e.key in steps) || !app.module) return;
    e.preventDefault();
    jump(steps[e.key]());
  });
  $('perspective').onchange = (e) => changePerspective(e.target.value);
  $('token-form').onsubmit = async (e) => {
    e.preventDefault();
    const input = $('token-input');
    if (!input.value.trim()) return;
    try {
      const seat = await addToken(app.gameId, input.value.trim());
      input.value = '';
      fillPerspectives();
      await changePerspective(`seat:${seat}`);
    } catch (err) {
      showError(err instanceof ApiError && err.status === 401 ? 'That is not a seat token of this game.' : err.message);
    }
  };
  $('pick-form').onsubmit = (e) => {
    e.preventDefault();
    const id = $('pick-game').value.trim();
    if (id) location.search = `?game=${encodeURIComponent(id)}`;
  };
  $('move-filter').oninput = () => renderMoves();
  $('undo').onclick = () => {
    cancelPending();
    $('move-list').querySelector('button.move')?.focus();
  };
  $('send-now').onclick = sendPending;
  $('zoom-in').onclick = () => zoomBy(1.25);
  $('zoom-out').onclick = () => zoomBy(1 / 1.25);
  $('zoom-fit').onclick = () => {
    app.zoom = null;
    applyZoom();
  };
  $('copy-link').onclick = copyLink;
  $('notify').checked = localStorage.getItem('alexandria:notify') === 'yes';
  $('notify').onchange = async (e) => {
    localStorage.setItem('alexandria:notify', e.target.checked ? 'yes' : 'no');
    if (e.target.checked && 'Notification' in window && Notification.permission === 'default') {
      try {
        await Notification.requestPermission();
      } catch {
        // refused or not offered: the sound and the tab's title still tell
      }
    }
  };
  $('board').addEventListener('click', onBoardClick);
  const formPreview = (e) => {
    const key = e.target.closest?.('label')?.querySelector('[data-board-key]')?.dataset.boardKey;
    if (key) preview(null, [key]);
  };
  $('move-forms').addEventListener('focusin', formPreview);
  $('move-forms').addEventListener('mouseover', formPreview);
  $('move-forms').addEventListener('focusout', clearPreview);
  $('move-forms').addEventListener('mouseleave', clearPreview);
  // a form's dependent fields change (another province): its board places change with them
  $('move-forms').addEventListener('change', () => markPlayable());
  $('move-forms').addEventListener('toggle', () => markPlayable(), true); // a forms box opened or folded
  $('board').addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest?.('[data-target]')) {
      e.preventDefault();
      onBoardClick(e);
    }
  });
  $('custom-form').onsubmit = async (e) => {
    e.preventDefault();
    let command;
    try {
      command = JSON.parse($('custom-command').value);
    } catch (err) {
      showRefusal(`That is not JSON: ${err.message}`);
      return;
    }
    await send(command);
  };
}
