import type { PollSchedule } from '../../domain/poll-schedule.ts';
import { INTERNAL_AUDIENCE } from '../../domain/audience.ts';
import type { NewEvent, StoredEvent } from '../../domain/events.ts';
import type {
  AdvisoryRecord,
  ComponentRecord,
  Incident,
  IncidentRecord,
  Maintenance,
  MaintenanceRecord,
  SourceSnapshot,
  SourceType,
  UpdateRecord,
} from '../../domain/records.ts';
import { randomUUID } from 'node:crypto';
import { completedByAbsence } from '../../domain/maintenance-window.ts';
import { keepUnlistedComponents } from '../../domain/kept-components.ts';
import { cleanSnapshot } from '../../domain/upstream-text.ts';
import type { EventBus } from '../../infra/event-bus.ts';
import { decideIncident, decideMaintenance, resolvedByAbsence } from '../../domain/changes.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import type { Store } from '../../store/db.ts';
import type { Clock } from '../../domain/clock.ts';
import { repositoriesOn } from '../repositories.ts';
import { incidentView, withVendorName } from '../../domain/record-views.ts';

// Applies what one poll of one source returned: in ONE transaction it upserts the
// records that changed (one multi-row statement per kind of record), resolves incidents that a complete list no longer has,
// writes one event per change, updates page status/components and the source's
// health, and frees its lease. Events are published on the bus after the commit.

/** The source being applied, as claimed by the scheduler. */
export interface SourceRef {
  id: string;
  vendor: string;
  type: SourceType | string;
  /** The previous successful poll (before this one). */
  lastSuccessAt: string | null;
  etag: string | null;
  lastModified: string | null;
}

export interface PollMeta {
  /** The scheduler instance holding the lease. */
  owner: string;
  polledAt: Date;
  durationMs: number;
  nextPollAt: Date;
  etag?: string | null;
  lastModified?: string | null;
  /** The adaptive schedule the next poll was set with (docs/ingestion.md "Adaptive polling"). */
  schedule?: PollSchedule;
}

export interface ApplyCounts {
  incidents: number;
  maintenances: number;
  advisories: number;
  updates: number;
  components: boolean;
  status: boolean;
}

export interface ApplyOutcome {
  events: StoredEvent[];
  written: ApplyCounts;
}

/** Thrown inside the transaction when another instance took the lease meanwhile; nothing is written. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(sourceId: string) {
    super(`lease on ${sourceId} was lost before the result was stored`);
  }
}

/** NUL is legal in JSON strings but not in PostgreSQL text: a hostile page must not make its source unstorable. */
function clean<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replace(/\u0000/g, '') : value) as T;
  if (Array.isArray(value)) return value.map(clean) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clean(v);
    return out as T;
  }
  return value;
}

/** Records of this vendor by id, labelled with their source; first occurrence wins (lists are newest first). */
function byId<T extends { id: string; vendor: string; source: string }>(vendor: string, items: T[] | undefined, label: string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items ?? []) {
    if (item.vendor !== vendor || out.has(item.id)) continue;
    out.set(item.id, clean({ ...item, source: label }));
  }
  return out;
}

const sameComponents = (a: ComponentRecord[], b: ComponentRecord[]) =>
  a.length === b.length &&
  a.every((c, i) => {
    const d = b[i];
    return c.id === d.id && c.name === d.name && c.status === d.status && c.group === d.group && c.position === d.position;
  });

export interface IngestServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  /** Replaces every record's `source` (demo mode labels everything `demo`). */
  sourceLabel?: string;
  onPublishError?: (err: unknown) => void;
}

