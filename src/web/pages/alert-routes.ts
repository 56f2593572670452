import { DATADOG_SITES } from '../../domain/channel-targets.ts';
import { ROUTE_CHANNELS, ROUTE_KINDS } from '../../domain/alert-routes.ts';
import { IMPACTS } from '../../domain/records.ts';
import type { RouteView } from '../../services/alerts/alert-routes-service.ts';
import type { NamedWatchlist } from '../../services/orgs/named-watchlists-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';

// The alert routes page (docs/alert-routes.md, docs/web.md "Team"): the organisation's
// routes with their masked destinations and filters; editors add, test, switch on and
// off and delete them with plain forms that work without JavaScript.

export interface AlertRoutesPageData {
  orgName: string;
  routes: RouteView[];
  watchlists: NamedWatchlist[];
  canEdit: boolean;
  csrf: string;
  notice?: { kind: 'ok' | 'error'; text: string };
}

const CHANNEL_NAMES: Record<(typeof ROUTE_CHANNELS)[number], string> = {
  webhook: 'Webhook',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
  jsm: 'Jira Service Management',
  incident_io: 'incident.io',
  datadog: 'Datadog',
  mattermost: 'Mattermost',
  telegram: 'Telegram',
  grafana: 'Grafana annotations',
  servicenow: 'ServiceNow Event Management',
  firehydrant: 'FireHydrant',
  rootly: 'Rootly',
  statuspage: 'Our Atlassian Statuspage',
  instatus: 'Our Instatus page',
  slack: 'Slack channel',
  teams: 'Microsoft Teams',
  google_chat: 'Google Chat',
  email: 'E-mail',
};

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function destinationText(r: RouteView): string {
  const d = r.destination as Record<string, unknown>;
  if (Array.isArray(d.to)) return d.to.join(', ');
  if (Array.isArray(d.components))
    return `page ${String(d.pageId)} · key ${String(d.apiKey)} · ${d.components.length} mapped component${d.components.length === 1 ? '' : 's'}`;
  if (d.token || d.password) return `${String(d.url ?? '')} · ${String(d.token ?? d.password)}`;
  return String(d.url ?? d.routingKey ?? d.apiKey ?? d.conversation ?? '');
}

function scopeText(r: RouteView, lists: NamedWatchlist[]): string {
  const f = r.filters;
  const scope = f.vendors
    ? `vendors ${f.vendors.join(', ')}`
    : f.watchlistId
      ? `watchlist ${lists.find((l) => l.id === f.watchlistId)?.name ?? '(deleted)'}`
      : "the organisation's watchlist";
  const parts = [scope, `${f.kinds.map(humanize).join(', ')}`, f.minImpact === 'none' ? '' : `impact ${f.minImpact} or more`];
  if (f.components.length) parts.push(`components ${f.components.join(', ')}`);
  if (!f.maintenance) parts.push('no maintenance');
  if (f.quietHours) parts.push(`quiet ${f.quietHours.start}–${f.quietHours.end} ${f.quietHours.timezone}`);
  return parts.filter(Boolean).join('; ');
}

function routeRow(r: RouteView, d: AlertRoutesPageData): Html {
  return html`<tr data-route="${r.name}">
    <td>${r.name}</td>
    <td>${CHANNEL_NAMES[r.channel]}<br><small><code>${destinationText(r)}</code></small></td>
    <td><small>${scopeText(r, d.watchlists)}</small></td>
    <td data-route-state>${r.enabled ? 'On' : r.disabledReason ? `Off: ${r.disabledReason}` : 'Off'}</td>
    <td><small>${time(r.updatedAt)}</small></td>
    ${
      d.canEdit
        ? html`<td>
      <form method="post" action="/team/routes/${r.id}/test" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small" aria-label="Send a test alert through ${r.name}">Test</button></form>
      <form method="post" action="/team/routes/${r.id}/${r.enabled ? 'off' : 'on'}" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small" aria-label="${r.enabled ? 'Switch off' : 'Switch on'} ${r.name}">${r.enabled ? 'Switch off' : 'Switch on'}</button></form>
      <form method="post" action="/team/routes/${r.id}/delete" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small button--danger" aria-label="Delete ${r.name}">Delete</button></form>
    </td>`
        : ''
    }
  </tr>`;
}

