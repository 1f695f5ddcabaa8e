// How many watch the game as spectators (a count only: the server never says who), beside the
// live indicator; shown while the game is followed live and somebody watches.

const node = () => document.getElementById('spectators');

export function showSpectators(count) {
  const pane = node();
  if (!pane) return;
  if (!Number.isInteger(count) || count < 0) {
    hideSpectators();
    return;
  }
  pane.textContent = `${count} ${count === 1 ? 'spectator' : 'spectators'}`;
  pane.dataset.count = String(count);
  pane.title = 'people watching this game as spectators now';
  pane.hidden = count === 0; // nobody watching is no news
}

export function hideSpectators() {
  const pane = node();
  if (!pane) return;
  pane.hidden = true;
  delete pane.dataset.count;
}
