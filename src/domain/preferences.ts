import { DomainError } from './errors.ts';
import { isOpsgenieKey, isRoutingKey, isSlackConversation, teamsUrlProblem } from './channel-targets.ts';
import { webhookUrlProblem } from './outbound-url.ts';
import { IMPACTS, type Impact } from './records.ts';
import { CHANGE_KINDS, type ChannelRules, type ComponentFilter, componentFilterSize, defaultChannelRules, normalizeComponentFilter } from './alert-rules.ts';
import type { QuietHours } from './quiet-hours.ts';
import { MAX_LEAD_TIMES, parseLeadTime } from './reminders.ts';
import { isTimeZone, parseClock } from './time-zones.ts';

// Notification preferences (docs/per-user.md). Keys are snake_case. The stored
// document holds only non-secret settings; secrets (webhook signing secret,
// PagerDuty routing key, RSS feed token) are kept apart and only ever shown
// masked, except once in the response that generated them.

export const EMAIL_DIGESTS = ['off', 'hourly', 'daily'] as const;
export type EmailDigest = (typeof EMAIL_DIGESTS)[number];

export const WEBHOOK_FORMATS = ['standard', 'discord', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const OPSGENIE_REGIONS = ['us', 'eu'] as const;
export type OpsgenieRegion = (typeof OPSGENIE_REGIONS)[number];

/** Event types an alert can be about (the event log's types). */
export const ALERT_EVENT_TYPES = [
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'maintenance.scheduled',
  'maintenance.started',
  'maintenance.updated',
  'maintenance.completed',
] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** Push channels that take their own rules (`alert_on`); null there = `content_filters`. */
export const RULE_CHANNELS = ['webhook', 'pagerduty', 'slack', 'email', 'teams', 'google_chat', 'opsgenie'] as const;
export type RuleChannel = (typeof RULE_CHANNELS)[number];

export interface MaintenanceReminders {
  /** Lead times before a window starts, e.g. ["24h", "1h"]; empty = no reminders. */
  lead_times: string[];
  /** Alerts when a window starts and when it completes. */
  started: boolean;
  completed: boolean;
}

/** Per-channel vendor lists and muted vendors are bounded like the dashboard bundle. */
export const MAX_VENDOR_LIST = 500;
export const MAX_COMPONENT_FILTERS = 100;
/** Path of the personal feed; the token is the secret part. */
const FEED_PATH_PREFIX = '/api/v1/feeds/';
export const feedPath = (token: string) => `${FEED_PATH_PREFIX}${token}.rss`;

export interface StoredPreferences {
  in_app: { enabled: boolean };
  /** `address: null` = the account's own e-mail address. */
  email: { enabled: boolean; address: string | null; digest: EmailDigest; alert_on: ChannelRules | null };
  /** `vendors: null` = the watchlist; `channel: null` = direct messages to the installing user. */
  slack: { enabled: boolean; channel: string | null; vendors: string[] | null; alert_on: ChannelRules | null };
  webhook: { enabled: boolean; url: string | null; format: WebhookFormat; vendors: string[] | null; alert_on: ChannelRules | null };
  pagerduty: { enabled: boolean; vendors: string[] | null; alert_on: ChannelRules | null };
  /** The webhook URLs (Teams, Google Chat) and the Opsgenie API key are secrets, stored apart. */
  teams: { enabled: boolean; vendors: string[] | null; alert_on: ChannelRules | null };
  google_chat: { enabled: boolean; vendors: string[] | null; alert_on: ChannelRules | null };
  opsgenie: { enabled: boolean; region: OpsgenieRegion; vendors: string[] | null; alert_on: ChannelRules | null };
  rss: { enabled: boolean };
  newsletter: { enabled: boolean };
  muted_vendors: string[];
  content_filters: { min_impact: Impact; event_types: AlertEventType[]; components: ComponentFilter };
  /** IANA time zone of digests, quiet hours and reminders. */
  timezone: string;
  quiet_hours: QuietHours;
  maintenance_reminders: MaintenanceReminders;
}

type RulesPatch = Partial<ChannelRules> | null;

export interface PreferencesPatch {
  in_app?: { enabled?: boolean };
  /** `address_status` is read-only and ignored. */
  email?: { enabled?: boolean; address?: string | null; digest?: EmailDigest; address_status?: unknown; alert_on?: RulesPatch };
  slack?: { enabled?: boolean; channel?: string | null; vendors?: string[] | null; alert_on?: RulesPatch };
  webhook?: {
    alert_on?: RulesPatch;
    enabled?: boolean;
    url?: string | null;
    format?: WebhookFormat;
    vendors?: string[] | null;
    /** Read-only, ignored. */
    secret?: unknown;
    /** Read-only, ignored. */
    previous_secret_expires_at?: unknown;
  };
  pagerduty?: { enabled?: boolean; routing_key?: string | null; vendors?: string[] | null; alert_on?: RulesPatch };
  teams?: { enabled?: boolean; webhook_url?: string | null; vendors?: string[] | null; alert_on?: RulesPatch };
  google_chat?: { enabled?: boolean; webhook_url?: string | null; vendors?: string[] | null; alert_on?: RulesPatch };
  opsgenie?: { enabled?: boolean; api_key?: string | null; region?: OpsgenieRegion; vendors?: string[] | null; alert_on?: RulesPatch };
  rss?: { enabled?: boolean; feed_url?: unknown };
  newsletter?: { enabled?: boolean };
  muted_vendors?: string[];
  content_filters?: { min_impact?: Impact; event_types?: AlertEventType[]; components?: ComponentFilter };
  timezone?: string;
  quiet_hours?: Partial<QuietHours>;
  maintenance_reminders?: Partial<MaintenanceReminders>;
  /** Read-only: accepted and ignored, so a GET body can be sent back as it is. */
  slack_connection?: unknown;
}

export interface SlackConnection {
  connected: boolean;
  /** Workspace name. */
  team: string | null;
  connected_at: string | null;
  /** Workspace id (T…) and the installing member (U…, the DM recipient); absent before the install. */
  team_id?: string | null;
  user_id?: string | null;
  bot_user_id?: string | null;
}

/** What the API shows: settings plus masked secrets and read-only fields. */
export interface PreferencesView {
  in_app: { enabled: boolean };
  email: { enabled: boolean; address: string | null; digest: EmailDigest; address_status: EmailAddressStatus; alert_on: ChannelRules | null };
  slack: { enabled: boolean; channel: string | null; vendors: string[] | null; alert_on: ChannelRules | null };
  slack_connection: SlackConnection;
  webhook: {
    alert_on: ChannelRules | null;
    enabled: boolean;
    url: string | null;
    format: WebhookFormat;
    vendors: string[] | null;
    secret: string | null;
    previous_secret_expires_at?: string;
  };
  pagerduty: { enabled: boolean; routing_key: string | null; vendors: string[] | null; alert_on: ChannelRules | null };
  teams: { enabled: boolean; webhook_url: string | null; vendors: string[] | null; alert_on: ChannelRules | null };
  google_chat: { enabled: boolean; webhook_url: string | null; vendors: string[] | null; alert_on: ChannelRules | null };
  opsgenie: { enabled: boolean; api_key: string | null; region: OpsgenieRegion; vendors: string[] | null; alert_on: ChannelRules | null };
  rss: { enabled: boolean; feed_url: string | null };
  newsletter: { enabled: boolean };
  muted_vendors: string[];
  content_filters: { min_impact: Impact; event_types: AlertEventType[]; components: ComponentFilter };
  timezone: string;
  quiet_hours: QuietHours;
  maintenance_reminders: MaintenanceReminders;
}

export function defaultPreferences(): StoredPreferences {
  return {
    in_app: { enabled: true },
    email: { enabled: false, address: null, digest: 'off', alert_on: null },
    slack: { enabled: false, channel: null, vendors: null, alert_on: null },
    webhook: { enabled: false, url: null, format: 'standard', vendors: null, alert_on: null },
    pagerduty: { enabled: false, vendors: null, alert_on: null },
    teams: { enabled: false, vendors: null, alert_on: null },
    google_chat: { enabled: false, vendors: null, alert_on: null },
    opsgenie: { enabled: false, region: 'us', vendors: null, alert_on: null },
    rss: { enabled: false },
    newsletter: { enabled: false },
    muted_vendors: [],
    content_filters: { min_impact: 'none', event_types: [...ALERT_EVENT_TYPES], components: [] },
    timezone: 'UTC',
    quiet_hours: { enabled: false, start: '22:00', end: '07:00' },
    maintenance_reminders: { lead_times: [], started: true, completed: true },
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deep merge: objects merge key by key, anything else (arrays, null, scalars)
 * replaces. Keys missing from `base` are ignored (the patch was validated).
 */
function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || !(k in base)) continue;
    out[k] = deepMerge((base as Record<string, unknown>)[k], v);
  }
  return out as T;
}

