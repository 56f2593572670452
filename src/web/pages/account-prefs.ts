import type { WatchlistView } from '../../domain/watchlist.ts';
import { eventLabel } from '../../domain/events.ts';
import { ALERT_EVENT_TYPES, EMAIL_DIGESTS, OPSGENIE_REGIONS, type PreferencesView, WEBHOOK_FORMATS } from '../../domain/preferences.ts';
import { IMPACTS } from '../../domain/records.ts';
import { CHANGE_KINDS, type ChannelRules, componentFilterText, DEFAULT_CHANGES } from '../../domain/alert-rules.ts';
import { DIGEST_DAILY_HOUR } from '../../domain/digests.ts';
import type { VendorProfile } from '../../services/vendors/catalog-service.ts';
import { html, type Html } from '../html.ts';
import { categoryLabel, humanize, time } from '../views/format.ts';

// Account sections backed by the per-user services: the watchlist editor, the
// notification preferences of every channel (with "send test" and the delivery
// log) and the personal feed. account.js submits them to the same JSON API.

const DIGEST_LABEL: Record<string, string> = { off: 'One e-mail per alert', hourly: 'Hourly digest', daily: 'Daily digest' };

const checked = (on: boolean) => (on ? html` checked` : '');
const list = (v: string[] | null) => (v ? v.join(', ') : '');

/** What "Find a vendor" matches: the name or the id, as typed (account.js filters the same way). */
const findKey = (v: VendorProfile) => `${v.name.toLowerCase()} ${v.id}`;

/** `find`: the editor's search sent without JavaScript (`/account?find=…`), applied here. */
export function watchlistSection(w: WatchlistView, vendors: VendorProfile[], find = ''): Html {
  const selected = new Set(w.vendors);
  const needle = find.trim().toLowerCase();
  const shown = (v: VendorProfile) => !needle || findKey(v).includes(needle);
  const byCategory = new Map<string, VendorProfile[]>();
  for (const v of vendors) byCategory.set(v.category, [...(byCategory.get(v.category) ?? []), v]);
  const categories = [...byCategory.keys()].sort((a, b) => categoryLabel(a).localeCompare(categoryLabel(b)));
  return html`<section class="panel" id="watchlist" aria-labelledby="watchlist-title">
    <h2 id="watchlist-title">Watchlist</h2>
    <p>Alerts cover the vendors on your watchlist (unless a channel lists its own).
      <span data-watch-count>${w.count}</span> ${w.isUnlimited ? 'vendors, no limit on your plan' : html`of ${w.limit} vendors on your plan`}.</p>
    <form id="watch-find" method="get" action="/account#watchlist" data-watch-find></form>
    <form method="post" action="/api/v1/infrastructure/watchlist" data-method="PUT" data-watchlist-form ${w.isUnlimited ? '' : html`data-limit="${w.limit}"`} novalidate>
      <h3 class="subhead" id="watch-selected-title">Selected</h3>
      <p class="empty" data-watch-none${selected.size ? html` hidden` : ''}>No vendor yet: find them below.</p>
      <ul class="watch-selected" aria-labelledby="watch-selected-title" data-watch-selected>${vendors
        .filter((v) => selected.has(v.id))
        .map((v) => selectedItem(v.id, v.name))}</ul>
      <div class="field">
        <label for="watch-filter">Find a vendor</label>
        <div class="inline-fields">
          <input id="watch-filter" type="search" name="find" value="${find}" form="watch-find" autocomplete="off" data-watch-filter aria-controls="watch-options">
          <button type="submit" class="button button--small" form="watch-find" data-watch-find-submit>Find</button>
        </div>
      </div>
      <div id="watch-options" class="watch-options">
      ${categories.map(
        (c) => html`<fieldset class="watch-group"${byCategory.get(c)!.some(shown) ? '' : html` hidden`}>
        <legend>${categoryLabel(c)}</legend>
        <ul class="watch-list">${byCategory
          .get(c)!
          .map(
            (v) =>
              html`<li data-watch-item data-name="${findKey(v)}"${shown(v) ? '' : html` hidden`}><label><input type="checkbox" name="vendors" value="${v.id}"${checked(selected.has(v.id))}> ${v.name}</label></li>`,
          )}</ul>
      </fieldset>`,
      )}
      </div>
      <div class="form-actions">
        <button type="submit" class="button" disabled data-script-enables>Save watchlist</button>
        <p data-watchlist-status role="status" hidden></p>
      </div>
    </form>
  </section>`;
}

