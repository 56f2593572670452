import type { Indicator, Maintenance } from '../../domain/records.ts';
import { deriveIndicator } from '../../services/records/status-service.ts';
import { narrowOverview, type Overview, summarizeOverview, type VendorOverview } from '../../services/records/overview-service.ts';
import { reportsProblem } from '../../domain/state-summary.ts';
import { html, type Html } from '../html.ts';
import type { Page, PageContext } from '../layout.ts';
import { categoryLabel, formatDate, INDICATOR_LABEL, INDICATOR_RANK, indicatorBadge, notMonitoredBadge, plural, time, toTheMinute } from '../views/format.ts';
import { incidentArticle, maintenanceArticle } from '../views/records.ts';
import { impactList } from '../views/impact.ts';
import type { OurServicesNow } from '../../services/impact/impact-service.ts';

// The overview: what is down right now first, then every vendor as a card with
// search and category filter. The filter works without JavaScript (a GET form
// the server applies); with JavaScript it filters as you type. The live module
// refreshes the parts marked data-live-id when the event stream reports a change.

export interface OverviewFilter {
  q: string;
  category: string;
  problems: boolean;
  /**
   * `all`: the whole catalog. Otherwise a signed-in person with a watchlist sees their vendors
   * only (docs/web.md, "Your vendors first").
   */
  scope: 'watchlist' | 'all';
}

export function parseOverviewFilter(query: Record<string, unknown>): OverviewFilter {
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100) : '');
  const flag = (v: unknown) => v === '1' || v === 'on';
  return { q: str(query.q).trim(), category: str(query.category), problems: flag(query.problems), scope: query.scope === 'all' ? 'all' : 'watchlist' };
}

/** The vendors a page shows: the viewer's watchlist unless they asked for all, or have none. */
export function overviewScope(f: OverviewFilter, watchlist: ReadonlySet<string> | null): ReadonlySet<string> | null {
  return watchlist && watchlist.size > 0 && f.scope === 'watchlist' ? watchlist : null;
}

/** An incident open, or the status page itself reporting degradation (maintenance is not a problem). */
export const hasProblem = (v: VendorOverview) => reportsProblem(v.indicator, v.activeIncidents.length);

/** What the "needs attention" filter keeps: problems and maintenance in progress. */
const needsAttention = (v: VendorOverview) => hasProblem(v) || v.activeMaintenance.length > 0;

function matches(v: VendorOverview, f: OverviewFilter): boolean {
  if (f.category && v.category !== f.category) return false;
  if (f.problems && !needsAttention(v)) return false;
  if (f.q) {
    const needle = f.q.toLowerCase();
    if (!v.name.toLowerCase().includes(needle) && !v.vendor.includes(needle)) return false;
  }
  return true;
}

function summary(o: Overview): Html {
  const s = summarizeOverview(o.vendors);
  return html`<div class="summary summary--${s.tone}" data-live-id="summary">
    <p class="summary__headline">${s.headline}</p>
    <p class="summary__detail">${plural(o.activeIncidentCount, 'active incident')} · ${plural(o.activeMaintenanceCount, 'maintenance window')} in progress · updated ${time(toTheMinute(o.generatedAt))}</p>
  </div>`;
}

function problemsSection(o: Overview, ctx: PageContext): Html {
  const incidents = o.vendors
    .flatMap((v) => v.activeIncidents)
    .sort((a, b) => rankImpact(b.impact) - rankImpact(a.impact) || (a.startedAt < b.startedAt ? 1 : -1));
  const pageLevel = o.vendors.filter((v) => !v.activeIncidents.length && hasProblem(v) && v.indicator !== 'maintenance');
  return html`<section aria-labelledby="problems-title" class="panel" data-live-id="problems">
    <h2 id="problems-title">Active incidents <span class="count">${incidents.length}</span></h2>
    ${
      incidents.length || pageLevel.length
        ? html`${collapsedList(
            incidents.map((i) => incidentArticle(i, ctx.now, { headingLevel: 3, showVendor: true, collapsed: true })),
            'incidents',
          )}
      ${
        pageLevel.length
          ? html`<p>Reported on the status page without an incident: ${pageLevel.map(
              (v, k) => html`${k ? ', ' : ''}<a href="/vendors/${v.vendor}">${v.name}</a> (${INDICATOR_LABEL[v.indicator]})`,
            )}</p>`
          : ''
      }`
        : html`<p class="empty">No vendor reports an incident right now.</p>`
    }
  </section>`;
}

/** How many records a column of the overview shows before "Show more" (docs/web.md). */
const COLUMN_SHOWN = 5;

