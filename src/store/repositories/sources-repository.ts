import type { Kysely } from 'kysely';
import type { SourceHealth } from '../../domain/records.ts';
import type { Database } from '../schema.ts';

export interface SourceRow {
  id: string;
  vendor: string;
  type: string;
  url: string;
  intervalSeconds: number | null;
  etag: string | null;
  lastModified: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  nextPollAt: string | null;
  lastDurationMs: number | null;
}

const toSource = (r: Database['sources']): SourceRow => ({
  id: r.id,
  vendor: r.vendor,
  type: r.type,
  url: r.url,
  intervalSeconds: r.interval_seconds,
  etag: r.etag,
  lastModified: r.last_modified,
  lastSuccessAt: r.last_success_at,
  lastErrorAt: r.last_error_at,
  lastError: r.last_error,
  consecutiveFailures: r.consecutive_failures,
  nextPollAt: r.next_poll_at,
  lastDurationMs: r.last_duration_ms,
});

export function sourcesRepository(db: Kysely<Database>) {
  return {
    async list(vendor?: string): Promise<SourceRow[]> {
      let q = db.selectFrom('sources').selectAll();
      if (vendor) q = q.where('vendor', '=', vendor);
      return (await q.orderBy('vendor').orderBy('id').execute()).map(toSource);
    },

    /** Health of a vendor's sources folded into one: newest success, newest error. */
    async health(vendor: string): Promise<SourceHealth> {
      const rows = await db
        .selectFrom('sources')
        .select(['last_success_at', 'last_error_at', 'last_error'])
        .where('vendor', '=', vendor)
        .execute();
      const health: SourceHealth = { lastSuccessAt: null, lastErrorAt: null, lastError: null };
      for (const r of rows) {
        if (r.last_success_at && (!health.lastSuccessAt || r.last_success_at > health.lastSuccessAt)) {
          health.lastSuccessAt = r.last_success_at;
        }
        if (r.last_error_at && (!health.lastErrorAt || r.last_error_at > health.lastErrorAt)) {
          health.lastErrorAt = r.last_error_at;
          health.lastError = r.last_error;
        }
      }
      return health;
    },

    /** Health of every vendor's sources in one query (the overview page shows all vendors). */
    async healthByVendor(): Promise<Map<string, SourceHealth>> {
      const rows = await db.selectFrom('sources').select(['vendor', 'last_success_at', 'last_error_at', 'last_error']).execute();
      const out = new Map<string, SourceHealth>();
      for (const r of rows) {
        let h = out.get(r.vendor);
        if (!h) out.set(r.vendor, (h = { lastSuccessAt: null, lastErrorAt: null, lastError: null }));
        if (r.last_success_at && (!h.lastSuccessAt || r.last_success_at > h.lastSuccessAt)) h.lastSuccessAt = r.last_success_at;
        if (r.last_error_at && (!h.lastErrorAt || r.last_error_at > h.lastErrorAt)) {
          h.lastErrorAt = r.last_error_at;
          h.lastError = r.last_error;
        }
      }
      return out;
    },

    async lastSuccessfulPoll(): Promise<string | null> {
      const r = await db.selectFrom('sources').select((eb) => eb.fn.max('last_success_at').as('at')).executeTakeFirst();
      return (r?.at as string | null | undefined) ?? null;
    },
  };
}

export type SourcesRepository = ReturnType<typeof sourcesRepository>;
