import type { EventType } from './events.ts';
import { ALERT_EVENT_TYPES, type RuleChannel, type StoredPreferences } from './preferences.ts';
import { atLeast, type ChangeKind, componentsMatch, passesChannelRules } from './alert-rules.ts';
import type { Impact } from './records.ts';
import { SIGNAL_ALERT_TYPES } from './signal-alerts.ts';

// Alert rules with no I/O: which channels an event goes to for one user, and
// when a failed delivery is tried again. docs/alerts.md explains the choices.

/** Channels whose alerts are sent somewhere (retried, listed in /notification-deliveries). */
export const PUSH_CHANNELS = [
  'webhook',
  'pagerduty',
  'slack',
  'email',
  'teams',
  'google_chat',
  'opsgenie',
  'jsm',
  'incident_io',
  'datadog',
  'mattermost',
  'telegram',
  'grafana',
  'servicenow',
  'firehydrant',
  'rootly',
  'statuspage',
  'instatus',
] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

/** Channels that are stored only: the in-app list and the personal feed read them. */
export const STORED_CHANNELS = ['in_app', 'rss'] as const;
export type StoredChannel = (typeof STORED_CHANNELS)[number];

/** Every channel: the push channels, then those whose alerts are stored (in-app, the feed). */
export const ALERT_CHANNELS = [...PUSH_CHANNELS, ...STORED_CHANNELS] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

export const isPushChannel = (c: string) => (PUSH_CHANNELS as readonly string[]).includes(c);

/** Event type of a flood-cap summary (docs/alerts.md "Flood cap"). */
export const HELD_EVENT_TYPE = 'alerts.held';

/** What the dispatcher knows about an event when it picks recipients. */
export interface AlertEvent {
  type: EventType;
  vendor: string;
  impact: Impact;
  components: string[];
  /** What kind of change it is (src/domain/alert-rules.ts); absent = taken from the type alone. */
  kind?: ChangeKind;
}

/** Event type of a quiet-hours summary and of an e-mail digest (docs/alerts.md). */
export const QUIET_EVENT_TYPE = 'alerts.quiet';
export const DIGEST_EVENT_TYPE = 'alerts.digest';
export const REMINDER_EVENT_TYPE = 'maintenance.reminder';

/**
 * Event types of the rows of the stored channels (in-app list, personal feed): the event
 * log's and reminders. Summaries of held alerts go to push channels only (docs/alerts.md
 * "Flood cap", "Quiet hours").
 */
export const NOTIFICATION_EVENT_TYPES = [...ALERT_EVENT_TYPES, REMINDER_EVENT_TYPE] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];
/** Event types a delivery row can carry: the event log's, the summaries of held alerts, reminders, early-warning transitions (docs/alerts.md). */
export const DELIVERY_EVENT_TYPES = [
  ...ALERT_EVENT_TYPES,
  HELD_EVENT_TYPE,
  QUIET_EVENT_TYPE,
  DIGEST_EVENT_TYPE,
  REMINDER_EVENT_TYPE,
  ...SIGNAL_ALERT_TYPES,
] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

/** What a user has set up beyond the settings document (secrets, connections, watchlist). */
export interface RecipientState {
  settings: StoredPreferences;
  /** The event's vendor is on the user's watchlist. */
  watching: boolean;
  hasRoutingKey: boolean;
  slackConnected: boolean;
  hasTeamsUrl: boolean;
  hasGoogleChatUrl: boolean;
  hasOpsgenieKey: boolean;
  /** The e-mail address is the account's own or was confirmed (docs/alerts.md "Proven addresses"). */
  emailProven: boolean;
}

/** Which channels this server can send on (SMTP and Slack are optional). */
export interface ChannelAvailability {
  email: boolean;
  slack: boolean;
}

/** PagerDuty and Opsgenie page for incidents; of maintenance only the window itself (start, completion). */
const PAGERDUTY_TYPES: readonly EventType[] = ['incident.created', 'incident.updated', 'incident.resolved', 'maintenance.started', 'maintenance.completed'];

/** Whether the user's global content filters and mutes let the event through (channels without rules of their own). */
export function passesFilters(event: AlertEvent, settings: StoredPreferences): boolean {
  if (settings.muted_vendors.includes(event.vendor)) return false;
  const f = settings.content_filters;
  if (!f.event_types.includes(event.type)) return false;
  if (!atLeast(event.impact, f.min_impact)) return false;
  // A component filter keeps only events that name one of the components (per vendor in the map form).
  return componentsMatch(f.components, event.vendor, event.components);
}

