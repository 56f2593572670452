import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// The first message an incident got in a threaded channel (docs/alerts.md,
// "Threads"): later events of the incident reply under it and update it.

export interface AlertThread {
  conversation: string;
  ref: string;
}

export function alertThreadsRepository(db: Kysely<Database>) {
  return {
    async get(orgId: string, channel: string, entityId: string): Promise<AlertThread | null> {
      const row = await db
        .selectFrom('alert_threads')
        .select(['conversation', 'ref'])
        .where('org_id', '=', orgId)
        .where('channel', '=', channel)
        .where('entity_id', '=', entityId)
        .executeTakeFirst();
      return row ?? null;
    },

    /** Keeps the first thread of an incident: a second start (retry, race) does not replace it. */
    async save(orgId: string, channel: string, entityId: string, t: AlertThread, now: Date): Promise<void> {
      await db
        .insertInto('alert_threads')
        .values({ org_id: orgId, channel, entity_id: entityId, conversation: t.conversation, ref: t.ref, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['org_id', 'channel', 'entity_id']).doNothing())
        .execute();
    },

    /** An incident's thread in a conversation the user left (e-mail address changed). */
    async deleteOne(orgId: string, channel: string, entityId: string): Promise<void> {
      await db.deleteFrom('alert_threads').where('org_id', '=', orgId).where('channel', '=', channel).where('entity_id', '=', entityId).execute();
    },

    /** Threads of a channel end with its connection (Slack uninstall). */
    async deleteChannel(orgId: string, channel: string): Promise<void> {
      // The channel's own threads and those of its alert routes (`slack:<route id>`).
      await db
        .deleteFrom('alert_threads')
        .where('org_id', '=', orgId)
        .where((eb) => eb.or([eb('channel', '=', channel), eb('channel', 'like', `${channel}:%`)]))
        .execute();
    },
  };
}

export type AlertThreadsRepository = ReturnType<typeof alertThreadsRepository>;
