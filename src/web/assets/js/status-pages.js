// Status pages added by URL, in the account area (docs/per-user.md "Custom status
// pages"): add (the server detects the platform), remove. Same JSON API a script uses.
import { announce, api, errorMessage, say } from './common.js';

const PAGES_API = '/api/v1/account/status-pages';

async function refreshList(container) {
  const res = await fetch('/partials/account/status-pages', { credentials: 'same-origin', headers: { Accept: 'text/html' } });
  if (!res.ok) return;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  container.replaceChildren(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
}

const form = document.querySelector('[data-status-page-form]');
const list = document.querySelector('[data-status-pages-list]');
if (list) {
  const status = form?.querySelector('[data-status-page-status]');
  const tried = form?.querySelector('[data-status-page-tried]');
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const url = form.elements.url.value.trim();
    const name = form.elements.name.value.trim();
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    tried.hidden = true;
    tried.replaceChildren();
    say(status, 'Detecting the platform…');
    const result = await api(PAGES_API, { method: 'POST', body: name ? { url, name } : { url } });
    button.disabled = false;
    if (!result.ok) {
      say(status, errorMessage(result), 'error');
      for (const t of result.body?.tried ?? []) {
        const li = document.createElement('li');
        li.textContent = `${t.url}: ${t.result}`;
        tried.append(li);
      }
      tried.hidden = !tried.children.length;
      return;
    }
    form.reset();
    say(status, `Added ${result.body.page.name} (${result.body.page.sources[0].type}).`);
    announce('Status page added.');
    await refreshList(list);
  });
  list.addEventListener('click', async (event) => {
    const button = event.target.closest('[data-status-page-remove]');
    if (!button) return;
    const result = await api(`${PAGES_API}/${encodeURIComponent(button.dataset.statusPageRemove)}`, { method: 'DELETE' });
    if (!result.ok && result.status !== 404) {
      if (status) say(status, errorMessage(result), 'error');
      return;
    }
    announce('Status page removed.');
    await refreshList(list);
  });
}
