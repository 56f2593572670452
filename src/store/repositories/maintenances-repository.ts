import type { Audience } from '../../domain/audience.ts';
import { visibleTo } from './visibility.ts';
import type { Kysely } from 'kysely';
import type { Impact, MaintenanceRecord, MaintenanceStatus, RecordUpdate } from '../../domain/records.ts';
import type { Database, MaintenancesTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { type Page, paginate } from './paging.ts';
import { openNotIn } from './open-not-in.ts';
import { firstPerVendor } from './per-vendor.ts';
import { upsertRows } from './upsert-rows.ts';

export interface MaintenanceFilter {
  /** Who reads (docs/per-user.md "Custom status pages"). */
  audience: Audience;
  vendors?: string[];
  /** Only windows that are not completed. */
  upcomingOnly?: boolean;
  /** Only windows under way (in progress or verifying). */
  inProgressOnly?: boolean;
  /** Windows scheduled at or after this instant, or not yet completed. */
  since?: string;
}

const toMaintenance = (r: MaintenancesTable): MaintenanceRecord => ({
  id: r.id,
  vendor: r.vendor,
  title: r.title,
  status: r.status as MaintenanceStatus,
  sourceStatus: r.source_status,
  impact: r.impact as Impact,
  scheduledFor: r.scheduled_for,
  scheduledUntil: r.scheduled_until,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  components: fromJson<string[]>(r.components, []),
  updates: fromJson<RecordUpdate[]>(r.updates, []),
  url: r.url,
  source: r.source,
});

const maintenanceRow = (m: MaintenanceRecord, fingerprint: string): MaintenancesTable => ({
  id: m.id,
  vendor: m.vendor,
  title: m.title,
  status: m.status,
  source_status: m.sourceStatus,
  impact: m.impact,
  scheduled_for: m.scheduledFor,
  scheduled_until: m.scheduledUntil,
  started_at: m.startedAt,
  completed_at: m.completedAt,
  components: toJson(m.components),
  updates: toJson(m.updates),
  url: m.url,
  source: m.source,
  fingerprint,
});

export function maintenancesRepository(db: Kysely<Database>) {
  const filtered = (f: MaintenanceFilter) => {
    let q = visibleTo(db, db.selectFrom('maintenances'), f.audience);
    if (f.vendors?.length) q = q.where('vendor', 'in', f.vendors);
    if (f.upcomingOnly) q = q.where('status', '!=', 'completed');
    if (f.inProgressOnly) q = q.where('status', 'in', ['in_progress', 'verifying']);
    if (f.since) {
      const since = f.since;
      q = q.where((eb) => eb.or([eb('scheduled_for', '>=', since), eb('status', '!=', 'completed')]));
    }
    return q;
  };

  return {
    list(f: MaintenanceFilter, limit: number, offset: number): Promise<Page<MaintenanceRecord>> {
      return paginate(filtered(f), 'scheduled_for', limit, offset, toMaintenance);
    },

    /** Windows per vendor (statistics count them and read nothing else). */
    async countByVendor(f: MaintenanceFilter): Promise<Map<string, number>> {
      const rows = await filtered(f)
        .select(['vendor', (eb) => eb.fn.countAll().as('n')])
        .groupBy('vendor')
        .execute();
      return new Map(rows.map((r) => [r.vendor, Number(r.n)]));
    },

    async all(f: MaintenanceFilter): Promise<MaintenanceRecord[]> {
      const rows = await filtered(f).selectAll().orderBy('scheduled_for', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toMaintenance);
    },

    /** First `perVendor` windows of each vendor by scheduled start (`asc`: soonest first), in one query. */
    firstPerVendor(f: MaintenanceFilter, perVendor: number, direction: 'asc' | 'desc'): Promise<Map<string, MaintenanceRecord[]>> {
      return firstPerVendor(db, 'maintenances', filtered(f), 'scheduled_for', direction, perVendor, toMaintenance);
    },

    /** Windows not started yet whose scheduled start is in (from, to] (maintenance reminders). */
    async startingBetween(from: string, to: string): Promise<MaintenanceRecord[]> {
      const rows = await db
        .selectFrom('maintenances')
        .selectAll()
        .where('status', '=', 'scheduled')
        .where('scheduled_for', '>', from)
        .where('scheduled_for', '<=', to)
        .orderBy('scheduled_for')
        .limit(5_000)
        .execute();
      return rows.map(toMaintenance);
    },

    async getMany(ids: string[]): Promise<Map<string, { record: MaintenanceRecord; fingerprint: string }>> {
      const out = new Map<string, { record: MaintenanceRecord; fingerprint: string }>();
      if (!ids.length) return out;
      const rows = await db.selectFrom('maintenances').selectAll().where('id', 'in', ids).execute();
      for (const row of rows) out.set(row.id, { record: toMaintenance(row), fingerprint: row.fingerprint });
      return out;
    },

    /** This source's windows not yet completed, except `keepIds` (see completedByAbsence). */
    async openNotIn(vendor: string, source: string, keepIds: string[]): Promise<MaintenanceRecord[]> {
      return (await openNotIn(db, 'maintenances', 'completed', vendor, source, keepIds)).map(toMaintenance);
    },

    /** Several at once (one statement per 200): what one poll changed. */
    async upsertMany(items: { record: MaintenanceRecord; fingerprint: string }[]): Promise<void> {
      await upsertRows(
        db,
        'maintenances',
        items.map((i) => maintenanceRow(i.record, i.fingerprint)),
      );
    },

    async upsert(m: MaintenanceRecord, fingerprint: string): Promise<void> {
      await upsertRows(db, 'maintenances', [maintenanceRow(m, fingerprint)]);
    },
  };
}

export type MaintenancesRepository = ReturnType<typeof maintenancesRepository>;
