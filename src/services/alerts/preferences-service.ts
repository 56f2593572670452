import { audienceFor } from '../access/audience.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  emailAddressStatus,
  feedPath,
  invalidPreferences,
  isMasked,
  mask,
  mergedProblems,
  mergePreferences,
  patchProblems,
  type PreferencesPatch,
  type PreferencesView,
  sameEmail,
  RULE_CHANNELS,
  VENDOR_LIST_CHANNELS,
  vendorSlugsIn,
} from '../../domain/preferences.ts';
import type { ComponentFilter } from '../../domain/alert-rules.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { PreferencesRepository, PreferencesState } from '../../store/repositories/preferences-repository.ts';
import type { SlidingLimitsRepository } from '../../store/repositories/sliding-limits-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import { hashFeedToken, newEmailConfirmToken, newFeedToken, newWebhookSecret } from './channel-secrets.ts';
import { sha256hex } from '../access/secrets.ts';

/** After a rotation the old webhook secret still signs (second signature) for this long. */
const WEBHOOK_SECRET_GRACE_MS = 24 * 3_600_000;

export interface PreferencesResult {
  preferences: PreferencesView;
  /** Fields shown in clear in this response only (a secret just generated). */
  shownOnce: string[];
}

/** How long an e-mail confirmation link works (docs/alerts.md "Proven addresses"). */
const EMAIL_CONFIRM_TTL_MS = 24 * 3_600_000;
/** Path of the confirmation page the link opens (a form that confirms with one click). */
const EMAIL_CONFIRM_PATH = '/confirm-email';

/** Sends the confirmation message through the e-mail channel's SMTP server; false when it could not. */
export type ConfirmationMailer = (to: string, link: string, expiresAt: string) => Promise<boolean>;

/**
 * The e-mail confirmation part of a save: an address other than the account's own
 * is pending until its link is followed; a new (or changed) address, or one whose
 * link expired, gets a new single-use token (only its hash is kept). Returns the
 * new state and the token to send, if any.
 */
function withEmailConfirmation(
  current: PreferencesState,
  next: PreferencesState,
  accountEmail: string | null,
  now: Date,
): { state: PreferencesState; token: string | null } {
  const address = next.settings.email.address;
  const clearPending = { emailConfirmTokenHash: null, emailConfirmAddress: null, emailConfirmExpiresAt: null };
  if (address === null) return { state: { ...next, ...clearPending }, token: null };
  if (sameEmail(address, accountEmail)) return { state: { ...next, ...clearPending, emailConfirmedAddress: address }, token: null };
  if (sameEmail(address, current.emailConfirmedAddress)) return { state: { ...next, ...clearPending }, token: null };
  if (!confirmationNeeded(current, address, accountEmail, now)) return { state: next, token: null };
  const token = newEmailConfirmToken();
  return {
    token,
    state: {
      ...next,
      // A new address starts unproven: a confirmation of an earlier one does not carry over.
      emailConfirmedAddress: null,
      emailConfirmTokenHash: hashFeedToken(token),
      emailConfirmAddress: address,
      emailConfirmExpiresAt: new Date(now.getTime() + EMAIL_CONFIRM_TTL_MS).toISOString(),
    },
  };
}

/** Whether saving `address` over `current` sends a new confirmation link. */
function confirmationNeeded(current: PreferencesState, address: string | null, accountEmail: string | null, now: Date): boolean {
  if (address === null || sameEmail(address, accountEmail) || sameEmail(address, current.emailConfirmedAddress)) return false;
  const changed = address !== current.settings.email.address;
  const linkAlive =
    sameEmail(current.emailConfirmAddress, address) && current.emailConfirmExpiresAt !== null && Date.parse(current.emailConfirmExpiresAt) > now.getTime();
  return changed || !linkAlive;
}

/**
 * Confirmation mails in any 24 hours (docs/alerts.md "Proven addresses"): per
 * account, and per address whichever accounts ask, so neither alternating
 * addresses nor many accounts make the service mail one address again and again.
 */