/** Stored document read back: fills keys added since it was written, drops unknown ones. */
export function normalizeStored(raw: unknown): StoredPreferences {
  const doc = isPlainObject(raw) ? raw : {};
  const out = deepMerge(defaultPreferences(), doc);
  return withReplacedParts(out, doc as PreferencesPatch);
}

/**
 * Parts that replace as a whole rather than merge key by key: a per-vendor component
 * map (its vendors are the keys: merging would keep vendors the caller removed and
 * drop new ones) and a channel's `alert_on` (filled with defaults when it was null).
 */
function withReplacedParts(next: StoredPreferences, patch: PreferencesPatch): StoredPreferences {
  const components = patch.content_filters?.components;
  if (components !== undefined && components !== null) next.content_filters = { ...next.content_filters, components: normalizeComponentFilter(components) };
  for (const ch of RULE_CHANNELS) {
    const sent = (patch[ch] as { alert_on?: RulesPatch } | undefined)?.alert_on;
    const current = next[ch].alert_on;
    if (current === null || current === undefined) {
      (next[ch] as { alert_on: ChannelRules | null }).alert_on = null;
      continue;
    }
    const rules: ChannelRules = { ...defaultChannelRules(), ...current };
    if (sent && sent.components !== undefined) rules.components = normalizeComponentFilter(sent.components ?? []);
    rules.changes = [...new Set(rules.changes)];
    (next[ch] as { alert_on: ChannelRules | null }).alert_on = rules;
  }
  return next;
}

