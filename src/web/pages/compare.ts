import type { DataWindow } from '../../domain/time-window.ts';
import type { VendorStats } from '../../domain/stats.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { percentFloor, rowChart, UPTIME_TONE } from '../views/charts.ts';
import { formatDuration, percent } from '../views/format.ts';

// Comparison of several vendors (docs/web.md, "Charts"): the signed-in viewer's
// watchlist by default, or the vendors named in `?vendors=a,b`. Statistics
// follow the viewer's plan window like the API's vendor-stats-favorites.

const COMPARE_MAX = 25;

export interface CompareData {
  vendors: { slug: string; name: string; stats: VendorStats }[];
  dataWindow: DataWindow;
  /** Where the list came from. */
  source: 'watchlist' | 'query' | 'none';
  signedIn: boolean;
}

export function parseCompareVendors(query: Record<string, unknown>): string[] | null {
  const raw = query.vendors;
  if (typeof raw !== 'string' || !raw.trim()) return null;
  return [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, COMPARE_MAX);
}

function charts(d: CompareData): Html {
  const period = d.dataWindow.applied === 'all' ? 'all history' : `last ${d.dataWindow.applied.replace('d', ' days').replace('h', ' hours')}`;
  const from = percentFloor(d.vendors.map((v) => v.stats.uptimePercent));
  return html`${rowChart(
    {
      id: 'compare-uptime',
      title: `Uptime, ${period}`,
      description: `Uptime of each vendor over the observed part of the ${period}. The axis starts at ${from}%. A vendor observed for less than a quarter of the period has no dot (not enough data).`,
      labelHeader: 'Vendor',
      valueHeader: 'Uptime',
      data: d.vendors.map((v) => ({ label: v.name, value: v.stats.uptimePercent, text: percent(v.stats.uptimePercent), tone: UPTIME_TONE[v.stats.badge] })),
    },
    { percentFrom: from },
  )}
  ${rowChart({
    id: 'compare-incidents',
    title: `Incidents, ${period}`,
    description: `Number of incidents of each vendor in the ${period}, from zero.`,
    labelHeader: 'Vendor',
    valueHeader: 'Incidents',
    data: d.vendors.map((v) => ({ label: v.name, value: v.stats.incidentCount, text: String(v.stats.incidentCount) })),
  })}
  ${rowChart({
    id: 'compare-mttr',
    title: `Mean time to resolve, ${period}`,
    description: `Mean duration in hours of each vendor's resolved incidents in the ${period}, from zero. A vendor without a resolved incident has no bar.`,
    labelHeader: 'Vendor',
    valueHeader: 'Mean time to resolve',
    unit: 'h',
    data: d.vendors.map((v) => ({
      label: v.name,
      value: v.stats.mttrMinutes === null ? null : Math.round((v.stats.mttrMinutes / 60) * 10) / 10,
      text: formatDuration(v.stats.mttrMinutes),
      note: v.stats.mttrMinutes === null ? 'none resolved' : undefined,
    })),
  })}`;
}

export function comparePage(d: CompareData): Page {
  const intro =
    d.source === 'watchlist'
      ? html`<p>The vendors on your <a href="/account#watchlist">watchlist</a>, side by side.</p>`
      : d.source === 'query'
        ? html`<p>The vendors named in the address, side by side.${d.signedIn ? html` <a href="/compare">Compare your watchlist</a> instead.` : ''}</p>`
        : d.signedIn
          ? html`<p class="empty">Your watchlist is empty. <a href="/account#watchlist">Add vendors</a> to compare them here.</p>`
          : html`<p class="empty"><a href="/login?next=%2Fcompare">Log in</a> to compare the vendors on your watchlist, or name them in the address, e.g. <a href="/compare?vendors=github,cloudflare">/compare?vendors=github,cloudflare</a>.</p>`;
  const main = html`<h1 class="page-title">Compare vendors</h1>
  ${intro}
  ${
    d.vendors.length
      ? html`<section aria-labelledby="compare-title" class="panel"><h2 id="compare-title">${d.vendors.length} vendors</h2>${charts(d)}
    ${d.dataWindow.capped ? html`<p class="muted">Limited to your plan's window. <a href="/account#plan">See plans</a>.</p>` : ''}
    <ul class="result-list">${d.vendors.map((v) => html`<li><a href="/vendors/${v.slug}">${v.name}</a></li>`)}</ul></section>`
      : ''
  }`;
  return { title: 'Compare vendors', main, description: 'Uptime, incidents and time to resolve of several vendors side by side.' };
}
