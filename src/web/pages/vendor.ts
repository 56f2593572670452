import type { Plan } from '../../domain/plans.ts';
import type { Advisory, ComplianceEntry, Incident, Maintenance, ReleaseUpdate, VendorStatus } from '../../domain/records.ts';
import { NOT_MONITORED_SENTENCE, notMonitoredWarning } from '../../domain/monitoring.ts';
import type { VendorStats } from '../../domain/stats.ts';
import type { UptimeDay } from '../../domain/uptime-days.ts';
import type { VendorProfile } from '../../services/vendors/catalog-service.ts';
import type { VendorTrends } from '../../services/records/trends-service.ts';
import { trendCharts } from '../views/trend-charts.ts';
import { transparencyPanel } from '../views/transparency.ts';
import type { VendorTransparency } from '../../domain/early-warning-transparency.ts';
import { html, type Html, safeUrl } from '../html.ts';
import type { Page, PageContext } from '../layout.ts';
import {
  categoryLabel,
  COMPONENT_LABEL,
  formatDate,
  formatDuration,
  humanize,
  IMPACT_LABEL,
  indicatorBadge,
  notMonitoredBadge,
  percent,
  plural,
  time,
} from '../views/format.ts';
import { advisoryArticle, externalLink, incidentArticle, maintenanceArticle, updateArticle } from '../views/records.ts';

export interface StatsColumn {
  period: string;
  /** null: beyond the viewer's plan window. */
  stats: VendorStats | null;
  requiredPlan: Plan | null;
}

export interface VendorPageData {
  profile: VendorProfile;
  status: VendorStatus;
  uptime: { days: UptimeDay[]; uptimePercent: number | null };
  trends: VendorTrends;
  /** The plan that shows a longer MTTR history than the viewer's, when there is one. */
  trendsLockedNote: string | null;
  /** Impacts and component names offered by the incident filter. */
  filter: { impacts: readonly string[]; components: string[] };
  stats: StatsColumn[];
  pastIncidents: { items: Incident[]; total: number; page: number; pageSize: number; window: string };
  maintenance: Maintenance[];
  advisories: Advisory[] | null;
  updates: ReleaseUpdate[] | null;
  compliance: { state: 'available'; items: ComplianceEntry[]; sourceUrl: string | null; message: string | null } | { state: 'locked' } | { state: 'none' };
  /** On the viewer's watchlist; null when nobody is signed in. */
  watched: boolean | null;
  /** A suspected early-warning signal of the viewer's organisation about the vendor; null for visitors and when there is none. */
  suspected: { confidence: number; openedAt: string } | null;
  /** The viewer's organisation's own transparency figures about the vendor; null for visitors. */
  transparency: VendorTransparency | null;
}

/**
 * The team's own suspicion, apart from the status banner and worded as ours: the vendor's
 * status stays as the vendor reports it (docs/early-warning.md "Outputs").
 */
function suspectedMarker(d: VendorPageData, ctx: PageContext): Html {
  if (!d.suspected) return html``;
  return html`<aside class="notice notice--warn early-warning" data-early-warning="suspected" aria-label="Early warning">
    <p><strong>Suspected</strong>: your team's own signals suggest a problem with ${d.profile.name} since ${time(d.suspected.openedAt, ctx.now)} (confidence ${Math.round(d.suspected.confidence * 100)}%). Not confirmed by ${d.profile.name}: the status above is what ${d.profile.name} reports.</p>
  </aside>`;
}

/** Source health in words: never polled, stale (failing past the threshold), failing, or fine. */
function sourceHealthNotice(s: VendorStatus): Html {
  const h = s.sourceHealth;
  if (!s.monitored) {
    // A state, not a promise: nothing will be read (docs/web.md "Not monitored").
    return html`<p class="notice" data-source-health="not-monitored">${NOT_MONITORED_SENTENCE}. This service cannot tell this vendor's status; see its own status page.</p>`;
  }
  if (!h.lastSuccessAt && !h.lastErrorAt) {
    return html`<p class="notice" data-source-health="never">This vendor's status page has not been read yet; there is no data to show.</p>`;
  }
  const failing = h.lastErrorAt && (!h.lastSuccessAt || h.lastErrorAt > h.lastSuccessAt);
  if (h.stale) {
    return html`<p class="notice notice--warn" data-source-health="stale">Stale: the vendor's status page has not been read successfully since ${h.lastSuccessAt ? time(h.lastSuccessAt) : 'we started watching'}; what you see may be out of date.</p>`;
  }
  if (failing) {
    return html`<p class="notice notice--warn" data-source-health="failing">The last read of the vendor's status page failed at ${time(h.lastErrorAt)}; retrying.</p>`;
  }
  return html`<p class="muted" data-source-health="ok">Source healthy: last read ${time(h.lastSuccessAt)}.</p>`;
}