function addForm(d: AlertRoutesPageData): Html {
  return html`<section class="panel" aria-labelledby="add-route-title">
    <h2 id="add-route-title">Add a route</h2>
    <form method="post" action="/team/routes" data-add-route>
      ${csrfField(d.csrf)}
      <div class="field"><label for="route-name">Name</label><input id="route-name" name="name" type="text" maxlength="80" required autocomplete="off"></div>
      <div class="field"><label for="route-channel">Channel</label>
        <select id="route-channel" name="channel">${ROUTE_CHANNELS.map((c) => html`<option value="${c}">${CHANNEL_NAMES[c]}</option>`)}</select></div>
      <div class="field"><label for="route-target">Destination</label>
        <input id="route-target" name="target" type="text" maxlength="2048" required autocomplete="off" aria-describedby="route-target-help">
        <p id="route-target-help" class="field__hint">Webhook, Teams, Google Chat, Mattermost, incident.io or FireHydrant: the URL. Grafana: the instance's URL.
          ServiceNow: the instance's URL. PagerDuty: the integration key. Opsgenie, Jira Service Management, Datadog, Rootly, Statuspage or Instatus: the API key.
          Telegram: the chat id (or @channel). Slack: the channel id (C…). E-mail: members' addresses, separated by commas.</p></div>
      <div class="field"><label for="route-secret">Token or password (incident.io, Telegram, Grafana, ServiceNow)</label>
        <input id="route-secret" name="secret" type="password" maxlength="512" autocomplete="off" aria-describedby="route-secret-help">
        <p id="route-secret-help" class="field__hint">incident.io: the alert source's secret token. Telegram: the bot token from BotFather.
          Grafana: a service account token. ServiceNow: the password of the user below.</p></div>
      <div class="field"><label for="route-username">ServiceNow user</label>
        <input id="route-username" name="username" type="text" maxlength="100" autocomplete="off"></div>
      <div class="field"><label for="route-dashboard">Grafana dashboard UID (optional)</label>
        <input id="route-dashboard" name="dashboardUid" type="text" maxlength="40" autocomplete="off"></div>
      <div class="field"><label for="route-page">Status page id (Statuspage, Instatus)</label>
        <input id="route-page" name="pageId" type="text" maxlength="64" autocomplete="off"></div>
      <div class="field"><label for="route-mapping">Component mapping (Statuspage, Instatus)</label>
        <textarea id="route-mapping" name="mapping" rows="3" maxlength="10000" aria-describedby="route-mapping-help"></textarea>
        <p id="route-mapping-help" class="field__hint">One line per component: <code>vendor: vendor component -> your page's component id</code>, e.g. <code>github: Actions -> 8kbf7d35c070</code>.</p></div>
      <div class="field"><label for="route-site">Datadog site</label>
        <select id="route-site" name="site">${DATADOG_SITES.map((site) => html`<option value="${site}">${site}</option>`)}</select></div>
      <div class="field"><label for="route-region">Opsgenie region</label>
        <select id="route-region" name="region"><option value="us">US</option><option value="eu">EU</option></select></div>
      <div class="field"><label for="route-vendors">Vendors (optional)</label>
        <input id="route-vendors" name="vendors" type="text" maxlength="5000" autocomplete="off" aria-describedby="route-vendors-help">
        <p id="route-vendors-help" class="field__hint">Vendor slugs separated by commas; empty: the watchlist chosen below.</p></div>
      <div class="field"><label for="route-watchlist">Watchlist</label>
        <select id="route-watchlist" name="watchlistId"><option value="">The organisation's watchlist</option>${d.watchlists.map((l) => html`<option value="${l.id}">${l.name}</option>`)}</select></div>
      <div class="field"><label for="route-impact">Lowest impact</label>
        <select id="route-impact" name="minImpact">${IMPACTS.map((i) => html`<option value="${i}">${humanize(i)}</option>`)}</select></div>
      <fieldset class="field"><legend>Alert on</legend>
        ${ROUTE_KINDS.map((k) => html`<label><input type="checkbox" name="kinds" value="${k}"${k === 'updated' || k === 'early_warning' ? '' : html` checked`}> ${k === 'early_warning' ? "Early warning (our suspicion, before the vendor's page)" : humanize(k)}</label> `)}
      </fieldset>
      <div class="form-actions"><button type="submit" class="button">Add route</button></div>
    </form>
  </section>`;
}

export function alertRoutesPage(d: AlertRoutesPageData): Page {
  return {
    title: `Alert routes: ${d.orgName}`,
    main: html`<h1 class="page-title">Alert routes of ${d.orgName}</h1>
  ${d.notice ? html`<div class="notice notice--${d.notice.kind}" role="${d.notice.kind === 'error' ? 'alert' : 'status'}" data-routes-notice><p>${d.notice.text}</p></div>` : ''}
  <p>Each route sends the alerts its filters let through to one destination, beside the
    <a href="/account">notification preferences</a>. ${d.canEdit ? '' : 'Editors and above change routes.'}</p>
  ${
    d.routes.length
      ? html`<div class="table-scroll" role="region" aria-label="Alert routes" tabindex="0"><table data-routes>
    <thead><tr><th scope="col">Name</th><th scope="col">Destination</th><th scope="col">Filters</th><th scope="col">State</th><th scope="col">Changed</th>${d.canEdit ? html`<th scope="col">Actions</th>` : ''}</tr></thead>
    <tbody>${d.routes.map((r) => routeRow(r, d))}</tbody>
  </table></div>`
      : html`<p class="empty">No routes yet.</p>`
  }
  ${d.canEdit ? addForm(d) : ''}
  <p><a href="/team">Back to the team</a></p>`,
  };
}
