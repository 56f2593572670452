import { escapeText } from '../../domain/html-escape.ts';
import type { SourceType } from '../../domain/records.ts';
import {
  advisoryFeed,
  releaseFeed,
  renderAtom,
  renderCachetIncidents,
  renderGcpIncidents,
  renderHerokuCurrentStatus,
  renderIncidentioWidget,
  renderInstatusSummary,
  renderRss,
  renderSlackCurrent,
  renderSorryNotices,
  renderSorryPage,
  renderStatusio,
  renderStatuspageIncidents,
  renderStatuspageMaintenances,
  renderStatuspageSummary,
  renderTrustActiveIncidents,
  statuspageHistoryFeed,
} from './render/index.ts';
import type { Fleet, FleetVendor } from './fleet.ts';

// Which upstream format the simulator serves for each catalog source type, at which
// path, and the bodies themselves (written by the renderers in render/ and read back by
// the adapters, so the demo exercises the very parsers that read the real vendors).

/**
 * Formats without a renderer are served as the closest format the simulator speaks:
 * the vendor keeps its slug and data, only the wire format differs in demo mode.
 */
export const DEMO_TYPE: Record<SourceType, SourceType> = {
  'statuspage-v2': 'statuspage-v2',
  incidentio: 'incidentio',
  instatus: 'instatus',
  betterstack: 'statuspage-v2',
  checkly: 'statuspage-rss',
  'gcp-json': 'gcp-json',
  'aws-currentevents': 'statuspage-atom',
  'aws-rss': 'statuspage-rss',
  'azure-rss': 'azure-rss',
  'statuspage-rss': 'statuspage-rss',
  'statuspage-atom': 'statuspage-atom',
  statusio: 'statusio',
  'slack-status': 'slack-status',
  'heroku-status': 'heroku-status',
  'salesforce-trust': 'salesforce-trust',
  sorry: 'sorry',
  cachet: 'cachet',
  statuspal: 'statuspage-v2',
  hund: 'statuspage-v2',
  'statuspage-html': 'statuspage-v2',
  uptimerobot: 'statuspage-v2',
  cstate: 'statuspage-v2',
  site24x7: 'statuspage-v2',
  'stripe-status': 'statuspage-v2',
  'zendesk-status': 'statuspage-v2',
  'paypal-status': 'statuspage-v2',
  'algolia-status': 'statuspage-v2',
  'okta-status': 'statuspage-v2',
  statuscake: 'statuspage-v2',
  statushub: 'statuspage-v2',
  'fastly-status': 'statuspage-v2',
  'advisory-feed': 'advisory-feed',
  'release-feed': 'release-feed',
};

/** Path (below /<type>/<vendor>) that stands in for a catalog URL. */
export function demoPath(type: SourceType, url: string): string {
  const u = new URL(url);
  switch (type) {
    case 'betterstack':
    case 'statuspal':
    case 'hund':
    case 'statuspage-html':
    case 'uptimerobot':
    case 'cstate':
    case 'site24x7':
    case 'stripe-status':
    case 'zendesk-status':
    case 'paypal-status':
    case 'algolia-status':
    case 'okta-status':
    case 'statuscake':
    case 'statushub':
    case 'fastly-status':
      return '/api/v2/summary.json';
    case 'checkly':
    case 'aws-rss':
      return '/history.rss';
    case 'aws-currentevents':
      return '/history.atom';
    case 'incidentio':
      // incident.io pages serve their widget data at /proxy/<host>.
      return `/proxy/${u.host}`;
    default:
      return u.pathname || '/';
  }
}