export const CONFIRM_MAILS_PER_ACCOUNT = 5;
export const CONFIRM_MAILS_PER_ADDRESS = 3;
const CONFIRM_MAIL_WINDOW_MS = 24 * 3_600_000;

/** Secrets generated during one call, shown in clear in its response. */
interface Revealed {
  webhookSecret?: string;
  feedToken?: string;
}

function view(s: PreferencesState, revealed: Revealed, now: Date, accountEmail: string | null): PreferencesResult {
  const p = s.settings;
  const shownOnce: string[] = [];
  let secret: string | null = s.webhookSecret ? mask(s.webhookSecret) : null;
  if (revealed.webhookSecret) {
    secret = revealed.webhookSecret;
    shownOnce.push('webhook.secret');
  }
  let feedUrl: string | null = s.rssTokenHint ? feedPath(`****${s.rssTokenHint}`) : null;
  if (revealed.feedToken) {
    feedUrl = feedPath(revealed.feedToken);
    shownOnce.push('rss.feed_url');
  }
  const graceOpen = s.webhookPreviousSecret && s.webhookPreviousExpiresAt && Date.parse(s.webhookPreviousExpiresAt) > now.getTime();
  return {
    shownOnce,
    preferences: {
      in_app: { ...p.in_app },
      email: { ...p.email, address_status: emailAddressStatus(p.email.address, accountEmail, s.emailConfirmedAddress) },
      slack: { ...p.slack },
      slack_connection: s.slackConnection ?? { connected: false, team: null, connected_at: null },
      webhook: {
        ...p.webhook,
        secret,
        ...(graceOpen ? { previous_secret_expires_at: s.webhookPreviousExpiresAt! } : {}),
      },
      pagerduty: { ...p.pagerduty, routing_key: masked(s.pagerdutyRoutingKey) },
      teams: { ...p.teams, webhook_url: masked(s.channelSecrets.teamsWebhookUrl) },
      google_chat: { ...p.google_chat, webhook_url: masked(s.channelSecrets.googleChatWebhookUrl) },
      opsgenie: { ...p.opsgenie, api_key: masked(s.channelSecrets.opsgenieApiKey) },
      rss: { enabled: p.rss.enabled, feed_url: feedUrl },
      newsletter: { ...p.newsletter },
      muted_vendors: [...p.muted_vendors],
      content_filters: { ...p.content_filters },
      timezone: p.timezone,
      quiet_hours: { ...p.quiet_hours },
      maintenance_reminders: { ...p.maintenance_reminders, lead_times: [...p.maintenance_reminders.lead_times] },
    },
  };
}

const masked = (secret: string | null) => (secret ? mask(secret) : null);

/**
 * The stored value of a secret field after a patch: `undefined` keeps it, null
 * clears it, the masked form shown by GET (a round trip) keeps it, anything
 * else replaces it. A masked value that is not the stored one is refused.
 */
function patchedSecret(field: string, sent: string | null | undefined, current: string | null): string | null {
  if (sent === undefined) return current;
  if (sent === null) return null;
  if (!isMasked(sent)) return sent;
  if (!current || mask(current) !== sent) {
    throw invalidPreferences([{ field, why: 'is masked; send the full value to change it' }]);
  }
  return current;
}

/** A new feed token: the state keeps only its hash and last characters. */
function withFeedToken(s: PreferencesState, token: string): PreferencesState {
  return { ...s, rssTokenHash: hashFeedToken(token), rssTokenHint: token.slice(-4) };
}

