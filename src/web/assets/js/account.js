// Account area: create and revoke API keys (and, when present, the watchlist,
// notification preferences and feed forms). Every change goes through the same
// JSON API a script would use, with the session cookie and the CSRF token.
import { announce, api, errorMessage, say, scriptReady } from './common.js';
import './boards.js';
import './status-pages.js';

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

// ----------------------------------------------------------------- watchlist
const DATA_API = '/api/v1/infrastructure';
const watchForm = document.querySelector('[data-watchlist-form]');

if (watchForm) {
  const status = watchForm.querySelector('[data-watchlist-status]');
  const count = document.querySelector('[data-watch-count]');
  const limit = watchForm.dataset.limit ? Number(watchForm.dataset.limit) : null;
  const boxes = () => [...watchForm.querySelectorAll('input[name="vendors"]')];
  const selected = () =>
    boxes()
      .filter((b) => b.checked)
      .map((b) => b.value);

  // Without JavaScript "Find" sends a GET form the server applies; here the list filters as you type.
  const findForm = document.querySelector('[data-watch-find]');
  findForm?.addEventListener('submit', (event) => event.preventDefault());
  const findButton = watchForm.querySelector('[data-watch-find-submit]');
  if (findButton) findButton.hidden = true;
  watchForm.querySelector('[data-watch-filter]').addEventListener('input', (event) => {
    const q = event.target.value.trim().toLowerCase();
    for (const item of watchForm.querySelectorAll('[data-watch-item]')) item.hidden = q !== '' && !item.dataset.name.includes(q);
    for (const group of watchForm.querySelectorAll('.watch-group')) {
      group.hidden = ![...group.querySelectorAll('[data-watch-item]')].some((i) => !i.hidden);
    }
  });

  // The selection as a list above the catalog, kept in step with the boxes.
  const chosen = watchForm.querySelector('[data-watch-selected]');
  const none = watchForm.querySelector('[data-watch-none]');
  const labelOf = (box) => box.closest('label')?.textContent.trim() ?? box.value;
  const renderChosen = () => {
    chosen.replaceChildren(
      ...boxes()
        .filter((b) => b.checked)
        .map((b) => {
          const li = document.createElement('li');
          li.dataset.watchChosen = b.value;
          const button = document.createElement('button');
          button.type = 'button';
          button.className = 'button button--small';
          button.dataset.watchRemove = b.value;
          button.textContent = 'Remove';
          const hidden = document.createElement('span');
          hidden.className = 'visually-hidden';
          hidden.textContent = ` ${labelOf(b)}`;
          button.append(hidden);
          li.append(`${labelOf(b)} `, button);
          return li;
        }),
    );
    none.hidden = chosen.children.length > 0;
  };
  renderChosen();
  chosen.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-watch-remove]') : null;
    if (!button) return;
    const box = boxes().find((b) => b.value === button.dataset.watchRemove);
    if (!box) return;
    box.checked = false;
    box.dispatchEvent(new Event('change', { bubbles: true }));
    (chosen.querySelector('button') ?? watchForm.querySelector('[data-watch-filter]')).focus();
  });

  watchForm.addEventListener('change', (event) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.name !== 'vendors') return;
    renderChosen();
    const n = selected().length;
    if (limit !== null && n > limit) say(status, `Your plan allows ${limit} vendors; ${n} are selected.`, 'error');
    else say(status, `${n} selected; not saved yet.`);
  });

  watchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = watchForm.querySelector('button[type="submit"]');
    button.disabled = true;
    const result = await api(`${DATA_API}/watchlist`, { method: 'PUT', body: { vendors: selected() } });
    button.disabled = false;
    if (!result.ok) {
      say(status, [errorMessage(result), result.body?.hint].filter(Boolean).join(' '), 'error');
      return;
    }
    count.textContent = String(result.body.count);
    say(status, `Watchlist saved: ${result.body.count} vendor${result.body.count === 1 ? '' : 's'}.`);
  });
  scriptReady(watchForm);
}

// --------------------------------------------------------------- preferences
const prefsForm = document.querySelector('[data-preferences-form]');

