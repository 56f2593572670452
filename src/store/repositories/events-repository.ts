import type { Audience } from '../../domain/audience.ts';
import { visibleTo } from './visibility.ts';
import type { Kysely } from 'kysely';
import { type EntityKind, type EventType, isEventType, type NewEvent, type StoredEvent } from '../../domain/events.ts';
import type { Database, EventsTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// The event log. Rows are only appended (inside the transaction that made the
// change) and pruned by age; readers page through them by sequence number, and
// every number they see has all lower numbers visible too (see `appendAll`).

/** Rows per INSERT statement: 7 parameters each, far below both dialects' limits. */
const INSERT_CHUNK = 500;

export interface EventFilter {
  /** Who reads (docs/per-user.md "Custom status pages"); everything when omitted (workers). */
  audience?: Audience;
  vendors?: string[];
  types?: EventType[];
  entityKind?: EntityKind;
}

/** A stored event from its row (the log's, or a held copy of it). */
export const storedEvent = (r: Pick<EventsTable, 'type' | 'vendor' | 'entity_kind' | 'entity_id' | 'occurred_at' | 'payload'> & { seq: number }): StoredEvent =>
  ({
    seq: Number(r.seq),
    type: r.type,
    vendor: r.vendor,
    entityKind: r.entity_kind,
    entityId: r.entity_id,
    occurredAt: r.occurred_at,
    payload: fromJson(r.payload, {}),
  }) as StoredEvent;

/** An event's columns (the log's row, or a held copy of it). */
export const eventRow = (e: StoredEvent): EventsTable => ({
  seq: e.seq,
  type: e.type,
  vendor: e.vendor,
  entity_kind: e.entityKind,
  entity_id: e.entityId,
  occurred_at: e.occurredAt,
  payload: toJson(e.payload),
});

export function eventsRepository(db: Kysely<Database>) {
  /**
   * Appends `events` using `trx` — the transaction that writes the change they
   * describe, so the change and its events commit (or roll back) together. Their
   * sequence numbers come from `event_head`, whose row stays locked until that
   * transaction ends: numbers follow commit order, without gaps from rollbacks,
   * and a reader never sees a number before every lower one is visible
   * (docs/reliability.md, event order). Call it as the transaction's last write:
   * other appenders wait for the lock until this transaction commits.
   */
  async function appendAll(trx: Kysely<Database>, events: NewEvent[]): Promise<StoredEvent[]> {
    for (const e of events) if (!isEventType(e.type)) throw new Error(`unknown event type '${e.type}'`);
    if (!events.length) return [];
    // Outside a transaction the lock would end before the rows are written.
    if (!trx.isTransaction) return trx.transaction().execute((t) => appendAll(t, events));
    const head = await trx
      .updateTable('event_head')
      .set((eb) => ({ last_seq: eb('last_seq', '+', events.length) }))
      .where('id', '=', 1)
      .returning('last_seq')
      .executeTakeFirstOrThrow();
    const first = Number(head.last_seq) - events.length + 1;
    const stored = events.map((e, i) => ({ ...e, seq: first + i }) as StoredEvent);
    for (let i = 0; i < stored.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('events')
        .values(stored.slice(i, i + INSERT_CHUNK).map(eventRow))
        .execute();
    }
    return stored;
  }

  return {
    appendAll,

    /** One event; see `appendAll`. */
    async append(trx: Kysely<Database>, event: NewEvent): Promise<StoredEvent> {
      return (await appendAll(trx, [event]))[0]!;
    },

    /** Events with a sequence number above `seq`, oldest first. */
    async after(seq: number, limit: number, filter: EventFilter = {}): Promise<StoredEvent[]> {
      let q = visibleTo(db, db.selectFrom('events').selectAll().where('seq', '>', seq), filter.audience ?? 'internal');
      if (filter.vendors?.length) q = q.where('vendor', 'in', filter.vendors);
      if (filter.types?.length) q = q.where('type', 'in', filter.types);
      if (filter.entityKind) q = q.where('entity_kind', '=', filter.entityKind);
      const rows = await q.orderBy('seq', 'asc').limit(limit).execute();
      return rows.map(storedEvent);
    },

    /** The newest sequence number, 0 when the log is empty. */
    async latestSeq(): Promise<number> {
      const r = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      return Number(r?.seq ?? 0);
    },

    /** The oldest sequence number still kept, null when the log is empty (replay older than this is impossible). */
    async oldestSeq(): Promise<number | null> {
      const r = await db
        .selectFrom('events')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .executeTakeFirst();
      return r?.seq == null ? null : Number(r.seq);
    },

    /** Deletes events that occurred before `olderThan`; returns how many. */
    async prune(olderThan: Date | string): Promise<number> {
      const at = typeof olderThan === 'string' ? olderThan : olderThan.toISOString();
      const r = await db.deleteFrom('events').where('occurred_at', '<', at).executeTakeFirst();
      return Number(r.numDeletedRows ?? 0);
    },
  };
}

export type EventsRepository = ReturnType<typeof eventsRepository>;
