import type { Audience } from '../../domain/audience.ts';
import { visibleTo } from './visibility.ts';
import type { Kysely } from 'kysely';
import type { AdvisoryRecord, Severity, UpdateRecord } from '../../domain/records.ts';
import type { AdvisoriesTable, Database, ReleaseUpdatesTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { type Page, paginate } from './paging.ts';
import { firstPerVendor } from './per-vendor.ts';
import { upsertRows } from './upsert-rows.ts';

// Advisories and release notes: both are dated publications of a vendor, listed
// newest first within a window.

export interface PublicationFilter {
  /** Who reads (docs/per-user.md "Custom status pages"). */
  audience: Audience;
  vendors?: string[];
  since?: string;
}

const toAdvisory = (r: AdvisoriesTable): AdvisoryRecord => ({
  id: r.id,
  vendor: r.vendor,
  title: r.title,
  severity: r.severity as Severity,
  cves: fromJson<string[]>(r.cves, []),
  publishedAt: r.published_at,
  updatedAt: r.updated_at,
  summary: r.summary,
  url: r.url,
  source: r.source,
});

const advisoryRow = (a: AdvisoryRecord, fingerprint: string): AdvisoriesTable => ({
  id: a.id,
  vendor: a.vendor,
  title: a.title,
  severity: a.severity,
  cves: toJson(a.cves),
  published_at: a.publishedAt,
  updated_at: a.updatedAt,
  summary: a.summary,
  url: a.url,
  source: a.source,
  fingerprint,
});

const releaseUpdateRow = (u: UpdateRecord, fingerprint: string): ReleaseUpdatesTable => ({
  id: u.id,
  vendor: u.vendor,
  title: u.title,
  published_at: u.publishedAt,
  summary: u.summary,
  categories: toJson(u.categories),
  url: u.url,
  source: u.source,
  fingerprint,
});

const toReleaseUpdate = (r: ReleaseUpdatesTable): UpdateRecord => ({
  id: r.id,
  vendor: r.vendor,
  title: r.title,
  publishedAt: r.published_at,
  summary: r.summary,
  categories: fromJson<string[]>(r.categories, []),
  url: r.url,
  source: r.source,
});

export function publicationsRepository(db: Kysely<Database>) {
  const advisories = (f: PublicationFilter) => {
    let q = visibleTo(db, db.selectFrom('advisories'), f.audience);
    if (f.vendors?.length) q = q.where('vendor', 'in', f.vendors);
    if (f.since) q = q.where('published_at', '>=', f.since);
    return q;
  };
  const updates = (f: PublicationFilter) => {
    let q = visibleTo(db, db.selectFrom('release_updates'), f.audience);
    if (f.vendors?.length) q = q.where('vendor', 'in', f.vendors);
    if (f.since) q = q.where('published_at', '>=', f.since);
    return q;
  };

  return {
    listAdvisories(f: PublicationFilter, limit: number, offset: number): Promise<Page<AdvisoryRecord>> {
      return paginate(advisories(f), 'published_at', limit, offset, toAdvisory);
    },
    listUpdates(f: PublicationFilter, limit: number, offset: number): Promise<Page<UpdateRecord>> {
      return paginate(updates(f), 'published_at', limit, offset, toReleaseUpdate);
    },

    /** Newest `perVendor` advisories of each vendor, in one query. */
    latestAdvisoriesPerVendor(f: PublicationFilter, perVendor: number): Promise<Map<string, AdvisoryRecord[]>> {
      return firstPerVendor(db, 'advisories', advisories(f), 'published_at', 'desc', perVendor, toAdvisory);
    },
    /** Newest `perVendor` release notes of each vendor, in one query. */
    latestUpdatesPerVendor(f: PublicationFilter, perVendor: number): Promise<Map<string, UpdateRecord[]>> {
      return firstPerVendor(db, 'release_updates', updates(f), 'published_at', 'desc', perVendor, toReleaseUpdate);
    },

    async advisoryFingerprints(ids: string[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const rows = await db.selectFrom('advisories').select(['id', 'fingerprint']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.fingerprint]));
    },
    async updateFingerprints(ids: string[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const rows = await db.selectFrom('release_updates').select(['id', 'fingerprint']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.fingerprint]));
    },

    async upsertAdvisory(a: AdvisoryRecord, fingerprint: string): Promise<void> {
      await upsertRows(db, 'advisories', [advisoryRow(a, fingerprint)]);
    },
    /** Several at once (one statement per 200): what one poll changed. */
    async upsertAdvisories(items: { record: AdvisoryRecord; fingerprint: string }[]): Promise<void> {
      await upsertRows(
        db,
        'advisories',
        items.map((i) => advisoryRow(i.record, i.fingerprint)),
      );
    },

    async upsertUpdate(u: UpdateRecord, fingerprint: string): Promise<void> {
      await upsertRows(db, 'release_updates', [releaseUpdateRow(u, fingerprint)]);
    },
    /** Several at once (one statement per 200): what one poll changed. */
    async upsertUpdates(items: { record: UpdateRecord; fingerprint: string }[]): Promise<void> {
      await upsertRows(
        db,
        'release_updates',
        items.map((i) => releaseUpdateRow(i.record, i.fingerprint)),
      );
    },
  };
}

export type PublicationsRepository = ReturnType<typeof publicationsRepository>;
