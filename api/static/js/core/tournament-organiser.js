// The organiser's panel on the tournament page, for the bearer of the organiser token held in
// this browser (entries.js): the registration link to publish, seating the next round, withdrawing
// a player, entering a late one, closing registration, the end, and the exports. A refusal is
// shown as the server said it (code and message) and changes nothing.

import { get, post } from './api.js';
import { h } from './dom.js';

const $ = (id) => document.getElementById(id);
const KEPT = ['withdraw-player', 'withdraw-reason', 'late-name', 'late-missed', 'late-bot'];

export function organiserPanel(tournamentId, token, { onDone }) {
  const base = `/tournaments/${encodeURIComponent(tournamentId)}`;
  const panel = { code: null, handed: null };

  function say(message, ok = false) {
    const box = $('organiser-message');
    box.textContent = message || '';
    box.hidden = !message;
    box.className = ok ? 'notice' : 'error';
    box.setAttribute('role', ok ? 'status' : 'alert');
  }

  /** One organiser action: the button waits while it runs; the page redraws from the stream. */
  async function act(button, run, done) {
    button.disabled = true;
    say('');
    try {
      const answer = await run();
      say(done(answer), true);
      await onDone();
    } catch (err) {
      say(`Refused (${err.code}): ${err.message}`);
    } finally {
      button.disabled = false;
    }
  }

  const field = (label, control) => h('label', {}, `${label} `, control);

  function draw(tournament) {
    const seated = tournament.rounds.length;
    const total = tournament.settings.rounds;
    const open = !tournament.registration_closed && !seated;
    const active = tournament.players.filter((p) => !p.withdrawn);
    const link = panel.code ? `${location.origin}/join?id=${encodeURIComponent(tournamentId)}&code=${encodeURIComponent(panel.code)}` : '';
    const linkBox = h('input', { id: 'registration-link', type: 'text', readonly: true, value: link, 'aria-label': 'Registration link', size: 60 });
    const copy = h('button', { type: 'button', onclick: async () => {
      linkBox.select();
      try { await navigator.clipboard.writeText(link); say('The registration link is copied.', true); } catch { say('Select the link and copy it.', true); }
    } }, 'Copy');
    const seat = h('button', { id: 'seat-round', type: 'button', disabled: Boolean(tournament.ended) || seated >= total }, seated < total ? `Seat round ${seated + 1}` : 'Every round is seated');
    seat.onclick = () => act(seat, () => post(`${base}/rounds`, {}, { token }), (a) => `Round ${a.round} is seated: ${a.tables.length} table${a.tables.length === 1 ? '' : 's'}.`);

    const who = h('select', { id: 'withdraw-player' }, active.map((p) => h('option', { value: p.player }, p.name)));
    const why = h('input', { id: 'withdraw-reason', type: 'text', maxlength: 500, placeholder: 'the reason (public)' });
    const withdraw = h('button', { id: 'withdraw', type: 'submit' }, 'Withdraw');
    const withdrawForm = h('form', { id: 'withdraw-form', class: 'organiser-form' }, field('Player', who), field('Reason', why), withdraw);
    withdrawForm.onsubmit = (e) => {
      e.preventDefault();
      const player = tournament.players[Number(who.value)];
      act(withdraw, () => post(`${base}/withdrawals`, { player: Number(who.value), reason: why.value.trim() }, { token }), () => `${player.name} is withdrawn from every round not seated yet.`);
    };

    const lateName = h('input', { id: 'late-name', type: 'text', maxlength: 60, autocomplete: 'off' });
    const missed = h('select', { id: 'late-missed' }, h('option', { value: 'zero' }, 'nothing'), h('option', { value: 'bye' }, "a bye's points"));
    const enter = h('button', { id: 'late-enter', type: 'submit' }, open ? 'Register' : 'Enter late');
    const bot = h('select', { id: 'late-bot' }, h('option', { value: '' }, 'a person'), ['greedy', 'search', 'random'].map((b) => h('option', { value: b }, `the ${b} bot`)));
    const lateForm = h('form', { id: 'late-form', class: 'organiser-form' }, field('Name', lateName), seated ? field('Each round missed counts', missed) : field('Played by', bot), enter);
    lateForm.onsubmit = (e) => {
      e.preventDefault();
      const name = lateName.value.trim();
      const send = seated
        ? () => post(`${base}/late-entries`, { name, missed_rounds: missed.value }, { token })
        : () => post(`${base}/players`, bot.value ? { name, bot: bot.value } : { name }, { token });
      act(enter, send, (a) => {
        lateName.value = '';
        if (a.bot) { panel.handed = null; return `${a.name} is registered: the server's ${a.bot} bot plays them.`; }
        // A player the organiser registers gets their token here, to hand over as a link.
        panel.handed = { name: a.name, link: `${location.origin}/tournament?id=${encodeURIComponent(tournamentId)}#player=${a.token}` };
        return a.from_round ? `${a.name} is entered, seated from round ${a.from_round}.` : `${a.name} is registered.`;
      });
    };
    const handed = panel.handed
      ? h('p', { id: 'handed' }, `Hand ${panel.handed.name} this link (it holds their token; nobody else should see it): `,
        h('input', { id: 'handed-link', type: 'text', readonly: true, value: panel.handed.link, 'aria-label': `${panel.handed.name}'s link`, size: 60 }))
      : null;

    const checkIn = tournament.check_in;
    const askCheckIn = h('button', { id: 'open-check-in', type: 'button' }, 'Ask for check-in');
    askCheckIn.onclick = () => act(askCheckIn, () => post(`${base}/check-in/open`, {}, { token }), () => 'Check-in is open: whoever has not checked in when registration closes is withdrawn.');
    const humans = active.filter((p) => !p.bot);
    const checkInLine = checkIn.open
      ? h('p', { id: 'check-in-status' }, `Check-in is open: ${humans.filter((p) => p.checked_in).length} of ${humans.length} players have checked in.`)
      : null;
    const close = h('button', { id: 'close-registration', type: 'button' }, 'Close registration');
    close.onclick = () => act(close, () => post(`${base}/close-registration`, {}, { token }), () => 'Registration is closed.');
    const end = h('button', { id: 'end-tournament', type: 'button', disabled: Boolean(tournament.ended) }, 'End the tournament');
    end.onclick = () => act(end, () => post(`${base}/end`, {}, { token }), () => 'The tournament has ended; the master seed is revealed.');

    const exports = [
      h('a', { id: 'standings-csv', href: `${base}/standings.csv`, download: `tournament-${tournamentId}-standings.csv` }, 'standings (CSV)'),
      ...tournament.rounds.map((r) => h('a', { 'data-pairings-csv': r.round, href: `${base}/rounds/${r.round}/pairings.csv`, download: `tournament-${tournamentId}-round-${r.round}-pairings.csv` }, `round ${r.round} pairings (CSV)`)),
      h('a', { href: `${base}/print`, target: '_blank', rel: 'noopener' }, 'printable page'),
      ...(tournament.settings.table_size === 2 ? [h('a', { href: `${base}/trf`, download: `tournament-${tournamentId}.trf` }, 'FIDE TRF')] : []),
    ];

    // A redraw (a result came in) keeps what the organiser was typing, and where.
    const kept = Object.fromEntries(KEPT.map((id) => [id, $(id)?.value]));
    const focused = document.activeElement?.id;
    $('organiser').replaceChildren(
      open
        ? h('div', { class: 'organiser-row' }, h('p', {}, 'Publish this registration link: whoever opens it enters a name and plays from their own browser.'), linkBox, copy)
        : h('p', {}, 'Registration is closed: enter a late player below.'),
      checkInLine,
      h('div', { class: 'organiser-row' }, seat, open && !checkIn.asked ? askCheckIn : null, open ? close : null, end),
      h('h3', {}, 'Withdraw a player'), active.length ? withdrawForm : h('p', {}, 'Nobody to withdraw.'),
      h('h3', {}, open ? 'Register a player yourself' : 'A late entry'), lateForm, handed,
      h('h3', {}, 'Exports'), h('p', { class: 'exports' }, exports.flatMap((a, i) => (i ? [' · ', a] : [a]))),
    );
    for (const [id, value] of Object.entries(kept)) {
      const node = $(id);
      if (value === undefined || !node) continue;
      if (node.tagName !== 'SELECT' || [...node.options].some((o) => o.value === value)) node.value = value;
    }
    if (focused && $(focused)) $(focused).focus({ preventScroll: true });
    $('organiser-section').hidden = false;
  }

  return {
    async refresh(tournament) {
      if (panel.code === null) {
        try {
          panel.code = (await get(`${base}/registration-code`, { token })).registration_code;
        } catch (err) {
          say(err.status === 401 || err.status === 403 ? 'This browser holds an organiser token this tournament does not know.' : err.message);
          return;
        }
      }
      draw(tournament);
    },
  };
}