/** One vendor of the selection; its Remove button works with JavaScript (it unticks the box below). */
function selectedItem(id: string, name: string): Html {
  return html`<li data-watch-chosen="${id}">${name} <button type="button" class="button button--small" data-watch-remove="${id}" hidden>Remove<span class="visually-hidden"> ${name}</span></button></li>`;
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
  // \`quiet_hours.enabled\` has the same form as the channels' switches.
  return html`<div class="field field--check"><input id="pref-${channel}-enabled" type="checkbox" name="${channel}.enabled"${checked(on)}><label for="pref-${channel}-enabled">${label}</label></div>`;
}

function fieldError(name: string): Html {
  return html`<p class="form-error" data-field-error="${name}" hidden></p>`;
}

/** A secret field (integration key, webhook URL): never filled in; empty on save keeps the stored one. */
function secretField(id: string, name: string, label: string, stored: string | null, hint: string, placeholder: string): Html {
  return html`<div class="field">
          <label for="${id}">${label}</label>
          <input id="${id}" type="password" name="${name}" value="" autocomplete="off" placeholder="${stored ?? placeholder}" aria-describedby="${id}-hint" data-secret-field>
          <p class="field__hint" id="${id}-hint">${stored ? html`A value ending in <code>${stored.slice(-4)}</code> is saved; leave empty to keep it.` : hint}</p>
          ${fieldError(name)}
        </div>`;
}

const CHANGE_LABEL: Record<string, string> = {
  created: 'New incidents and scheduled maintenance',
  status_changed: 'Status changes (and maintenance starting)',
  resolved: 'Resolved (and maintenance completed)',
  updated: 'Updates without a status change',
};

/**
 * A channel's own rules (docs/alerts.md "What counts"): off = the settings under
 * "What alerts". account.js sends `alert_on: null` when the box is not ticked.
 */
function rulesField(channel: string, rules: ChannelRules | null): Html {
  const r = rules ?? { changes: DEFAULT_CHANGES, min_impact: 'none', components: [] };
  const id = `pref-${channel}-rules`;
  return html`<details class="nested" data-rules="${channel}"${rules ? html` open` : ''}>
        <summary>What this channel alerts on</summary>
        <div class="field field--check"><input id="${id}-own" type="checkbox" name="${channel}.alert_on.own"${checked(rules !== null)}><label for="${id}-own">Use rules of its own (otherwise “What alerts” below)</label></div>
        <ul class="watch-list">${CHANGE_KINDS.map(
          (k) =>
            html`<li><label><input type="checkbox" name="${channel}.alert_on.changes" value="${k}"${checked(r.changes.includes(k))}> ${CHANGE_LABEL[k] ?? k}</label></li>`,
        )}</ul>
        <div class="field">
          <label for="${id}-impact">Lowest impact</label>
          <select id="${id}-impact" name="${channel}.alert_on.min_impact">${IMPACTS.map((i) => html`<option value="${i}"${r.min_impact === i ? html` selected` : ''}>${i === 'none' ? 'Any' : `${humanize(i)} and above`}</option>`)}</select>
        </div>
        <div class="field">
          <label for="${id}-components">Components</label>
          <input id="${id}-components" type="text" name="${channel}.alert_on.components" value="${componentFilterText(r.components)}" autocomplete="off" placeholder="empty = all" aria-describedby="pref-components-hint">
          ${fieldError(`${channel}.alert_on.components`)}
        </div>
      </details>`;
}

