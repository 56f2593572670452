import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CatalogVendor, ComplianceEntry, DataType } from '../../domain/records.ts';
import type { Database } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

export interface VendorRow {
  slug: string;
  name: string;
  website: string;
  category: string;
  description: string;
  statusPageUrl: string;
  availableDataTypes: DataType[];
  compliance: { sourceUrl: string | null; items: ComplianceEntry[] };
  updatedAt: string;
}

/** Stable id of a catalog source: the vendor, the format and a short hash of the URL. */
export const sourceId = (vendor: string, type: string, url: string) =>
  `${vendor}:${type}:${createHash('sha256').update(url).digest('hex').slice(0, 10)}`;

const toVendor = (r: Database['vendors']): VendorRow => ({
  slug: r.slug,
  name: r.name,
  website: r.website,
  category: r.category,
  description: r.description,
  statusPageUrl: r.status_page_url,
  availableDataTypes: fromJson<DataType[]>(r.data_types, []),
  compliance: fromJson(r.compliance, { sourceUrl: null, items: [] }),
  updatedAt: r.updated_at,
});

export function vendorsRepository(db: Kysely<Database>) {
  return {
    /**
     * Idempotent load of the catalog: vendors and sources are upserted, sources no
     * longer listed are removed; polling state of kept sources is preserved.
     */
    async upsertCatalog(vendors: CatalogVendor[], now: Date): Promise<void> {
      const at = now.toISOString();
      await db.transaction().execute(async (trx) => {
        for (const [position, v] of vendors.entries()) {
          const row = {
            slug: v.slug,
            name: v.name,
            website: v.website,
            category: v.category,
            description: v.description,
            status_page_url: v.statusPageUrl,
            data_types: toJson(v.availableDataTypes),
            compliance: toJson(v.compliance),
            position,
            updated_at: at,
          };
          await trx
            .insertInto('vendors')
            .values(row)
            .onConflict((oc) => oc.column('slug').doUpdateSet({ ...row, slug: undefined }))
            .execute();
          const ids: string[] = [];
          for (const s of v.sources) {
            const id = sourceId(v.slug, s.type, s.url);
            ids.push(id);
            await trx
              .insertInto('sources')
              .values({
                id,
                vendor: v.slug,
                type: s.type,
                url: s.url,
                interval_seconds: s.intervalSeconds ?? null,
                etag: null,
                last_modified: null,
                last_success_at: null,
                last_error_at: null,
                last_error: null,
                consecutive_failures: 0,
                next_poll_at: null,
                lease_owner: null,
                lease_until: null,
                last_duration_ms: null,
              })
              .onConflict((oc) =>
                oc.column('id').doUpdateSet({ type: s.type, url: s.url, interval_seconds: s.intervalSeconds ?? null }),
              )
              .execute();
          }
          let stale = trx.deleteFrom('sources').where('vendor', '=', v.slug);
          if (ids.length) stale = stale.where('id', 'not in', ids);
          await stale.execute();
        }
        // A vendor no longer in the catalog is no longer polled: its sources go, its
        // records and vendor row stay readable (docs/ingestion.md).
        const slugs = vendors.map((v) => v.slug);
        let gone = trx.deleteFrom('sources');
        if (slugs.length) gone = gone.where('vendor', 'not in', slugs);
        await gone.execute();
      });
    },

    async list(): Promise<VendorRow[]> {
      const rows = await db.selectFrom('vendors').selectAll().orderBy('position').orderBy('slug').execute();
      return rows.map(toVendor);
    },

    async get(slug: string): Promise<VendorRow | null> {
      const row = await db.selectFrom('vendors').selectAll().where('slug', '=', slug).executeTakeFirst();
      return row ? toVendor(row) : null;
    },

    async count(): Promise<number> {
      const r = await db.selectFrom('vendors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Which of the given slugs exist (one query). */
    async existing(slugs: string[]): Promise<Set<string>> {
      if (!slugs.length) return new Set();
      const rows = await db.selectFrom('vendors').select('slug').where('slug', 'in', slugs).execute();
      return new Set(rows.map((r) => r.slug));
    },

    /**
     * Serialises ingestion per vendor: a no-op UPDATE row-locks the vendor on
     * PostgreSQL and takes the write lock on SQLite, so two sources of one vendor
     * applied at once (by any instances) see each other's changes instead of both
     * announcing the same incident. Call it first in the apply transaction.
     */
    async lockForIngest(slug: string): Promise<boolean> {
      const r = await db
        .updateTable('vendors')
        .set((eb) => ({ position: eb.ref('position') }))
        .where('slug', '=', slug)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async names(): Promise<Map<string, string>> {
      const rows = await db.selectFrom('vendors').select(['slug', 'name']).execute();
      return new Map(rows.map((r) => [r.slug, r.name]));
    },
  };
}

export type VendorsRepository = ReturnType<typeof vendorsRepository>;
