import type { AlertEvent } from './alerts.ts';
import { atLeast, CHANGE_KINDS, componentsMatch } from './alert-rules.ts';
import { type DeliveryStatus, newDeliveryId } from './deliveries.ts';
import type { StoredEvent } from './events.ts';
import { webhookUrlProblem } from './outbound-url.ts';
import { isEmailAddress, OPSGENIE_REGIONS, type OpsgenieRegion, WEBHOOK_FORMATS, type WebhookFormat } from './preferences.ts';
import {
  DATADOG_SITES,
  type DatadogSite,
  isBearerToken,
  isDatadogKey,
  isOpsgenieKey,
  isRoutingKey,
  isSlackConversation,
  isTelegramChat,
  isTelegramToken,
  teamsUrlProblem,
  isDashboardUid,
  isServiceNowUser,
  isSecretText,
} from './channel-targets.ts';
import { type ComponentMapping, isPageObjectId, mappingProblems, type StatusPageProduct } from './status-page-push.ts';
import { quietUntil } from './quiet-hours.ts';
import { IMPACTS, type Impact } from './records.ts';
import { isTimeZone, parseClock } from './time-zones.ts';
import { alertEventOf, type RoutedDelivery } from './alert-routing.ts';
import { type AlertHit, payloadHits } from './alert-impact.ts';
import { nameProblem } from './team-services.ts';
import { EARLY_WARNING_KIND } from './signal-alerts.ts';

// Alert routes (docs/alert-routes.md): an organisation's destinations, any number per
// channel, each with filters of its own. These rules decide, with no I/O, whether an event
// goes to a route and how its delivery row starts; the dispatcher reads the routes and the
// watchlists and writes the rows.

export const ROUTE_CHANNELS = [
  'webhook',
  'pagerduty',
  'opsgenie',
  'jsm',
  'incident_io',
  'datadog',
  'slack',
  'teams',
  'google_chat',
  'mattermost',
  'telegram',
  'grafana',
  'servicenow',
  'firehydrant',
  'rootly',
  'statuspage',
  'instatus',
  'email',
] as const;
export type RouteChannel = (typeof ROUTE_CHANNELS)[number];

/**
 * Kinds a route can alert on: the kinds of change of vendors' records, and early-warning
 * signals (docs/alerts.md "Early warning"), which no route takes unless it lists them.
 */
export const ROUTE_KINDS = [...CHANGE_KINDS, EARLY_WARNING_KIND] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

/** Routes per organisation (each is read by every dispatch of its vendors). */
export const MAX_ROUTES = 50;
export const MAX_ROUTE_VENDORS = 500;
export const MAX_ROUTE_COMPONENTS = 100;
export const MAX_EMAIL_RECIPIENTS = 20;
export const MAX_ROUTE_SERVICES = 50;

export type RouteDestination =
  | { channel: 'webhook'; url: string; format: WebhookFormat; secret: string }
  | { channel: 'pagerduty'; routingKey: string }
  | { channel: 'opsgenie'; apiKey: string; region: OpsgenieRegion }
  | { channel: 'jsm'; apiKey: string }
  | { channel: 'incident_io'; url: string; token: string }
  | { channel: 'datadog'; site: DatadogSite; apiKey: string }
  | { channel: 'mattermost'; url: string }
  | { channel: 'telegram'; botToken: string; chatId: string }
  | { channel: 'grafana'; url: string; token: string; dashboardUid: string | null }
  | { channel: 'servicenow'; url: string; username: string; password: string }
  | { channel: 'firehydrant'; url: string }
  | { channel: 'rootly'; apiKey: string }
  | { channel: StatusPageProduct; pageId: string; apiKey: string; components: ComponentMapping[] }
  | { channel: 'slack'; conversation: string }
  | { channel: 'teams'; url: string }
  | { channel: 'google_chat'; url: string }
  | { channel: 'email'; to: string[] };