const bySchedule = (a: Maintenance, b: Maintenance) => Date.parse(a.scheduledFor) - Date.parse(b.scheduledFor) || (a.id < b.id ? -1 : 1);

/** The first few records, the rest folded behind "Show N more" (a native <details>: works without JavaScript). */
function collapsedList(items: Html[], what: string): Html {
  const shown = items.slice(0, COLUMN_SHOWN);
  const rest = items.slice(COLUMN_SHOWN);
  return html`<div class="record-list">${shown}</div>${
    rest.length
      ? html`<details class="show-more" data-show-more><summary>Show ${rest.length} more ${what}</summary><div class="record-list">${rest}</div></details>`
      : ''
  }`;
}

function maintenanceSection(o: Overview, ctx: PageContext): Html {
  // Soonest first: what starts (or started) next matters most.
  const active = o.vendors.flatMap((v) => v.activeMaintenance).sort(bySchedule);
  const upcoming = o.vendors.flatMap((v) => v.upcomingMaintenance).sort(bySchedule);
  const article = (m: Maintenance) => maintenanceArticle(m, ctx.now, { headingLevel: 4, showVendor: true, collapsed: true });
  return html`<section aria-labelledby="maintenance-title" class="panel" data-live-id="maintenance">
    <h2 id="maintenance-title">Maintenance</h2>
    ${active.length ? html`<h3 class="subhead">In progress <span class="count">${active.length}</span></h3>${collapsedList(active.map(article), 'in progress')}` : html`<p class="empty">No maintenance in progress.</p>`}
    ${upcoming.length ? html`<h3 class="subhead">Upcoming, soonest first <span class="count">${upcoming.length}</span></h3>${collapsedList(upcoming.map(article), 'upcoming')}` : ''}
  </section>`;
}

const rankImpact = (i: string) => ({ none: 0, minor: 1, major: 2, critical: 3 })[i] ?? 0;

/**
 * What the card shows: the status page's own indicator, unless an open incident
 * is worse (a page that still says "Operational" while it lists an incident), so
 * a card never reads "Operational" beside "1 active incident" (docs/web.md).
 */
function cardIndicator(v: VendorOverview): Indicator {
  if (!v.activeIncidents.length) return v.indicator;
  const fromIncidents = deriveIndicator(v.activeIncidents, false, true);
  return INDICATOR_RANK[fromIncidents] > INDICATOR_RANK[v.indicator] ? fromIncidents : v.indicator;
}

export function vendorCard(v: VendorOverview, hidden: boolean, watched: boolean): Html {
  const next = v.upcomingMaintenance[0];
  const indicator = cardIndicator(v);
  const note = v.activeIncidents.length
    ? plural(v.activeIncidents.length, 'active incident')
    : v.activeMaintenance.length
      ? 'Maintenance in progress'
      : v.description;
  return html`<li class="vendor-card vendor-card--${indicator}${v.sourceHealth.stale ? ' vendor-card--stale' : ''}${v.monitored ? '' : ' vendor-card--unmonitored'}" data-monitored="${v.monitored ? 'yes' : 'no'}" data-live-id="card-${v.vendor}" data-vendor="${v.vendor}" data-name="${v.name.toLowerCase()}" data-category="${v.category}" data-problem="${needsAttention(v) ? '1' : '0'}" data-watched="${watched ? '1' : '0'}"${hidden ? html` hidden` : ''}>
    <h3 class="vendor-card__name"><a href="/vendors/${v.vendor}">${v.name}</a>${watched ? html` <span class="watched-mark" title="On your watchlist">★<span class="visually-hidden"> (on your watchlist)</span></span>` : ''}</h3>
    ${v.monitored ? indicatorBadge(indicator) : notMonitoredBadge()}
    <p class="vendor-card__note">${note}</p>
    ${v.activeIncidents[0] ? html`<p class="vendor-card__incident">${v.activeIncidents[0].title}</p>` : ''}
    ${next && !v.activeMaintenance.length ? html`<p class="vendor-card__note muted">Maintenance ${formatDate(next.scheduledFor)}</p>` : ''}
    ${v.sourceHealth.stale ? html`<p class="vendor-card__note" data-source-health="stale">${v.sourceHealth.lastSuccessAt ? html`<span class="pill pill--unknown">Stale</span> not read since ${formatDate(v.sourceHealth.lastSuccessAt)}` : html`<span class="pill pill--unknown">Never read</span> every attempt failed`}</p>` : ''}
    <p class="vendor-card__category muted">${categoryLabel(v.category)}</p>
  </li>`;
}

