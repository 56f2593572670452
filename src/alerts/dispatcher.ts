import { newDeliveryId, receiverOf } from '../domain/deliveries.ts';
import { type AlertChannel, type ChannelAvailability, channelsFor, STORED_CHANNELS } from '../domain/alerts.ts';
import type { StoredEvent } from '../domain/events.ts';
import { emailProven, recipientOf } from './recipient.ts';
import { applyFloodCap, type FloodCap } from './flood-cap.ts';
import { gatherHeld, heldSummaryId, planFor } from './held-summaries.ts';
import { changeKind } from '../domain/alert-rules.ts';
import type { Impact } from '../domain/records.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';
import type { DispatchRepository } from '../store/repositories/dispatch-repository.ts';
import type { MaintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import type { OrganisationsRepository } from '../store/repositories/organisations-repository.ts';
import type { VendorsRepository } from '../store/repositories/vendors-repository.ts';
import { scanReminders } from './reminders.ts';
import type { EventsRepository } from '../store/repositories/events-repository.ts';
import type { PreferencesRepository, PreferencesState } from '../store/repositories/preferences-repository.ts';
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
}

const IMPACT_OF = (payload: unknown): Impact => {
  const v = (payload as { impact?: unknown })?.impact;
  return v === 'minor' || v === 'major' || v === 'critical' ? v : 'none';
};

async function preferencesOf(repo: PreferencesRepository, ids: string[]): Promise<Map<string, PreferencesState>> {
  const out = new Map<string, PreferencesState>();
  for (let i = 0; i < ids.length; i += USER_CHUNK) {
    for (const [k, v] of await repo.getMany(ids.slice(i, i + USER_CHUNK))) out.set(k, v);
  }
  return out;
}

/**
 * Delivery rows for a batch of events: a fixed number of queries per distinct
 * vendor. With a flood cap, rows beyond it are replaced by summary rows (no event).
 */
async function deliveriesFor(events: StoredEvent[], d: DispatcherDeps): Promise<NewDelivery[]> {
  const vendors = [...new Set(events.map((e) => e.vendor))];
  const watchers = await d.watchlist.watchers(vendors);
  const candidates = new Map<string, Set<string>>();
  for (const v of vendors) {
    const set = new Set(watchers.get(v) ?? []);
    // Users with a per-channel vendor list naming this vendor, watching it or not.
    for (const u of await d.preferences.orgsMentioningVendor(v)) set.add(u);
    candidates.set(v, set);
  }
  const allUsers = [...new Set([...candidates.values()].flatMap((s) => [...s]))];
  const prefs = await preferencesOf(d.preferences, allUsers);
  // An e-mail address not confirmed by link may still be the account's own (saved before confirmation existed).
  const unproven = [...prefs].filter(([, s]) => s.settings.email.enabled && !emailProven(s, null)).map(([id]) => id);
  const accountEmails = unproven.length ? await d.owners.ownerEmails(unproven) : new Map<string, string>();
  const now = d.clock.now().toISOString();
  const rows: NewDelivery[] = [];
  for (const e of events) {
    const watching = new Set(watchers.get(e.vendor) ?? []);
    const alertEvent = {
      type: e.type,
      vendor: e.vendor,
      impact: IMPACT_OF(e.payload),
      components: Array.isArray(e.payload.components) ? e.payload.components.map(String) : [],
      kind: changeKind(e.type, e.payload),
    };
    const payloadJson = JSON.stringify(e.payload);
    for (const orgId of candidates.get(e.vendor) ?? []) {
      const state = prefs.get(orgId);
      if (!state) continue;
      const channels: AlertChannel[] = channelsFor(alertEvent, recipientOf(state, watching.has(orgId), accountEmails.get(orgId) ?? null), d.available);
      for (const channel of channels) {
        const stored = (STORED_CHANNELS as readonly string[]).includes(channel);
        rows.push({
          id: newDeliveryId(),
          eventSeq: e.seq,
          orgId,
          channel,
          eventType: e.type,
          vendor: e.vendor,
          entityId: e.entityId,
          payloadJson,
          occurredAt: e.occurredAt,
          // In-app and feed items are stored, not sent: they are done when written.
          status: stored ? 'succeeded' : 'pending',
          nextAttemptAt: stored ? null : now,
          receiver: receiverOf(channel, state),
        });
      }
    }
  }
  // Digests and quiet hours first: what they gather is not sent now, so it does not use up the flood cap.
  const at = d.clock.now();
  const settingsOf = (orgId: string) => prefs.get(orgId)?.settings;
  const heldIds = new Set<string>();
  for (const r of rows) {
    const s = settingsOf(r.orgId);
    const plan = s ? planFor(r, s, at) : null;
    if (plan) heldIds.add(heldSummaryId(r.orgId, r.channel, plan.kind, plan.start));
  }
  const payloads = new Map(events.map((e) => [e.seq, e.payload as unknown as Record<string, unknown>]));
  const held = heldIds.size
    ? gatherHeld(rows, settingsOf, (r) => payloads.get(r.eventSeq!) ?? {}, await d.deliveries.getMany([...heldIds]), at)
    : { rows, summaries: [] };
  if (!d.floodCap) return [...held.rows, ...held.summaries];
  const capped = await applyFloodCap(held.rows, d.deliveries, d.floodCap, at);
  return [...capped.rows, ...capped.summaries, ...held.summaries];
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
    return scanReminders(
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
    );
  };

  const init = async () => {
    await d.dispatch.ensureCursor(DISPATCH_CURSOR, await d.events.latestSeq(), d.clock.now());
    initialised = true;
  };

  return {
    init,
    async runOnce() {
      if (!initialised) await init();
      let created = 0;
      for (;;) {
        const cursor = await d.dispatch.cursor(DISPATCH_CURSOR);
        const events = await d.events.after(cursor, batch);
        if (!events.length) return created + (await reminders());
        const rows = await deliveriesFor(events, d);
        const last = events[events.length - 1]!.seq;
        const committed = await d.dispatch.commitDispatch(DISPATCH_CURSOR, cursor, last, rows, d.clock.now());
        if (committed) created += rows.length;
        // Not committed: another dispatcher moved the cursor; read again from there.
        if (committed && events.length < batch) return created + (await reminders());
      }
    },
  };
}