function statusBanner(d: VendorPageData, ctx: PageContext): Html {
  const s = d.status;
  return html`<section class="status-banner status-banner--${s.indicator}${s.sourceHealth.stale ? ' status-banner--stale' : ''}" aria-labelledby="status-title" data-live-id="status">
    <h2 id="status-title" class="visually-hidden">Current status</h2>
    <p class="status-banner__indicator">${s.monitored ? indicatorBadge(s.indicator) : notMonitoredBadge()}</p>
    <p class="status-banner__description">${s.description}</p>
    ${s.sourceDescription && s.sourceDescription !== s.description ? html`<p class="muted status-banner__source">The page says: “${s.sourceDescription}”</p>` : ''}
    ${s.monitored ? html`<p class="muted">Last checked ${s.checkedAt ? time(s.checkedAt, ctx.now) : 'never'}</p>` : ''}
    ${sourceHealthNotice(s)}
  </section>`;
}

function activeSection(d: VendorPageData, ctx: PageContext): Html {
  const inc = d.status.activeIncidents;
  const mnt = d.status.activeMaintenance;
  return html`<section aria-labelledby="active-title" class="panel" data-live-id="active">
    <h2 id="active-title">Active incidents</h2>
    ${inc.length ? html`<div class="record-list">${inc.map((i) => incidentArticle(i, ctx.now, { headingLevel: 3 }))}</div>` : html`<p class="empty">No active incidents.</p>`}
    ${mnt.length ? html`<h2>Maintenance in progress</h2><div class="record-list">${mnt.map((m) => maintenanceArticle(m, ctx.now, { headingLevel: 3 }))}</div>` : ''}
  </section>`;
}