const FORMAT_LABEL: Record<string, string> = { standard: 'Standard Webhooks (signed JSON)', discord: 'Discord', slack: 'Slack incoming webhook' };

function slackFieldset(p: PreferencesView, slackInstall: boolean): Html {
  const c = p.slack_connection;
  const connection = c.connected
    ? html`<p data-slack-connected>Connected to workspace <strong>${c.team ?? 'unknown'}</strong>${c.connected_at ? html` since ${time(c.connected_at)}` : ''}.
        <button type="button" class="button button--secondary button--small" data-slack-disconnect>Disconnect Slack</button></p>`
    : slackInstall
      ? html`<p>Connect a Slack workspace to receive alerts there.</p>
        <p><a class="button" href="/api/v1/infrastructure/slack/install" data-slack-install>Add to Slack</a></p>`
      : html`<p>Slack is not available on this server. You can still post to a Slack incoming webhook (Webhook, format “Slack incoming webhook”).</p>`;
  return html`<fieldset class="channel" id="channel-slack">
        <legend>Slack</legend>
        ${connection}
        <p data-slack-status role="status" hidden></p>
        ${enabledBox('slack', 'Send alerts to Slack', p.slack.enabled)}
        <div class="field">
          <label for="pref-slack-channel">Channel id</label>
          <input id="pref-slack-channel" type="text" name="slack.channel" value="${p.slack.channel ?? ''}" autocomplete="off" placeholder="empty = direct messages to you" aria-describedby="pref-slack-channel-hint">
          <p class="field__hint" id="pref-slack-channel-hint">A channel id such as C0123ABCD (in Slack: channel details, at the bottom). Empty: direct messages to the person who connected the workspace.</p>
          ${fieldError('slack.channel')}
        </div>
        ${vendorsField('pref-slack-vendors', 'slack', p.slack.vendors)}
        ${rulesField('slack', p.slack.alert_on)}
        ${testButton('slack', 'Slack message')}
      </fieldset>`;
}

function chatFieldsets(p: PreferencesView): Html {
  return html`<fieldset class="channel" id="channel-teams">
        <legend>Microsoft Teams</legend>
        ${enabledBox('teams', 'Post alerts to a Teams channel', p.teams.enabled)}
        ${secretField('pref-teams-url', 'teams.webhook_url', 'Teams workflow address', p.teams.webhook_url, 'In Teams: Workflows, “Post to a channel when a webhook request is received”; paste the URL it gives.', 'https://…/workflows/…/invoke?…&sig=…')}
        ${vendorsField('pref-teams-vendors', 'teams', p.teams.vendors)}
        ${rulesField('teams', p.teams.alert_on)}
        ${testButton('teams', 'Teams card')}
      </fieldset>

      <fieldset class="channel" id="channel-google_chat">
        <legend>Google Chat</legend>
        ${enabledBox('google_chat', 'Post alerts to a Google Chat space', p.google_chat.enabled)}
        ${secretField('pref-google-chat-url', 'google_chat.webhook_url', 'Google Chat space address', p.google_chat.webhook_url, 'In the space: Apps & integrations, Webhooks; each incident gets its own thread.', 'https://chat.googleapis.com/v1/spaces/…')}
        ${vendorsField('pref-google-chat-vendors', 'google_chat', p.google_chat.vendors)}
        ${rulesField('google_chat', p.google_chat.alert_on)}
        ${testButton('google_chat', 'Google Chat message')}
      </fieldset>

      <fieldset class="channel" id="channel-opsgenie">
        <legend>Opsgenie</legend>
        ${enabledBox('opsgenie', 'Open Opsgenie alerts for incidents', p.opsgenie.enabled)}
        ${secretField('pref-opsgenie-key', 'opsgenie.api_key', 'API integration key', p.opsgenie.api_key, 'The key of an API integration with create and update rights.', 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')}
        <div class="field">
          <label for="pref-opsgenie-region">Region</label>
          <select id="pref-opsgenie-region" name="opsgenie.region">${OPSGENIE_REGIONS.map((r) => html`<option value="${r}"${p.opsgenie.region === r ? html` selected` : ''}>${r === 'eu' ? 'EU (api.eu.opsgenie.com)' : 'US (api.opsgenie.com)'}</option>`)}</select>
        </div>
        ${vendorsField('pref-opsgenie-vendors', 'opsgenie', p.opsgenie.vendors)}
        ${rulesField('opsgenie', p.opsgenie.alert_on)}
        ${testButton('opsgenie', 'Opsgenie alert')}
      </fieldset>`;
}