const unique = (list: string[]) => [...new Set(list)];

/** Read-only and secret fields of each channel: never in the stored document. */
const NOT_SETTINGS: Record<string, readonly string[]> = {
  email: ['address_status'],
  webhook: ['secret', 'previous_secret_expires_at'],
  pagerduty: ['routing_key'],
  rss: ['feed_url'],
  teams: ['webhook_url'],
  google_chat: ['webhook_url'],
  opsgenie: ['api_key'],
};

function settingsPart(patch: PreferencesPatch): unknown {
  const { slack_connection: _sc, ...rest } = patch;
  const out: Record<string, unknown> = { ...rest };
  for (const [key, fields] of Object.entries(NOT_SETTINGS)) {
    const value = (rest as Record<string, unknown>)[key];
    if (isPlainObject(value)) out[key] = Object.fromEntries(Object.entries(value).filter(([k]) => !fields.includes(k)));
  }
  return out;
}

/** Discord's webhook URLs get Discord-shaped bodies unless the caller says otherwise. */
export function isDiscordWebhookUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return /^(?:[a-z]+\.)?discord(?:app)?\.com$/.test(u.hostname) && u.pathname.startsWith('/api/webhooks/');
  } catch {
    return false;
  }
}

/** Slack incoming webhooks (hooks.slack.com/services/…) get Block Kit bodies unless the caller says otherwise. */
function isSlackWebhookUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.hostname === 'hooks.slack.com' && u.pathname.startsWith('/services/');
  } catch {
    return false;
  }
}

/** Channels with their own vendor list (`vendors: null` = the watchlist). */
export const VENDOR_LIST_CHANNELS = ['slack', 'webhook', 'pagerduty', 'teams', 'google_chat', 'opsgenie'] as const;

