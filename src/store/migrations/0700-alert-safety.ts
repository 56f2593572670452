import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Alert safety (docs/alerts.md "Proven addresses", "Flood cap", "Fair share per receiver").
//
// `notification_preferences`: the e-mail address its owner proved (followed the
// confirmation link for), and the pending confirmation: SHA-256 of the token
// (the token itself is only in the message), the address it was issued for and
// when it expires.
//
// `deliveries.receiver`: the receiver a row goes to (webhook host with port, or
// the channel's service), written at dispatch so a claim can skip receivers
// whose fair share of sending slots is in use.
export function alertSafetyMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['email_confirmed_address', 'email_confirm_token_hash', 'email_confirm_address', 'email_confirm_expires_at']) {
        await db.schema.alterTable('notification_preferences').addColumn(column, 'text').execute();
      }
      await db.schema.createIndex('notification_preferences_email_token').on('notification_preferences').column('email_confirm_token_hash').execute();
      await db.schema.alterTable('deliveries').addColumn('receiver', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('deliveries').dropColumn('receiver').execute();
      await db.schema.dropIndex('notification_preferences_email_token').execute();
      for (const column of ['email_confirm_expires_at', 'email_confirm_address', 'email_confirm_token_hash', 'email_confirmed_address']) {
        await db.schema.alterTable('notification_preferences').dropColumn(column).execute();
      }
    },
  };
}