const slugList = (text) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
const nameList = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
// "Actions, API" (any vendor) or "github: Actions, Git Operations; aws: EC2" (per vendor).
const componentFilter = (text) => {
  if (!text.includes(':')) return nameList(text);
  const out = {};
  for (const part of text.split(';')) {
    const at = part.indexOf(':');
    if (at < 0) continue;
    const vendor = part.slice(0, at).trim().toLowerCase();
    if (vendor) out[vendor] = [...(out[vendor] ?? []), ...nameList(part.slice(at + 1))];
  }
  return out;
};

function showOnce(box, text) {
  box.querySelector('code').textContent = text;
  const copy = box.querySelector('[data-copy]');
  if (copy) copy.textContent = 'Copy';
  box.hidden = false;
}

function feedShownOnce(path) {
  const url = new URL(path, document.querySelector('#feed')?.dataset.feedOrigin || window.location.origin).href;
  showOnce(document.querySelector('[data-feed-once]'), url);
  document.querySelector('[data-feed-once-note]').hidden = false;
  announce('Your feed address is shown once: copy it now.');
}

if (prefsForm) {
  // Time zone names the browser knows, as suggestions (the server checks the value).
  const zones = prefsForm.querySelector('#pref-timezones');
  if (zones && typeof Intl.supportedValuesOf === 'function') {
    for (const z of Intl.supportedValuesOf('timeZone')) zones.append(new Option(z));
  }
  const formError = prefsForm.querySelector('[data-form-error]');
  const status = prefsForm.querySelector('[data-preferences-status]');
  const field = (name) => prefsForm.elements.namedItem(name);
  const value = (name) => field(name).value.trim();
  const on = (name) => field(name).checked;

  const clearErrors = () => {
    formError.hidden = true;
    for (const el of prefsForm.querySelectorAll('[data-field-error]')) {
      el.hidden = true;
      el.textContent = '';
    }
    for (const el of prefsForm.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  };

  const patch = () => {
    const vendorsOf = (ch) => {
      const list = slugList(value(`${ch}.vendors`));
      return list.length ? list : null;
    };
    // A channel's own rules, or null (the global "What alerts").
    const rulesOf = (ch) =>
      field(`${ch}.alert_on.own`)?.checked
        ? {
            changes: [...prefsForm.querySelectorAll(`input[name="${ch}.alert_on.changes"]:checked`)].map((b) => b.value),
            min_impact: value(`${ch}.alert_on.min_impact`),
            components: componentFilter(value(`${ch}.alert_on.components`)),
          }
        : null;
    const out = {
      timezone: value('timezone'),
      quiet_hours: { enabled: on('quiet_hours.enabled'), start: value('quiet_hours.start'), end: value('quiet_hours.end') },
      maintenance_reminders: {
        lead_times: slugList(value('maintenance_reminders.lead_times')),
        started: on('maintenance_reminders.started'),
        completed: on('maintenance_reminders.completed'),
      },
      in_app: { enabled: on('in_app.enabled') },
      email: { enabled: on('email.enabled'), address: value('email.address') || null, digest: value('email.digest') },
      slack: { enabled: on('slack.enabled'), channel: value('slack.channel') || null, vendors: vendorsOf('slack') },
      webhook: {
        enabled: on('webhook.enabled'),
        url: value('webhook.url') || null,
        format: value('webhook.format'),
        vendors: vendorsOf('webhook'),
      },
      pagerduty: { enabled: on('pagerduty.enabled'), vendors: vendorsOf('pagerduty') },
      teams: { enabled: on('teams.enabled'), vendors: vendorsOf('teams') },
      google_chat: { enabled: on('google_chat.enabled'), vendors: vendorsOf('google_chat') },
      opsgenie: { enabled: on('opsgenie.enabled'), region: value('opsgenie.region'), vendors: vendorsOf('opsgenie') },
      rss: { enabled: on('rss.enabled') },
      newsletter: { enabled: on('newsletter.enabled') },
      muted_vendors: slugList(value('muted_vendors')),
      content_filters: {
        min_impact: value('content_filters.min_impact'),
        event_types: [...prefsForm.querySelectorAll('input[name="content_filters.event_types"]:checked')].map((b) => b.value),
        components: componentFilter(value('content_filters.components')),
      },
    };
    for (const ch of ['email', 'slack', 'webhook', 'pagerduty', 'teams', 'google_chat', 'opsgenie']) out[ch].alert_on = rulesOf(ch);
    // Secret fields are never filled in: empty keeps the saved value.
    for (const input of prefsForm.querySelectorAll('[data-secret-field]')) {
      const [channel, key] = input.name.split('.');
      if (input.value.trim()) out[channel][key] = input.value.trim();
    }
    return out;
  };

  prefsForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const button = prefsForm.querySelector('button[type="submit"]');
    button.disabled = true;
    say(status, 'Saving…');
    const result = await api(`${DATA_API}/notification-preferences`, { method: 'PUT', body: patch() });
    button.disabled = false;
    if (!result.ok) {
      say(status, '');
      const message = errorMessage(result);
      const names = [result.body?.parameter, ...(result.body?.fields ?? [])].filter(Boolean).map((n) => String(n).replace(/^body\./, ''));
      let placed = false;
      for (const name of new Set(names)) {
        const slot = prefsForm.querySelector(`[data-field-error="${CSS.escape(name)}"]`);
        if (!slot) continue;
        slot.textContent = message;
        slot.hidden = false;
        const input = field(name);
        if (input && 'setAttribute' in input) input.setAttribute('aria-invalid', 'true');
        if (!placed && input && 'focus' in input) input.focus();
        placed = true;
      }
      formError.textContent = message;
      formError.hidden = false;
      return;
    }
    const p = result.body.preferences;
    const once = result.body.shownOnce ?? [];
    for (const input of prefsForm.querySelectorAll('[data-secret-field]')) {
      const [channel, key] = input.name.split('.');
      input.value = '';
      if (p[channel]?.[key]) input.placeholder = p[channel][key];
    }
    const secretText = document.querySelector('[data-webhook-secret]');
    if (once.includes('webhook.secret')) {
      showOnce(document.querySelector('[data-webhook-secret-once]'), p.webhook.secret);
      secretText.textContent = `****${p.webhook.secret.slice(-4)}`;
    } else if (secretText) {
      secretText.textContent = p.webhook.secret ?? 'none yet (created when you save a URL)';
    }
    if (once.includes('rss.feed_url')) feedShownOnce(p.rss.feed_url);
    if (p.rss.enabled && p.rss.feed_url) showFeedOn(p.rss.feed_url);
    else if (!p.rss.enabled) showFeedOff();
    say(status, once.length ? 'Saved. A new secret is shown above: copy it now.' : 'Saved.');
    announce('Notification settings saved');
  });
  scriptReady(prefsForm);

  // Send test: uses the saved settings of one channel.
  prefsForm.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-test-channel]') : null;
    if (!button) return;
    const channel = button.dataset.testChannel;
    const out = prefsForm.querySelector(`[data-test-result="${CSS.escape(channel)}"]`);
    button.disabled = true;
    say(out, 'Sending…');
    const result = await api(`${DATA_API}/notification-preferences/test`, { method: 'POST', body: { channel } });
    button.disabled = false;
    if (result.status === 404 && /^Route /.test(result.body?.message ?? '')) {
      say(out, 'Test sending is not available on this server yet.', 'error');
      return;
    }
    if (!result.ok) {
      say(out, errorMessage(result), 'error');
      return;
    }
    const b = result.body || {};
    if (b.delivered === false) {
      say(out, `Not delivered: ${b.error || (b.statusCode ? `the receiver answered ${b.statusCode}` : 'no answer')}.`, 'error');
    } else {
      const facts = [b.statusCode ? `answer ${b.statusCode}` : null, typeof b.latencyMs === 'number' ? `${b.latencyMs} ms` : null].filter(Boolean);
      say(out, `Test ${channel === 'in_app' ? 'notification' : 'alert'} delivered${facts.length ? ` (${facts.join(', ')})` : ''}.`);
    }
    loadDeliveries();
    loadInbox();
  });

  prefsForm.querySelector('[data-rotate-webhook]')?.addEventListener('click', async () => {
    if (!window.confirm('Create a new signing secret? The old one keeps signing for 24 hours.')) return;
    const result = await api(`${DATA_API}/notification-preferences/webhook/rotate-secret`, { method: 'POST' });
    if (!result.ok) return void say(status, errorMessage(result), 'error');
    showOnce(document.querySelector('[data-webhook-secret-once]'), result.body.preferences.webhook.secret);
    document.querySelector('[data-webhook-secret]').textContent = `****${result.body.preferences.webhook.secret.slice(-4)}`;
    announce('New webhook secret created: copy it now.');
  });
}

