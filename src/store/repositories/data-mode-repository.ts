import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Whether a store holds live or simulated (demo) data, so one can never be served
// as the other.

export type DataMode = 'live' | 'demo';

const KEY = 'data_mode';

/** Tables filled by ingestion (the catalog itself is reloaded at every start). */
const INGESTED = ['events', 'incidents', 'maintenances', 'advisories', 'release_updates', 'components', 'vendor_status'] as const;

export function dataModeRepository(db: Kysely<Database>) {
  return {
    async get(): Promise<DataMode | null> {
      const r = await db.selectFrom('store_meta').select('value').where('key', '=', KEY).executeTakeFirst();
      return r?.value === 'live' || r?.value === 'demo' ? r.value : null;
    },

    async set(mode: DataMode, now: Date): Promise<void> {
      const at = now.toISOString();
      await db
        .insertInto('store_meta')
        .values({ key: KEY, value: mode, updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: mode, updated_at: at }))
        .execute();
    },

    async hasIngestedData(): Promise<boolean> {
      for (const table of ['incidents', 'maintenances', 'advisories', 'release_updates', 'events'] as const) {
        const r = await db.selectFrom(table).select('vendor').limit(1).executeTakeFirst();
        if (r) return true;
      }
      return false;
    },

    /** Removes everything ingestion wrote, and resets polling state of every source. */
    async clearIngestedData(): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const table of INGESTED) await trx.deleteFrom(table).execute();
        await trx
          .updateTable('sources')
          .set({
            etag: null,
            last_modified: null,
            last_success_at: null,
            last_error_at: null,
            last_error: null,
            consecutive_failures: 0,
            next_poll_at: null,
            last_duration_ms: null,
          })
          .execute();
      });
    },
  };
}

export type DataModeRepository = ReturnType<typeof dataModeRepository>;
