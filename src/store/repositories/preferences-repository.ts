import type { Kysely } from 'kysely';
import { defaultPreferences, normalizeStored, type SlackConnection, type StoredPreferences } from '../../domain/preferences.ts';
import type { Database, NotificationPreferencesTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// Notification preferences of a user: the settings document plus the channel
// secrets in their own columns. Updates are read-modify-write under the user's
// row lock (the first statement of the transaction writes the row), so two
// partial updates sent together both land.

export interface PreferencesState {
  settings: StoredPreferences;
  webhookSecret: string | null;
  webhookPreviousSecret: string | null;
  webhookPreviousExpiresAt: string | null;
  pagerdutyRoutingKey: string | null;
  rssTokenHash: string | null;
  rssTokenHint: string | null;
  slackConnection: SlackConnection | null;
  /** The e-mail address its owner proved by following a confirmation link. */
  emailConfirmedAddress: string | null;
  /** Pending confirmation: SHA-256 of the token, the address it is for, when it expires. */
  emailConfirmTokenHash: string | null;
  emailConfirmAddress: string | null;
  emailConfirmExpiresAt: string | null;
  updatedAt: string | null;
}

export const emptyPreferencesState = (): PreferencesState => ({
  settings: defaultPreferences(),
  webhookSecret: null,
  webhookPreviousSecret: null,
  webhookPreviousExpiresAt: null,
  pagerdutyRoutingKey: null,
  rssTokenHash: null,
  rssTokenHint: null,
  slackConnection: null,
  emailConfirmedAddress: null,
  emailConfirmTokenHash: null,
  emailConfirmAddress: null,
  emailConfirmExpiresAt: null,
  updatedAt: null,
});

const toState = (r: NotificationPreferencesTable): PreferencesState => ({
  settings: normalizeStored(fromJson<unknown>(r.settings, {})),
  webhookSecret: r.webhook_secret,
  webhookPreviousSecret: r.webhook_previous_secret,
  webhookPreviousExpiresAt: r.webhook_previous_expires_at,
  pagerdutyRoutingKey: r.pagerduty_routing_key,
  rssTokenHash: r.rss_token_hash,
  rssTokenHint: r.rss_token_hint,
  slackConnection: fromJson<SlackConnection | null>(r.slack_connection, null),
  emailConfirmedAddress: r.email_confirmed_address,
  emailConfirmTokenHash: r.email_confirm_token_hash,
  emailConfirmAddress: r.email_confirm_address,
  emailConfirmExpiresAt: r.email_confirm_expires_at,
  updatedAt: r.updated_at,
});

const toColumns = (s: PreferencesState) => ({
  settings: toJson(s.settings),
  webhook_secret: s.webhookSecret,
  webhook_previous_secret: s.webhookPreviousSecret,
  webhook_previous_expires_at: s.webhookPreviousExpiresAt,
  pagerduty_routing_key: s.pagerdutyRoutingKey,
  rss_token_hash: s.rssTokenHash,
  rss_token_hint: s.rssTokenHint,
  slack_connection: s.slackConnection ? toJson(s.slackConnection) : null,
  email_confirmed_address: s.emailConfirmedAddress,
  email_confirm_token_hash: s.emailConfirmTokenHash,
  email_confirm_address: s.emailConfirmAddress,
  email_confirm_expires_at: s.emailConfirmExpiresAt,
});

export function preferencesRepository(db: Kysely<Database>) {
  const userWithHash = async (column: 'rss_token_hash' | 'email_confirm_token_hash', hash: string): Promise<string | null> => {
    const row = await db.selectFrom('notification_preferences').select('user_id').where(column, '=', hash).executeTakeFirst();
    return row?.user_id ?? null;
  };
  return {
    /** The user's preferences; defaults when never saved. */
    async get(userId: string): Promise<PreferencesState> {
      const row = await db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row ? toState(row) : emptyPreferencesState();
    },

    /**
     * Read-modify-write under the user's lock. `mutate` must be synchronous and
     * touch nothing else (it runs inside the transaction); if it throws, nothing
     * is written.
     */
    async update(userId: string, now: Date, mutate: (current: PreferencesState) => PreferencesState): Promise<PreferencesState> {
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('notification_preferences')
          .values({ user_id: userId, ...toColumns(emptyPreferencesState()), version: 0, updated_at: at })
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet((eb) => ({ version: eb('notification_preferences.version', '+', 1) })),
          )
          .execute();
        const row = await trx.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
        const next = mutate(toState(row));
        await trx
          .updateTable('notification_preferences')
          .set({ ...toColumns(next), updated_at: at })
          .where('user_id', '=', userId)
          .execute();
        return { ...next, updatedAt: at };
      });
    },

    /** The user a personal feed token belongs to (looked up by its hash). */
    userIdForFeedTokenHash: (hash: string) => userWithHash('rss_token_hash', hash),

    /** The user a pending e-mail confirmation token belongs to (looked up by its hash). */
    userIdForEmailTokenHash: (hash: string) => userWithHash('email_confirm_token_hash', hash),

    /** Preferences of many users in one query (alert dispatch); missing users get defaults. */
    async getMany(userIds: string[]): Promise<Map<string, PreferencesState>> {
      const out = new Map<string, PreferencesState>();
      if (!userIds.length) return out;
      const rows = await db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', userIds).execute();
      for (const r of rows) out.set(r.user_id, toState(r));
      for (const id of userIds) if (!out.has(id)) out.set(id, emptyPreferencesState());
      return out;
    },
  };
}

export type PreferencesRepository = ReturnType<typeof preferencesRepository>;
