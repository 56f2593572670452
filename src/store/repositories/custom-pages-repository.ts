import type { Kysely } from 'kysely';
import type { CustomPageDataType } from '../../domain/custom-sources.ts';
import type { CatalogVendor, SourceType } from '../../domain/records.ts';
import type { Database } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { newSourceRow } from './vendors-repository.ts';

// Status pages users add (docs/per-user.md "Custom status pages"): private vendor rows
// (`owner_id` set) with their sources. Adds of one organisation run one after the other:
// the transaction first writes the organisation's `organisations` row (a row lock on PostgreSQL,
// the write lock on SQLite), so the cap check reads a count no other add can move.

export interface CustomPage {
  slug: string;
  name: string;
  pageUrl: string;
  dataTypes: CustomPageDataType[];
  sources: { type: SourceType; url: string; intervalSeconds: number | null }[];
  addedAt: string;
  /** Polling state of its first source. */
  lastSuccessAt: string | null;
  lastError: string | null;
}

export interface NewCustomPage {
  orgId: string;
  name: string;
  website: string;
  pageUrl: string;
  description: string;
  category: string;
  dataTypes: CustomPageDataType[];
  sources: { type: SourceType; url: string; intervalSeconds?: number }[];
  now: Date;
}

export type AddPageOutcome =
  | { status: 'added'; slug: string }
  | { status: 'full'; count: number }
  | { status: 'duplicate'; slug: string }
  /** Another account's pages use the namespace (a digest collision): refused, never shared. */
  | { status: 'namespace_taken' };

/** Position after every catalog vendor (lists put user pages last). */
const PRIVATE_POSITION = 1_000_000;

