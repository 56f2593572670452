import { type Kysely, sql } from 'kysely';
import type { Impact } from '../../domain/records.ts';
import type { Database } from '../schema.ts';
import type { Audience } from '../../domain/audience.ts';
import { ownVendorsOnly, visibleTo } from './visibility.ts';
import { toIncident } from './incidents-repository.ts';
import type { IncidentRecord } from '../../domain/records.ts';

// Search behind the web search page (docs/web.md, "Search"): vendor names and
// slugs, incident titles and component names. Case-insensitive on both SQLite
// and PostgreSQL (lower() on both sides), the needle LIKE-escaped so `%` and `_`
// match themselves, every value bound as a parameter, results bounded.

/** `%`, `_` and the escape character itself match literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface IncidentSearch {
  /** Free text matched against the title and the component names; empty: no text condition. */
  text: string;
  /** Who reads (docs/per-user.md "Custom status pages"). */
  audience: Audience;
  vendors?: string[];
  impact?: Impact;
  /** Exact component name (as the incident lists it). */
  component?: string;
  /** Incidents that started at or after this instant, or are still open. */
  since?: string;
  limit: number;
}

export function searchRepository(db: Kysely<Database>) {
  const contains = (text: string) => `%${escapeLike(text.toLowerCase())}%`;
  return {
    async vendors(text: string, limit: number, audience: Audience): Promise<{ slug: string; name: string; category: string }[]> {
      const needle = contains(text);
      return ownVendorsOnly(db.selectFrom('vendors').select(['slug', 'name', 'category']), audience)
        .where((eb) => eb.or([sql<boolean>`lower(name) like ${needle} escape '\\'`, sql<boolean>`slug like ${needle} escape '\\'`]))
        .orderBy('name')
        .limit(limit)
        .execute();
    },

    /** Newest first; `total` counts every match (the page says when it shows only the first ones). */
    async incidents(f: IncidentSearch): Promise<{ items: IncidentRecord[]; total: number }> {
      let q = visibleTo(db, db.selectFrom('incidents'), f.audience);
      if (f.vendors?.length) q = q.where('vendor', 'in', f.vendors);
      if (f.impact) q = q.where('impact', '=', f.impact);
      if (f.since) {
        const since = f.since;
        q = q.where((eb) => eb.or([eb('started_at', '>=', since), eb('status', '!=', 'resolved')]));
      }
      if (f.component) {
        // Components are stored as a JSON array of strings: match the quoted element.
        const element = `%${escapeLike(JSON.stringify(f.component))}%`;
        q = q.where(sql<boolean>`components like ${element} escape '\\'`);
      }
      if (f.text) {
        const needle = contains(f.text);
        q = q.where((eb) => eb.or([sql<boolean>`lower(title) like ${needle} escape '\\'`, sql<boolean>`lower(components) like ${needle} escape '\\'`]));
      }
      const [rows, count] = await Promise.all([
        q.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute(),
        q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
      ]);
      return { items: rows.map(toIncident), total: Number(count?.n ?? 0) };
    },
  };
}

export type SearchRepository = ReturnType<typeof searchRepository>;