// -------------------------------------------------------------- delivery log
const deliveries = document.querySelector('[data-deliveries]');

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text == null || text === '' ? '–' : String(text);
  row.append(td);
}

async function loadDeliveries() {
  if (!deliveries) return;
  const result = await api(`${DATA_API}/notification-deliveries?limit=20`);
  const message = (text) => {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = text;
    deliveries.replaceChildren(p);
  };
  if (result.status === 404) return message('The delivery log is not available on this server yet.');
  if (!result.ok) return message(errorMessage(result));
  const items = result.body.items ?? result.body.deliveries ?? [];
  if (!items.length) return message('Nothing delivered yet. Alerts and tests you send appear here.');
  const table = document.createElement('table');
  table.className = 'delivery-log';
  const head = table.createTHead().insertRow();
  for (const h of ['When', 'Channel', 'About', 'Status', 'Attempts', 'Detail']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const d of items) {
    const row = body.insertRow();
    const when = d.deliveredAt ?? d.updatedAt ?? d.createdAt ?? d.created_at;
    cell(row, when ? `${new Date(when).toISOString().replace('T', ' ').slice(0, 16)} UTC` : '');
    cell(row, d.channel);
    cell(row, d.test ? `Test: ${d.title ?? ''}` : [d.vendor, d.title].filter(Boolean).join(': ') || d.type);
    cell(row, d.status);
    cell(row, d.attempts);
    cell(row, d.lastError ?? (d.lastStatusCode ? `answer ${d.lastStatusCode}` : ''));
  }
  const wrap = document.createElement('div');
  wrap.className = 'table-scroll';
  wrap.append(table);
  deliveries.replaceChildren(wrap);
}
loadDeliveries();

