import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Audience } from '../../domain/audience.ts';
import { isMonitored } from '../../domain/monitoring.ts';
import type { CatalogVendor, ComplianceEntry, DataType } from '../../domain/records.ts';
import type { Database } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { ownVendorsOnly } from './visibility.ts';

export interface VendorRow {
  slug: string;
  name: string;
  website: string;
  category: string;
  description: string;
  statusPageUrl: string;
  /** Hosts the vendor documents for its API, CDN and console (docs/diagnose.md "Hosts"). */
  hostnames: string[];
  availableDataTypes: DataType[];
  compliance: { sourceUrl: string | null; items: ComplianceEntry[] };
  updatedAt: string;
  /** The account a user-added page belongs to; null for the public catalog. */
  ownerId: string | null;
}

/** Stable id of a catalog source: the vendor, the format and a short hash of the URL. */
export const sourceId = (vendor: string, type: string, url: string) => `${vendor}:${type}:${createHash('sha256').update(url).digest('hex').slice(0, 10)}`;

/**
 * A source row as first written: never polled yet. `guarded`: every request to it goes
 * through the outbound guard from the first hop (user-added pages, docs/security.md).
 */
export function newSourceRow(vendor: string, s: { type: string; url: string; intervalSeconds?: number | null }, guarded: boolean): Database['sources'] {
  return {
    id: sourceId(vendor, s.type, s.url),
    vendor,
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
    first_success_at: null,
    failing_since: null,
    guarded: guarded ? 1 : 0,
    hot: 0,
    quiet_polls: 0,
    schedule_seconds: null,
    schedule_reason: null,
    pushed_at: null,
  };
}

const toVendor = (r: Database['vendors']): VendorRow => ({
  slug: r.slug,
  name: r.name,
  website: r.website,
  category: r.category,
  description: r.description,
  statusPageUrl: r.status_page_url,
  hostnames: fromJson<string[]>(r.hostnames, []),
  availableDataTypes: fromJson<DataType[]>(r.data_types, []),
  compliance: fromJson(r.compliance, { sourceUrl: null, items: [] }),
  updatedAt: r.updated_at,
  ownerId: r.owner_id,
});

/**
 * Bound parameters per statement, below both dialects' limits (SQLite's default of 32766
 * since 3.32, PostgreSQL's 65535).
 */
const MAX_PARAMS = 30_000;