export function customPagesRepository(db: Kysely<Database>) {
  async function list(orgId: string): Promise<CustomPage[]> {
    const vendors = await db
      .selectFrom('vendors')
      .select(['slug', 'name', 'status_page_url', 'data_types', 'added_at', 'updated_at'])
      .where('owner_id', '=', orgId)
      .orderBy('added_at')
      .orderBy('slug')
      .execute();
    if (!vendors.length) return [];
    const sources = await db
      .selectFrom('sources')
      .select(['vendor', 'type', 'url', 'interval_seconds', 'last_success_at', 'last_error', 'id'])
      .where(
        'vendor',
        'in',
        vendors.map((v) => v.slug),
      )
      .orderBy('id')
      .execute();
    return vendors.map((v) => {
      const own = sources.filter((s) => s.vendor === v.slug);
      return {
        slug: v.slug,
        name: v.name,
        pageUrl: v.status_page_url,
        dataTypes: fromJson<CustomPageDataType[]>(v.data_types, []),
        sources: own.map((s) => ({ type: s.type as SourceType, url: s.url, intervalSeconds: s.interval_seconds })),
        addedAt: v.added_at ?? v.updated_at,
        lastSuccessAt: own.map((s) => s.last_success_at).find((x) => x) ?? null,
        lastError: own.map((s) => s.last_error).find((x) => x) ?? null,
      };
    });
  }

  return {
    list,

    /** Whether the account owns any private vendor (one indexed probe; services/access/private-readers.ts). */
    async ownsAny(orgId: string): Promise<boolean> {
      const r = await db.selectFrom('vendors').select('slug').where('owner_id', '=', orgId).limit(1).executeTakeFirst();
      return r !== undefined;
    },

    async count(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('vendors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /**
     * Adds a page unless the account is at `cap` or already has one at the same URL.
     * `slugFor` picks the slug given the account's slugs in use; `namespace` is the
     * account's slug prefix, refused when another account's page starts with it.
     */
    async add(p: NewCustomPage, cap: number, namespace: string, slugFor: (taken: ReadonlySet<string>) => string): Promise<AddPageOutcome> {
      const at = p.now.toISOString();
      return db.transaction().execute(async (trx): Promise<AddPageOutcome> => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', p.orgId)
          .execute();
        const own = await trx.selectFrom('vendors').select(['slug', 'status_page_url']).where('owner_id', '=', p.orgId).execute();
        const same = own.find((v) => v.status_page_url === p.pageUrl);
        if (same) return { status: 'duplicate', slug: same.slug };
        if (own.length >= cap) return { status: 'full', count: own.length };
        const foreign = await trx
          .selectFrom('vendors')
          .select('slug')
          .where('slug', 'like', `${namespace}%`)
          .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '!=', p.orgId)]))
          .executeTakeFirst();
        if (foreign) return { status: 'namespace_taken' };
        const slug = slugFor(new Set(own.map((v) => v.slug)));
        await trx
          .insertInto('vendors')
          .values({
            slug,
            name: p.name,
            website: p.website,
            category: p.category,
            description: p.description,
            status_page_url: p.pageUrl,
            hostnames: '[]',
            data_types: toJson(p.dataTypes),
            compliance: toJson({ sourceUrl: null, items: [] }),
            position: PRIVATE_POSITION,
            updated_at: at,
            owner_id: p.orgId,
            added_at: at,
          })
          .execute();
        await trx
          .insertInto('sources')
          .values(p.sources.map((s) => newSourceRow(slug, s, true)))
          .execute();
        return { status: 'added', slug };
      });
    },

    /** Removes one of the account's pages with its sources and records (foreign keys); false when it has none by that slug. */
    async remove(orgId: string, slug: string): Promise<boolean> {
      const r = await db.deleteFrom('vendors').where('slug', '=', slug).where('owner_id', '=', orgId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Any account's page by slug (operator CLI only). */
    async find(slug: string): Promise<(CustomPage & { ownerId: string }) | null> {
      const row = await db.selectFrom('vendors').select(['owner_id']).where('slug', '=', slug).where('owner_id', 'is not', null).executeTakeFirst();
      if (!row?.owner_id) return null;
      const page = (await list(row.owner_id)).find((p) => p.slug === slug);
      return page ? { ...page, ownerId: row.owner_id } : null;
    },

    /**
     * Makes a page public under `entry.slug` (operator CLI, docs/catalog.md "Promoted
     * pages"): the public vendor and its sources are written, the owner's watchlist
     * follows it, and the private vendor goes (its records come back from the next poll).
     * False when `entry.slug` is already taken.
     */
    async promote(privateSlug: string, entry: CatalogVendor, now: Date): Promise<boolean> {
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        if (await trx.selectFrom('vendors').select('slug').where('slug', '=', entry.slug).executeTakeFirst()) return false;
        const last = await trx
          .selectFrom('vendors')
          .select((eb) => eb.fn.max('position').as('p'))
          .where('owner_id', 'is', null)
          .executeTakeFirst();
        await trx
          .insertInto('vendors')
          .values({
            slug: entry.slug,
            name: entry.name,
            website: entry.website,
            category: entry.category,
            description: entry.description,
            status_page_url: entry.statusPageUrl,
            hostnames: toJson(entry.hostnames ?? []),
            data_types: toJson(entry.availableDataTypes),
            compliance: toJson(entry.compliance),
            position: Number(last?.p ?? -1) + 1,
            updated_at: at,
            owner_id: null,
            added_at: null,
          })
          .execute();
        if (entry.sources.length) {
          await trx
            .insertInto('sources')
            .values(entry.sources.map((s) => newSourceRow(entry.slug, s, s.guarded === true)))
            .execute();
        }
        const watchers = await trx.selectFrom('watchlist_vendors').selectAll().where('vendor', '=', privateSlug).execute();
        for (const w of watchers) {
          await trx
            .insertInto('watchlist_vendors')
            .values({ ...w, vendor: entry.slug })
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        await trx.deleteFrom('vendors').where('slug', '=', privateSlug).execute();
        return true;
      });
    },
  };
}

export type CustomPagesRepository = ReturnType<typeof customPagesRepository>;