export function ingestService(d: IngestServiceDeps) {
  async function applySnapshot(source: SourceRef, snapshot: SourceSnapshot, meta: PollMeta): Promise<ApplyOutcome> {
    const at = meta.polledAt.toISOString();
    const label = d.sourceLabel ?? source.type;
    const since = source.lastSuccessAt;
    const written: ApplyCounts = { incidents: 0, maintenances: 0, advisories: 0, updates: 0, components: false, status: false };

    const events = await d.store.db.transaction().execute(async (trx) => {
      const r = repositoriesOn(trx);
      const pending: NewEvent[] = [];
      // The per-vendor lock returns the name the events' payloads carry (one statement, not two).
      const locked = await r.vendors.lockForIngestNamed(source.vendor);
      const held = await r.sources.completeSuccess(source.id, meta.owner, {
        at,
        etag: meta.etag ?? null,
        lastModified: meta.lastModified ?? null,
        durationMs: meta.durationMs,
        nextPollAt: meta.nextPollAt.toISOString(),
        schedule: meta.schedule,
      });
      if (!held) throw new LeaseLostError(source.id);
      const vendorName = locked?.name ?? source.vendor;

      const incidentOf = (i: IncidentRecord): Incident => incidentView(i, vendorName, meta.polledAt);
      const maintenanceOf = (m: MaintenanceRecord): Maintenance => withVendorName(m, vendorName);

      if (snapshot.incidents) {
        const incoming = byId(source.vendor, snapshot.incidents, label);
        const stored = await r.incidents.getMany([...incoming.keys()]);
        // Written together at the end of the section: one statement for the poll's changes.
        const writes: { record: IncidentRecord; fingerprint: string }[] = [];
        for (const next of incoming.values()) {
          const fp = fingerprint(next);
          const decision = decideIncident(stored.get(next.id), next, fp, since);
          if (!decision.write) continue;
          writes.push({ record: next, fingerprint: fp });
          if (decision.event) {
            pending.push({ type: decision.event, vendor: source.vendor, entityKind: 'incident', entityId: next.id, occurredAt: at, payload: incidentOf(next) });
          }
        }
        if (snapshot.incidentsAreCompleteUnresolvedSet) {
          for (const open of await r.incidents.openNotIn(source.vendor, label, [...incoming.keys()])) {
            const resolved = resolvedByAbsence(open, at);
            writes.push({ record: resolved, fingerprint: fingerprint(resolved) });
            pending.push({
              type: 'incident.resolved',
              vendor: source.vendor,
              entityKind: 'incident',
              entityId: open.id,
              occurredAt: at,
              payload: incidentOf(resolved),
            });
          }
        }
        await r.incidents.upsertMany(writes);
        written.incidents += writes.length;
      }

      if (snapshot.maintenances) {
        const incoming = byId(source.vendor, snapshot.maintenances, label);
        const stored = await r.maintenances.getMany([...incoming.keys()]);
        const writes: { record: MaintenanceRecord; fingerprint: string }[] = [];
        for (const next of incoming.values()) {
          const fp = fingerprint(next);
          const decision = decideMaintenance(stored.get(next.id), next, fp, since);
          if (!decision.write) continue;
          writes.push({ record: next, fingerprint: fp });
          if (decision.event) {
            pending.push({
              type: decision.event,
              vendor: source.vendor,
              entityKind: 'maintenance',
              entityId: next.id,
              occurredAt: at,
              payload: maintenanceOf(next),
            });
          }
        }
        if (snapshot.maintenancesAreCompleteOpenSet) {
          for (const open of await r.maintenances.openNotIn(source.vendor, label, [...incoming.keys()])) {
            const done = completedByAbsence(open, at);
            if (!done) continue;
            writes.push({ record: done, fingerprint: fingerprint(done) });
            pending.push({
              type: 'maintenance.completed',
              vendor: source.vendor,
              entityKind: 'maintenance',
              entityId: open.id,
              occurredAt: at,
              payload: maintenanceOf(done),
            });
          }
        }
        await r.maintenances.upsertMany(writes);
        written.maintenances += writes.length;
      }

      if (snapshot.advisories) {
        const incoming = byId<AdvisoryRecord>(source.vendor, snapshot.advisories, label);
        const stored = await r.publications.advisoryFingerprints([...incoming.keys()]);
        const writes: { record: AdvisoryRecord; fingerprint: string }[] = [];
        for (const a of incoming.values()) {
          const fp = fingerprint(a);
          if (stored.get(a.id) !== fp) writes.push({ record: a, fingerprint: fp });
        }
        await r.publications.upsertAdvisories(writes);
        written.advisories += writes.length;
      }

      if (snapshot.updates) {
        const incoming = byId<UpdateRecord>(source.vendor, snapshot.updates, label);
        const stored = await r.publications.updateFingerprints([...incoming.keys()]);
        const writes: { record: UpdateRecord; fingerprint: string }[] = [];
        for (const u of incoming.values()) {
          const fp = fingerprint(u);
          if (stored.get(u.id) !== fp) writes.push({ record: u, fingerprint: fp });
        }
        await r.publications.upsertUpdates(writes);
        written.updates += writes.length;
      }

      if (snapshot.components) {
        const current = await r.status.componentRecords(source.vendor);
        const polled = clean([...snapshot.components]).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
        const next = snapshot.componentsKeepUnlisted ? keepUnlistedComponents(current, polled) : polled;
        if (!sameComponents(current, next)) {
          await r.status.replaceComponents(source.vendor, next, at);
          written.components = true;
        }
      }

      if (snapshot.status) {
        const status = clean(snapshot.status);
        const current = (await r.status.statuses(INTERNAL_AUDIENCE, [source.vendor])).get(source.vendor);
        if (!current || current.indicator !== status.indicator || current.description !== status.description) {
          await r.status.setStatus(source.vendor, { ...status, checkedAt: at });
          written.status = true;
        }
      }

      // Last write of the transaction: appending locks the event head until the commit.
      return r.events.appendAll(trx, pending);
    });

    publish(events);
    return { events, written };
  }

  function publish(events: StoredEvent[]) {
    try {
      d.bus.publish(events);
    } catch (err) {
      d.onPublishError?.(err);
    }
  }

  return {
    applySnapshot,

    /**
     * Stores what was read outside a poll (the detection of a page a user named) as a poll of
     * the source at `url` would: under the source's lease, through `applySnapshot`, so the
     * records, events and health are the same and the next poll is due after `intervalSeconds`.
     * False when the source is missing or leased by a poller already (which reads it anyway).
     */
    async applyRead(vendor: string, url: string, read: (vendor: string) => SourceSnapshot, intervalSeconds: number): Promise<boolean> {
      const sources = repositoriesOn(d.store.db).sources;
      const row = (await sources.list(vendor)).find((s) => s.url === url);
      if (!row) return false;
      const now = d.clock.now();
      const owner = `read:${randomUUID()}`;
      const claimed = await sources.claimOne(row.id, { owner, now, leaseMs: 60_000, force: true });
      if (!claimed) return false;
      try {
        const snapshot = cleanSnapshot(read(vendor), now);
        const ref = { id: claimed.id, vendor, type: claimed.type, lastSuccessAt: claimed.lastSuccessAt, etag: null, lastModified: null };
        await applySnapshot(ref, snapshot, { owner, polledAt: now, durationMs: 0, nextPollAt: new Date(now.getTime() + intervalSeconds * 1000) });
        return true;
      } catch (err) {
        await sources.release(row.id, owner).catch(() => {});
        throw err;
      }
    },

    /** 304: the source confirmed its previous content. Returns false when the lease was lost. */
    async recordNotModified(source: SourceRef, meta: PollMeta): Promise<boolean> {
      return repositoriesOn(d.store.db).sources.completeSuccess(source.id, meta.owner, {
        at: meta.polledAt.toISOString(),
        etag: meta.etag ?? source.etag,
        lastModified: meta.lastModified ?? source.lastModified,
        durationMs: meta.durationMs,
        nextPollAt: meta.nextPollAt.toISOString(),
        schedule: meta.schedule,
      });
    },

    /** A failed poll: the previous snapshot stays, the error shows in sourceHealth. */
    async recordFailure(source: SourceRef, meta: PollMeta & { error: string }): Promise<boolean> {
      return repositoriesOn(d.store.db).sources.completeFailure(source.id, meta.owner, {
        at: meta.polledAt.toISOString(),
        error: meta.error,
        durationMs: meta.durationMs,
        nextPollAt: meta.nextPollAt.toISOString(),
      });
    },

    async release(source: SourceRef, owner: string): Promise<void> {
      await repositoriesOn(d.store.db).sources.release(source.id, owner);
    },
  };
}

export type IngestService = ReturnType<typeof ingestService>;