export function preferencesService(d: {
  catalog: CatalogService;
  preferences: PreferencesRepository;
  organisations: Pick<OrganisationsRepository, 'ownerEmails'>;
  clock: Clock;
  /** OUTBOUND_ALLOW_PRIVATE. */
  allowPrivate: readonly string[];
  /** PUBLIC_URL: origin of confirmation links; unset = no link is mailed (the request's Host is never used). */
  publicUrl?: string | null;
  slidingLimits: SlidingLimitsRepository;
  /** The e-mail channel's sender of confirmation messages; null when this server has no SMTP. */
  mailer?: () => ConfirmationMailer | null;
  audit: Pick<AuditService, 'record'>;
}) {
  /** The address alerts go to by default and that needs no confirmation: the organisation owner's (docs/teams.md). */
  const accountEmailOf = async (orgId: string) => (await d.organisations.ownerEmails([orgId])).get(orgId) ?? null;

  /**
   * Before a save that would mail a confirmation link: refused without PUBLIC_URL
   * (a link built from the request's Host could point anywhere), and counted
   * against the account's and the address's mail limits (429 when either is
   * spent; nothing is saved then).
   */
  async function gateConfirmationMail(orgId: string, patch: PreferencesPatch, accountEmail: string | null, now: Date): Promise<void> {
    if (!d.mailer?.()) return;
    const current = await d.preferences.get(orgId);
    const address = mergePreferences(current.settings, patch).email.address;
    if (!confirmationNeeded(current, address, accountEmail, now)) return;
    if (!d.publicUrl) {
      throw new DomainError('unavailable', 'Confirmation links cannot be mailed: this server has no PUBLIC_URL set (an operator setting)', {
        parameter: 'email.address',
      });
    }
    const gate = await d.slidingLimits.take(
      [
        { subject: `confirm-mail:u:${orgId}`, limit: CONFIRM_MAILS_PER_ACCOUNT },
        // The address itself is not stored here, only its hash.
        { subject: `confirm-mail:to:${sha256hex(address!.toLowerCase())}`, limit: CONFIRM_MAILS_PER_ADDRESS },
      ],
      CONFIRM_MAIL_WINDOW_MS,
      now,
    );
    if (!gate.allowed) {
      const whose = gate.subject.startsWith('confirm-mail:u:') ? 'this account' : 'this address';
      throw new DomainError('rate_limit_exceeded', `At most ${gate.limit} confirmation mails per 24 hours for ${whose}; try again later`, {
        parameter: 'email.address',
        retryAfter: gate.retryAfterSeconds,
      });
    }
  }
  return {
    async get(viewer: Viewer): Promise<PreferencesResult> {
      const orgId = ownerOrg(viewer);
      const [state, accountEmail] = await Promise.all([d.preferences.get(orgId), accountEmailOf(orgId)]);
      return view(state, {}, d.clock.now(), accountEmail);
    },

    /**
     * Partial update: omitted fields keep their values, objects merge key by key,
     * lists and scalars replace. Read-only fields (`slack_connection`,
     * `webhook.secret`, `rss.feed_url`) are ignored. A webhook URL set where none
     * was gets a new signing secret; switching RSS on the first time creates the
     * feed token; both are shown in clear in this response only. An e-mail address
     * other than the account's own is stored pending and a confirmation link is
     * sent to it (on PUBLIC_URL, within the mail limits).
     */
    async update(viewer: Viewer, patch: PreferencesPatch): Promise<PreferencesResult> {
      const orgId = ownerOrg(viewer, 'editor');
      const problems = patchProblems(patch, { allowPrivate: d.allowPrivate });
      if (problems.length) throw invalidPreferences(problems);
      const slugs = vendorSlugsIn(patch);
      if (slugs.length) {
        try {
          await d.catalog.requireAll(slugs, audienceFor(viewer));
        } catch (err) {
          if (!(err instanceof DomainError) || err.code !== 'not_found') throw err;
          throw invalidPreferences(unknownVendorProblems(patch, (err.details.vendors as string[]) ?? []));
        }
      }
      // Switching e-mail alerts on where they could never be sent would look like a
      // working channel that stays silent (the test send refuses the same way).
      if (patch.email?.enabled === true && !d.mailer?.()) {
        throw new DomainError('conflict', 'E-mail alerts are not available on this server (no SMTP server configured)', {
          parameter: 'email.enabled',
        });
      }
      const now = d.clock.now();
      const revealed: Revealed = {};
      const accountEmail = await accountEmailOf(orgId);
      await gateConfirmationMail(orgId, patch, accountEmail, now);
      let confirmToken: string | null = null;
      let before: Record<string, unknown> = {};
      const saved = await d.preferences.update(orgId, now, (current) => {
        before = Object.fromEntries(Object.keys(patch).map((k) => [k, (current.settings as unknown as Record<string, unknown>)[k] ?? null]));
        let next: PreferencesState = { ...current, settings: mergePreferences(current.settings, patch) };

        // A masked secret sent back (GET body round trip) means "unchanged".
        next.pagerdutyRoutingKey = patchedSecret('pagerduty.routing_key', patch.pagerduty?.routing_key, current.pagerdutyRoutingKey);
        const cs = current.channelSecrets;
        next.channelSecrets = {
          ...cs,
          teamsWebhookUrl: patchedSecret('teams.webhook_url', patch.teams?.webhook_url, cs.teamsWebhookUrl),
          googleChatWebhookUrl: patchedSecret('google_chat.webhook_url', patch.google_chat?.webhook_url, cs.googleChatWebhookUrl),
          opsgenieApiKey: patchedSecret('opsgenie.api_key', patch.opsgenie?.api_key, cs.opsgenieApiKey),
        };

        const merged = mergedProblems(next.settings, {
          routingKey: next.pagerdutyRoutingKey !== null,
          teamsUrl: next.channelSecrets.teamsWebhookUrl !== null,
          googleChatUrl: next.channelSecrets.googleChatWebhookUrl !== null,
          opsgenieKey: next.channelSecrets.opsgenieApiKey !== null,
        });
        if (merged.length) throw invalidPreferences(merged);

        if (next.settings.webhook.url === null) {
          next = { ...next, webhookSecret: null, webhookPreviousSecret: null, webhookPreviousExpiresAt: null };
        } else if (!next.webhookSecret) {
          revealed.webhookSecret = newWebhookSecret();
          next.webhookSecret = revealed.webhookSecret;
        }
        if (next.settings.rss.enabled && !next.rssTokenHash) {
          revealed.feedToken = newFeedToken();
          next = withFeedToken(next, revealed.feedToken);
        }
        const confirmation = withEmailConfirmation(current, next, accountEmail, now);
        confirmToken = confirmation.token;
        return confirmation.state;
      });
      if (confirmToken && saved.emailConfirmAddress && saved.emailConfirmExpiresAt) {
        await this.sendConfirmation(saved.emailConfirmAddress, confirmToken, saved.emailConfirmExpiresAt);
      }
      await d.audit.record(orgId, viewer, 'preferences.updated', 'notification-preferences', { before, after: patch });
      return view(saved, revealed, now, accountEmail);
    },

    /** Sends a confirmation link (best effort: the address stays pending either way). */
    async sendConfirmation(to: string, token: string, expiresAt: string): Promise<boolean> {
      const mailer = d.mailer?.() ?? null;
      if (!mailer || !d.publicUrl) return false;
      return mailer(to, `${d.publicUrl}${EMAIL_CONFIRM_PATH}?token=${encodeURIComponent(token)}`, expiresAt);
    },

    /**
     * Follows a confirmation link: the token must be the pending one (looked up by
     * hash), unexpired, and for the address still saved. Single use. Returns the
     * confirmed address, or null for an unknown, used, expired or outdated link.
     */
    async confirmEmail(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const hash = hashFeedToken(token);
      const orgId = await d.preferences.orgIdForEmailTokenHash(hash);
      if (!orgId) return null;
      const now = d.clock.now();
      let confirmed: string | null = null;
      await d.preferences.update(orgId, now, (current) => {
        const address = current.settings.email.address;
        if (
          current.emailConfirmTokenHash !== hash ||
          !current.emailConfirmExpiresAt ||
          Date.parse(current.emailConfirmExpiresAt) <= now.getTime() ||
          address === null ||
          current.emailConfirmAddress !== address
        ) {
          return current;
        }
        confirmed = address;
        return { ...current, emailConfirmedAddress: address, emailConfirmTokenHash: null, emailConfirmAddress: null, emailConfirmExpiresAt: null };
      });
      return confirmed;
    },

    /**
     * New webhook signing secret, shown in clear in this response only. The
     * previous one keeps signing (as a second signature) for a grace period so
     * receivers can switch without losing deliveries.
     */
    async rotateWebhookSecret(viewer: Viewer): Promise<PreferencesResult> {
      const orgId = ownerOrg(viewer, 'editor');
      const now = d.clock.now();
      const revealed: Revealed = { webhookSecret: newWebhookSecret() };
      const saved = await d.preferences.update(orgId, now, (current) => {
        if (!current.settings.webhook.url || !current.webhookSecret) {
          throw new DomainError('conflict', 'No webhook is configured: set webhook.url first', { parameter: 'webhook.url' });
        }
        return {
          ...current,
          webhookSecret: revealed.webhookSecret!,
          webhookPreviousSecret: current.webhookSecret,
          webhookPreviousExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS).toISOString(),
        };
      });
      await d.audit.record(orgId, viewer, 'preferences.webhook_secret_rotated', 'notification-preferences');
      return view(saved, revealed, now, await accountEmailOf(orgId));
    },

    /** New personal feed token (the old feed URL stops working at once), shown in clear once. */
    async rotateFeedToken(viewer: Viewer): Promise<PreferencesResult> {
      const orgId = ownerOrg(viewer, 'editor');
      const now = d.clock.now();
      const revealed: Revealed = { feedToken: newFeedToken() };
      const saved = await d.preferences.update(orgId, now, (current) => {
        if (!current.settings.rss.enabled) {
          throw new DomainError('conflict', 'The RSS feed is not enabled: set rss.enabled to true first', { parameter: 'rss.enabled' });
        }
        return withFeedToken(current, revealed.feedToken!);
      });
      await d.audit.record(orgId, viewer, 'preferences.feed_token_rotated', 'notification-preferences');
      return view(saved, revealed, now, await accountEmailOf(orgId));
    },

    /** The user a personal feed token belongs to, or null (for the feed endpoint). */
    async userForFeedToken(token: string): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      return d.preferences.orgIdForFeedTokenHash(hashFeedToken(token));
    },

    /** Whether the user's personal feed is switched on (a disabled feed answers 404). */
    async feedEnabled(orgId: string): Promise<boolean> {
      return (await d.preferences.get(orgId)).settings.rss.enabled;
    },

    /** Vendors the user muted (left out of the personal calendar as of every channel). */
    async mutedVendors(orgId: string): Promise<string[]> {
      return [...(await d.preferences.get(orgId)).settings.muted_vendors];
    },

    /** Secrets a delivery signs with: the current one, plus the previous one during its grace period. */
    async webhookSigningSecrets(orgId: string): Promise<string[]> {
      const s = await d.preferences.get(orgId);
      if (!s.webhookSecret) return [];
      const grace = s.webhookPreviousSecret && s.webhookPreviousExpiresAt && Date.parse(s.webhookPreviousExpiresAt) > d.clock.now().getTime();
      return grace ? [s.webhookSecret, s.webhookPreviousSecret!] : [s.webhookSecret];
    },
  };
}