export function mergePreferences(current: StoredPreferences, patch: PreferencesPatch): StoredPreferences {
  const next = withReplacedParts(deepMerge(current, settingsPart(patch)), patch);
  // Lists are sets: duplicates collapse, first occurrence keeps its place.
  next.muted_vendors = unique(next.muted_vendors);
  next.content_filters = {
    ...next.content_filters,
    event_types: unique(next.content_filters.event_types) as AlertEventType[],
    components: normalizeComponentFilter(next.content_filters.components),
  };
  next.maintenance_reminders = { ...next.maintenance_reminders, lead_times: unique(next.maintenance_reminders.lead_times) };
  for (const ch of VENDOR_LIST_CHANNELS) {
    const vendors = next[ch].vendors;
    if (vendors) next[ch] = { ...next[ch], vendors: unique(vendors) } as never;
  }
  if (patch.webhook?.url && patch.webhook.format === undefined && patch.webhook.url !== current.webhook.url) {
    next.webhook.format = isDiscordWebhookUrl(patch.webhook.url) ? 'discord' : isSlackWebhookUrl(patch.webhook.url) ? 'slack' : 'standard';
  }
  return next;
}

/** Every vendor slug a patch mentions (to check they exist, in one query). */
export function vendorSlugsIn(patch: PreferencesPatch): string[] {
  const componentVendors = [patch.content_filters?.components, ...RULE_CHANNELS.map((c) => patch[c]?.alert_on?.components)].flatMap((f) =>
    f ? componentFilterSize(f).vendors : [],
  );
  return unique([...(patch.muted_vendors ?? []), ...VENDOR_LIST_CHANNELS.flatMap((c) => patch[c]?.vendors ?? []), ...componentVendors]);
}

