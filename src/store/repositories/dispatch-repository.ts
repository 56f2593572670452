import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { StoredEvent } from '../../domain/events.ts';
import { chunks, INSERT_CHUNK, type NewDelivery, toRow } from './delivery-rows.ts';
import { eventRow, storedEvent } from './events-repository.ts';

// The dispatcher's side of the alert tables: its cursor over the event log and
// the commit that moves the cursor and writes the rows of the events read, in
// one transaction (docs/alerts.md "Dispatcher"). Summary rows (flood cap,
// digests, quiet hours) grow while no worker has attempted them.

/**
 * Nothing of a write is kept: a summary row of the batch was claimed while the batch was built,
 * or another dispatcher released the same held events first.
 */
class NotWritten extends Error {}

/**
 * The rows of a dispatch, inside `trx`: each event's record once, then the rows; rows without an
 * event are flood-cap summaries, inserted or added to while still pending.
 */
async function writeRows(trx: Kysely<Database>, all: NewDelivery[], at: string): Promise<void> {
  const rows = all.filter((d) => d.eventSeq !== null);
  const summaries = all.filter((d) => d.eventSeq === null);
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
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw new NotWritten();
  }
}

/** An event held for one organisation (docs/alerts.md "Held alerts"). */
export interface Hold {
  orgId: string;
  event: StoredEvent;
}

async function writeHolds(trx: Kysely<Database>, holds: Hold[], at: string): Promise<void> {
  for (const part of chunks(holds, INSERT_CHUNK)) {
    await trx
      .insertInto('dispatch_holds')
      .values(
        part.map(({ orgId, event }) => {
          const { seq, ...columns } = eventRow(event);
          return { org_id: orgId, event_seq: seq, ...columns, held_at: at };
        }),
      )
      .onConflict((oc) => oc.columns(['org_id', 'event_seq']).doNothing())
      .execute();
  }
}

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
     * payload of the same summary while it is still pending. `holds` are the batch's events
     * for organisations whose secrets did not open (docs/alerts.md "Held alerts").
     */
    async commitDispatch(name: string, fromSeq: number, toSeq: number, all: NewDelivery[], now: Date, holds: Hold[] = []): Promise<boolean> {
      const at = now.toISOString();
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
          await writeRows(trx, all, at);
          if (holds.length) await writeHolds(trx, holds, at);
          return true;
        })
        .catch((err) => {
          if (err instanceof NotWritten) return false;
          throw err;
        });
    },

    /** Organisations with held events, the longest held first. */
    async heldOrgs(): Promise<string[]> {
      const rows = await db
        .selectFrom('dispatch_holds')
        .select('org_id')
        .select((eb) => eb.fn.min('held_at').as('since'))
        .groupBy('org_id')
        .orderBy('since')
        .execute();
      return rows.map((r) => r.org_id);
    },

    /** The oldest `limit` events held for an organisation, in log order. */
    async heldEvents(orgId: string, limit: number): Promise<StoredEvent[]> {
      const rows = await db.selectFrom('dispatch_holds').selectAll().where('org_id', '=', orgId).orderBy('event_seq').limit(limit).execute();
      return rows.map((r) => storedEvent({ ...r, seq: r.event_seq }));
    },

    /**
     * Writes the rows of an organisation's held events and lets go of those events, in one
     * transaction; false (nothing written) when another dispatcher released them first.
     */
    async releaseHeld(orgId: string, seqs: number[], all: NewDelivery[], now: Date): Promise<boolean> {
      const at = now.toISOString();
      return db
        .transaction()
        .execute(async (trx) => {
          let released = 0;
          for (const part of chunks(seqs, INSERT_CHUNK)) {
            const r = await trx.deleteFrom('dispatch_holds').where('org_id', '=', orgId).where('event_seq', 'in', part).executeTakeFirst();
            released += Number(r.numDeletedRows ?? 0);
          }
          if (released !== seqs.length) throw new NotWritten();
          await writeRows(trx, all, at);
          return true;
        })
        .catch((err) => {
          if (err instanceof NotWritten) return false;
          throw err;
        });
    },
  };
}

export type DispatchRepository = ReturnType<typeof dispatchRepository>;