function filterForm(o: Overview, f: OverviewFilter, signedIn: boolean): Html {
  return html`<form class="filters" method="get" action="/" role="search" data-filter-form>
    <div class="field">
      <label for="filter-q">Search vendors</label>
      <input id="filter-q" name="q" type="search" value="${f.q}" autocomplete="off" placeholder="e.g. GitHub">
    </div>
    <div class="field">
      <label for="filter-category">Category</label>
      <select id="filter-category" name="category">
        <option value="">All categories</option>
        ${o.categories.map((c) => html`<option value="${c}"${f.category === c ? html` selected` : ''}>${categoryLabel(c)}</option>`)}
      </select>
    </div>
    <div class="field field--check">
      <input id="filter-problems" name="problems" type="checkbox" value="1"${f.problems ? html` checked` : ''}>
      <label for="filter-problems">Only vendors with incidents or maintenance</label>
    </div>
    ${signedIn && f.scope === 'all' ? html`<input type="hidden" name="scope" value="all">` : ''}
    <button type="submit" class="button" data-filter-submit>Apply</button>
  </form>`;
}

/**
 * "Our services", first for a signed-in member (docs/web.md "Our services first"): the
 * organisation's services hit now and why, that none is, or that none is described yet.
 */
function ourServicesSection(ours: OurServicesNow): Html {
  const n = ours.serviceCount;
  return html`<section aria-labelledby="ours-title" class="panel" data-live-id="our-services" data-our-services-now>
    <h2 id="ours-title">Our services</h2>
    ${
      n === 0
        ? html`<p class="empty">No services described yet. <a href="/team/services">Describe your services</a> to see which vendor incidents hit them.</p>`
        : ours.services.length
          ? html`<p>${ours.services.length} of ${plural(n, 'service')} hit now:</p>${impactList(ours.services)}`
          : html`<p class="empty">None of your ${plural(n, 'service')} is hit by an open incident or a maintenance under way.</p>`
    }
    ${n ? html`<p><a href="/team/services">All services</a></p>` : ''}
  </section>`;
}

export function overviewMain(
  all: Overview,
  ctx: PageContext,
  f: OverviewFilter,
  watchlist: ReadonlySet<string> | null,
  ours: OurServicesNow | null = null,
): Html {
  const mine = overviewScope(f, watchlist);
  const o = mine ? narrowOverview(all, mine) : all;
  const sorted = [...o.vendors].sort((a, b) => INDICATOR_RANK[cardIndicator(b)] - INDICATOR_RANK[cardIndicator(a)] || a.name.localeCompare(b.name));
  const shown = sorted.filter((v) => matches(v, f)).length;
  return html`<h1 class="page-title">${mine ? 'Your vendors' : 'Vendor status'}</h1>
  ${ours ? ourServicesSection(ours) : ''}
  ${watchlist && watchlist.size > 0 ? scopeSwitch(mine !== null, watchlist.size, all.vendors.length) : ''}
  ${summary(o)}
  <p class="live-status" data-live-status role="status" aria-live="polite"></p>
  <div class="columns">
    ${problemsSection(o, ctx)}
    ${maintenanceSection(o, ctx)}
  </div>
  <section aria-labelledby="vendors-title" class="panel panel--plain">
    <h2 id="vendors-title">${mine ? 'Vendors on your watchlist' : 'All vendors'}</h2>
    ${filterForm(o, f, watchlist !== null)}
    <p class="filter-result" data-filter-result aria-live="polite">Showing ${shown} of ${o.vendors.length} vendors</p>
    <ul class="vendor-grid" data-vendor-grid>
      ${sorted.map((v) => vendorCard(v, !matches(v, f), watchlist?.has(v.vendor) ?? false))}
    </ul>
    <p class="empty" data-filter-empty${shown ? html` hidden` : ''}>No vendor matches the filter.</p>
  </section>`;
}

/** Your vendors or the whole catalog, one link away either way. */
function scopeSwitch(mine: boolean, watched: number, total: number): Html {
  return html`<nav class="scope-switch" aria-label="Which vendors">
    <a href="/"${mine ? html` aria-current="page"` : ''}>Your watchlist (${watched})</a>
    <a href="/?scope=all"${mine ? '' : html` aria-current="page"`}>All vendors (${total})</a>
  </nav>`;
}

export function overviewPage(
  o: Overview,
  ctx: PageContext,
  f: OverviewFilter,
  watchlist: ReadonlySet<string> | null,
  stream: boolean,
  ours: OurServicesNow | null = null,
): Page {
  return {
    title: 'Overview',
    main: overviewMain(o, ctx, f, watchlist, ours),
    scripts: ['js/overview.js'],
    mainAttrs: html` data-live-partial="/partials/overview${f.scope === 'all' ? '?scope=all' : ''}"${stream ? html` data-live-stream="/api/v1/infrastructure/incidents/stream"` : ''}`,
  };
}
