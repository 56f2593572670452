import type { Kysely } from 'kysely';
import type { RepairOutcome, RepairSource, SourceRepair, SourceState } from '../../domain/source-repair.ts';
import type { SourceType } from '../../domain/records.ts';
import type { Database } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { newSourceRow, sourceId } from './vendors-repository.ts';

// Self-healing of catalog sources (docs/catalog.md "Self-healing"): the latest probe of each
// broken vendor's page, and the swap of its status sources when a repair comes into force.

const toRepair = (r: Database['source_repairs']): SourceRepair => ({
  vendor: r.vendor,
  from: fromJson<RepairSource[]>(r.from_sources, []),
  to: fromJson<RepairSource[]>(r.to_sources, []),
  platform: r.platform as SourceType | null,
  pageName: r.page_name,
  outcome: r.outcome as RepairOutcome,
  reason: r.reason,
  tried: fromJson<{ url: string; result: string }[]>(r.tried, []),
  checkedAt: r.checked_at,
  decidedAt: r.decided_at,
  decidedBy: r.decided_by,
});

const toRow = (r: SourceRepair): Database['source_repairs'] => ({
  vendor: r.vendor,
  from_sources: toJson(r.from),
  to_sources: toJson(r.to),
  platform: r.platform,
  page_name: r.pageName,
  outcome: r.outcome,
  reason: r.reason,
  tried: toJson(r.tried),
  checked_at: r.checkedAt,
  decided_at: r.decidedAt,
  decided_by: r.decidedBy,
});

export function sourceRepairsRepository(db: Kysely<Database>) {
  return {
    async list(outcome?: RepairOutcome): Promise<SourceRepair[]> {
      let q = db.selectFrom('source_repairs').selectAll();
      if (outcome) q = q.where('outcome', '=', outcome);
      return (await q.orderBy('checked_at', 'desc').orderBy('vendor').execute()).map(toRepair);
    },

    /**
     * Every source of each public vendor (catalog, not user-added) that has one source failing
     * at least `minFailures` times in a row, with its vendor's name and status page.
     */
    async failingVendors(minFailures: number): Promise<{ vendor: string; name: string; statusPageUrl: string; sources: SourceState[] }[]> {
      const failing = db.selectFrom('sources').select('vendor').where('consecutive_failures', '>=', minFailures);
      const rows = await db
        .selectFrom('sources')
        .innerJoin('vendors', 'vendors.slug', 'sources.vendor')
        .select([
          'sources.vendor',
          'vendors.name',
          'vendors.status_page_url',
          'sources.type',
          'sources.url',
          'sources.consecutive_failures',
          'sources.last_success_at',
          'sources.failing_since',
        ])
        .where('vendors.owner_id', 'is', null)
        .where('sources.vendor', 'in', failing)
        .orderBy('sources.vendor')
        .execute();
      const out = new Map<string, { vendor: string; name: string; statusPageUrl: string; sources: SourceState[] }>();
      for (const r of rows) {
        let v = out.get(r.vendor);
        if (!v) out.set(r.vendor, (v = { vendor: r.vendor, name: r.name, statusPageUrl: r.status_page_url, sources: [] }));
        v.sources.push({
          type: r.type,
          url: r.url,
          consecutiveFailures: Number(r.consecutive_failures),
          lastSuccessAt: r.last_success_at,
          failingSince: r.failing_since,
        });
      }
      return [...out.values()];
    },

    async get(vendor: string): Promise<SourceRepair | null> {
      const row = await db.selectFrom('source_repairs').selectAll().where('vendor', '=', vendor).executeTakeFirst();
      return row ? toRepair(row) : null;
    },

    /** The latest finding for a vendor replaces the one before. */
    async save(r: SourceRepair): Promise<void> {
      const row = toRow(r);
      const { vendor: _vendor, ...rest } = row;
      await db
        .insertInto('source_repairs')
        .values(row)
        .onConflict((oc) => oc.column('vendor').doUpdateSet(rest))
        .execute();
    },

    async decide(vendor: string, outcome: RepairOutcome, at: string, by: string): Promise<void> {
      await db.updateTable('source_repairs').set({ outcome, decided_at: at, decided_by: by }).where('vendor', '=', vendor).execute();
    },

    /**
     * Puts a repair in force in the store, in one transaction: the vendor's status sources that
     * the repair replaces go (their records stay: records belong to the vendor), the new ones
     * come in polled through the outbound guard and due at once. False when the vendor no
     * longer has the sources the repair was made for.
     */
    async swapSources(vendor: string, from: readonly RepairSource[], to: readonly RepairSource[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const fromIds = from.map((s) => sourceId(vendor, s.type, s.url));
        const present = await trx.selectFrom('sources').select('id').where('vendor', '=', vendor).where('id', 'in', fromIds).execute();
        if (present.length !== fromIds.length) return false;
        await trx.deleteFrom('sources').where('id', 'in', fromIds).execute();
        const rows = to.map((s) => newSourceRow(vendor, s, true));
        await trx
          .insertInto('sources')
          .values(rows)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return true;
      });
    },
  };
}

export type SourceRepairsRepository = ReturnType<typeof sourceRepairsRepository>;