/** Rows split so that one multi-row insert stays within MAX_PARAMS. */
function chunks<T extends object>(rows: T[]): T[][] {
  if (!rows.length) return [];
  const size = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(rows[0]!).length));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export function vendorsRepository(db: Kysely<Database>) {
  async function lockForIngestNamed(slug: string): Promise<{ name: string } | null> {
    const row = await db
      .updateTable('vendors')
      .set((eb) => ({ position: eb.ref('position') }))
      .where('slug', '=', slug)
      .returning('name')
      .executeTakeFirst();
    return row ?? null;
  }

  return {
    /**
     * Idempotent load of the catalog: vendors and sources are upserted, sources no
     * longer listed are removed; polling state of kept sources is preserved.
     */
    async upsertCatalog(vendors: CatalogVendor[], now: Date): Promise<void> {
      const at = now.toISOString();
      // A few multi-row statements instead of one per vendor and per source (docs/testing.md,
      // "Store template"). A slug or source id listed twice keeps its last entry, as the
      // one-row-at-a-time load did; PostgreSQL refuses one upsert touching a row twice.
      const vendorRows = new Map<string, Database['vendors']>();
      const sourceRows = new Map<string, Database['sources']>();
      const kept = new Map<string, string[]>();
      for (const [position, v] of vendors.entries()) {
        vendorRows.set(v.slug, {
          slug: v.slug,
          name: v.name,
          website: v.website,
          category: v.category,
          description: v.description,
          status_page_url: v.statusPageUrl,
          hostnames: toJson(v.hostnames ?? []),
          data_types: toJson(v.availableDataTypes),
          compliance: toJson(v.compliance),
          position,
          updated_at: at,
          owner_id: null,
          added_at: null,
        });
        const ids: string[] = [];
        for (const s of v.sources) {
          const id = sourceId(v.slug, s.type, s.url);
          ids.push(id);
          sourceRows.set(id, newSourceRow(v.slug, s, s.guarded === true));
        }
        kept.set(v.slug, ids);
      }
      await db.transaction().execute(async (trx) => {
        for (const rows of chunks([...vendorRows.values()])) {
          await trx
            .insertInto('vendors')
            .values(rows)
            .onConflict((oc) =>
              oc.column('slug').doUpdateSet((eb) => ({
                name: eb.ref('excluded.name'),
                website: eb.ref('excluded.website'),
                category: eb.ref('excluded.category'),
                description: eb.ref('excluded.description'),
                status_page_url: eb.ref('excluded.status_page_url'),
                hostnames: eb.ref('excluded.hostnames'),
                data_types: eb.ref('excluded.data_types'),
                compliance: eb.ref('excluded.compliance'),
                position: eb.ref('excluded.position'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
        }
        for (const rows of chunks([...sourceRows.values()])) {
          await trx
            .insertInto('sources')
            .values(rows)
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                type: eb.ref('excluded.type'),
                url: eb.ref('excluded.url'),
                interval_seconds: eb.ref('excluded.interval_seconds'),
                guarded: eb.ref('excluded.guarded'),
              })),
            )
            .execute();
        }
        // Sources no longer listed for their vendor go; a vendor's batch carries its slug and kept ids.
        let batch: { slugs: string[]; ids: string[] } = { slugs: [], ids: [] };
        const flush = async () => {
          if (!batch.slugs.length) return;
          let stale = trx.deleteFrom('sources').where('vendor', 'in', batch.slugs);
          if (batch.ids.length) stale = stale.where('id', 'not in', batch.ids);
          await stale.execute();
          batch = { slugs: [], ids: [] };
        };
        for (const [slug, ids] of kept) {
          if (batch.slugs.length + batch.ids.length + 1 + ids.length > MAX_PARAMS) await flush();
          batch.slugs.push(slug);
          batch.ids.push(...ids);
        }
        await flush();
        // A vendor no longer in the catalog is no longer polled: its sources go, its
        // records and vendor row stay readable (docs/ingestion.md).
        // Pages users added are not in the catalog file and keep their sources.
        const polled = await trx
          .selectFrom('sources')
          .innerJoin('vendors', 'vendors.slug', 'sources.vendor')
          .where('vendors.owner_id', 'is', null)
          .select('sources.vendor')
          .distinct()
          .execute();
        const gone = polled.map((r) => r.vendor).filter((slug) => !vendorRows.has(slug));
        for (let i = 0; i < gone.length; i += MAX_PARAMS) {
          await trx
            .deleteFrom('sources')
            .where('vendor', 'in', gone.slice(i, i + MAX_PARAMS))
            .execute();
        }
      });
    },

    /** The vendors `audience` may see: the catalog, and a user's own pages for that user. */
    async list(audience: Audience): Promise<VendorRow[]> {
      const rows = await ownVendorsOnly(db.selectFrom('vendors').selectAll(), audience).orderBy('position').orderBy('slug').execute();
      return rows.map(toVendor);
    },

    /** null when the vendor does not exist or `audience` may not see it (the same answer). */
    async get(slug: string, audience: Audience): Promise<VendorRow | null> {
      const row = await ownVendorsOnly(db.selectFrom('vendors').selectAll().where('slug', '=', slug), audience).executeTakeFirst();
      return row ? toVendor(row) : null;
    },

    async count(audience: Audience): Promise<number> {
      const r = await ownVendorsOnly(
        db.selectFrom('vendors').select((eb) => eb.fn.countAll<number>().as('n')),
        audience,
      ).executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Which of the given slugs exist for `audience` (one query). */
    async existing(slugs: string[], audience: Audience): Promise<Set<string>> {
      if (!slugs.length) return new Set();
      const rows = await ownVendorsOnly(db.selectFrom('vendors').select('slug').where('slug', 'in', slugs), audience).execute();
      return new Set(rows.map((r) => r.slug));
    },

    /** Which of these vendors are monitored (have a status source; docs/web.md "Not monitored"). */
    async monitored(slugs: string[], audience: Audience): Promise<Set<string>> {
      if (!slugs.length) return new Set();
      const rows = await ownVendorsOnly(db.selectFrom('vendors').select(['slug', 'data_types']).where('slug', 'in', slugs), audience).execute();
      return new Set(rows.filter((r) => isMonitored({ availableDataTypes: fromJson<DataType[]>(r.data_types, []) })).map((r) => r.slug));
    },

    /**
     * Serialises ingestion per vendor: a no-op UPDATE row-locks the vendor on
     * PostgreSQL and takes the write lock on SQLite, so two sources of one vendor
     * applied at once (by any instances) see each other's changes instead of both
     * announcing the same incident. Call it first in the apply transaction.
     */
    async lockForIngest(slug: string): Promise<boolean> {
      return (await lockForIngestNamed(slug)) !== null;
    },

    /** `lockForIngest` that also returns the vendor's display name (one statement instead of two); null when there is no such vendor. */
    lockForIngestNamed,

    /** Display names of every vendor `audience` sees, or of the given `slugs` only (a page of records names a few). */
    async names(audience: Audience, slugs?: string[]): Promise<Map<string, string>> {
      let q = db.selectFrom('vendors').select(['slug', 'name']);
      if (slugs) {
        if (!slugs.length) return new Map();
        q = q.where('slug', 'in', [...new Set(slugs)]);
      }
      const rows = await ownVendorsOnly(q, audience).execute();
      return new Map(rows.map((r) => [r.slug, r.name]));
    },
  };
}

export type VendorsRepository = ReturnType<typeof vendorsRepository>;
