import { type Kysely, sql } from 'kysely';
import { DomainError } from '../../domain/errors.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import { defaultPreferences, normalizeStored, type SlackConnection, type StoredPreferences } from '../../domain/preferences.ts';
import type { Database, NotificationPreferencesTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';
import { openOrUnavailable } from './sealed-values.ts';

// Notification preferences of an organisation: the settings document plus the channel
// secrets in their own columns, sealed with the secrets key (AES-256-GCM,
// docs/security.md "Channel secrets"): every secret is sealed on write and
// opened on read here, so nothing above the store sees a sealed value and
// nothing below it a clear one. Updates are read-modify-write under the organisation's
// row lock (the first statement of the transaction writes the row), so two
// partial updates sent together both land.

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface PreferencesState {
  settings: StoredPreferences;
  webhookSecret: string | null;
  webhookPreviousSecret: string | null;
  webhookPreviousExpiresAt: string | null;
  pagerdutyRoutingKey: string | null;
  rssTokenHash: string | null;
  rssTokenHint: string | null;
  slackConnection: SlackConnection | null;
  channelSecrets: ChannelSecrets;
  /** The e-mail address its owner proved by following a confirmation link. */
  emailConfirmedAddress: string | null;
  /** Pending confirmation: SHA-256 of the token, the address it is for, when it expires. */
  emailConfirmTokenHash: string | null;
  emailConfirmAddress: string | null;
  emailConfirmExpiresAt: string | null;
  updatedAt: string | null;
}

/** Many organisations' preferences as the workers read them: those that open, and those that do not. */
export interface OpenedPreferences {
  states: Map<string, PreferencesState>;
  /** Organisations whose row is sealed with a key this instance does not have. */
  unreadable: Set<string>;
}

/** Secrets of the channels of docs/alerts.md beyond webhook and PagerDuty. */
export interface ChannelSecrets {
  opsgenieApiKey: string | null;
  teamsWebhookUrl: string | null;
  googleChatWebhookUrl: string | null;
  /** Bot token (xoxb-…) of the Slack workspace the organisation installed the app in. */
  slackBotToken: string | null;
}

const emptyChannelSecrets = (): ChannelSecrets => ({
  opsgenieApiKey: null,
  teamsWebhookUrl: null,
  googleChatWebhookUrl: null,
  slackBotToken: null,
});

const SEALED_COLUMNS = ['webhook_secret', 'webhook_previous_secret', 'pagerduty_routing_key', 'channel_secrets'] as const;

export const emptyPreferencesState = (): PreferencesState => ({
  settings: defaultPreferences(),
  webhookSecret: null,
  webhookPreviousSecret: null,
  webhookPreviousExpiresAt: null,
  pagerdutyRoutingKey: null,
  rssTokenHash: null,
  rssTokenHint: null,
  slackConnection: null,
  channelSecrets: emptyChannelSecrets(),
  emailConfirmedAddress: null,
  emailConfirmTokenHash: null,
  emailConfirmAddress: null,
  emailConfirmExpiresAt: null,
  updatedAt: null,
});

function codec(box: SecretBox) {
  // A value no key of this instance opens: its organisation's preferences cannot be read or
  // saved until an operator gives the key back (503 with that said, never a 500).
  const open = (v: string | null) => (v === null ? null : openOrUnavailable(box, v, 'These notification settings are'));
  const seal = (v: string | null) => (v === null ? null : box.seal(v));
  const toState = (r: NotificationPreferencesTable): PreferencesState => ({
    settings: normalizeStored(fromJson<unknown>(r.settings, {})),
    webhookSecret: open(r.webhook_secret),
    webhookPreviousSecret: open(r.webhook_previous_secret),
    webhookPreviousExpiresAt: r.webhook_previous_expires_at,
    pagerdutyRoutingKey: open(r.pagerduty_routing_key),
    rssTokenHash: r.rss_token_hash,
    rssTokenHint: r.rss_token_hint,
    slackConnection: fromJson<SlackConnection | null>(r.slack_connection, null),
    channelSecrets: { ...emptyChannelSecrets(), ...fromJson<Partial<ChannelSecrets>>(open(r.channel_secrets), {}) },
    emailConfirmedAddress: r.email_confirmed_address,
    emailConfirmTokenHash: r.email_confirm_token_hash,
    emailConfirmAddress: r.email_confirm_address,
    emailConfirmExpiresAt: r.email_confirm_expires_at,
    updatedAt: r.updated_at,
  });
  const toColumns = (s: PreferencesState) => {
    const anySecret = Object.values(s.channelSecrets).some((v) => v !== null);
    return {
      settings: toJson(s.settings),
      webhook_secret: seal(s.webhookSecret),
      webhook_previous_secret: seal(s.webhookPreviousSecret),
      webhook_previous_expires_at: s.webhookPreviousExpiresAt,
      pagerduty_routing_key: seal(s.pagerdutyRoutingKey),
      rss_token_hash: s.rssTokenHash,
      rss_token_hint: s.rssTokenHint,
      slack_connection: s.slackConnection ? toJson(s.slackConnection) : null,
      channel_secrets: anySecret ? box.seal(toJson(s.channelSecrets)) : null,
      email_confirmed_address: s.emailConfirmedAddress,
      email_confirm_token_hash: s.emailConfirmTokenHash,
      email_confirm_address: s.emailConfirmAddress,
      email_confirm_expires_at: s.emailConfirmExpiresAt,
    };
  };
  return { toState, toColumns };
}

export function preferencesRepository(db: Kysely<Database>, box: SecretBox) {
  const { toState, toColumns } = codec(box);
  const ownerWithHash = async (column: 'rss_token_hash' | 'email_confirm_token_hash', hash: string): Promise<string | null> => {
    const row = await db.selectFrom('notification_preferences').select('org_id').where(column, '=', hash).executeTakeFirst();
    return row?.org_id ?? null;
  };
  return {
    /**
     * Seals every secret stored in clear (rows written before encryption at rest)
     * or with a previous key (after SECRETS_KEY was rotated). Runs at start-up;
     * returns how many rows were rewritten. Each row is rewritten under its lock
     * and only if still stale, so instances starting together do not conflict. A row
     * no key of this instance opens (sealed with a key since dropped) is left as it is
     * and named to `unreadable`: start-up goes on, and only that organisation's
     * preferences fail to read.
     */
    async resealAll(unreadable: (orgId: string) => void = () => {}): Promise<number> {
      let n = 0;
      let after = '';
      for (;;) {
        const rows = await db
          .selectFrom('notification_preferences')
          .select(['org_id', ...SEALED_COLUMNS])
          .where('org_id', '>', after)
          .orderBy('org_id')
          .limit(500)
          .execute();
        if (!rows.length) return n;
        after = rows[rows.length - 1]!.org_id;
        for (const r of rows) {
          if (!SEALED_COLUMNS.some((c) => r[c] !== null && box.stale(r[c]!))) continue;
          await db.transaction().execute(async (trx) => {
            // A no-op write first takes the row lock on PostgreSQL (SQLite writers are serialised).
            await trx
              .updateTable('notification_preferences')
              .set((eb) => ({ version: eb.ref('version') }))
              .where('org_id', '=', r.org_id)
              .execute();
            const row = await trx.selectFrom('notification_preferences').selectAll().where('org_id', '=', r.org_id).executeTakeFirst();
            if (!row || !SEALED_COLUMNS.some((c) => row[c] !== null && box.stale(row[c]!))) return;
            let state: ReturnType<typeof toState>;
            try {
              state = toState(row);
            } catch {
              unreadable(r.org_id);
              return;
            }
            const cols = toColumns(state);
            await trx
              .updateTable('notification_preferences')
              .set(Object.fromEntries(SEALED_COLUMNS.map((c) => [c, cols[c]])))
              .where('org_id', '=', r.org_id)
              .execute();
            n++;
          });
        }
      }
    },

    /** The organisation's preferences; defaults when never saved. */
    async get(orgId: string): Promise<PreferencesState> {
      const row = await db.selectFrom('notification_preferences').selectAll().where('org_id', '=', orgId).executeTakeFirst();
      return row ? toState(row) : emptyPreferencesState();
    },

    /**
     * Read-modify-write under the organisation's lock. `mutate` must be synchronous and
     * touch nothing else (it runs inside the transaction); if it throws, nothing
     * is written.
     */
    async update(orgId: string, now: Date, mutate: (current: PreferencesState) => PreferencesState): Promise<PreferencesState> {
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('notification_preferences')
          .values({ org_id: orgId, ...toColumns(emptyPreferencesState()), version: 0, updated_at: at })
          .onConflict((oc) => oc.column('org_id').doUpdateSet((eb) => ({ version: eb('notification_preferences.version', '+', 1) })))
          .execute();
        const row = await trx.selectFrom('notification_preferences').selectAll().where('org_id', '=', orgId).executeTakeFirstOrThrow();
        const next = mutate(toState(row));
        await trx
          .updateTable('notification_preferences')
          .set({ ...toColumns(next), updated_at: at })
          .where('org_id', '=', orgId)
          .execute();
        return { ...next, updatedAt: at };
      });
    },

    /** The organisation a feed token belongs to (looked up by its hash). */
    orgIdForFeedTokenHash: (hash: string) => ownerWithHash('rss_token_hash', hash),

    /** The organisation a pending e-mail confirmation token belongs to (looked up by its hash). */
    orgIdForEmailTokenHash: (hash: string) => ownerWithHash('email_confirm_token_hash', hash),

    /** Preferences of many organisations in one query (alert dispatch); missing ones get defaults. */
    /**
     * Users with maintenance reminders set (a non-empty `lead_times` in the settings
     * document, as JSON.stringify writes it): one scan for the reminder check.
     */
    async orgsWithReminders(): Promise<string[]> {
      const rows = await db.selectFrom('notification_preferences').select('org_id').where(sql<boolean>`settings like ${'%"lead_times":["%'}`).execute();
      return rows.map((r) => r.org_id);
    },

    /** Users whose settings document names the vendor (per-channel vendor lists; a superset, checked exactly by the caller). */
    async orgsMentioningVendor(vendor: string): Promise<string[]> {
      const rows = await db
        .selectFrom('notification_preferences')
        .select('org_id')
        .where(sql<boolean>`settings like ${`%"${escapeLike(vendor)}"%`} escape '\\'`)
        .execute();
      return rows.map((r) => r.org_id);
    },

    /**
     * The workers' read of many organisations. A row this instance cannot open is left out of
     * `states` and named in `unreadable` instead of throwing: the alert workers hold that
     * organisation's alerts and go on with the others (docs/security.md "Channel secrets").
     */
    async openMany(orgIds: string[]): Promise<OpenedPreferences> {
      const states = new Map<string, PreferencesState>();
      const unreadable = new Set<string>();
      if (!orgIds.length) return { states, unreadable };
      const rows = await db.selectFrom('notification_preferences').selectAll().where('org_id', 'in', orgIds).execute();
      for (const r of rows) {
        try {
          states.set(r.org_id, toState(r));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          unreadable.add(r.org_id);
        }
      }
      for (const id of orgIds) if (!states.has(id) && !unreadable.has(id)) states.set(id, emptyPreferencesState());
      return { states, unreadable };
    },
  };
}

export type PreferencesRepository = ReturnType<typeof preferencesRepository>;