function componentsSection(d: VendorPageData): Html {
  const comps = d.status.components;
  if (!comps.length) {
    return html`<section aria-labelledby="components-title" class="panel" id="components">
    <h2 id="components-title">Components</h2><p class="empty">This vendor publishes no component list.</p></section>`;
  }
  const groups = new Map<string, typeof comps>();
  for (const c of comps) {
    const key = c.group ?? '';
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const notOk = comps.filter((c) => c.status !== 'operational').length;
  return html`<section aria-labelledby="components-title" class="panel" id="components" data-live-id="components">
    <h2 id="components-title">Components <span class="count">${comps.length}</span></h2>
    <p>${notOk ? `${plural(notOk, 'component')} not operational.` : d.status.sourceHealth.stale ? 'All components operational when last read.' : 'All components operational.'}</p>
    ${[...groups.entries()].map(
      ([group, list]) => html`<table class="components">
      ${group ? html`<caption>${group}</caption>` : html`<caption class="visually-hidden">Components</caption>`}
      <thead class="visually-hidden"><tr><th scope="col">Component</th><th scope="col">Status</th></tr></thead>
      <tbody>${list.map(
        (c) => html`<tr><th scope="row">${c.name}</th><td><span class="comp comp--${c.status}">${COMPONENT_LABEL[c.status] ?? c.status}</span></td></tr>`,
      )}</tbody>
    </table>`,
    )}
  </section>`;
}

function uptimeSection(d: VendorPageData): Html {
  const days = d.uptime.days;
  const bad = days.filter((x) => x.worst && x.worst !== 'none');
  // A day we did not observe is "no data" (grey) unless a known incident colours it.
  const cls = (x: UptimeDay) => (x.worst !== null && x.worst !== 'none' ? x.worst : x.uptimePercent === null ? 'nodata' : 'ok');
  const dayText = (x: UptimeDay) => (x.uptimePercent === null ? 'no data' : percent(x.uptimePercent));
  return html`<section aria-labelledby="uptime-title" class="panel" id="uptime" data-live-id="uptime">
    <h2 id="uptime-title">Uptime, last ${days.length} days</h2>
    <p class="uptime__figure">${d.uptime.uptimePercent === null ? (d.status.monitored ? html`<strong>Not enough data</strong>: this vendor was observed for less than a quarter of this period` : html`<strong>Not monitored</strong>: no machine-readable status source`) : html`<strong>${percent(d.uptime.uptimePercent)}</strong> uptime`} · ${plural(bad.length, 'day')} with incidents</p>
    <ol class="uptime-bar" aria-label="Daily uptime, oldest first">
      ${days.map(
        (x) =>
          html`<li class="uptime-bar__day uptime-bar__day--${cls(x)}" title="${formatDate(x.date)}: ${dayText(x)}${x.incidentCount ? `, ${plural(x.incidentCount, 'incident')}` : ''}"><span class="visually-hidden">${formatDate(x.date)}: ${dayText(x)}${x.worst && x.worst !== 'none' ? `, worst impact ${IMPACT_LABEL[x.worst]}` : ''}</span></li>`,
      )}
    </ol>
    <p class="uptime-bar__axis muted" aria-hidden="true"><span>${days[0] ? formatDate(days[0].date) : ''}</span><span>Today</span></p>
    <p class="legend muted"><span class="legend__swatch legend__swatch--ok"></span> No incident <span class="legend__swatch legend__swatch--minor"></span> Minor <span class="legend__swatch legend__swatch--major"></span> Major <span class="legend__swatch legend__swatch--critical"></span> Critical <span class="legend__swatch legend__swatch--nodata"></span> No data (not observed). Major and critical minutes count as down, minor as half.</p>
  </section>`;
}

function statsSection(d: VendorPageData): Html {
  const cols = d.stats;
  const cell = (c: StatsColumn, f: (s: VendorStats) => Html | string) =>
    c.stats
      ? html`<td>${f(c.stats)}</td>`
      : html`<td class="locked">${c.requiredPlan ? html`<a href="/account#plan">${humanize(c.requiredPlan)} plan</a>` : '–'}</td>`;
  return html`<section aria-labelledby="stats-title" class="panel" id="statistics">
    <h2 id="stats-title">Statistics</h2>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="stats-title">
    <table class="stats">
      <thead><tr><th scope="col">Metric</th>${cols.map((c) => html`<th scope="col">Last ${c.period.replace('d', ' days')}</th>`)}</tr></thead>
      <tbody>
        <tr><th scope="row">Incidents</th>${cols.map((c) => cell(c, (s) => String(s.incidentCount)))}</tr>
        <tr><th scope="row">Major or critical</th>${cols.map((c) => cell(c, (s) => String(s.byImpact.major + s.byImpact.critical)))}</tr>
        <tr><th scope="row">Uptime</th>${cols.map((c) => cell(c, (s) => (s.uptimePercent === null ? 'not enough data' : percent(s.uptimePercent))))}</tr>
        <tr><th scope="row">Mean time to resolve</th>${cols.map((c) => cell(c, (s) => formatDuration(s.mttrMinutes)))}</tr>
        <tr><th scope="row">Longest incident</th>${cols.map((c) => cell(c, (s) => formatDuration(s.longestIncidentMinutes)))}</tr>
        <tr><th scope="row">Maintenance windows</th>${cols.map((c) => cell(c, (s) => String(s.maintenanceCount)))}</tr>
        <tr><th scope="row">Rating</th>${cols.map((c) => cell(c, (s) => html`<span class="badge badge--${s.badge}">${s.badge === 'unknown' ? 'Not enough data' : humanize(s.badge)}</span>`))}</tr>
      </tbody>
    </table>
    </div>
    ${cols.some((c) => !c.stats) ? html`<p class="muted">Longer windows are part of higher plans.</p>` : ''}
  </section>`;
}

function pastSection(d: VendorPageData, ctx: PageContext): Html {
  const p = d.pastIncidents;
  const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
  const base = `/vendors/${d.profile.id}`;
  return html`<section aria-labelledby="past-title" class="panel" id="history" data-live-id="history">
    <h2 id="past-title">Past incidents <span class="count">${p.total}</span></h2>
    <p class="muted">Resolved incidents ${p.window === 'all' ? 'on record' : `of the last ${p.window.replace('d', ' days').replace('h', ' hours')}`}.</p>
    ${incidentFilter(d)}
    ${p.items.length ? html`<div class="record-list">${p.items.map((i) => incidentArticle(i, ctx.now, { headingLevel: 3, collapsed: true }))}</div>` : html`<p class="empty">No resolved incidents in this window.</p>`}
    ${
      pages > 1
        ? html`<nav class="pager" aria-label="Past incidents pages">
      ${p.page > 1 ? html`<a href="${base}?page=${p.page - 1}#history" rel="prev">Newer</a>` : ''}
      <span>Page ${p.page} of ${pages}</span>
      ${p.page < pages ? html`<a href="${base}?page=${p.page + 1}#history" rel="next">Older</a>` : ''}
    </nav>`
        : ''
    }
  </section>`;
}

/** Impact and component filters: a GET form to the search page, scoped to this vendor (works without JavaScript). */
function incidentFilter(d: VendorPageData): Html {
  return html`<form class="filters filters--inline" method="get" action="/search" aria-label="Filter ${d.profile.name} incidents">
    <input type="hidden" name="vendor" value="${d.profile.id}">
    <div class="field">
      <label for="past-impact">Impact</label>
      <select id="past-impact" name="impact"><option value="">Any impact</option>${d.filter.impacts.map((i) => html`<option value="${i}">${IMPACT_LABEL[i as keyof typeof IMPACT_LABEL] ?? i}</option>`)}</select>
    </div>
    ${
      d.filter.components.length
        ? html`<div class="field">
      <label for="past-component">Component</label>
      <select id="past-component" name="component"><option value="">Any component</option>${d.filter.components.map((c) => html`<option value="${c}">${c}</option>`)}</select>
    </div>`
        : ''
    }
    <button type="submit" class="button button--secondary">Filter incidents</button>
  </form>`;
}

function maintenanceSection(d: VendorPageData, ctx: PageContext): Html {
  const upcoming = d.maintenance.filter((m) => m.status !== 'completed').sort((a, b) => (a.scheduledFor < b.scheduledFor ? -1 : 1));
  const done = d.maintenance.filter((m) => m.status === 'completed');
  return html`<section aria-labelledby="maint-title" class="panel" id="maintenance" data-live-id="maintenance">
    <h2 id="maint-title">Maintenance</h2>
    ${upcoming.length ? html`<h3 class="subhead">Scheduled and in progress</h3><div class="record-list">${upcoming.map((m) => maintenanceArticle(m, ctx.now, { headingLevel: 4 }))}</div>` : html`<p class="empty">No maintenance scheduled.</p>`}
    ${done.length ? html`<h3 class="subhead">Completed</h3><div class="record-list">${done.map((m) => maintenanceArticle(m, ctx.now, { headingLevel: 4, collapsed: true }))}</div>` : ''}
  </section>`;
}

function publications(d: VendorPageData, ctx: PageContext): Html {
  return html`${
    d.advisories
      ? html`<section aria-labelledby="adv-title" class="panel" id="advisories">
    <h2 id="adv-title">Security advisories</h2>
    ${d.advisories.length ? html`<div class="record-list">${d.advisories.map((a) => advisoryArticle(a, ctx.now))}</div>` : html`<p class="empty">No advisories in this window.</p>`}
  </section>`
      : ''
  }${
    d.updates
      ? html`<section aria-labelledby="upd-title" class="panel" id="updates">
    <h2 id="upd-title">Release notes</h2>
    ${d.updates.length ? html`<div class="record-list">${d.updates.map((u) => updateArticle(u, ctx.now))}</div>` : html`<p class="empty">No release notes in this window.</p>`}
  </section>`
      : ''
  }`;
}

function complianceSection(d: VendorPageData): Html {
  const c = d.compliance;
  if (c.state === 'none') return html``;
  return html`<section aria-labelledby="compliance-title" class="panel" id="compliance">
    <h2 id="compliance-title">Compliance</h2>
    ${
      c.state === 'locked'
        ? html`<p class="notice">Compliance certifications are available on the Standard plan and above. ${plansLink()}</p>`
        : c.items.length
          ? html`<ul class="compliance">${c.items.map(
              (i) =>
                html`<li><strong>${i.name}</strong> <span class="tag">${i.category}</span>${i.description ? html`<br><span class="muted">${i.description}</span>` : ''}${i.compliancePageLink ? html` ${externalLink(i.compliancePageLink, 'details')}` : ''}</li>`,
            )}</ul>
          ${c.sourceUrl ? html`<p>${externalLink(c.sourceUrl, 'Vendor trust page')}</p>` : ''}`
          : html`<p class="empty">${c.message ?? 'No certifications recorded.'}</p>`
    }
  </section>`;
}

const plansLink = () => html`<a href="/account#plan">See plans</a>`;

export function vendorMain(d: VendorPageData, ctx: PageContext): Html {
  const v = d.profile;
  const website = safeUrl(v.website);
  return html`<nav aria-label="Breadcrumb" class="breadcrumb"><ol><li><a href="/">All vendors</a></li><li><span aria-current="page">${v.name}</span></li></ol></nav>
  <header class="vendor-header">
    <h1 class="page-title">${v.name}</h1>
    <p class="muted">${categoryLabel(v.category)}${v.description ? html` · ${v.description}` : ''}</p>
    ${
      d.watched === null
        ? html`<p class="muted"><a href="/login?next=${encodeURIComponent(`/vendors/${v.id}`)}">Log in</a> to add ${v.name} to your watchlist and get alerts.</p>`
        : html`<p><button type="button" class="button button--secondary watch-toggle" data-watch-toggle="${v.id}" data-watched="${d.watched ? '1' : '0'}">${d.watched ? 'Remove from watchlist' : 'Add to watchlist'}</button> <span data-watch-status role="status"></span></p>${
            d.status.monitored ? '' : html`<p class="notice notice--warn" data-watch-warning>${notMonitoredWarning(v.name)}</p>`
          }`
    }
    <p class="vendor-header__links">${website ? html`<a href="${website}" rel="noopener noreferrer external" target="_blank">Website<span class="visually-hidden"> (opens in a new tab)</span></a>` : ''} ${externalLink(v.statusPageUrl, 'Official status page')} <a href="/api/v1/infrastructure/vendor-status/${v.id}">Status as JSON</a></p>
  </header>
  <nav class="section-nav" aria-label="On this page"><ul>
    <li><a href="#uptime">Uptime</a></li><li><a href="#statistics">Statistics</a></li>${d.transparency ? html`<li><a href="#transparency">Early warning</a></li>` : ''}<li><a href="#trends">Trends</a></li><li><a href="#components">Components</a></li><li><a href="#history">Past incidents</a></li><li><a href="#maintenance">Maintenance</a></li>${d.advisories ? html`<li><a href="#advisories">Advisories</a></li>` : ''}${d.updates ? html`<li><a href="#updates">Release notes</a></li>` : ''}${d.compliance.state !== 'none' ? html`<li><a href="#compliance">Compliance</a></li>` : ''}
  </ul></nav>
  <p class="live-status" data-live-status role="status" aria-live="polite"></p>
  ${statusBanner(d, ctx)}
  ${suspectedMarker(d, ctx)}
  ${activeSection(d, ctx)}
  ${uptimeSection(d)}
  ${statsSection(d)}
  ${d.transparency ? transparencyPanel(v.name, d.transparency) : ''}
  ${trendCharts(v.name, d.trends, d.trendsLockedNote)}
  ${componentsSection(d)}
  ${pastSection(d, ctx)}
  ${maintenanceSection(d, ctx)}
  ${publications(d, ctx)}
  ${complianceSection(d)}`;
}

export function vendorPage(d: VendorPageData, ctx: PageContext, stream: boolean): Page {
  return {
    title: `${d.profile.name} status`,
    description: `${d.profile.name}: current status, incidents, maintenance and uptime.`,
    main: vendorMain(d, ctx),
    scripts: d.watched === null ? ['js/live.js'] : ['js/live.js', 'js/watch.js'],
    mainAttrs: html` data-live-partial="/partials/vendors/${d.profile.id}${d.pastIncidents.page > 1 ? `?page=${d.pastIncidents.page}` : ''}"${stream ? html` data-live-stream="/api/v1/infrastructure/incidents/stream?vendor=${d.profile.id}"` : ''}`,
  };
}
