// Public status boards in the account area (docs/boards.md): publish the watchlist,
// show the new address once, revoke a board. Calls the same JSON API a script would.
import { announce, api, errorMessage, say } from './common.js';

const BOARDS_API = '/api/v1/boards';

async function refreshList(container) {
  const res = await fetch('/partials/account/boards', { credentials: 'same-origin', headers: { Accept: 'text/html' } });
  if (!res.ok) return;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  container.replaceChildren(...doc.body.childNodes);
}

const form = document.querySelector('[data-board-form]');
const list = document.querySelector('[data-boards-list]');
if (form && list) {
  const status = form.querySelector('[data-board-status]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const title = form.elements.title.value.trim();
    const frames = form.elements.frameAncestors.value.trim();
    const body = {};
    if (title) body.title = title;
    if (frames) body.frameAncestors = frames.split(/\s+/);
    const result = await api(BOARDS_API, { method: 'POST', body });
    if (!result.ok) {
      say(status, errorMessage(result), 'error');
      return;
    }
    const link = form.querySelector('[data-board-link]');
    link.href = result.body.url;
    link.textContent = result.body.url;
    form.querySelector('[data-board-url]').hidden = false;
    const warnings = Array.isArray(result.body.warnings) ? result.body.warnings : [];
    say(status, ['Board published.', ...warnings].join(' '));
    announce('Board published. Its address is shown once below the form.');
    await refreshList(list);
  });
  list.addEventListener('click', async (event) => {
    const button = event.target.closest('[data-board-revoke]');
    if (!button) return;
    const result = await api(`${BOARDS_API}/${encodeURIComponent(button.dataset.boardRevoke)}`, { method: 'DELETE' });
    if (!result.ok && result.status !== 404) {
      say(status, errorMessage(result), 'error');
      return;
    }
    announce('Board revoked.');
    await refreshList(list);
  });
}
