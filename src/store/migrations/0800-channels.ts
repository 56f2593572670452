import type { Kysely } from 'kysely';

// Alert channels of the second wave (docs/alerts.md): the encrypted secrets of
// Opsgenie, Teams, Google Chat and the Slack install in one sealed JSON column,
// and the message each incident started in a threaded channel (Slack `ts`), so
// later events of the incident reply in its thread and update its first message.
// Existing clear secrets are sealed at start-up (preferences repository
// `resealAll`), since only the running app holds the key.
export function channelsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('notification_preferences').addColumn('channel_secrets', 'text').execute();
      await db.schema
        .createTable('alert_threads')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('conversation', 'text', (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('alert_threads_pk', ['user_id', 'channel', 'entity_id'])
        .execute();
    },
  };
}