// ------------------------------------------------------------- personal feed
const feedPanel = document.querySelector('#feed');
const feedOrigin = () => feedPanel?.dataset.feedOrigin || window.location.origin;
const maskFeed = (path) => path.replace(/[^/]+(?=\.rss$)/, (t) => (t.startsWith('****') ? t : `****${t.slice(-4)}`));

/** Shows the "on" state with the (masked, absolute) address: what a reload would show. */
function showFeedOn(path) {
  const masked = feedPanel?.querySelector('[data-feed-url]');
  if (masked) masked.textContent = new URL(maskFeed(path), feedOrigin()).href;
  for (const el of feedPanel?.querySelectorAll('[data-feed-on]') ?? []) el.hidden = false;
  for (const el of feedPanel?.querySelectorAll('[data-feed-off]') ?? []) el.hidden = true;
}

function showFeedOff() {
  for (const el of feedPanel?.querySelectorAll('[data-feed-on]') ?? []) el.hidden = true;
  for (const el of feedPanel?.querySelectorAll('[data-feed-off]') ?? []) el.hidden = false;
}

document.querySelector('[data-enable-feed]')?.addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  const result = await api(`${DATA_API}/notification-preferences`, { method: 'PUT', body: { rss: { enabled: true } } });
  button.disabled = false;
  const status = document.querySelector('[data-feed-status]');
  if (!result.ok) return void say(status, errorMessage(result), 'error');
  if (prefsForm) prefsForm.elements.namedItem('rss.enabled').checked = true;
  const url = result.body.preferences.rss.feed_url;
  showFeedOn(url);
  if ((result.body.shownOnce ?? []).includes('rss.feed_url')) feedShownOnce(url);
  else say(status, 'Your feed is on.');
});

document.querySelector('[data-rotate-feed]')?.addEventListener('click', async () => {
  if (!window.confirm('Create a new feed address? The current one stops working at once.')) return;
  const result = await api(`${DATA_API}/notification-preferences/rss/rotate-token`, { method: 'POST' });
  const status = document.querySelector('[data-feed-status]');
  if (!result.ok) return void say(status, errorMessage(result), 'error');
  feedShownOnce(result.body.preferences.rss.feed_url);
  showFeedOn(result.body.preferences.rss.feed_url);
});

// ---------------------------------------------------- connected applications
const connections = document.querySelector('[data-connections]');

