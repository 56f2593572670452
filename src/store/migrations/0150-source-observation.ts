import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Source observation (docs/statistics.md "Observation window", docs/operations.md
// "Source health"): when a source first polled successfully (uptime counts only
// from then on) and since when it has been failing (a source failing past a
// threshold is stale). Existing rows get the best values the store still has:
// the last success stands for the first, the last success (else the last error)
// for the start of a run of failures.
export function sourceObservationMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sources').addColumn('first_success_at', 'text').execute();
      await db.schema.alterTable('sources').addColumn('failing_since', 'text').execute();
      await db.updateTable('sources').set({ first_success_at: sql`last_success_at` }).execute();
      await db.updateTable('sources').set({ failing_since: sql`coalesce(last_success_at, last_error_at)` }).where('consecutive_failures', '>', 0).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('sources').dropColumn('failing_since').execute();
      await db.schema.alterTable('sources').dropColumn('first_success_at').execute();
    },
  };
}
