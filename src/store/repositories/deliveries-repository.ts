import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.ts';
import type { Database } from '../schema.ts';
import type { DeliveryStatus } from '../../domain/deliveries.ts';
import {
  chunks,
  type Completion,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryOn,
  ID_CHUNK,
  INSERT_CHUNK,
  type NewDelivery,
  toRow,
  withPayloads,
} from './delivery-rows.ts';
import { type AlertChannel, PUSH_CHANNELS } from '../../domain/alerts.ts';

// The durable delivery rows and every attempt made: created by the dispatcher
// (dispatch-repository.ts), claimed with a lease by the workers, completed with
// their results (see migration 0400-alerts for the lease scheme that lets
// several workers and instances share the rows). The in-app list and feed read
// theirs through inbox-repository.ts.

export type { Completion, Delivery, DeliveryAttempt, DeliveryOn, NewDelivery } from './delivery-rows.ts';

export function deliveriesRepository(db: Kysely<Database>, dialect: Dialect) {
  // Statements that name their rows by id (`id IN (…)`) must find them through the
  // primary key. Without statistics (a new table, a burst since the last ANALYZE)
  // both SQLite and PostgreSQL prefer the equality on `status` and walk
  // `deliveries_due` over every pending row — on PostgreSQL with the dead index
  // entries of earlier updates too — testing each against the list: per statement
  // O(pending rows), which made claiming and recording a burst of 10,000
  // quadratic. An expression on the column keeps its condition out of index
  // choice (SQLite: unary `+`; PostgreSQL: `|| ''`, the columns are text).
  const noIndex = (column: 'status' | 'next_attempt_at') => (dialect === 'sqlite' ? sql<string>`+${sql.ref(column)}` : sql<string>`(${sql.ref(column)} || '')`);
  return {
    /**
     * Alert rows per (organisation, push channel) created since `since`, keyed `org\0channel`
     * (flood cap). Test alerts and summaries (no event) do not count.
     */
    async countSince(orgIds: string[], since: string): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (const part of chunks(orgIds, ID_CHUNK)) {
        const rows = await db
          .selectFrom('deliveries')
          .select(['org_id', 'channel', (eb) => eb.fn.countAll<number>().as('n')])
          .where('org_id', 'in', part)
          .where('channel', 'in', [...PUSH_CHANNELS])
          .where('created_at', '>=', since)
          .where('event_seq', 'is not', null)
          .groupBy(['org_id', 'channel'])
          .execute();
        for (const r of rows) out.set(`${r.org_id}\u0000${r.channel}`, Number(r.n));
      }
      return out;
    },

    /** Rows by id (missing ids are absent from the map). */
    async getMany(ids: string[]): Promise<Map<string, Delivery>> {
      const out = new Map<string, Delivery>();
      for (const part of chunks(ids, ID_CHUNK)) {
        for (const r of await withPayloads(db, await db.selectFrom('deliveries').selectAll().where('id', 'in', part).execute())) out.set(r.id, r);
      }
      return out;
    },

    async insert(d: NewDelivery, now: Date): Promise<void> {
      await db.insertInto('deliveries').values(toRow(d, now.toISOString())).execute();
    },

    /** Inserts rows whose id does not exist yet (maintenance reminders); returns how many were new. */
    async insertNew(rows: NewDelivery[], now: Date): Promise<number> {
      let added = 0;
      for (const part of chunks(rows, INSERT_CHUNK)) {
        const r = await db
          .insertInto('deliveries')
          .values(part.map((d) => toRow(d, now.toISOString())))
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        added += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
      return added;
    },

    /**
     * Claims up to `limit` due rows for `owner`: each gets its attempt number
     * (attempts + 1) and a lease until `leaseUntil`, after which it is due again
     * should this owner die. PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent
     * claimers take different rows without waiting. SQLite: one UPDATE statement
     * under the database's single writer lock, with the due condition repeated.
     * Rows for the receivers in `skipReceivers` (their fair share is in use) are left.
     */
    async claim(owner: string, limit: number, now: Date, leaseUntil: Date, skipReceivers: readonly string[] = []): Promise<Delivery[]> {
      if (limit <= 0) return [];
      const at = now.toISOString();
      const skip = [...skipReceivers];
      if (dialect === 'postgres') {
        // The locking pick is a MATERIALIZED CTE so it runs exactly once. Written as
        // `id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)`, PostgreSQL may plan a
        // nested-loop semi join that re-runs the subquery for every candidate row;
        // each run skips the rows the statement already took and locks the next n,
        // so one claim of 16 took every due row (seen on fresh tables, no statistics).
        const rows = await db
          .with(
            (cte) => cte('picked').materialized(),
            (q) =>
              q
                .selectFrom('deliveries')
                .select('id')
                .where('status', '=', 'pending')
                .where('next_attempt_at', '<=', at)
                .$if(skip.length > 0, (w) => w.where((eb) => eb.or([eb('receiver', 'is', null), eb('receiver', 'not in', skip)])))
                .orderBy('next_attempt_at')
                .limit(limit)
                .forUpdate()
                .skipLocked(),
          )
          .updateTable('deliveries')
          .set((eb) => ({
            lease_owner: owner,
            attempts: eb('deliveries.attempts', '+', 1),
            next_attempt_at: leaseUntil.toISOString(),
            updated_at: at,
          }))
          .from('picked')
          .whereRef('deliveries.id', '=', 'picked.id')
          .returningAll('deliveries')
          .execute();
        return withPayloads(db, rows);
      }
      const rows = await db
        .updateTable('deliveries')
        .set((eb) => ({
          lease_owner: owner,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: leaseUntil.toISOString(),
          updated_at: at,
        }))
        .where('id', 'in', (eb) => {
          return eb
            .selectFrom('deliveries')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', at)
            .$if(skip.length > 0, (w) => w.where((e) => e.or([e('receiver', 'is', null), e('receiver', 'not in', skip)])))
            .orderBy('next_attempt_at')
            .limit(limit);
        })
        .where(noIndex('status'), '=', 'pending')
        .where(noIndex('next_attempt_at'), '<=', at)
        .returningAll()
        .execute();
      return withPayloads(db, rows);
    },

    /**
     * Records attempts and moves rows on, in one transaction. A row is only
     * changed while the completing owner still holds its lease for that attempt;
     * a late result (the lease ran out and another worker took the row) only
     * adds its attempt record.
     */
    async complete(results: Completion[], now: Date): Promise<void> {
      if (!results.length) return;
      const at = now.toISOString();
      const attemptRow = (r: Completion) => ({
        delivery_id: r.id,
        attempt: r.attempt,
        started_at: r.startedAt,
        status_code: r.statusCode,
        latency_ms: Math.round(r.latencyMs),
        error: r.error,
        outcome: r.outcome,
      });
      const first = results[0]!;
      if (
        dialect === 'postgres' &&
        results.length <= INSERT_CHUNK &&
        results.every((r) => r.status === 'succeeded' && r.error === null && r.owner === first.owner && r.statusCode === first.statusCode)
      ) {
        // The common case, a batch of plain successes: one statement (a data-modifying
        // CTE is atomic with its UPDATE) instead of BEGIN, INSERT, UPDATE, COMMIT —
        // four round trips, each a wait for the server on a loaded machine.
        await db
          .with('recorded', (q) => q.insertInto('delivery_attempts').values(results.map(attemptRow)).returning('delivery_attempts.id'))
          .updateTable('deliveries')
          .set({
            status: 'succeeded',
            lease_owner: null,
            next_attempt_at: null,
            last_status_code: first.statusCode,
            last_error: null,
            updated_at: at,
            completed_at: at,
          })
          .where(
            'id',
            'in',
            results.map((r) => r.id),
          )
          .where('lease_owner', '=', first.owner)
          .where(noIndex('status'), '=', 'pending')
          .execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(results, INSERT_CHUNK)) {
          await trx.insertInto('delivery_attempts').values(part.map(attemptRow)).execute();
        }
        // Successes share one statement per (owner, status code): the common case is one.
        const simple = new Map<string, Completion[]>();
        const others: Completion[] = [];
        for (const r of results) {
          if (r.status === 'succeeded' && r.error === null) {
            const key = `${r.owner}\u0000${r.statusCode}`;
            const list = simple.get(key);
            if (list) list.push(r);
            else simple.set(key, [r]);
          } else others.push(r);
        }
        for (const list of simple.values()) {
          const { owner, statusCode } = list[0]!;
          for (const part of chunks(list, ID_CHUNK)) {
            await trx
              .updateTable('deliveries')
              .set({
                status: 'succeeded',
                lease_owner: null,
                next_attempt_at: null,
                last_status_code: statusCode,
                last_error: null,
                updated_at: at,
                completed_at: at,
              })
              .where(
                'id',
                'in',
                part.map((r) => r.id),
              )
              .where('lease_owner', '=', owner)
              .where(noIndex('status'), '=', 'pending')
              .execute();
          }
        }
        for (const r of others) {
          const done = r.status !== 'pending';
          await trx
            .updateTable('deliveries')
            .set({
              status: r.status,
              lease_owner: null,
              next_attempt_at: done ? null : r.nextAttemptAt,
              last_status_code: r.statusCode,
              last_error: r.error,
              updated_at: at,
              completed_at: done ? at : null,
            })
            .where('id', '=', r.id)
            .where('lease_owner', '=', r.owner)
            .where('attempts', '=', r.attempt)
            .where(noIndex('status'), '=', 'pending')
            .execute();
        }
      });
    },

    /**
     * Gives back rows claimed by `owner` that were not attempted (a receiver's fair share, or
     * secrets that do not open): due again at `at`, the attempt not used; `why` is shown as
     * the row's last error.
     */
    async release(owner: string, ids: string[], at: Date, why?: string): Promise<void> {
      for (const part of chunks(ids, ID_CHUNK)) {
        await db
          .updateTable('deliveries')
          .set((eb) => ({ lease_owner: null, next_attempt_at: at.toISOString(), attempts: eb('attempts', '-', 1), ...(why ? { last_error: why } : {}) }))
          .where('id', 'in', part)
          .where('lease_owner', '=', owner)
          .where(noIndex('status'), '=', 'pending')
          .execute();
      }
    },

    async get(id: string): Promise<Delivery | null> {
      const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? (await withPayloads(db, [row]))[0]! : null;
    },

    /** An organisation's rows on the given channels, newest first. */
    async listForOrg<C extends AlertChannel>(
      orgId: string,
      o: { channels: readonly C[]; limit: number; unreadOnly?: boolean; status?: DeliveryStatus },
    ): Promise<DeliveryOn<C>[]> {
      let q = db
        .selectFrom('deliveries')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('channel', 'in', [...o.channels]);
      if (o.unreadOnly) q = q.where('read_at', 'is', null);
      if (o.status) q = q.where('status', '=', o.status);
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
      // Only rows on `channels`: the WHERE clause above.
      return (await withPayloads(db, rows)) as DeliveryOn<C>[];
    },

    /** Attempts of the given deliveries, oldest first per delivery. */
    async attemptsOf(deliveryIds: string[]): Promise<Map<string, DeliveryAttempt[]>> {
      const out = new Map<string, DeliveryAttempt[]>();
      for (const part of chunks(deliveryIds, ID_CHUNK)) {
        const rows = await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', part).orderBy('delivery_id').orderBy('id').execute();
        for (const r of rows) {
          const a: DeliveryAttempt = {
            deliveryId: r.delivery_id,
            attempt: Number(r.attempt),
            startedAt: r.started_at,
            statusCode: r.status_code === null ? null : Number(r.status_code),
            latencyMs: Number(r.latency_ms),
            error: r.error,
            outcome: r.outcome as DeliveryAttempt['outcome'],
          };
          const list = out.get(r.delivery_id);
          if (list) list.push(a);
          else out.set(r.delivery_id, [a]);
        }
      }
      return out;
    },

    /** Counts by status (benchmark, tests, metrics). */
    async countByStatus(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('deliveries')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },

    /** Pending rows by channel (metrics, on every scrape): the `deliveries_due` index narrows to pending rows only. */
    async countPending(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('deliveries')
        .select(['channel', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', '=', 'pending')
        .groupBy('channel')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.channel, Number(r.n)]));
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
