import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { chunks, INSERT_CHUNK, type NewDelivery, toRow } from './delivery-rows.ts';

// The dispatcher's side of the alert tables: its cursor over the event log and
// the commit that moves the cursor and writes the rows of the events read, in
// one transaction (docs/alerts.md "Dispatcher"). Summary rows (flood cap,
// digests, quiet hours) grow while no worker has attempted them.

/** A summary row of a dispatch batch was claimed while the batch was built. */
class SummaryClosed extends Error {}

export function dispatchRepository(db: Kysely<Database>) {
  return {
    /** Creates the dispatcher's cursor at `seq` unless it exists; returns the cursor. */
    async ensureCursor(name: string, seq: number, now: Date): Promise<number> {
      await db
        .insertInto('alert_cursors')
        .values({ name, seq, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      return this.cursor(name);
    },

    async cursor(name: string): Promise<number> {
      const row = await db.selectFrom('alert_cursors').select('seq').where('name', '=', name).executeTakeFirst();
      return row ? Number(row.seq) : 0;
    },

    /**
     * Moves the cursor from `fromSeq` to `toSeq` and inserts the deliveries of the
     * events in between, in one transaction. The cursor update comes first and is
     * conditional: it takes the row lock, and if another dispatcher moved the
     * cursor meanwhile nothing is written (returns false). Rows that exist
     * already (same event, organisation, channel) are left alone. Rows without an event
     * are flood-cap summaries (src/alerts/flood-cap.ts): inserted, or replacing the
     * payload of the same summary while it is still pending.
     */
    async commitDispatch(name: string, fromSeq: number, toSeq: number, all: NewDelivery[], now: Date): Promise<boolean> {
      const at = now.toISOString();
      const rows = all.filter((d) => d.eventSeq !== null);
      const summaries = all.filter((d) => d.eventSeq === null);
      return db
        .transaction()
        .execute(async (trx) => {
          const moved = await trx
            .updateTable('alert_cursors')
            .set({ seq: toSeq, updated_at: at })
            .where('name', '=', name)
            .where('seq', '=', fromSeq)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) return false;
          // Each event's record once (rows reference it), then the rows.
          const payloads = new Map<number, string>();
          for (const d of rows) if (!payloads.has(d.eventSeq!)) payloads.set(d.eventSeq!, d.payloadJson);
          for (const part of chunks([...payloads], INSERT_CHUNK)) {
            await trx
              .insertInto('alert_payloads')
              .values(part.map(([seq, payload]) => ({ event_seq: seq, payload, created_at: at })))
              .onConflict((oc) => oc.column('event_seq').doNothing())
              .execute();
          }
          for (const part of chunks(rows, INSERT_CHUNK)) {
            await trx
              .insertInto('deliveries')
              .values(part.map((d) => toRow({ ...d, payloadStoredApart: true }, at)))
              .onConflict((oc) => oc.columns(['event_seq', 'org_id', 'channel', 'route_id']).doNothing())
              .execute();
          }
          for (const summary of summaries) {
            const r = await trx
              .insertInto('deliveries')
              .values(toRow(summary, at))
              .onConflict((oc) =>
                oc
                  .column('id')
                  .doUpdateSet((eb) => ({ payload: eb.ref('excluded.payload'), vendor: eb.ref('excluded.vendor'), updated_at: at }))
                  .where('deliveries.status', '=', 'pending')
                  .where('deliveries.attempts', '=', 0),
              )
              .executeTakeFirst();
            // The summary was claimed meanwhile (its period ended on a worker's clock): adding to it
            // now could be lost. Nothing of the batch is written; it is dispatched again.
            if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw new SummaryClosed();
          }
          return true;
        })
        .catch((err) => {
          if (err instanceof SummaryClosed) return false;
          throw err;
        });
    },
  };
}

export type DispatchRepository = ReturnType<typeof dispatchRepository>;
