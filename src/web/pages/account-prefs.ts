import type { WatchlistView } from '../../domain/watchlist.ts';
import { eventLabel } from '../../domain/events.ts';
import { ALERT_EVENT_TYPES, EMAIL_DIGESTS, type PreferencesView, WEBHOOK_FORMATS } from '../../domain/preferences.ts';
import { IMPACTS } from '../../domain/records.ts';
import type { VendorProfile } from '../../services/catalog-service.ts';
import { html, type Html } from '../html.ts';
import { categoryLabel, humanize, time } from '../views/format.ts';

// Account sections backed by the per-user services: the watchlist editor, the
// notification preferences of every channel (with "send test" and the delivery
// log) and the personal feed. account.js submits them to the same JSON API.

const DIGEST_LABEL: Record<string, string> = { off: 'One e-mail per alert', hourly: 'Hourly digest', daily: 'Daily digest' };

const checked = (on: boolean) => (on ? html` checked` : '');
const list = (v: string[] | null) => (v ? v.join(', ') : '');

export function watchlistSection(w: WatchlistView, vendors: VendorProfile[]): Html {
  const selected = new Set(w.vendors);
  const byCategory = new Map<string, VendorProfile[]>();
  for (const v of vendors) byCategory.set(v.category, [...(byCategory.get(v.category) ?? []), v]);
  const categories = [...byCategory.keys()].sort((a, b) => categoryLabel(a).localeCompare(categoryLabel(b)));
  return html`<section class="panel" id="watchlist" aria-labelledby="watchlist-title">
    <h2 id="watchlist-title">Watchlist</h2>
    <p>Alerts cover the vendors on your watchlist (unless a channel lists its own).
      <span data-watch-count>${w.count}</span> ${w.isUnlimited ? 'vendors, no limit on your plan' : html`of ${w.limit} vendors on your plan`}.</p>
    <form method="post" action="/api/v1/infrastructure/watchlist" data-method="PUT" data-watchlist-form ${w.isUnlimited ? '' : html`data-limit="${w.limit}"`} novalidate>
      <div class="field">
        <label for="watch-filter">Find a vendor</label>
        <input id="watch-filter" type="search" autocomplete="off" data-watch-filter aria-controls="watch-options">
      </div>
      <div id="watch-options" class="watch-options">
      ${categories.map(
        (c) => html`<fieldset class="watch-group">
        <legend>${categoryLabel(c)}</legend>
        <ul class="watch-list">${byCategory.get(c)!.map(
          (v) => html`<li data-watch-item data-name="${v.name.toLowerCase()} ${v.id}"><label><input type="checkbox" name="vendors" value="${v.id}"${checked(selected.has(v.id))}> ${v.name}</label></li>`,
        )}</ul>
      </fieldset>`,
      )}
      </div>
      <div class="form-actions">
        <button type="submit" class="button">Save watchlist</button>
        <p data-watchlist-status role="status" hidden></p>
      </div>
    </form>
  </section>`;
}

function vendorsField(id: string, channel: string, value: string[] | null): Html {
  return html`<div class="field">
      <label for="${id}">Vendors for this channel</label>
      <input id="${id}" type="text" name="${channel}.vendors" value="${list(value)}" autocomplete="off" aria-describedby="${id}-hint ${id}-error" placeholder="empty = your watchlist">
      <p class="field__hint" id="${id}-hint">Comma-separated vendor ids (as in the address of a vendor page, e.g. github, cloudflare). Empty: your watchlist.</p>
      <p class="form-error" id="${id}-error" data-field-error="${channel}.vendors" hidden></p>
    </div>`;
}

function testButton(channel: string, label: string): Html {
  return html`<div class="channel__test"><button type="button" class="button button--secondary button--small" data-test-channel="${channel}">Send test ${label}</button>
    <p class="channel__result" data-test-result="${channel}" role="status" hidden></p></div>`;
}

function enabledBox(channel: string, label: string, on: boolean): Html {
  return html`<div class="field field--check"><input id="pref-${channel}-enabled" type="checkbox" name="${channel}.enabled"${checked(on)}><label for="pref-${channel}-enabled">${label}</label></div>`;
}

function fieldError(name: string): Html {
  return html`<p class="form-error" data-field-error="${name}" hidden></p>`;
}

