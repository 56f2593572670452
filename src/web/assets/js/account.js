// Account area: create and revoke API keys (and, when present, the watchlist,
// notification preferences and feed forms). Every change goes through the same
// JSON API a script would use, with the session cookie and the CSRF token.
import { announce, api, errorMessage, say } from './common.js';

const ACCOUNT_API = '/api/v1';

/** Replaces a server-rendered fragment with a fresh copy from a partial URL. */
export async function refreshFragment(url, container) {
  const res = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
  if (!res.ok) return false;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  container.replaceChildren(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
  return true;
}

// ------------------------------------------------------------------ API keys
const createForm = document.querySelector('[data-create-key]');
const keysList = document.querySelector('[data-keys-list]');
const newKey = document.querySelector('[data-new-key]');

if (createForm) {
  const status = createForm.querySelector('[data-create-key-status]');
  createForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = createForm.querySelector('button[type="submit"]');
    const name = createForm.elements.name.value.trim();
    button.disabled = true;
    say(status, 'Creating…');
    const result = await api(`${ACCOUNT_API}/account/keys`, { method: 'POST', body: name ? { name } : {} });
    button.disabled = false;
    if (!result.ok) {
      say(status, errorMessage(result), 'error');
      return;
    }
    say(status, '');
    createForm.reset();
    const secret = result.body.secret;
    newKey.querySelector('[data-new-key-secret]').textContent = secret;
    newKey.querySelector('[data-new-key-example]').textContent =
      `curl -H "X-API-Key: ${secret}" "${window.location.origin}/api/v1/infrastructure/incidents?activeOnly=true"`;
    for (const b of newKey.querySelectorAll('[data-copy]')) b.textContent = b.dataset.copy === '#new-key-secret' ? 'Copy' : 'Copy command';
    newKey.hidden = false;
    newKey.focus();
    announce(`Key ${result.body.key.name} created. Copy it now, it is shown only once.`);
    await refreshFragment('/partials/account/keys', keysList);
  });
}

if (keysList) {
  keysList.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-revoke-key]') : null;
    if (!button) return;
    const name = button.dataset.keyName;
    if (!window.confirm(`Revoke the key "${name}"? Anything using it stops working at once.`)) return;
    button.disabled = true;
    const result = await api(`${ACCOUNT_API}/account/keys/${encodeURIComponent(button.dataset.revokeKey)}`, { method: 'DELETE' });
    if (!result.ok && result.status !== 404) {
      button.disabled = false;
      announce(errorMessage(result));
      window.alert(errorMessage(result));
      return;
    }
    await refreshFragment('/partials/account/keys', keysList);
    announce(`Key ${name} revoked.`);
    document.querySelector('#keys-title')?.focus?.();
  });
}
