// Live updates: listen to the incident event stream and, when something
// changes, fetch the server-rendered partial of the current page and swap the
// regions (elements with data-live-id) whose markup changed. Rendering stays on
// the server (one template, escaped there); this module never builds HTML from
// event data. If the stream is unavailable it falls back to polling.
import { announce } from './common.js';

const EVENTS = ['incident.created', 'incident.updated', 'incident.resolved'];
const POLL_MS = 60_000;
// A burst of events (one poll of a vendor writes several) costs one fetch of the partial.
const DEBOUNCE_MS = 1000;

function openDetails(root) {
  const ids = new Set();
  for (const d of root.querySelectorAll('details[open]')) {
    const owner = d.closest('[data-id]');
    if (owner) ids.add(owner.getAttribute('data-id'));
  }
  return ids;
}

function comparable(el) {
  const clone = el.cloneNode(true);
  clone.removeAttribute('hidden');
  for (const d of clone.querySelectorAll('details')) d.removeAttribute('open');
  return clone.outerHTML;
}

function describe(type, incident) {
  const vendor = incident.vendorName || incident.vendor;
  if (type === 'incident.created') return `New incident at ${vendor}: ${incident.title}`;
  if (type === 'incident.resolved') return `Resolved at ${vendor}: ${incident.title}`;
  return `Update at ${vendor}: ${incident.title} (${incident.status})`;
}

export function startLive({ partialUrl, streamUrl, statusEl, onSwap }) {
  let timer = null;
  let inflight = false;
  let again = false;
  let pollTimer = null;
  let etag = null;
  const setStatus = (text) => {
    if (statusEl) statusEl.textContent = text;
  };

  async function refresh() {
    if (inflight) {
      again = true;
      return;
    }
    inflight = true;
    try {
      // The last partial's validator goes along: nothing changed is a 304 without a body.
      const headers = { Accept: 'text/html' };
      if (etag) headers['If-None-Match'] = etag;
      const res = await fetch(partialUrl, { credentials: 'same-origin', headers, cache: 'no-store' });
      if (res.status === 304 || !res.ok) return;
      etag = res.headers.get('etag');
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      let swapped = 0;
      for (const fresh of doc.querySelectorAll('[data-live-id]')) {
        const id = fresh.getAttribute('data-live-id');
        const current = document.querySelector(`[data-live-id="${CSS.escape(id)}"]`);
        if (!current || comparable(current) === comparable(fresh)) continue;
        const open = openDetails(current);
        const wasHidden = current.hidden;
        const hadFocus = current.contains(document.activeElement);
        const node = document.importNode(fresh, true);
        node.hidden = wasHidden;
        for (const d of node.querySelectorAll('details')) {
          const owner = d.closest('[data-id]');
          if (owner && open.has(owner.getAttribute('data-id'))) d.open = true;
        }
        current.replaceWith(node);
        if (hadFocus) node.querySelector('a, button, summary')?.focus();
        swapped++;
      }
      if (swapped && onSwap) onSwap();
      document.dispatchEvent(new CustomEvent('live:refreshed', { detail: { swapped } }));
    } catch {
      // A failed refresh is retried by the next event or poll.
    } finally {
      inflight = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, DEBOUNCE_MS);
  }

  function startPolling() {
    if (pollTimer) return;
    setStatus('Live updates paused; this page refreshes every minute.');
    pollTimer = setInterval(refresh, POLL_MS);
  }

  if (!streamUrl || !('EventSource' in window)) {
    startPolling();
    return;
  }

  // The browser retries a dropped stream by itself; when it gives up (the stream
  // answered an error, e.g. 429 because the plan's stream cap is in use by another
  // tab, or a previous page's stream is still closing), poll and try again later.
  let source = null;
  let retryMs = 5_000;
  function connect() {
    source = new EventSource(streamUrl);
    source.addEventListener('open', () => {
      retryMs = 5_000;
      if (pollTimer) {
        clearInterval(pollTimer);
        pollTimer = null;
      }
      setStatus('Live: this page updates by itself.');
      document.documentElement.dataset.live = 'open';
    });
    // The snapshot arrives on every (re)connection: catch up on what changed meanwhile.
    source.addEventListener('snapshot', schedule);
    for (const type of EVENTS) {
      source.addEventListener(type, (event) => {
        try {
          const data = JSON.parse(event.data);
          if (data?.incident) announce(describe(type, data.incident));
        } catch {
          // Malformed event: still refresh.
        }
        schedule();
      });
    }
    source.addEventListener('error', () => {
      document.documentElement.dataset.live = 'retrying';
      if (source.readyState !== EventSource.CLOSED) {
        setStatus('Reconnecting to live updates…');
        return;
      }
      source.close();
      startPolling();
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, POLL_MS);
    });
  }
  connect();
  window.addEventListener('pagehide', () => source?.close());
}

/** Starts live updates from the data attributes of <main>. */
export function startLiveFromMain() {
  const main = document.querySelector('main[data-live-partial]');
  if (!main) return null;
  const pageQuery = window.location.search;
  return {
    partialUrl: main.getAttribute('data-live-partial'),
    streamUrl: main.getAttribute('data-live-stream'),
    statusEl: document.querySelector('[data-live-status]'),
    pageQuery,
  };
}