export function notificationsSection(p: PreferencesView, accountEmail: string): Html {
  return html`<section class="panel" id="notifications" aria-labelledby="notifications-title">
    <h2 id="notifications-title">Notifications</h2>
    <p>Choose where alerts about your watchlist go. Changes take effect when you save.</p>
    <form method="post" action="/api/v1/infrastructure/notification-preferences" data-method="PUT" data-preferences-form novalidate>
      <p class="form-error" data-form-error role="alert" hidden></p>

      <fieldset class="channel" id="channel-in_app">
        <legend>In the app</legend>
        ${enabledBox('in_app', 'Show alerts in the app', p.in_app.enabled)}
        ${testButton('in_app', 'in-app alert')}
      </fieldset>

      <fieldset class="channel" id="channel-email">
        <legend>E-mail</legend>
        ${enabledBox('email', 'Send alerts by e-mail', p.email.enabled)}
        <div class="field">
          <label for="pref-email-address">Address</label>
          <input id="pref-email-address" type="email" name="email.address" value="${p.email.address ?? ''}" placeholder="${accountEmail}" autocomplete="email" aria-describedby="pref-email-address-hint">
          <p class="field__hint" id="pref-email-address-hint">Empty: your account address (${accountEmail}).</p>
          ${fieldError('email.address')}
        </div>
        <div class="field">
          <label for="pref-email-digest">How often</label>
          <select id="pref-email-digest" name="email.digest">${EMAIL_DIGESTS.map((d) => html`<option value="${d}"${p.email.digest === d ? html` selected` : ''}>${DIGEST_LABEL[d] ?? d}</option>`)}</select>
        </div>
        ${testButton('email', 'e-mail')}
      </fieldset>

      <fieldset class="channel" id="channel-slack">
        <legend>Slack direct message</legend>
        <p>${p.slack_connection.connected ? html`Connected to workspace <strong>${p.slack_connection.team ?? 'unknown'}</strong>${p.slack_connection.connected_at ? html` since ${time(p.slack_connection.connected_at)}` : ''}.` : 'No Slack workspace is connected to this account yet.'}</p>
        ${enabledBox('slack', 'Send alerts to me on Slack', p.slack.enabled)}
        ${vendorsField('pref-slack-vendors', 'slack', p.slack.vendors)}
        ${testButton('slack', 'Slack message')}
      </fieldset>

      <fieldset class="channel" id="channel-webhook">
        <legend>Webhook</legend>
        ${enabledBox('webhook', 'Post alerts to a webhook', p.webhook.enabled)}
        <div class="field">
          <label for="pref-webhook-url">Webhook URL</label>
          <input id="pref-webhook-url" type="url" name="webhook.url" value="${p.webhook.url ?? ''}" placeholder="https://hooks.example.com/alerts" autocomplete="off" aria-describedby="pref-webhook-url-hint">
          <p class="field__hint" id="pref-webhook-url-hint">An https address; Discord webhook URLs get Discord-formatted messages.</p>
          ${fieldError('webhook.url')}
        </div>
        <div class="field">
          <label for="pref-webhook-format">Format</label>
          <select id="pref-webhook-format" name="webhook.format">${WEBHOOK_FORMATS.map((f) => html`<option value="${f}"${p.webhook.format === f ? html` selected` : ''}>${f === 'standard' ? 'Standard Webhooks (signed JSON)' : 'Discord'}</option>`)}</select>
        </div>
        ${vendorsField('pref-webhook-vendors', 'webhook', p.webhook.vendors)}
        <p>Signing secret: <code data-webhook-secret>${p.webhook.secret ?? 'none yet (created when you save a URL)'}</code>
          ${p.webhook.secret ? html`<button type="button" class="button button--secondary button--small" data-rotate-webhook>Create a new secret</button>` : ''}</p>
        <div class="secret-box" data-webhook-secret-once hidden><code id="webhook-secret-once"></code><button type="button" class="button button--small" data-copy="#webhook-secret-once">Copy</button><p>Copy it now: it is shown only this once.</p></div>
        ${testButton('webhook', 'webhook call')}
      </fieldset>

      <fieldset class="channel" id="channel-pagerduty">
        <legend>PagerDuty</legend>
        ${enabledBox('pagerduty', 'Open PagerDuty incidents (Events API v2)', p.pagerduty.enabled)}
        <div class="field">
          <label for="pref-pagerduty-key">Integration key</label>
          <input id="pref-pagerduty-key" type="password" name="pagerduty.routing_key" value="" autocomplete="off" placeholder="${p.pagerduty.routing_key ?? '32 characters'}" aria-describedby="pref-pagerduty-key-hint">
          <p class="field__hint" id="pref-pagerduty-key-hint">${p.pagerduty.routing_key ? html`A key ending in <code>${p.pagerduty.routing_key.slice(-4)}</code> is saved; leave empty to keep it.` : 'The routing key of an Events API v2 integration.'}</p>
          ${fieldError('pagerduty.routing_key')}
        </div>
        ${vendorsField('pref-pagerduty-vendors', 'pagerduty', p.pagerduty.vendors)}
        ${testButton('pagerduty', 'PagerDuty event')}
      </fieldset>

      <fieldset class="channel" id="channel-rss">
        <legend>RSS feed</legend>
        ${enabledBox('rss', 'Publish my alerts in a private feed', p.rss.enabled)}
        <p class="field__hint">The feed address is under <a href="#feed">Personal feed</a>.</p>
      </fieldset>

      <fieldset class="channel" id="channel-newsletter">
        <legend>Newsletter</legend>
        ${enabledBox('newsletter', 'Receive the newsletter', p.newsletter.enabled)}
      </fieldset>

      <fieldset class="channel" id="channel-filters">
        <legend>What alerts</legend>
        <div class="field">
          <label for="pref-min-impact">Lowest incident impact</label>
          <select id="pref-min-impact" name="content_filters.min_impact">${IMPACTS.map((i) => html`<option value="${i}"${p.content_filters.min_impact === i ? html` selected` : ''}>${i === 'none' ? 'Any incident' : `${humanize(i)} and above`}</option>`)}</select>
        </div>
        <fieldset class="nested">
          <legend>Events</legend>
          <ul class="watch-list">${ALERT_EVENT_TYPES.map(
            (e) => html`<li><label><input type="checkbox" name="content_filters.event_types" value="${e}"${checked(p.content_filters.event_types.includes(e))}> ${eventLabel(e)}</label></li>`,
          )}</ul>
          ${fieldError('content_filters.event_types')}
        </fieldset>
        <div class="field">
          <label for="pref-components">Only these components</label>
          <input id="pref-components" type="text" name="content_filters.components" value="${p.content_filters.components.join(', ')}" autocomplete="off" aria-describedby="pref-components-hint">
          <p class="field__hint" id="pref-components-hint">Comma-separated component names; empty: all components.</p>
          ${fieldError('content_filters.components')}
        </div>
        <div class="field">
          <label for="pref-muted">Muted vendors</label>
          <input id="pref-muted" type="text" name="muted_vendors" value="${p.muted_vendors.join(', ')}" autocomplete="off" aria-describedby="pref-muted-hint">
          <p class="field__hint" id="pref-muted-hint">Comma-separated vendor ids that never alert, whatever the channel.</p>
          ${fieldError('muted_vendors')}
        </div>
      </fieldset>

      <div class="form-actions">
        <button type="submit" class="button">Save notification settings</button>
        <p data-preferences-status role="status" hidden></p>
      </div>
    </form>

    <h3 id="deliveries-title">Recent deliveries</h3>
    <div data-deliveries aria-labelledby="deliveries-title"><p class="muted">Loading the delivery log…</p></div>
  </section>`;
}

