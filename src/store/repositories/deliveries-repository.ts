import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.ts';
import type { Database, DeliveriesTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// Alert deliveries: the dispatcher's cursor over the event log, the durable
// delivery rows, and every attempt made. See migration 0400-alerts for the
// lease scheme that lets several workers (and instances) share the rows.

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface Delivery {
  id: string;
  eventSeq: number | null;
  userId: string;
  channel: string;
  eventType: string;
  vendor: string;
  entityId: string;
  payload: Record<string, unknown>;
  occurredAt: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  isTest: boolean;
  /** Receiver key for the fair share of sending slots (docs/alerts.md); null = none. */
  receiver: string | null;
  readAt: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export interface NewDelivery {
  id: string;
  eventSeq: number | null;
  userId: string;
  channel: string;
  eventType: string;
  vendor: string;
  entityId: string;
  /** Serialised once per event and shared by its rows. */
  payloadJson: string;
  occurredAt: string;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  isTest?: boolean;
  leaseOwner?: string | null;
  attempts?: number;
  /** Webhook host (with port) or the channel's service: the fair-share key (docs/alerts.md). */
  receiver?: string | null;
}

export interface DeliveryAttempt {
  deliveryId: string;
  attempt: number;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: 'succeeded' | 'retry' | 'failed' | 'disabled' | 'cancelled';
}

/** The result of one attempt, written by `complete`. */
export interface Completion {
  id: string;
  /** The attempt number the claim gave this row (guards against a lost lease). */
  attempt: number;
  owner: string;
  status: DeliveryStatus;
  /** For a retry: when the row is due again. */
  nextAttemptAt: string | null;
  statusCode: number | null;
  error: string | null;
  startedAt: string;
  latencyMs: number;
  outcome: DeliveryAttempt['outcome'];
}

/**
 * Rows of one event carry the same payload text: a claim parses it once per event
 * (`payloads`, keyed by event seq) and its rows share the object, read-only.
 */
const toDelivery = (r: DeliveriesTable, payloads?: Map<number, Record<string, unknown>>): Delivery => ({
  id: r.id,
  eventSeq: r.event_seq === null ? null : Number(r.event_seq),
  userId: r.user_id,
  channel: r.channel,
  eventType: r.event_type,
  vendor: r.vendor,
  entityId: r.entity_id,
  payload: payloadOf(r, payloads),
  occurredAt: r.occurred_at,
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  leaseOwner: r.lease_owner,
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  isTest: Boolean(r.is_test),
  receiver: r.receiver ?? null,
  readAt: r.read_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
});

function payloadOf(r: DeliveriesTable, payloads?: Map<number, Record<string, unknown>>): Record<string, unknown> {
  if (!payloads || r.event_seq === null) return fromJson<Record<string, unknown>>(r.payload, {});
  const seq = Number(r.event_seq);
  let p = payloads.get(seq);
  if (!p) payloads.set(seq, (p = fromJson<Record<string, unknown>>(r.payload, {})));
  return p;
}

const toRow = (d: NewDelivery, now: string): DeliveriesTable => ({
  id: d.id,
  event_seq: d.eventSeq,
  user_id: d.userId,
  channel: d.channel,
  event_type: d.eventType,
  vendor: d.vendor,
  entity_id: d.entityId,
  payload: d.payloadJson,
  occurred_at: d.occurredAt,
  status: d.status,
  attempts: d.attempts ?? 0,
  next_attempt_at: d.nextAttemptAt,
  lease_owner: d.leaseOwner ?? null,
  last_status_code: null,
  last_error: null,
  is_test: d.isTest ? 1 : 0,
  receiver: d.receiver ?? null,
  read_at: null,
  created_at: now,
  updated_at: now,
  completed_at: d.status === 'pending' ? null : now,
});

/** Rows per multi-row INSERT: 20 columns each stays far below both dialects' parameter limits. */
const INSERT_CHUNK = 400;
/** Ids per `IN (…)` list. */
const ID_CHUNK = 500;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function deliveriesRepository(db: Kysely<Database>, dialect: Dialect) {
  // Statements that name their rows by id (`id IN (…)`) must find them through the
  // primary key. Without statistics (a new table, a burst since the last ANALYZE)
  // both SQLite and PostgreSQL prefer the equality on `status` and walk
  // `deliveries_due` over every pending row — on PostgreSQL with the dead index
  // entries of earlier updates too — testing each against the list: per statement
  // O(pending rows), which made claiming and recording a burst of 10,000
  // quadratic. An expression on the column keeps its condition out of index
  // choice (SQLite: unary `+`; PostgreSQL: `|| ''`, the columns are text).
  const noIndex = (column: 'status' | 'next_attempt_at') =>
    dialect === 'sqlite' ? sql<string>`+${sql.ref(column)}` : sql<string>`(${sql.ref(column)} || '')`;
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
     * already (same event, user, channel) are left alone. Rows without an event
     * are flood-cap summaries (src/alerts/flood-cap.ts): inserted, or replacing the
     * payload of the same summary while it is still pending.
     */
    async commitDispatch(name: string, fromSeq: number, toSeq: number, all: NewDelivery[], now: Date): Promise<boolean> {
      const at = now.toISOString();
      const rows = all.filter((d) => d.eventSeq !== null);
      const summaries = all.filter((d) => d.eventSeq === null);
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('alert_cursors')
          .set({ seq: toSeq, updated_at: at })
          .where('name', '=', name)
          .where('seq', '=', fromSeq)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        for (const part of chunks(rows, INSERT_CHUNK)) {
          await trx
            .insertInto('deliveries')
            .values(part.map((d) => toRow(d, at)))
            .onConflict((oc) => oc.columns(['event_seq', 'user_id', 'channel']).doNothing())
            .execute();
        }
        for (const summary of summaries) {
          await trx
            .insertInto('deliveries')
            .values(toRow(summary, at))
            .onConflict((oc) =>
              oc
                .column('id')
                .doUpdateSet((eb) => ({ payload: eb.ref('excluded.payload'), vendor: eb.ref('excluded.vendor'), updated_at: at }))
                .where('deliveries.status', '=', 'pending'),
            )
            .execute();
        }
        return true;
      });
    },

    /** Users whose settings document names the vendor (per-channel vendor lists; a superset, checked exactly by the caller). */
    async usersMentioningVendor(vendor: string): Promise<string[]> {
      const rows = await db
        .selectFrom('notification_preferences')
        .select('user_id')
        .where(sql<boolean>`settings like ${`%"${escapeLike(vendor)}"%`} escape '\\'`)
        .execute();
      return rows.map((r) => r.user_id);
    },

    /**
     * Alert rows per (user, push channel) created since `since`, keyed `user\0channel`
     * (flood cap). Test alerts and summaries (no event) do not count.
     */
    async countSince(userIds: string[], since: string): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (const part of chunks(userIds, ID_CHUNK)) {
        const rows = await db
          .selectFrom('deliveries')
          .select(['user_id', 'channel', (eb) => eb.fn.countAll<number>().as('n')])
          .where('user_id', 'in', part)
          .where('channel', 'in', ['webhook', 'pagerduty', 'slack', 'email'])
          .where('created_at', '>=', since)
          .where('event_seq', 'is not', null)
          .groupBy(['user_id', 'channel'])
          .execute();
        for (const r of rows) out.set(`${r.user_id}\u0000${r.channel}`, Number(r.n));
      }
      return out;
    },

    /** Rows by id (missing ids are absent from the map). */
    async getMany(ids: string[]): Promise<Map<string, Delivery>> {
      const out = new Map<string, Delivery>();
      for (const part of chunks(ids, ID_CHUNK)) {
        for (const r of await db.selectFrom('deliveries').selectAll().where('id', 'in', part).execute()) out.set(r.id, toDelivery(r));
      }
      return out;
    },

    /** Account e-mail addresses (e-mail channel default, Slack lookup). */
    async userEmails(userIds: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (const part of chunks([...new Set(userIds)], ID_CHUNK)) {
        const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', part).execute();
        for (const r of rows) out.set(r.id, r.email);
      }
      return out;
    },

    async insert(d: NewDelivery, now: Date): Promise<void> {
      await db.insertInto('deliveries').values(toRow(d, now.toISOString())).execute();
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
        const payloads = new Map<number, Record<string, unknown>>();
        return rows.map((r) => toDelivery(r, payloads));
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
      const payloads = new Map<number, Record<string, unknown>>();
      return rows.map((r) => toDelivery(r, payloads));
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
          .where('id', 'in', results.map((r) => r.id))
          .where('lease_owner', '=', first.owner)
          .where(noIndex('status'), '=', 'pending')
          .execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(results, INSERT_CHUNK)) {
          await trx
            .insertInto('delivery_attempts')
            .values(part.map(attemptRow))
            .execute();
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
              .where('id', 'in', part.map((r) => r.id))
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

    /** Gives back rows claimed by `owner` that were not attempted (shutdown): due again at `at`. */
    async release(owner: string, ids: string[], at: Date): Promise<void> {
      for (const part of chunks(ids, ID_CHUNK)) {
        await db
          .updateTable('deliveries')
          .set((eb) => ({ lease_owner: null, next_attempt_at: at.toISOString(), attempts: eb('attempts', '-', 1) }))
          .where('id', 'in', part)
          .where('lease_owner', '=', owner)
          .where(noIndex('status'), '=', 'pending')
          .execute();
      }
    },

    async get(id: string): Promise<Delivery | null> {
      const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toDelivery(row) : null;
    },

    /** A user's rows on the given channels, newest first. */
    async listForUser(
      userId: string,
      o: { channels: readonly string[]; limit: number; unreadOnly?: boolean; status?: DeliveryStatus },
    ): Promise<Delivery[]> {
      let q = db
        .selectFrom('deliveries')
        .selectAll()
        .where('user_id', '=', userId)
        .where('channel', 'in', [...o.channels]);
      if (o.unreadOnly) q = q.where('read_at', 'is', null);
      if (o.status) q = q.where('status', '=', o.status);
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
      return rows.map((r) => toDelivery(r));
    },

    async countUnread(userId: string, channel: string): Promise<number> {
      const r = await db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('channel', '=', channel)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Attempts of the given deliveries, oldest first per delivery. */
    async attemptsOf(deliveryIds: string[]): Promise<Map<string, DeliveryAttempt[]>> {
      const out = new Map<string, DeliveryAttempt[]>();
      for (const part of chunks(deliveryIds, ID_CHUNK)) {
        const rows = await db
          .selectFrom('delivery_attempts')
          .selectAll()
          .where('delivery_id', 'in', part)
          .orderBy('delivery_id')
          .orderBy('id')
          .execute();
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

    /** Marks one of the user's rows on `channel` read; false when the user has no such row. */
    async markRead(userId: string, channel: string, id: string, now: Date): Promise<boolean> {
      const row = await db
        .selectFrom('deliveries')
        .select(['id', 'read_at'])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('channel', '=', channel)
        .executeTakeFirst();
      if (!row) return false;
      if (row.read_at === null) {
        await db.updateTable('deliveries').set({ read_at: now.toISOString() }).where('id', '=', id).where('read_at', 'is', null).execute();
      }
      return true;
    },

    async markAllRead(userId: string, channel: string, now: Date): Promise<number> {
      const r = await db
        .updateTable('deliveries')
        .set({ read_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('channel', '=', channel)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows ?? 0);
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
export const payloadJson = (payload: unknown) => toJson(payload);
