import type { Kysely } from 'kysely';
import type { IncidentRecord, IncidentStatus, Impact, RecordUpdate } from '../../domain/records.ts';
import type { Audience } from '../../domain/audience.ts';
import { visibleTo } from './visibility.ts';
import { openNotIn } from './open-not-in.ts';
import type { Database, IncidentsTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { type Page, paginate } from './paging.ts';
import { firstPerVendor } from './per-vendor.ts';
import { upsertRows } from './upsert-rows.ts';

export interface IncidentFilter {
  /** Who reads (docs/per-user.md "Custom status pages"). */
  audience: Audience;
  vendors?: string[];
  status?: IncidentStatus;
  activeOnly?: boolean;
  /** Incidents that started at or after this instant, or are still ongoing. */
  since?: string;
}

export const toIncident = (r: IncidentsTable): IncidentRecord => ({
  id: r.id,
  vendor: r.vendor,
  title: r.title,
  status: r.status as IncidentStatus,
  sourceStatus: r.source_status,
  impact: r.impact as Impact,
  startedAt: r.started_at,
  updatedAt: r.updated_at,
  resolvedAt: r.resolved_at,
  components: fromJson<string[]>(r.components, []),
  updates: fromJson<RecordUpdate[]>(r.updates, []),
  url: r.url,
  source: r.source,
});

const incidentRow = (i: IncidentRecord, fingerprint: string): IncidentsTable => ({
  id: i.id,
  vendor: i.vendor,
  title: i.title,
  status: i.status,
  source_status: i.sourceStatus,
  impact: i.impact,
  started_at: i.startedAt,
  updated_at: i.updatedAt,
  resolved_at: i.resolvedAt,
  components: toJson(i.components),
  updates: toJson(i.updates),
  url: i.url,
  source: i.source,
  fingerprint,
});

/** The columns statistics need (domain/stats.ts). */
export type IncidentTiming = Pick<IncidentRecord, 'vendor' | 'impact' | 'startedAt' | 'resolvedAt'>;

export function incidentsRepository(db: Kysely<Database>) {
  const filtered = (f: IncidentFilter) => {
    let q = visibleTo(db, db.selectFrom('incidents'), f.audience);
    if (f.vendors?.length) q = q.where('vendor', 'in', f.vendors);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.activeOnly) q = q.where('status', '!=', 'resolved');
    if (f.since) {
      const since = f.since;
      // An incident that began before the window but is still open belongs in it.
      q = q.where((eb) => eb.or([eb('started_at', '>=', since), eb('status', '!=', 'resolved')]));
    }
    return q;
  };

  return {
    list(f: IncidentFilter, limit: number, offset: number): Promise<Page<IncidentRecord>> {
      return paginate(filtered(f), 'started_at', limit, offset, toIncident);
    },

    async all(f: IncidentFilter): Promise<IncidentRecord[]> {
      const rows = await filtered(f).selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toIncident);
    },

    /** What statistics read of each incident: four columns, no texts, updates or links. */
    async timings(f: IncidentFilter): Promise<IncidentTiming[]> {
      const rows = await filtered(f).select(['vendor', 'impact', 'started_at', 'resolved_at']).execute();
      const out: IncidentTiming[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        out[i] = { vendor: r.vendor, impact: r.impact as Impact, startedAt: r.started_at, resolvedAt: r.resolved_at };
      }
      return out;
    },

    /** Newest `perVendor` incidents of each vendor, in one query. */
    latestPerVendor(f: IncidentFilter, perVendor: number): Promise<Map<string, IncidentRecord[]>> {
      return firstPerVendor(db, 'incidents', filtered(f), 'started_at', 'desc', perVendor, toIncident);
    },

    async get(id: string): Promise<{ record: IncidentRecord; fingerprint: string } | null> {
      const row = await db.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { record: toIncident(row), fingerprint: row.fingerprint } : null;
    },

    async getMany(ids: string[]): Promise<Map<string, { record: IncidentRecord; fingerprint: string }>> {
      const out = new Map<string, { record: IncidentRecord; fingerprint: string }>();
      if (!ids.length) return out;
      const rows = await db.selectFrom('incidents').selectAll().where('id', 'in', ids).execute();
      for (const row of rows) out.set(row.id, { record: toIncident(row), fingerprint: row.fingerprint });
      return out;
    },

    async upsert(i: IncidentRecord, fingerprint: string): Promise<void> {
      await upsertRows(db, 'incidents', [incidentRow(i, fingerprint)]);
    },

    /** Several at once (one statement per 200): what one poll changed. */
    async upsertMany(items: { record: IncidentRecord; fingerprint: string }[]): Promise<void> {
      await upsertRows(
        db,
        'incidents',
        items.map((i) => incidentRow(i.record, i.fingerprint)),
      );
    },
    /** Ongoing incidents of a vendor that are not in `keepIds` (to be resolved by absence). */
    async openNotIn(vendor: string, source: string, keepIds: string[]): Promise<IncidentRecord[]> {
      return (await openNotIn(db, 'incidents', 'resolved', vendor, source, keepIds)).map(toIncident);
    },
  };
}

export type IncidentsRepository = ReturnType<typeof incidentsRepository>;
