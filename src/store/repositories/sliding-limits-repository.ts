import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from '../schema.ts';

// Sliding-window limits kept in the store: a subject is counted at most `limit`
// times in any `windowMs` (not per clock hour or day, where a burst at the end of
// one window and the start of the next got twice the limit). Shared by every
// instance and kept over restarts (docs/security.md, "Confirmation mails").

export interface SlidingLimit {
  subject: string;
  limit: number;
}

export type SlidingOutcome = { allowed: true } | { allowed: false; subject: string; limit: number; retryAfterSeconds: number };

export function slidingLimitsRepository(db: Kysely<Database>) {
  /**
   * Rows that no longer count, pruned after a take, best effort. On PostgreSQL rows
   * another take holds are skipped (a plain DELETE waiting on them could deadlock with
   * a take of two subjects); SQLite writers are serialised anyway.
   */
  async function prune(now: Date) {
    const at = now.toISOString();
    const expired = db.selectFrom('sliding_limits').select('subject').where('expires_at', '<', at).limit(500);
    const query =
      db.getExecutor().adapter instanceof PostgresAdapter
        ? db.deleteFrom('sliding_limits').where('subject', 'in', expired.forUpdate().skipLocked())
        : db.deleteFrom('sliding_limits').where('subject', 'in', expired);
    await query.execute().catch(() => undefined);
  }

  return {
    /**
     * Counts one use in every subject unless one of them already has `limit` uses
     * in the window ending now; then nothing is counted. Atomic: concurrent calls
     * for a subject are counted one after another.
     */
    async take(limits: readonly SlidingLimit[], windowMs: number, now: Date): Promise<SlidingOutcome> {
      const at = now.getTime();
      // One lock order for every caller, so two calls over the same subjects cannot deadlock.
      const sorted = [...limits].sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
      const outcome = await db.transaction().execute(async (trx): Promise<SlidingOutcome> => {
        const counted: { subject: string; stamps: number[] }[] = [];
        let refused: SlidingOutcome | null = null;
        for (const l of sorted) {
          // The upsert takes the row's lock on PostgreSQL (SQLite writers are serialised).
          await trx
            .insertInto('sliding_limits')
            .values({ subject: l.subject, stamps: '[]', expires_at: new Date(at).toISOString() })
            .onConflict((oc) => oc.column('subject').doUpdateSet((eb) => ({ stamps: eb.ref('sliding_limits.stamps') })))
            .execute();
          const row = await trx.selectFrom('sliding_limits').select('stamps').where('subject', '=', l.subject).executeTakeFirstOrThrow();
          const stamps = (JSON.parse(row.stamps) as number[]).filter((s) => s > at - windowMs);
          if (stamps.length >= l.limit && !refused) {
            refused = { allowed: false, subject: l.subject, limit: l.limit, retryAfterSeconds: Math.max(1, Math.ceil((stamps[0]! + windowMs - at) / 1000)) };
          }
          counted.push({ subject: l.subject, stamps });
        }
        if (refused) return refused;
        for (const c of counted) {
          await trx
            .updateTable('sliding_limits')
            .set({ stamps: JSON.stringify([...c.stamps, at]), expires_at: new Date(at + windowMs).toISOString() })
            .where('subject', '=', c.subject)
            .execute();
        }
        return { allowed: true };
      });
      await prune(now);
      return outcome;
    },
  };
}

export type SlidingLimitsRepository = ReturnType<typeof slidingLimitsRepository>;