export interface Rendered {
  body: string;
  contentType: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Records with links into the simulator's own pages (real vendor URLs would not know these ids). */
function linked(base: string, v: FleetVendor) {
  const link = (kind: string, id: string) => `${base}/pages/${v.slug}/${kind}/${id.slice(v.slug.length + 1)}`;
  return {
    incidents: v.incidents.map((i) => ({ ...i, url: link('incidents', i.id) })),
    maintenances: v.maintenances.map((m) => ({ ...m, url: link('incidents', m.id) })),
    advisories: v.advisories.map((a) => ({ ...a, url: link('advisories', a.id) })),
    updates: v.updates.map((u) => ({ ...u, url: link('updates', u.id) })),
  };
}

export function render(fleet: Fleet, base: string, type: string, slug: string, path: string): Rendered | null {
  const v = fleet.vendors.get(slug);
  if (!v) return null;
  const page = { id: `sim-${slug}`, name: v.name, url: `${base}/pages/${slug}`, updatedAt: v.changedAt };
  const rec = linked(base, v);
  const open = rec.incidents.filter((i) => i.status !== 'resolved');
  const pending = rec.maintenances.filter((m) => m.status !== 'completed');
  const components = fleet.components(slug);
  switch (type) {
    case 'statuspage-v2': {
      const p = path.replace(/\/+$/, '');
      const status = fleet.indicator(slug);
      if (p.endsWith('/summary.json')) {
        return { contentType: JSON_TYPE, body: renderStatuspageSummary({ page, status, components, incidents: open, maintenances: pending }) };
      }
      if (p.endsWith('/incidents/unresolved.json')) return { contentType: JSON_TYPE, body: renderStatuspageIncidents({ page, incidents: open, components }) };
      if (p.endsWith('/incidents.json')) return { contentType: JSON_TYPE, body: renderStatuspageIncidents({ page, incidents: rec.incidents, components }) };
      if (p.endsWith('/scheduled-maintenances/upcoming.json')) {
        return {
          contentType: JSON_TYPE,
          body: renderStatuspageMaintenances({ page, maintenances: pending.filter((m) => m.status === 'scheduled'), components }),
        };
      }
      if (p.endsWith('/scheduled-maintenances/active.json')) {
        return {
          contentType: JSON_TYPE,
          body: renderStatuspageMaintenances({ page, maintenances: pending.filter((m) => m.status !== 'scheduled'), components }),
        };
      }
      if (p.endsWith('/scheduled-maintenances.json')) {
        return { contentType: JSON_TYPE, body: renderStatuspageMaintenances({ page, maintenances: rec.maintenances, components }) };
      }
      return null;
    }
    case 'incidentio':
      return { contentType: JSON_TYPE, body: renderIncidentioWidget({ page, components, incidents: open, maintenances: pending }) };
    case 'instatus':
      return {
        contentType: JSON_TYPE,
        body: renderInstatusSummary({ page, indicator: fleet.indicator(slug).indicator, incidents: open, maintenances: pending }),
      };
    case 'gcp-json':
      return { contentType: JSON_TYPE, body: renderGcpIncidents(rec.incidents) };
    case 'statusio':
      return {
        contentType: JSON_TYPE,
        body: renderStatusio({ indicator: fleet.indicator(slug).indicator, updatedAt: v.changedAt, components, incidents: open, maintenances: pending }),
      };
    case 'slack-status':
      return { contentType: JSON_TYPE, body: renderSlackCurrent({ updatedAt: v.changedAt, incidents: open, pageUrl: page.url }) };
    case 'heroku-status':
      return { contentType: JSON_TYPE, body: renderHerokuCurrentStatus({ components, incidents: open }) };
    case 'salesforce-trust':
      return { contentType: JSON_TYPE, body: renderTrustActiveIncidents({ incidents: open }) };
    case 'sorry':
      if (!path.replace(/\/+$/, '').endsWith('/notices')) {
        const { indicator, description } = fleet.indicator(slug);
        return { contentType: JSON_TYPE, body: renderSorryPage({ name: v.name, url: page.url, indicator, description, updatedAt: v.changedAt }) };
      }
      return { contentType: JSON_TYPE, body: renderSorryNotices({ incidents: rec.incidents, maintenances: rec.maintenances }) };
    case 'cachet':
      return { contentType: JSON_TYPE, body: renderCachetIncidents({ incidents: rec.incidents }) };
    case 'azure-rss':
      // Azure's feed lists only the issues active right now, one item each.
      return {
        contentType: 'application/rss+xml; charset=utf-8',
        body: renderRss({
          title: `${v.name} status`,
          link: page.url,
          updated: v.changedAt,
          items: open.map((i) => ({
            id: i.id.slice(slug.length + 1),
            title: i.title,
            link: i.url,
            published: i.startedAt,
            updated: i.updatedAt,
            html: `<p>${escapeText(i.updates[0]?.body ?? i.title)}</p>`,
            categories: i.components,
          })),
        }),
      };
    case 'statuspage-rss':
      return { contentType: 'application/rss+xml; charset=utf-8', body: renderRss(statuspageHistoryFeed(page, rec.incidents, rec.maintenances)) };
    case 'statuspage-atom':
      return { contentType: 'application/atom+xml; charset=utf-8', body: renderAtom(statuspageHistoryFeed(page, rec.incidents, rec.maintenances)) };
    case 'advisory-feed':
      return {
        contentType: 'application/rss+xml; charset=utf-8',
        body: renderRss(advisoryFeed({ title: `${v.name} security advisories`, link: `${page.url}/advisories` }, rec.advisories)),
      };
    case 'release-feed':
      return {
        contentType: 'application/atom+xml; charset=utf-8',
        body: renderAtom(releaseFeed({ title: `${v.name} changelog`, link: `${page.url}/updates` }, rec.updates)),
      };
    default:
      return null;
  }
}
