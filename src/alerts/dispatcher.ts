import { receiverOf } from '../domain/deliveries.ts';
import type { ChannelAvailability } from '../domain/alerts.ts';
import { candidatesByVendor, heldEvents, needAccountEmail, routeEvents } from '../domain/alert-routing.ts';
import { routeToRoutes } from '../domain/alert-routes.ts';
import type { AlertRoutesRepository } from '../store/repositories/alert-routes-repository.ts';
import type { ServicesRepository } from '../store/repositories/services-repository.ts';
import type { NamedWatchlistsRepository } from '../store/repositories/named-watchlists-repository.ts';
import type { StoredEvent } from '../domain/events.ts';
import { applyFloodCap, type FloodCap } from './flood-cap.ts';
import { gatherHeld, heldSummaryIds } from './held-summaries.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';
import type { DispatchRepository, Hold } from '../store/repositories/dispatch-repository.ts';
import type { MaintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import type { OrganisationsRepository } from '../store/repositories/organisations-repository.ts';
import type { VendorsRepository } from '../store/repositories/vendors-repository.ts';
import { scanReminders } from './reminders.ts';
import { scanOwnerReminders } from './owner-reminders.ts';
import { scanSignalAlerts } from './signal-alerts.ts';
import type { EarlyWarningRepository } from '../store/repositories/early-warning-repository.ts';
import { type AffectedServicesDeps, affectedServicesOf, type HitsOf } from './affected-services.ts';
import { payloadHits } from '../domain/alert-impact.ts';
import type { AlertRoute } from '../domain/alert-routes.ts';
import type { EventsRepository } from '../store/repositories/events-repository.ts';
import type { OpenedPreferences, PreferencesRepository } from '../store/repositories/preferences-repository.ts';
import type { WatchlistRepository } from '../store/repositories/watchlist-repository.ts';

// The dispatcher turns new events of the log into delivery rows. It reads from
// its cursor (stored in the database), picks recipients per event, and in one
// transaction inserts the rows and moves the cursor: a crash before the commit
// re-reads the same events, a crash after it has nothing left to do, and the
// unique (event, user, channel) index makes a repeat harmless either way.
//
// Sequence numbers follow commit order (docs/reliability.md, event order): once
// the dispatcher reads an event, every lower-numbered one is readable too and no
// transaction still open can commit below it. So the cursor simply moves to the
// last event read; no gap is ever waited for, and none is ever skipped.

const DISPATCH_CURSOR = 'alerts';
/** How often (by the dispatcher's clock) maintenance reminders are looked for. */
const REMINDER_SCAN_MS = 30_000;
/** How often (by the dispatcher's clock) early-warning transitions are looked for. */
const SIGNAL_SCAN_MS = 5_000;
const BATCH = 200;
const USER_CHUNK = 1_000;

export interface DispatcherDeps {
  events: EventsRepository;
  deliveries: DeliveriesRepository;
  dispatch: DispatchRepository;
  watchlist: WatchlistRepository;
  preferences: PreferencesRepository;
  owners: Pick<OrganisationsRepository, 'ownerEmails'>;
  /** Maintenance reminders are scanned for when given (src/alerts/reminders.ts). */
  maintenances?: Pick<MaintenancesRepository, 'startingBetween'>;
  vendors?: Pick<VendorsRepository, 'names'>;
  clock: { now(): Date };
  available: ChannelAvailability;
  /** Alerts per user and push channel per window; beyond it one summary (src/alerts/flood-cap.ts). */
  floodCap?: FloodCap;
  /** The organisations' alert routes (docs/alert-routes.md); none = preferences only. */
  routes?: Pick<AlertRoutesRepository, 'enabled'>;
  namedWatchlists?: Pick<NamedWatchlistsRepository, 'vendorsOfLists'>;
  /** The organisations' services: rows then say which ones an alert hits (docs/alert-routes.md "Affected services in alerts"). */
  affected?: AffectedServicesDeps & { services: Pick<ServicesRepository, 'criticalOwned'> };
  /** Owner routes, for the reminders of critical services (docs/alert-routes.md "Reminders for critical services"). */
  routesById?: Pick<AlertRoutesRepository, 'getMany'>;
  /**
   * Early-warning signals: their transitions alert the routes that list the kind, and a
   * vendor incident that confirmed a signal posts in the signal's thread (docs/alerts.md
   * "Early warning"). `confirmSignals` confirms with the log's new incidents before their
   * rows are written, so the thread is known when the first incident alert goes out.
   */
  earlyWarning?: Pick<EarlyWarningRepository, 'transitionsSince' | 'confirmedBy'>;
  confirmSignals?: () => Promise<unknown>;
  /** Told once per organisation when its alerts start being held (docs/alerts.md "Held alerts"). */
  log?: { warn(obj: unknown, msg: string): void };
}

async function preferencesOf(repo: PreferencesRepository, ids: string[]): Promise<OpenedPreferences> {
  const out: OpenedPreferences = { states: new Map(), unreadable: new Set() };
  for (let i = 0; i < ids.length; i += USER_CHUNK) {
    const part = await repo.openMany(ids.slice(i, i + USER_CHUNK));
    for (const [k, v] of part.states) out.states.set(k, v);
    for (const k of part.unreadable) out.unreadable.add(k);
  }
  return out;
}

/** What a batch of events makes: delivery rows, and the events held for organisations that do not open. */
interface Dispatched {
  rows: NewDelivery[];
  holds: Hold[];
}

/**
 * Delivery rows for a batch of events: a fixed number of queries per distinct
 * vendor; which rows, by the routing rules (src/domain/alert-routing.ts). With a
 * flood cap, rows beyond it are replaced by summary rows (no event).
 *
 * An organisation whose preferences or any enabled route this instance cannot open gets no
 * rows: the events that concern it are held instead (docs/alerts.md "Held alerts"). With
 * `only`, the batch is that organisation's held events, routed for it alone; null while it
 * still does not open.
 */
async function deliveriesFor(events: StoredEvent[], d: DispatcherDeps, only?: string): Promise<Dispatched | null> {
  const vendors = [...new Set(events.map((e) => e.vendor))];
  const watchers = await d.watchlist.watchers(vendors);
  const mentioning = new Map<string, string[]>();
  for (const v of vendors) mentioning.set(v, await d.preferences.orgsMentioningVendor(v));
  const everyone = candidatesByVendor(vendors, watchers, mentioning);
  const opened = await preferencesOf(d.preferences, [...new Set([...everyone.values()].flatMap((s) => [...s]))]);
  const enabled = d.routes ? await d.routes.enabled() : { routes: [], unreadable: [] };
  const closed = new Set([...opened.unreadable, ...enabled.unreadable.map((r) => r.orgId)]);
  if (only !== undefined && closed.has(only)) return null;
  const takes = (orgId: string) => (only === undefined ? !closed.has(orgId) : orgId === only);
  const holds =
    only === undefined ? heldEvents(events, everyone, [...enabled.routes, ...enabled.unreadable], closed).map(([orgId, event]) => ({ orgId, event })) : [];
  const candidates = new Map([...everyone].map(([v, orgs]) => [v, new Set([...orgs].filter(takes))]));
  const allUsers = [...new Set([...candidates.values()].flatMap((s) => [...s]))];
  const prefs = opened.states;
  const unproven = needAccountEmail(prefs);
  const accountEmails = unproven.length ? await d.owners.ownerEmails(unproven) : new Map<string, string>();
  const routes = enabled.routes.filter((r) => takes(r.orgId));
  // Once per (event, organisation), for every organisation a row may go to.
  const hitsOf = await affectedServicesOf(events, [...allUsers, ...routes.map((r) => r.orgId)], d.affected);
  const rows: NewDelivery[] = withHits(
    routeEvents({ events, candidates, watchers, states: prefs, accountEmails, available: d.available, now: d.clock.now() }),
    hitsOf,
  );
  // Digests and quiet hours first: what they gather is not sent now, so it does not use up the flood cap.
  const at = d.clock.now();
  const settingsOf = (orgId: string) => prefs.get(orgId)?.settings;
  const heldIds = heldSummaryIds(rows, settingsOf, at);
  const payloads = new Map(events.map((e) => [e.seq, e.payload as unknown as Record<string, unknown>]));
  const held = heldIds.length
    ? gatherHeld(rows, settingsOf, (r) => payloads.get(r.eventSeq!) ?? {}, await d.deliveries.getMany(heldIds), at)
    : { rows, summaries: [] };
  const routed = await routeRowsFor(events, watchers, routes, hitsOf, d);
  if (!d.floodCap) return { rows: await inSignalThreads([...held.rows, ...held.summaries, ...routed], events, d), holds };
  const capped = await applyFloodCap(held.rows, d.deliveries, d.floodCap, at);
  return { rows: await inSignalThreads([...capped.rows, ...capped.summaries, ...held.summaries, ...routed], events, d), holds };
}

/**
 * Rows of a vendor incident that confirmed one of the organisation's signals post in that
 * signal's thread (docs/alerts.md "Early warning"): one thread from the suspicion to the
 * vendor's resolution. Confirmation runs first, so the incident's first alert already knows.
 */
async function inSignalThreads(rows: NewDelivery[], events: StoredEvent[], d: DispatcherDeps): Promise<NewDelivery[]> {
  if (!d.earlyWarning) return rows;
  const incidents = events.filter((e) => e.entityKind === 'incident');
  if (!incidents.length) return rows;
  if (d.confirmSignals && incidents.some((e) => e.type === 'incident.created')) await d.confirmSignals();
  const threads = await d.earlyWarning.confirmedBy([...new Set(incidents.map((e) => e.entityId))]);
  if (!threads.size) return rows;
  for (const r of rows) {
    if (r.eventSeq === null) continue;
    const signalId = threads.get(`${r.orgId}\u0000${r.entityId}`);
    if (signalId) r.threadEntity = signalId;
  }
  return rows;
}

/**
 * Rows of the organisations' alert routes (src/domain/alert-routes.ts). Their quiet hours
 * delay each row; the preferences' digests, quiet-hours summaries and flood cap do not
 * apply to them (docs/alert-routes.md "Delivery").
 */
async function routeRowsFor(
  events: StoredEvent[],
  watchers: Map<string, string[]>,
  routes: AlertRoute[],
  hitsOf: HitsOf,
  d: DispatcherDeps,
): Promise<NewDelivery[]> {
  if (!routes.length) return [];
  const listIds = [...new Set(routes.map((r) => r.filters.watchlistId).filter((id): id is string => id !== null))];
  const lists = listIds.length && d.namedWatchlists ? await d.namedWatchlists.vendorsOfLists(listIds) : new Map<string, string[]>();
  const scope = {
    onWatchlist: (orgId: string, vendor: string) => watchers.get(vendor)?.includes(orgId) ?? false,
    onNamedWatchlist: (id: string, vendor: string) => lists.get(id)?.includes(vendor) ?? false,
  };
  return routeToRoutes({ events, routes, scope, available: d.available, now: d.clock.now(), hits: hitsOf });
}

/** The services each row's alert hits, stored with the row so every attempt sends the same. */
function withHits<R extends NewDelivery>(rows: R[], hitsOf: HitsOf): R[] {
  const json = new Map<string, string>();
  for (const r of rows) {
    if (r.eventSeq === null) continue;
    const key = `${r.eventSeq}\u0000${r.orgId}`;
    let j = json.get(key);
    if (j === undefined) {
      const hits = hitsOf(r.eventSeq, r.orgId);
      json.set(key, (j = hits ? JSON.stringify(payloadHits(hits)) : ''));
    }
    if (j) r.affectedServicesJson = j;
  }
  return rows;
}

export interface Dispatcher {
  /** Creates the cursor at the end of the log unless it exists (only new events alert). */
  init(): Promise<void>;
  /** Dispatches everything committed so far; returns the number of rows created. */
  runOnce(): Promise<number>;
}

export function createDispatcher(d: DispatcherDeps, o: { batch?: number } = {}): Dispatcher {
  const batch = o.batch ?? BATCH;
  let initialised = false;
  let lastScan = Number.NEGATIVE_INFINITY;
  // Reminders are looked for every REMINDER_SCAN_MS of the clock (each scan reads the
  // windows of the next 14 days), not on every dispatch.
  const reminders = async () => {
    const now = d.clock.now();
    if (!d.maintenances || now.getTime() - lastScan < REMINDER_SCAN_MS) return 0;
    lastScan = now.getTime();
    const owners =
      d.affected && d.routesById
        ? await scanOwnerReminders(
            {
              maintenances: d.maintenances,
              deliveries: d.deliveries,
              services: d.affected.services,
              routes: d.routesById,
              status: d.affected.status,
              vendors: d.vendors,
              available: d.available,
            },
            now,
          )
        : 0;
    return (
      owners +
      (await scanReminders(
        {
          maintenances: d.maintenances,
          deliveries: d.deliveries,
          preferences: d.preferences,
          watchlist: d.watchlist,
          owners: d.owners,
          vendors: d.vendors,
          available: d.available,
          receiverOf,
        },
        now,
      ))
    );
  };

  let lastSignalScan = Number.NEGATIVE_INFINITY;
  // Signal transitions are looked for every SIGNAL_SCAN_MS of the clock, not on every dispatch:
  // each scan reads the transitions of the lookback (src/alerts/signal-alerts.ts).
  const signalAlerts = () => {
    const now = d.clock.now().getTime();
    if (now - lastSignalScan < SIGNAL_SCAN_MS) return Promise.resolve(0);
    lastSignalScan = now;
    return d.earlyWarning && d.routes
      ? scanSignalAlerts(
          {
            earlyWarning: d.earlyWarning,
            routes: d.routes,
            watchlist: d.watchlist,
            namedWatchlists: d.namedWatchlists,
            services: d.affected?.services,
            status: d.affected?.status,
            vendors: d.vendors,
            deliveries: d.deliveries,
            available: d.available,
          },
          d.clock.now(),
        )
      : Promise.resolve(0);
  };
  const afterEvents = async () => (await reminders()) + (await signalAlerts());

  const init = async () => {
    await d.dispatch.ensureCursor(DISPATCH_CURSOR, await d.events.latestSeq(), d.clock.now());
    initialised = true;
  };

  /** Organisations whose alerts this dispatcher was told are held, so the operator is told once each. */
  const warned = new Set<string>();
  const heldWarning = (holds: Hold[]) => {
    for (const orgId of new Set(holds.map((h) => h.orgId))) {
      if (warned.has(orgId)) continue;
      warned.add(orgId);
      d.log?.warn(
        { orgId },
        'alerts of an organisation held: its notification preferences or an alert route are sealed with a key this instance does not have (restore it with SECRETS_KEY_PREVIOUS; docs/alerts.md "Held alerts")',
      );
    }
  };

  /** Routes the held events of every organisation that opens again, oldest first; the rows made. */
  const releaseHeld = async () => {
    let created = 0;
    for (const orgId of await d.dispatch.heldOrgs()) {
      for (;;) {
        const events = await d.dispatch.heldEvents(orgId, batch);
        if (!events.length) break;
        const out = await deliveriesFor(events, d, orgId);
        if (!out) break;
        const released = await d.dispatch.releaseHeld(
          orgId,
          events.map((e) => e.seq),
          out.rows,
          d.clock.now(),
        );
        // Not released: another dispatcher did it (or a summary closed); look again next run.
        if (!released) break;
        created += out.rows.length;
        warned.delete(orgId);
        if (events.length < batch) break;
      }
    }
    return created;
  };

  return {
    init,
    async runOnce() {
      if (!initialised) await init();
      // Held events first, so an organisation that opens again gets its alerts in log order.
      let created = await releaseHeld();
      for (;;) {
        const cursor = await d.dispatch.cursor(DISPATCH_CURSOR);
        const events = await d.events.after(cursor, batch);
        if (!events.length) return created + (await afterEvents());
        const { rows, holds } = (await deliveriesFor(events, d))!;
        if (holds.length) heldWarning(holds);
        const last = events[events.length - 1]!.seq;
        const committed = await d.dispatch.commitDispatch(DISPATCH_CURSOR, cursor, last, rows, d.clock.now(), holds);
        if (committed) created += rows.length;
        // Not committed: another dispatcher moved the cursor; read again from there.
        if (committed && events.length < batch) return created + (await afterEvents());
      }
    },
  };
}
