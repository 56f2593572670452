import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { NotificationEventType, StoredChannel } from '../../domain/alerts.ts';
import { type DeliveryOn, withPayloads } from './delivery-rows.ts';

// An organisation's stored alerts: the in-app notifications (read state) and the
// personal feed's items, both delivery rows written as delivered.

/** A row of a stored channel: an alert of the event log or a reminder, never a summary of held alerts (docs/alerts.md). */
export type InboxRow = DeliveryOn<StoredChannel> & { eventType: NotificationEventType };

export function inboxRepository(db: Kysely<Database>) {
  return {
    /** The organisation's rows on `channel` (in_app, rss), newest first. */
    async list(orgId: string, channel: StoredChannel, o: { limit: number; unreadOnly?: boolean }): Promise<InboxRow[]> {
      let q = db.selectFrom('deliveries').selectAll().where('org_id', '=', orgId).where('channel', '=', channel);
      if (o.unreadOnly) q = q.where('read_at', 'is', null);
      // Rows on `channel` only (the WHERE clause); the dispatcher writes no held-alert summary there (docs/alerts.md).
      return (await withPayloads(db, await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).execute())) as InboxRow[];
    },

    async countUnread(orgId: string, channel: string): Promise<number> {
      const r = await db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('channel', '=', channel)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Marks one of the organisation's rows on `channel` read; false when it has no such row. */
    async markRead(orgId: string, channel: string, id: string, now: Date): Promise<boolean> {
      const row = await db
        .selectFrom('deliveries')
        .select(['id', 'read_at'])
        .where('id', '=', id)
        .where('org_id', '=', orgId)
        .where('channel', '=', channel)
        .executeTakeFirst();
      if (!row) return false;
      if (row.read_at === null) {
        await db.updateTable('deliveries').set({ read_at: now.toISOString() }).where('id', '=', id).where('read_at', 'is', null).execute();
      }
      return true;
    },

    async markAllRead(orgId: string, channel: string, now: Date): Promise<number> {
      const r = await db
        .updateTable('deliveries')
        .set({ read_at: now.toISOString() })
        .where('org_id', '=', orgId)
        .where('channel', '=', channel)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows ?? 0);
    },
  };
}

export type InboxRepository = ReturnType<typeof inboxRepository>;
