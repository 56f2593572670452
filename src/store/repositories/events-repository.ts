import type { Kysely } from 'kysely';
import { type EntityKind, type EventType, isEventType, type NewEvent, type StoredEvent } from '../../domain/events.ts';
import type { Database, EventsTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// The event log. Rows are only appended (inside the transaction that made the
// change) and pruned by age; readers page through them by sequence number.

export interface EventFilter {
  vendors?: string[];
  types?: EventType[];
  entityKind?: EntityKind;
}

const toEvent = (r: Pick<EventsTable, 'type' | 'vendor' | 'entity_kind' | 'entity_id' | 'occurred_at' | 'payload'> & { seq: number }): StoredEvent =>
  ({
    seq: Number(r.seq),
    type: r.type,
    vendor: r.vendor,
    entityKind: r.entity_kind,
    entityId: r.entity_id,
    occurredAt: r.occurred_at,
    payload: fromJson(r.payload, {}),
  }) as StoredEvent;

export function eventsRepository(db: Kysely<Database>) {
  return {
    /**
     * Appends one event using `trx` — the transaction that writes the change it
     * describes, so the change and its event commit (or roll back) together.
     */
    async append(trx: Kysely<Database>, event: NewEvent): Promise<StoredEvent> {
      if (!isEventType(event.type)) throw new Error(`unknown event type '${event.type}'`);
      const row = await trx
        .insertInto('events')
        .values({
          type: event.type,
          vendor: event.vendor,
          entity_kind: event.entityKind,
          entity_id: event.entityId,
          occurred_at: event.occurredAt,
          payload: toJson(event.payload),
        })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return { ...event, seq: Number(row.seq) } as StoredEvent;
    },

    /** Events with a sequence number above `seq`, oldest first. */
    async after(seq: number, limit: number, filter: EventFilter = {}): Promise<StoredEvent[]> {
      let q = db.selectFrom('events').selectAll().where('seq', '>', seq);
      if (filter.vendors?.length) q = q.where('vendor', 'in', filter.vendors);
      if (filter.types?.length) q = q.where('type', 'in', filter.types);
      if (filter.entityKind) q = q.where('entity_kind', '=', filter.entityKind);
      const rows = await q.orderBy('seq', 'asc').limit(limit).execute();
      return rows.map(toEvent);
    },

    /** The newest sequence number, 0 when the log is empty. */
    async latestSeq(): Promise<number> {
      const r = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
      return Number(r?.seq ?? 0);
    },

    /** The oldest sequence number still kept, null when the log is empty (replay older than this is impossible). */
    async oldestSeq(): Promise<number | null> {
      const r = await db.selectFrom('events').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst();
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
