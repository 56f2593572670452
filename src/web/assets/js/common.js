// Shared helpers of the page modules (imported, never loaded as an entry point,
// so each page evaluates it once).

export const API = '/api/v1/infrastructure';

export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute('content') : '';
}

/**
 * Same-origin JSON request carrying the session cookie and the CSRF token.
 * Never throws on an HTTP status: resolves to {ok, status, body}.
 */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, body: { message: 'The service could not be reached. Check your connection and try again.' } };
  }
  let data = null;
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  return { ok: res.ok, status: res.status, body: data };
}

/** A human message for a failed api() call. */
export function errorMessage(result) {
  if (result.status === 0) return result.body.message;
  const b = result.body || {};
  if (result.status === 429) return `Too many requests. Try again in ${b.retryAfter ?? 60} seconds.`;
  return b.message || `Request failed (${result.status}).`;
}

let announcer;
/** Reads a short message to screen readers (polite live region). */
export function announce(text) {
  if (!announcer) {
    announcer = document.createElement('div');
    announcer.className = 'visually-hidden';
    announcer.setAttribute('aria-live', 'polite');
    announcer.setAttribute('role', 'status');
    document.body.append(announcer);
  }
  announcer.textContent = '';
  // A separate task so repeated identical messages are announced again.
  setTimeout(() => {
    announcer.textContent = text;
  }, 50);
}

/** Shows a message in an element (textContent only: never HTML). */
export function say(el, text, kind = 'ok') {
  if (!el) return;
  el.textContent = text;
  el.className = kind === 'error' ? 'form-error' : 'form-ok';
  el.hidden = !text;
}

/**
 * Enables a form's submit buttons rendered disabled (`data-script-enables`): the form posts
 * JSON through its script, so a click before the script has attached its handler would send
 * the browser's own form post to the API instead (docs/web.md "Forms wait for their script").
 */
export function scriptReady(form) {
  for (const button of form.querySelectorAll('[data-script-enables]')) button.disabled = false;
}