async function loadConnections() {
  if (!connections) return;
  const result = await api(`${ACCOUNT_API}/account/connections`);
  // Absent on servers without the MCP endpoint: the section stays hidden.
  if (!result.ok) return;
  connections.hidden = false;
  const list = connections.querySelector('[data-connections-list]');
  const items = result.body.connections ?? [];
  if (!items.length) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'No application is connected.';
    list.replaceChildren(p);
    return;
  }
  const ul = document.createElement('ul');
  ul.className = 'connections';
  for (const c of items) {
    const li = document.createElement('li');
    const name = document.createElement('strong');
    name.textContent = c.name;
    const meta = document.createElement('span');
    meta.className = 'muted';
    meta.textContent = ` · ${c.scope} · since ${String(c.createdAt).slice(0, 10)}${c.lastUsedAt ? ` · last used ${String(c.lastUsedAt).slice(0, 10)}` : ''} `;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button button--danger button--small';
    button.textContent = 'Disconnect';
    button.setAttribute('aria-label', `Disconnect ${c.name}`);
    button.addEventListener('click', async () => {
      if (!window.confirm(`Disconnect ${c.name}? It loses access at once.`)) return;
      button.disabled = true;
      const r = await api(`${ACCOUNT_API}/account/connections/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
      say(connections.querySelector('[data-connections-status]'), r.ok ? `${c.name} disconnected.` : errorMessage(r), r.ok ? 'ok' : 'error');
      await loadConnections();
    });
    li.append(name, meta, button);
    ul.append(li);
  }
  list.replaceChildren(ul);
}
loadConnections();

// ------------------------------------------------------- in-app notifications
const inbox = document.querySelector('[data-inbox]');

async function loadInbox() {
  if (!inbox) return;
  const result = await api(`${DATA_API}/notifications?limit=20`);
  // Absent on servers without alerts: the section stays hidden.
  if (!result.ok) return;
  inbox.hidden = false;
  const list = inbox.querySelector('[data-inbox-list]');
  const count = inbox.querySelector('[data-inbox-unread]');
  count.textContent = String(result.body.unread ?? 0);
  const items = result.body.items ?? [];
  if (!items.length) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'No notifications yet.';
    list.replaceChildren(p);
    return;
  }
  const ul = document.createElement('ul');
  ul.className = 'inbox';
  for (const n of items) {
    const li = document.createElement('li');
    if (!n.read) li.className = 'inbox__unread';
    const title = document.createElement('strong');
    title.textContent = `${n.test ? 'Test: ' : ''}${n.vendorName ?? n.vendor}: ${n.title}`;
    const meta = document.createElement('span');
    meta.className = 'muted';
    meta.textContent = ` · ${n.status} · ${String(n.occurredAt ?? n.createdAt)
      .replace('T', ' ')
      .slice(0, 16)} UTC${n.read ? '' : ' · unread'}`;
    li.append(title, meta);
    ul.append(li);
  }
  list.replaceChildren(ul);
}
inbox?.querySelector('[data-inbox-read-all]')?.addEventListener('click', async () => {
  const r = await api(`${DATA_API}/notifications/read-all`, { method: 'POST' });
  if (r.ok) {
    announce('All notifications marked as read');
    await loadInbox();
  }
});
loadInbox();

// Slack: the outcome of an "Add to Slack" round trip (?slack=…), and disconnecting.
const slackStatus = document.querySelector('[data-slack-status]');
if (slackStatus) {
  const outcome = new URLSearchParams(location.search).get('slack');
  const reason = new URLSearchParams(location.search).get('reason');
  const text = {
    connected: 'Slack is connected. Switch Slack alerts on and save, then send a test message.',
    denied: 'The Slack install was cancelled.',
    failed: `Slack could not be connected${reason ? ` (${reason})` : ''}. Try again.`,
  }[outcome];
  if (text) {
    say(slackStatus, text, outcome === 'connected' ? undefined : 'error');
    announce(text);
  }
}
document.querySelector('[data-slack-disconnect]')?.addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  const r = await api(`${DATA_API}/notification-preferences/slack`, { method: 'DELETE' });
  if (!r.ok) {
    button.disabled = false;
    say(slackStatus, errorMessage(r), 'error');
    return;
  }
  say(slackStatus, 'Slack is disconnected: the workspace token was removed.');
  announce('Slack disconnected');
  button.closest('p')?.remove();
  if (prefsForm) prefsForm.elements.namedItem('slack.enabled').checked = false;
});