const EMAIL = /^[^\s@"<>()[\],;:\\]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
export const isEmailAddress = (v: string) => v.length <= 254 && EMAIL.test(v) && v.split('@')[0]!.length <= 64;

/**
 * Whether alerts may go to the e-mail channel's address (docs/alerts.md "Proven
 * addresses"): the account's own address (none set, or the same one) is proven by
 * the account itself; any other only once a confirmation link sent to it was followed.
 */
export type EmailAddressStatus = 'confirmed' | 'pending';
export const sameEmail = (a: string | null, b: string | null) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
export function emailAddressStatus(address: string | null, accountEmail: string | null, confirmed: string | null): EmailAddressStatus {
  return address === null || sameEmail(address, accountEmail) || sameEmail(address, confirmed) ? 'confirmed' : 'pending';
}

export interface ValidationContext {
  /** OUTBOUND_ALLOW_PRIVATE: hosts/CIDRs allowed for http:// and private addresses. */
  allowPrivate: readonly string[];
}

/** Problems of a patch on its own (formats); each names the field. */
export function patchProblems(patch: PreferencesPatch, ctx: ValidationContext): { field: string; why: string }[] {
  const out: { field: string; why: string }[] = [];
  const address = patch.email?.address;
  if (typeof address === 'string' && !isEmailAddress(address)) out.push({ field: 'email.address', why: 'is not a valid e-mail address' });
  const url = patch.webhook?.url;
  if (typeof url === 'string') {
    const why = webhookUrlProblem(url, ctx.allowPrivate);
    if (why) out.push({ field: 'webhook.url', why });
  }
  const key = patch.pagerduty?.routing_key;
  if (typeof key === 'string' && !isRoutingKey(key) && !isMasked(key)) {
    out.push({ field: 'pagerduty.routing_key', why: 'must be the 32-character Events API v2 integration key' });
  }
  for (const [field, value] of [
    ['teams.webhook_url', patch.teams?.webhook_url],
    ['google_chat.webhook_url', patch.google_chat?.webhook_url],
  ] as const) {
    if (typeof value !== 'string' || isMasked(value)) continue;
    const why = webhookUrlProblem(value, ctx.allowPrivate) ?? (field === 'teams.webhook_url' ? teamsUrlProblem(value) : null);
    if (why) out.push({ field, why });
  }
  const apiKey = patch.opsgenie?.api_key;
  if (typeof apiKey === 'string' && !isOpsgenieKey(apiKey) && !isMasked(apiKey)) {
    out.push({ field: 'opsgenie.api_key', why: 'must be the API integration key (a UUID)' });
  }
  const slackChannel = patch.slack?.channel;
  if (typeof slackChannel === 'string' && !isSlackConversation(slackChannel)) {
    out.push({ field: 'slack.channel', why: 'must be a Slack channel id (C…, G…) or null for direct messages' });
  }
  const impact = patch.content_filters?.min_impact;
  if (impact !== undefined && !IMPACTS.includes(impact)) out.push({ field: 'content_filters.min_impact', why: `must be one of ${IMPACTS.join(', ')}` });
  const components = patch.content_filters?.components;
  if (components) out.push(...componentProblems('content_filters.components', components));
  for (const ch of RULE_CHANNELS) {
    const rules = patch[ch]?.alert_on;
    if (!rules) continue;
    if (rules.min_impact !== undefined && !IMPACTS.includes(rules.min_impact))
      out.push({ field: `${ch}.alert_on.min_impact`, why: `must be one of ${IMPACTS.join(', ')}` });
    if (rules.changes?.some((c) => !CHANGE_KINDS.includes(c)))
      out.push({ field: `${ch}.alert_on.changes`, why: `must name kinds of ${CHANGE_KINDS.join(', ')}` });
    if (rules.components) out.push(...componentProblems(`${ch}.alert_on.components`, rules.components));
  }
  if (patch.timezone !== undefined && !isTimeZone(patch.timezone)) {
    out.push({ field: 'timezone', why: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
  }
  const q = patch.quiet_hours;
  for (const k of ['start', 'end'] as const) {
    if (q?.[k] !== undefined && parseClock(q[k]!) === null) out.push({ field: `quiet_hours.${k}`, why: 'must be a local time HH:MM (24 h)' });
  }
  const leads = patch.maintenance_reminders?.lead_times;
  if (leads) {
    if (leads.length > MAX_LEAD_TIMES) out.push({ field: 'maintenance_reminders.lead_times', why: `takes at most ${MAX_LEAD_TIMES} lead times` });
    const bad = leads.find((l) => parseLeadTime(l) === null);
    if (bad !== undefined) out.push({ field: 'maintenance_reminders.lead_times', why: `'${bad}' is not a lead time such as 30m, 1h or 1d (at most 14d)` });
  }
  return out;
}

function componentProblems(field: string, f: ComponentFilter): { field: string; why: string }[] {
  if (componentFilterSize(f).names > MAX_COMPONENT_FILTERS) return [{ field, why: `names at most ${MAX_COMPONENT_FILTERS} components` }];
  return [];
}

/** Which secrets a user holds, for the checks of the merged result. */
export interface SecretsPresent {
  routingKey: boolean;
  teamsUrl: boolean;
  googleChatUrl: boolean;
  opsgenieKey: boolean;
}

/** Problems of the merged result (a channel switched on needs its target). */
export function mergedProblems(next: StoredPreferences, has: SecretsPresent): { field: string; why: string }[] {
  const out: { field: string; why: string }[] = [];
  if (next.webhook.enabled && !next.webhook.url) out.push({ field: 'webhook.url', why: 'is required while webhook.enabled is true' });
  const needs: [boolean, boolean, string][] = [
    [next.pagerduty.enabled, has.routingKey, 'pagerduty.routing_key'],
    [next.teams.enabled, has.teamsUrl, 'teams.webhook_url'],
    [next.google_chat.enabled, has.googleChatUrl, 'google_chat.webhook_url'],
    [next.opsgenie.enabled, has.opsgenieKey, 'opsgenie.api_key'],
  ];
  for (const [enabled, present, field] of needs) {
    if (enabled && !present) out.push({ field, why: `is required while ${field.split('.')[0]}.enabled is true` });
  }
  return out;
}

export function invalidPreferences(problems: { field: string; why: string }[]): DomainError {
  const first = problems[0]!;
  const message =
    problems.length === 1
      ? `Invalid parameter '${first.field}': ${first.why}`
      : `Invalid preferences: ${problems.map((p) => `'${p.field}' ${p.why}`).join('; ')}`;
  return new DomainError('invalid_parameter', message, { parameter: first.field, fields: problems.map((p) => p.field) });
}

/** `****` + the last four characters; never more than that. */
export const mask = (secret: string) => `****${secret.slice(-4)}`;
/** A value the API showed masked, sent back unchanged on a round trip. */
export const isMasked = (v: string) => /^\*{4}[^*]{0,4}$/.test(v);
