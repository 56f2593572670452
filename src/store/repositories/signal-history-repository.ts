import type { Kysely } from 'kysely';
import type { SignalHistory } from '../../domain/early-warning-transparency.ts';
import type { SignalState } from '../../domain/early-warning.ts';
import type { Database } from '../schema.ts';
import { chunks, ID_CHUNK } from './delivery-rows.ts';

// What the transparency figures read (docs/early-warning.md "Transparency"): an
// organisation's signals opened since a time with their recorded transitions, and the end
// of the incidents that confirmed them. Narrow reads: no evidence, no incident text.

/** Signals one reading covers at most (90 days of a busy organisation fit many times over). */
export const MAX_HISTORY = 20_000;

export function signalHistoryRepository(db: Kysely<Database>) {
  return {
    /** The organisation's signals opened at or after `from` (about `vendor` when given), with their transitions in order. */
    async since(orgId: string, from: string, vendor?: string): Promise<SignalHistory[]> {
      let q = db
        .selectFrom('ew_signals')
        .select(['id', 'vendor', 'last_observed_at', 'incident_id'])
        .where('org_id', '=', orgId)
        .where('opened_at', '>=', from);
      if (vendor) q = q.where('vendor', '=', vendor);
      const rows = await q.orderBy('opened_at').orderBy('id').limit(MAX_HISTORY).execute();
      const out = new Map<string, SignalHistory>(
        rows.map((r) => [r.id, { id: r.id, vendor: r.vendor, lastObservedAt: r.last_observed_at, incidentId: r.incident_id, transitions: [] }]),
      );
      for (const part of chunks([...out.keys()], ID_CHUNK)) {
        const ts = await db
          .selectFrom('ew_transitions')
          .select(['signal_id', 'from_state', 'to_state', 'at'])
          .where('signal_id', 'in', part)
          .orderBy('signal_id')
          .orderBy('position')
          .execute();
        for (const t of ts) out.get(t.signal_id)!.transitions.push({ from: t.from_state as SignalState | null, to: t.to_state as SignalState, at: t.at });
      }
      return [...out.values()];
    },

    /** When each incident was resolved (null while open); incidents no longer stored are absent. */
    async resolvedAt(ids: string[]): Promise<Map<string, string | null>> {
      const out = new Map<string, string | null>();
      for (const part of chunks([...new Set(ids)], ID_CHUNK)) {
        for (const r of await db.selectFrom('incidents').select(['id', 'resolved_at']).where('id', 'in', part).execute()) out.set(r.id, r.resolved_at);
      }
      return out;
    },
  };
}

export type SignalHistoryRepository = ReturnType<typeof signalHistoryRepository>;