/** Each patch field that lists unknown vendors, with the ones it lists. */
const componentVendors = (f: ComponentFilter | undefined | null) => (f && !Array.isArray(f) ? Object.keys(f) : []);

function unknownVendorProblems(patch: PreferencesPatch, unknown: string[]): { field: string; why: string }[] {
  const lists: [string, string[] | null | undefined][] = [
    ['muted_vendors', patch.muted_vendors],
    ...VENDOR_LIST_CHANNELS.map((c): [string, string[] | null | undefined] => [`${c}.vendors`, patch[c]?.vendors]),
    // Per-vendor component maps name vendors by their keys.
    ['content_filters.components', componentVendors(patch.content_filters?.components)],
    ...RULE_CHANNELS.map((c): [string, string[]] => [`${c}.alert_on.components`, componentVendors(patch[c]?.alert_on?.components)]),
  ];
  const out: { field: string; why: string }[] = [];
  for (const [field, list] of lists) {
    const bad = [...new Set((list ?? []).filter((v) => unknown.includes(v)))];
    if (bad.length) out.push({ field, why: `unknown vendor${bad.length > 1 ? 's' : ''} ${bad.map((b) => `'${b}'`).join(', ')}` });
  }
  return out;
}

export type PreferencesService = ReturnType<typeof preferencesService>;