export function notificationsSection(p: PreferencesView, accountEmail: string, o: { slackInstall?: boolean } = {}): Html {
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
          <p class="field__hint" id="pref-email-address-hint">Empty: your account address (${accountEmail}). Another address gets a confirmation link first; alerts go there once it is followed.</p>
          ${p.email.address_status === 'pending' ? html`<p class="notice notice--warn" data-email-pending>Not confirmed yet: we sent a link to ${p.email.address ?? ''}. No alert goes there until it is followed.</p>` : ''}
          ${fieldError('email.address')}
        </div>
        <div class="field">
          <label for="pref-email-digest">How often</label>
          <select id="pref-email-digest" name="email.digest" aria-describedby="pref-email-digest-hint">${EMAIL_DIGESTS.map((d) => html`<option value="${d}"${p.email.digest === d ? html` selected` : ''}>${DIGEST_LABEL[d] ?? d}</option>`)}</select>
          <p class="field__hint" id="pref-email-digest-hint">A digest is one message per period listing what changed (none when nothing did): hourly at the turn of the hour, daily at ${DIGEST_DAILY_HOUR}:00, in your time zone.</p>
        </div>
        ${rulesField('email', p.email.alert_on)}
        ${testButton('email', 'e-mail')}
      </fieldset>

      ${slackFieldset(p, o.slackInstall ?? false)}

      <fieldset class="channel" id="channel-webhook">
        <legend>Webhook</legend>
        ${enabledBox('webhook', 'Post alerts to a webhook', p.webhook.enabled)}
        <div class="field">
          <label for="pref-webhook-url">Webhook URL</label>
          <input id="pref-webhook-url" type="url" name="webhook.url" value="${p.webhook.url ?? ''}" placeholder="https://hooks.example.com/alerts" autocomplete="off" aria-describedby="pref-webhook-url-hint">
          <p class="field__hint" id="pref-webhook-url-hint">An https address; Discord and Slack incoming webhook URLs get messages in their format.</p>
          ${fieldError('webhook.url')}
        </div>
        <div class="field">
          <label for="pref-webhook-format">Format</label>
          <select id="pref-webhook-format" name="webhook.format">${WEBHOOK_FORMATS.map((f) => html`<option value="${f}"${p.webhook.format === f ? html` selected` : ''}>${FORMAT_LABEL[f] ?? f}</option>`)}</select>
        </div>
        ${vendorsField('pref-webhook-vendors', 'webhook', p.webhook.vendors)}
        <p>Signing secret: <code data-webhook-secret>${p.webhook.secret ?? 'none yet (created when you save a URL)'}</code>
          ${p.webhook.secret ? html`<button type="button" class="button button--secondary button--small" data-rotate-webhook>Create a new secret</button>` : ''}</p>
        <div class="secret-box" data-webhook-secret-once hidden><code id="webhook-secret-once"></code><button type="button" class="button button--small" data-copy="#webhook-secret-once">Copy</button><p>Copy it now: it is shown only this once.</p></div>
        ${rulesField('webhook', p.webhook.alert_on)}
        ${testButton('webhook', 'webhook call')}
      </fieldset>

      <fieldset class="channel" id="channel-pagerduty">
        <legend>PagerDuty</legend>
        ${enabledBox('pagerduty', 'Open PagerDuty incidents (Events API v2)', p.pagerduty.enabled)}
        ${secretField('pref-pagerduty-key', 'pagerduty.routing_key', 'Integration key', p.pagerduty.routing_key, 'The routing key of an Events API v2 integration.', '32 characters')}
        ${vendorsField('pref-pagerduty-vendors', 'pagerduty', p.pagerduty.vendors)}
        ${rulesField('pagerduty', p.pagerduty.alert_on)}
        ${testButton('pagerduty', 'PagerDuty event')}
      </fieldset>

      ${chatFieldsets(p)}

      <fieldset class="channel" id="channel-rss">
        <legend>RSS feed</legend>
        ${enabledBox('rss', 'Publish my alerts in a private feed', p.rss.enabled)}
        <p class="field__hint">The feed address is under <a href="#feed">Personal feed</a>.</p>
      </fieldset>

      <fieldset class="channel" id="channel-newsletter">
        <legend>Newsletter</legend>
        ${enabledBox('newsletter', 'Receive the newsletter', p.newsletter.enabled)}
      </fieldset>

      <fieldset class="channel" id="channel-schedule">
        <legend>Time zone, quiet hours and reminders</legend>
        <div class="field">
          <label for="pref-timezone">Time zone</label>
          <input id="pref-timezone" type="text" name="timezone" value="${p.timezone}" autocomplete="off" list="pref-timezones" aria-describedby="pref-timezone-hint" data-timezone-field>
          <datalist id="pref-timezones"></datalist>
          <p class="field__hint" id="pref-timezone-hint">An IANA name such as Europe/Berlin or America/New_York: digests, quiet hours and reminders follow it.</p>
          ${fieldError('timezone')}
        </div>
        ${enabledBox('quiet_hours', 'Quiet hours: hold chat and e-mail alerts, then send one summary', p.quiet_hours.enabled)}
        <div class="field field--inline">
          <label for="pref-quiet-start">From</label>
          <input id="pref-quiet-start" type="time" name="quiet_hours.start" value="${p.quiet_hours.start}">
          <label for="pref-quiet-end">until</label>
          <input id="pref-quiet-end" type="time" name="quiet_hours.end" value="${p.quiet_hours.end}">
          <p class="field__hint">PagerDuty and Opsgenie are never held.</p>
          ${fieldError('quiet_hours.start')}${fieldError('quiet_hours.end')}
        </div>
        <div class="field">
          <label for="pref-reminders">Maintenance reminders</label>
          <input id="pref-reminders" type="text" name="maintenance_reminders.lead_times" value="${p.maintenance_reminders.lead_times.join(', ')}" autocomplete="off" placeholder="e.g. 24h, 1h" aria-describedby="pref-reminders-hint">
          <p class="field__hint" id="pref-reminders-hint">How long before a maintenance window starts to remind you (m, h or d; up to 14d). Empty: no reminders.</p>
          ${fieldError('maintenance_reminders.lead_times')}
        </div>
        <div class="field field--check"><input id="pref-maint-started" type="checkbox" name="maintenance_reminders.started"${checked(p.maintenance_reminders.started)}><label for="pref-maint-started">Alert when a maintenance window starts</label></div>
        <div class="field field--check"><input id="pref-maint-completed" type="checkbox" name="maintenance_reminders.completed"${checked(p.maintenance_reminders.completed)}><label for="pref-maint-completed">Alert when a maintenance window completes</label></div>
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
            (e) =>
              html`<li><label><input type="checkbox" name="content_filters.event_types" value="${e}"${checked(p.content_filters.event_types.includes(e))}> ${eventLabel(e)}</label></li>`,
          )}</ul>
          ${fieldError('content_filters.event_types')}
        </fieldset>
        <div class="field">
          <label for="pref-components">Only these components</label>
          <input id="pref-components" type="text" name="content_filters.components" value="${componentFilterText(p.content_filters.components)}" autocomplete="off" aria-describedby="pref-components-hint">
          <p class="field__hint" id="pref-components-hint">Comma-separated component names, for any vendor (“Actions, API”), or per vendor (“github: Actions, Git Operations; aws: EC2”; vendors not named are not filtered). Empty: all components.</p>
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
        <button type="submit" class="button" disabled data-script-enables>Save notification settings</button>
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
