import type { Impact, Indicator } from '../../domain/records.ts';
import { html, type Html } from '../html.ts';

// Small presentational helpers shared by the pages. Indicators and impacts are
// always shown as text next to their colour, never by colour alone.

export const INDICATOR_LABEL: Record<Indicator, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Maintenance',
  unknown: 'Unknown',
};

/** Order for "worst first" lists. */
export const INDICATOR_RANK: Record<Indicator, number> = {
  major_outage: 5,
  partial_outage: 4,
  degraded: 3,
  maintenance: 2,
  unknown: 1,
  operational: 0,
};

export const IMPACT_LABEL: Record<Impact, string> = {
  none: 'No impact',
  minor: 'Minor',
  major: 'Major',
  critical: 'Critical',
};

const CATEGORY_LABEL: Record<string, string> = {
  cloud: 'Cloud',
  'cdn-edge': 'CDN & edge',
  devtools: 'Developer tools',
  productivity: 'Productivity',
  observability: 'Observability',
  communications: 'Communications',
  'business-apps': 'Business apps',
  consumer: 'Consumer',
  'ai-ml': 'AI & ML',
  payments: 'Payments',
  hosting: 'Hosting',
  database: 'Databases',
  security: 'Security',
};

export const categoryLabel = (c: string) => CATEGORY_LABEL[c] ?? c.replace(/-/g, ' ');

export const COMPONENT_LABEL: Record<string, string> = {
  operational: 'Operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
  unknown: 'Unknown',
};

export const humanize = (s: string) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/_/g, ' ');

export function indicatorBadge(indicator: Indicator): Html {
  return html`<span class="pill pill--${indicator}"><span class="pill__dot" aria-hidden="true"></span>${INDICATOR_LABEL[indicator]}</span>`;
}

/** A vendor without a machine-readable status source: grey, and says so (docs/web.md "Not monitored"). */
export function notMonitoredBadge(): Html {
  return html`<span class="pill pill--unknown" data-monitored="no"><span class="pill__dot" aria-hidden="true"></span>Not monitored</span>`;
}

export function impactBadge(impact: Impact): Html {
  return html`<span class="tag tag--impact-${impact}">${IMPACT_LABEL[impact]}</span>`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** e.g. "21 Nov 2025, 14:05 UTC" (the page does not guess the reader's zone). */
function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

export function formatDate(isoOrDate: string): string {
  const d = new Date(isoOrDate.length === 10 ? `${isoOrDate}T00:00:00Z` : isoOrDate);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export function formatDuration(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h < 48) return m ? `${h} h ${m} min` : `${h} h`;
  const days = Math.floor(h / 24);
  const rh = h % 24;
  return rh ? `${days} d ${rh} h` : `${days} d`;
}

function relative(iso: string, now: Date): string {
  const diff = now.getTime() - Date.parse(iso);
  if (Number.isNaN(diff)) return '';
  const future = diff < 0;
  const mins = Math.round(Math.abs(diff) / 60_000);
  let text: string;
  if (mins < 1) return 'just now';
  if (mins < 60) text = `${mins} min`;
  else if (mins < 48 * 60) text = `${Math.round(mins / 60)} h`;
  else text = `${Math.round(mins / 1440)} days`;
  return future ? `in ${text}` : `${text} ago`;
}

/** A <time> element with an absolute UTC date and, optionally, a relative hint. */
export function time(iso: string | null | undefined, now?: Date): Html {
  if (!iso) return html`<span>–</span>`;
  return html`<time datetime="${iso}" title="${formatDateTime(iso)}">${formatDateTime(iso)}</time>${now ? html` <span class="muted">(${relative(iso, now)})</span>` : ''}`;
}

/**
 * An answer's time to the minute: what a page shows of it, so that a live partial asked
 * again within the minute with nothing changed is the same bytes (and a 304, docs/web.md
 * "Live updates").
 */
export const toTheMinute = (iso: string): string => `${iso.slice(0, 16)}:00.000Z`;

export function percent(p: number | null): string {
  if (p === null) return '–';
  return `${p >= 99.995 && p < 100 ? p.toFixed(3) : p.toFixed(2)}%`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