/** Maintenance start and completion alerts can be switched off with the reminders. */
function maintenanceWanted(event: AlertEvent, s: StoredPreferences): boolean {
  if (event.type === 'maintenance.started') return s.maintenance_reminders.started;
  if (event.type === 'maintenance.completed') return s.maintenance_reminders.completed;
  return true;
}

/**
 * Whether one channel counts the event: its own `alert_on` rules when it has them
 * (kinds of change, minimum impact, components), else the global content filters.
 */
export function counts(event: AlertEvent, s: StoredPreferences, channel: RuleChannel | 'in_app' | 'rss'): boolean {
  if (s.muted_vendors.includes(event.vendor) || !maintenanceWanted(event, s)) return false;
  const rules = channel === 'in_app' || channel === 'rss' ? null : s[channel].alert_on;
  if (!rules) return passesFilters(event, s);
  // A paging channel's own rules never hold back a resolve: a page left open for a resolved
  // incident is worse than a resolve for one that never paged (PagerDuty and Opsgenie ignore those).
  if ((channel === 'pagerduty' || channel === 'opsgenie') && (event.type === 'incident.resolved' || event.type === 'maintenance.completed')) return true;
  return passesChannelRules({ ...event, kind: event.kind ?? 'updated' }, rules);
}

/** Channel scope: its own vendor list when it has one, else the watchlist. */
function inScope(vendors: string[] | null, event: AlertEvent, watching: boolean): boolean {
  return vendors ? vendors.includes(event.vendor) : watching;
}

/** The channels an event is delivered on for one user (empty = none). */
export function channelsFor(event: AlertEvent, r: RecipientState, available: ChannelAvailability): AlertChannel[] {
  const s = r.settings;
  const all: AlertChannel[] = channelsBeforeRules(event, r, available);
  return all.filter((c) => counts(event, s, c as RuleChannel));
}

/**
 * Channels a maintenance reminder goes to (docs/alerts.md "Maintenance reminders"):
 * those in scope for the vendor, not muted; not the paging channels (they page for
 * the window itself, not ahead of it). Content filters do not apply: the user
 * asked for reminders by setting lead times.
 */
export function reminderChannels(vendor: string, r: RecipientState, available: ChannelAvailability): AlertChannel[] {
  if (r.settings.muted_vendors.includes(vendor)) return [];
  const probe: AlertEvent = { type: 'maintenance.scheduled', vendor, impact: 'none', components: [] };
  return channelsBeforeRules(probe, r, available).filter((c) => c !== 'pagerduty' && c !== 'opsgenie');
}

function channelsBeforeRules(event: AlertEvent, r: RecipientState, available: ChannelAvailability): AlertChannel[] {
  const s = r.settings;
  const out: AlertChannel[] = [];
  if (s.webhook.enabled && s.webhook.url && inScope(s.webhook.vendors, event, r.watching)) out.push('webhook');
  if (s.pagerduty.enabled && r.hasRoutingKey && PAGERDUTY_TYPES.includes(event.type) && inScope(s.pagerduty.vendors, event, r.watching)) {
    out.push('pagerduty');
  }
  if (s.opsgenie.enabled && r.hasOpsgenieKey && PAGERDUTY_TYPES.includes(event.type) && inScope(s.opsgenie.vendors, event, r.watching)) {
    out.push('opsgenie');
  }
  if (s.teams.enabled && r.hasTeamsUrl && inScope(s.teams.vendors, event, r.watching)) out.push('teams');
  if (s.google_chat.enabled && r.hasGoogleChatUrl && inScope(s.google_chat.vendors, event, r.watching)) out.push('google_chat');
  if (available.slack && s.slack.enabled && r.slackConnected && inScope(s.slack.vendors, event, r.watching)) out.push('slack');
  if (available.email && s.email.enabled && r.emailProven && r.watching) out.push('email');
  if (s.in_app.enabled && r.watching) out.push('in_app');
  if (s.rss.enabled && r.watching) out.push('rss');
  return out;
}

/**
 * Delays before attempt 2, 3, … (the Standard Webhooks example schedule):
 * immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A Retry-After longer than this is capped (a receiver cannot park a delivery for days). */
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * When to try again after failed attempt number `attempt` (1-based), or null
 * when it was the last. Jitter ±10 % keeps retries of one outage from arriving
 * together; a Retry-After later than the schedule wins.
 */
export function nextRetryDelay(attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attempt - 1]!;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After: delay-seconds or an HTTP-date (RFC 9110); null when absent or malformed. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