/**
 * The personal feed. Both states are rendered and account.js switches between
 * them, so the panel says what is true after "Turn on my feed" without a reload.
 * Addresses are absolute (`origin` is PUBLIC_URL, else the request's own origin):
 * a feed reader needs the whole URL, not a path.
 */
export function feedSection(p: PreferencesView, origin: string): Html {
  const masked = p.rss.feed_url ? `${origin}${p.rss.feed_url}` : '';
  return html`<section class="panel" id="feed" aria-labelledby="feed-title" data-feed-origin="${origin}">
    <h2 id="feed-title">Personal feed</h2>
    <p>An RSS feed of your alerts at a private address, for feed readers and chat integrations. Anyone with the address can read it.
    The same address ending in <code>.atom</code> gives Atom, and in <code>.ics</code> the maintenance calendar of your watchlist.</p>
    <div data-feed-on${p.rss.enabled ? '' : html` hidden`}>
      <p>Your feed is on: <code data-feed-url>${masked}</code> <span class="muted">(the secret part is hidden)</span></p>
      <button type="button" class="button button--secondary" data-rotate-feed>Create a new feed address</button>
      <p class="field__hint">The old address stops working at once.</p>
    </div>
    <div data-feed-off${p.rss.enabled ? html` hidden` : ''}>
      <p>Your feed is off.</p><button type="button" class="button" data-enable-feed>Turn on my feed</button>
    </div>
    <div class="secret-box" data-feed-once hidden><code id="feed-url-once"></code><button type="button" class="button button--small" data-copy="#feed-url-once">Copy</button></div>
    <p data-feed-once-note hidden><strong>Copy it now:</strong> the full address is shown only this once.</p>
    <p data-feed-status role="status" hidden></p>
  </section>`;
}

/**
 * Applications connected through OAuth (MCP clients). Filled by account.js from
 * GET /api/v1/account/connections; stays hidden where that endpoint does not exist.
 */
export function connectionsSection(): Html {
  return html`<section class="panel" id="connections" aria-labelledby="connections-title" data-connections hidden>
    <h2 id="connections-title">Connected applications</h2>
    <p>Assistants and tools you allowed to read your incident history through MCP. Disconnecting one stops its access at once.</p>
    <div data-connections-list></div>
    <p data-connections-status role="status" hidden></p>
  </section>`;
}

/** In-app notifications; filled by account.js, hidden where the endpoint does not exist. */
export function inboxSection(): Html {
  return html`<section class="panel" id="inbox" aria-labelledby="inbox-title" data-inbox hidden>
    <h2 id="inbox-title">In-app notifications <span class="count" data-inbox-unread>0</span><span class="visually-hidden"> unread</span></h2>
    <div data-inbox-list></div>
    <button type="button" class="button button--secondary button--small" data-inbox-read-all>Mark all as read</button>
  </section>`;
}