export interface QuietWindow {
  start: string;
  end: string;
  timezone: string;
}

/**
 * What a route lets through. Scope: `vendors` when set, else the named watchlist
 * `watchlistId`, else the organisation's own watchlist. Then kinds, minimum impact,
 * components; quiet hours delay chat and e-mail rows until they end.
 */
export interface RouteFilters {
  watchlistId: string | null;
  vendors: string[] | null;
  components: string[];
  minImpact: Impact;
  kinds: RouteKind[];
  /** Maintenance windows too (scheduled, started, completed), not only incidents. */
  maintenance: boolean;
  quietHours: QuietWindow | null;
  /** Only events that hit one of the organisation's services (docs/alert-routes.md "Routing by service"). */
  onlyAffectingServices: boolean;
  /** Only events that hit one of these services (by name); empty = no such condition. */
  services: string[];
}

export interface AlertRoute {
  id: string;
  orgId: string;
  name: string;
  enabled: boolean;
  destination: RouteDestination;
  filters: RouteFilters;
  /** Set when a delivery switched the route off because its destination is gone. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export const defaultRouteFilters = (): RouteFilters => ({
  watchlistId: null,
  vendors: null,
  components: [],
  minImpact: 'none',
  kinds: ['created', 'status_changed', 'resolved'],
  maintenance: true,
  quietHours: null,
  onlyAffectingServices: false,
  services: [],
});

/** Paging channels page for incidents and the maintenance window itself, never for a schedule. */
const PAGING_TYPES = new Set(['incident.created', 'incident.updated', 'incident.resolved', 'maintenance.started', 'maintenance.completed']);
/** Channels that open an alert and resolve it by key: they page, or feed an incident tool that does. */
const isPaging = (c: RouteChannel) => PAGING_CHANNELS.includes(c);
/**
 * Incident tools and status pages take incidents and maintenance windows, never schedules; a
 * resolve always passes, or an alert (or a page component) would stay open for good.
 */
const PAGING_CHANNELS: readonly RouteChannel[] = [
  'pagerduty',
  'opsgenie',
  'jsm',
  'incident_io',
  'datadog',
  'grafana',
  'servicenow',
  'firehydrant',
  'rootly',
  'statuspage',
  'instatus',
];
/** Channels read by people, whose rows quiet hours hold back. */
const QUIET: readonly RouteChannel[] = ['slack', 'teams', 'google_chat', 'mattermost', 'telegram', 'email'];

/** What scope reading needs: is the vendor on the organisation's watchlist, on a named one. */
export interface ScopeLookup {
  onWatchlist(orgId: string, vendor: string): boolean;
  onNamedWatchlist(watchlistId: string, vendor: string): boolean;
}

export function inRouteScope(route: AlertRoute, vendor: string, scope: ScopeLookup): boolean {
  const f = route.filters;
  if (f.vendors) return f.vendors.includes(vendor);
  if (f.watchlistId) return scope.onNamedWatchlist(f.watchlistId, vendor);
  return scope.onWatchlist(route.orgId, vendor);
}

/** Whether a service the route owns (its `ownerRouteId`) is among the hits. */
export const ownsHit = (route: AlertRoute, hits: readonly AlertHit[] | null): boolean => !!hits?.some((h) => h.ownerRouteId === route.id);

/**
 * The service filters (docs/alert-routes.md "Routing by service"): `onlyAffectingServices`
 * wants a hit, `services` a hit on one of those names. A hit on a service the route owns
 * passes both. `hits` null = the organisation has no services: nothing is hit.
 */
export function serviceFiltersAdmit(route: AlertRoute, hits: readonly AlertHit[] | null): boolean {
  const f = route.filters;
  if (!f.onlyAffectingServices && !f.services.length) return true;
  if (ownsHit(route, hits)) return true;
  if (!hits?.length) return false;
  return !f.services.length || hits.some((h) => f.services.includes(h.serviceName));
}

/**
 * Scope with the owner rule: a route is in scope for its vendors (or watchlist), and also
 * for any event hitting a service whose `ownerRouteId` is this route, whatever the vendor.
 */
export const inRouteScopeOrOwner = (route: AlertRoute, vendor: string, scope: ScopeLookup, hits: readonly AlertHit[] | null) =>
  inRouteScope(route, vendor, scope) || ownsHit(route, hits);

/** Whether an event in the route's scope passes its filters. */
export function routeAdmits(route: AlertRoute, event: AlertEvent): boolean {
  const f = route.filters;
  const channel = route.destination.channel;
  const maintenance = event.type.startsWith('maintenance.');
  // A status page route follows every incident and maintenance start or end of the vendors its
  // mapping names, whatever the kinds, impact and components filters say: the page shows every change.
  const d = route.destination;
  if (d.channel === 'statuspage' || d.channel === 'instatus') return PAGING_TYPES.has(event.type) && d.components.some((c) => c.vendor === event.vendor);
  if (maintenance && !f.maintenance) return false;
  if (isPaging(channel) && !PAGING_TYPES.has(event.type)) return false;
  // A page left open for a resolved incident is worse than a resolve nobody asked for.
  if (isPaging(channel) && (event.type === 'incident.resolved' || event.type === 'maintenance.completed')) return true;
  if (!f.kinds.includes(event.kind ?? 'updated')) return false;
  if (!maintenance && !atLeast(event.impact, f.minImpact)) return false;
  return componentsMatch(f.components, event.vendor, event.components);
}

/** A signal as a route reads it: its organisation, vendor and the components it names. */
export interface SignalForRoute {
  orgId: string;
  vendor: string;
  components: readonly string[];
  /** When it opened: a route made after that does not take its later transitions alone. */
  openedAt: string;
}

/**
 * Whether a route takes a signal's alerts (docs/alerts.md "Early warning"): switched on, its
 * channel available, `early_warning` among its kinds, the signal of its own organisation, in
 * its scope (or hitting a service it owns), through its service and component filters, and
 * made before the signal opened (so a route never gets an update of a signal it was not told of).
 */
export function routeTakesSignal(
  route: AlertRoute,
  signal: SignalForRoute,
  scope: ScopeLookup,
  hits: readonly AlertHit[] | null,
  available: { email: boolean; slack: boolean },
): boolean {
  const f = route.filters;
  if (!route.enabled || route.orgId !== signal.orgId || !f.kinds.includes(EARLY_WARNING_KIND)) return false;
  if ((route.destination.channel === 'email' && !available.email) || (route.destination.channel === 'slack' && !available.slack)) return false;
  if (route.createdAt > signal.openedAt) return false;
  if (!inRouteScopeOrOwner(route, signal.vendor, scope, hits) || !serviceFiltersAdmit(route, hits)) return false;
  return componentsMatch(f.components, signal.vendor, signal.components);
}

/**
 * Whether a route takes one transition of a signal it takes. A confirmation that comes after
 * the signal cleared (the vendor posted late) goes to chat, e-mail and webhooks, but not to a
 * paging channel: the clearing resolved its alert there, and the vendor's incident pages on
 * its own (docs/alerts.md "Early warning").
 */
export const routeTakesTransition = (route: AlertRoute, transition: { from: string | null; to: string }): boolean =>
  !(transition.from === 'cleared' && isPaging(route.destination.channel));

/**
 * Whether an owner route takes maintenance reminders of its critical services: switched on,
 * taking maintenance, its channel available, and not a paging channel (they never page for a
 * schedule) (docs/alert-routes.md "Reminders for critical services").
 */
export const takesOwnerReminders = (route: AlertRoute, available: { email: boolean; slack: boolean }) =>
  route.enabled &&
  route.filters.maintenance &&
  !isPaging(route.destination.channel) &&
  (route.destination.channel !== 'email' || available.email) &&
  (route.destination.channel !== 'slack' || available.slack);

/** How a route's row starts: due now, or held to the end of the route's quiet hours. */
export function routeRowStart(route: AlertRoute, now: Date): { status: DeliveryStatus; nextAttemptAt: string } {
  const q = route.filters.quietHours;
  const until = q && QUIET.includes(route.destination.channel) ? quietUntil(now, q.timezone, { enabled: true, start: q.start, end: q.end }) : null;
  return { status: 'pending', nextAttemptAt: (until ?? now).toISOString() };
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/** Fair-share key of a route's rows: the host of a URL destination, else the channel's service. */
export function routeReceiver(d: RouteDestination): string {
  if (d.channel === 'webhook' || d.channel === 'teams' || d.channel === 'google_chat' || d.channel === 'mattermost' || d.channel === 'incident_io')
    return hostOf(d.url) ?? d.channel;
  if (d.channel === 'grafana' || d.channel === 'servicenow' || d.channel === 'firehydrant') return hostOf(d.url) ?? d.channel;
  return d.channel;
}

/** One row per (event, route) the routes let through, in event order. */
export function routeToRoutes(
  input: {
    events: readonly StoredEvent[];
    routes: readonly AlertRoute[];
    scope: ScopeLookup;
    available: { email: boolean; slack: boolean };
    now: Date;
    /** The services an event hits in an organisation; null = it has no services (none given: nobody has). */
    hits?: (eventSeq: number, orgId: string) => AlertHit[] | null;
  },
  newId: () => string = newDeliveryId,
): RoutedDelivery[] {
  const rows: RoutedDelivery[] = [];
  const live = input.routes.filter(
    (r) => r.enabled && (r.destination.channel !== 'email' || input.available.email) && (r.destination.channel !== 'slack' || input.available.slack),
  );
  for (const e of input.events) {
    const event = alertEventOf(e);
    const payloadJson = JSON.stringify(e.payload);
    for (const route of live) {
      const hits = input.hits ? input.hits(e.seq, route.orgId) : null;
      if (!inRouteScopeOrOwner(route, e.vendor, input.scope, hits) || !routeAdmits(route, event) || !serviceFiltersAdmit(route, hits)) continue;
      rows.push({
        id: newId(),
        eventSeq: e.seq,
        orgId: route.orgId,
        channel: route.destination.channel,
        eventType: e.type,
        vendor: e.vendor,
        entityId: e.entityId,
        payloadJson,
        occurredAt: e.occurredAt,
        ...routeRowStart(route, input.now),
        receiver: routeReceiver(route.destination),
        routeId: route.id,
        ...(hits ? { affectedServicesJson: JSON.stringify(payloadHits(hits)) } : {}),
      });
    }
  }
  return rows;
}

export type Problem = { field: string; why: string };

/** Problems of a destination as given (formats and the outbound URL rules). */
export function destinationProblems(d: RouteDestination, allowPrivate: readonly string[]): Problem[] {
  const out: Problem[] = [];
  const url = (field: string, value: string) => {
    const why = webhookUrlProblem(value, allowPrivate);
    if (why) out.push({ field, why });
  };
  switch (d.channel) {
    case 'webhook':
      url('destination.url', d.url);
      if (!WEBHOOK_FORMATS.includes(d.format)) out.push({ field: 'destination.format', why: `must be one of ${WEBHOOK_FORMATS.join(', ')}` });
      break;
    case 'teams': {
      url('destination.url', d.url);
      const why = out.length ? null : teamsUrlProblem(d.url);
      if (why) out.push({ field: 'destination.url', why });
      break;
    }
    case 'google_chat':
      url('destination.url', d.url);
      break;
    case 'pagerduty':
      if (!isRoutingKey(d.routingKey)) out.push({ field: 'destination.routingKey', why: 'must be the 32-character Events API v2 integration key' });
      break;
    case 'opsgenie':
      if (!isOpsgenieKey(d.apiKey)) out.push({ field: 'destination.apiKey', why: 'must be the API integration key (a UUID)' });
      if (!OPSGENIE_REGIONS.includes(d.region)) out.push({ field: 'destination.region', why: `must be one of ${OPSGENIE_REGIONS.join(', ')}` });
      break;
    case 'jsm':
      if (!isOpsgenieKey(d.apiKey)) out.push({ field: 'destination.apiKey', why: 'must be the key of a JSM Operations "API" integration (a UUID)' });
      break;
    case 'incident_io':
      url('destination.url', d.url);
      if (!isBearerToken(d.token)) out.push({ field: 'destination.token', why: "must be the HTTP alert source's secret token (printable, no spaces)" });
      break;
    case 'datadog':
      if (!DATADOG_SITES.includes(d.site)) out.push({ field: 'destination.site', why: `must be one of ${DATADOG_SITES.join(', ')}` });
      if (!isDatadogKey(d.apiKey)) out.push({ field: 'destination.apiKey', why: 'must be a Datadog API key (32 hexadecimal characters)' });
      break;
    case 'mattermost':
      url('destination.url', d.url);
      break;
    case 'telegram':
      if (!isTelegramToken(d.botToken)) out.push({ field: 'destination.botToken', why: "must be the bot's token from BotFather (<id>:<secret>)" });
      if (!isTelegramChat(d.chatId)) out.push({ field: 'destination.chatId', why: 'must be a chat id (e.g. -1001234567890) or a public channel @username' });
      break;
    case 'grafana':
      url('destination.url', d.url);
      if (!isBearerToken(d.token)) out.push({ field: 'destination.token', why: 'must be a Grafana service account token (printable, no spaces)' });
      if (d.dashboardUid !== null && !isDashboardUid(d.dashboardUid))
        out.push({
          field: 'destination.dashboardUid',
          why: "must be a dashboard UID (up to 40 letters, digits, '-', '_') or null for an organisation annotation",
        });
      break;
    case 'servicenow':
      url('destination.url', d.url);
      if (!isServiceNowUser(d.username))
        out.push({ field: 'destination.username', why: 'must be the user name of an evt_mgmt_integration user (printable, no spaces or colons)' });
      if (!isSecretText(d.password)) out.push({ field: 'destination.password', why: 'must be 1 to 256 printable characters' });
      break;
    case 'firehydrant':
      url('destination.url', d.url);
      break;
    case 'rootly':
      if (!isBearerToken(d.apiKey)) out.push({ field: 'destination.apiKey', why: 'must be a Rootly API key (printable, no spaces)' });
      break;
    case 'statuspage':
    case 'instatus':
      if (!isPageObjectId(d.pageId)) out.push({ field: 'destination.pageId', why: "must be your page's id (letters, digits, '-', '_')" });
      if (!isBearerToken(d.apiKey)) out.push({ field: 'destination.apiKey', why: 'must be an API key of the page (printable, no spaces)' });
      out.push(...mappingProblems(d.components));
      break;
    case 'slack':
      if (!isSlackConversation(d.conversation)) out.push({ field: 'destination.conversation', why: 'must be a Slack channel id (C…, G…)' });
      break;
    case 'email': {
      if (!d.to.length) out.push({ field: 'destination.to', why: 'names at least one address' });
      if (d.to.length > MAX_EMAIL_RECIPIENTS) out.push({ field: 'destination.to', why: `names at most ${MAX_EMAIL_RECIPIENTS} addresses` });
      const bad = d.to.find((a) => !isEmailAddress(a));
      if (bad !== undefined) out.push({ field: 'destination.to', why: `'${bad.slice(0, 80)}' is not a valid e-mail address` });
      break;
    }
  }
  return out;
}

/** Problems of filters as given. */
export function filterProblems(f: RouteFilters): Problem[] {
  const out: Problem[] = [];
  if (f.vendors && f.vendors.length > MAX_ROUTE_VENDORS) out.push({ field: 'filters.vendors', why: `names at most ${MAX_ROUTE_VENDORS} vendors` });
  if (f.vendors && f.watchlistId)
    out.push({ field: 'filters.watchlistId', why: 'cannot be combined with filters.vendors: a route is scoped by one or the other' });
  if (f.components.length > MAX_ROUTE_COMPONENTS) out.push({ field: 'filters.components', why: `names at most ${MAX_ROUTE_COMPONENTS} components` });
  if (!IMPACTS.includes(f.minImpact)) out.push({ field: 'filters.minImpact', why: `must be one of ${IMPACTS.join(', ')}` });
  if (!f.kinds.length || f.kinds.some((k) => !ROUTE_KINDS.includes(k)))
    out.push({ field: 'filters.kinds', why: `must name kinds of ${ROUTE_KINDS.join(', ')}` });
  if (f.services.length > MAX_ROUTE_SERVICES) out.push({ field: 'filters.services', why: `names at most ${MAX_ROUTE_SERVICES} services` });
  const badService = f.services.find((n) => nameProblem(n) !== null);
  if (badService !== undefined) out.push({ field: 'filters.services', why: `'${badService.slice(0, 80)}' is not a service name: ${nameProblem(badService)}` });
  const q = f.quietHours;
  if (q) {
    for (const k of ['start', 'end'] as const)
      if (parseClock(q[k]) === null) out.push({ field: `filters.quietHours.${k}`, why: 'must be a local time HH:MM (24 h)' });
    if (!isTimeZone(q.timezone)) out.push({ field: 'filters.quietHours.timezone', why: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
  }
  return out;
}

/** `****` + the last four characters of a secret. */
const masked = (s: string) => `****${s.slice(-4)}`;

/**
 * The destination as answers and the audit log show it: URLs keep their host only
 * (their path is the secret of Teams, Google Chat and most webhooks), keys their last four.
 */
export function maskedDestination(d: RouteDestination): Record<string, unknown> {
  switch (d.channel) {
    case 'webhook':
      return { channel: d.channel, url: maskedUrl(d.url), format: d.format, secret: masked(d.secret) };
    case 'teams':
    case 'google_chat':
      return { channel: d.channel, url: maskedUrl(d.url) };
    case 'pagerduty':
      return { channel: d.channel, routingKey: masked(d.routingKey) };
    case 'opsgenie':
      return { channel: d.channel, apiKey: masked(d.apiKey), region: d.region };
    case 'jsm':
      return { channel: d.channel, apiKey: masked(d.apiKey) };
    case 'incident_io':
      return { channel: d.channel, url: maskedUrl(d.url), token: masked(d.token) };
    case 'datadog':
      return { channel: d.channel, site: d.site, apiKey: masked(d.apiKey) };
    case 'mattermost':
      return { channel: d.channel, url: maskedUrl(d.url) };
    case 'telegram':
      return { channel: d.channel, botToken: masked(d.botToken), chatId: d.chatId };
    case 'grafana':
      return { channel: d.channel, url: maskedUrl(d.url), token: masked(d.token), dashboardUid: d.dashboardUid };
    case 'servicenow':
      return { channel: d.channel, url: maskedUrl(d.url), username: d.username, password: masked(d.password) };
    case 'firehydrant':
      return { channel: d.channel, url: maskedUrl(d.url) };
    case 'rootly':
      return { channel: d.channel, apiKey: masked(d.apiKey) };
    case 'statuspage':
    case 'instatus':
      return { channel: d.channel, pageId: d.pageId, apiKey: masked(d.apiKey), components: d.components.map((c) => ({ ...c })) };
    case 'slack':
      return { channel: d.channel, conversation: d.conversation };
    case 'email':
      return { channel: d.channel, to: [...d.to] };
  }
}

function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/****`;
  } catch {
    return '****';
  }
}
