import { type AlertChannel, type AlertEvent, type ChannelAvailability, channelsFor, type RecipientState, STORED_CHANNELS } from './alerts.ts';
import { changeKind } from './alert-rules.ts';
import { type DeliveryStatus, newDeliveryId, receiverOf, type ReceiverSource } from './deliveries.ts';
import type { EventType, StoredEvent } from './events.ts';
import { emailAddressStatus, type SlackConnection, type StoredPreferences } from './preferences.ts';
import type { Impact } from './records.ts';

// Routing rules of the dispatcher (docs/alerts.md "Dispatcher"), with no I/O: which
// users an event concerns, on which of their channels it goes, and how each delivery
// row starts. The dispatcher reads the watchlist and the preferences, hands them over
// as plain data, and writes the rows these functions return.

/** What routing reads of one user's stored preferences (secrets only as present or absent). */
export interface RoutingState extends ReceiverSource {
  settings: StoredPreferences;
  pagerdutyRoutingKey: string | null;
  slackConnection: Pick<SlackConnection, 'connected'> | null;
  channelSecrets: ReceiverSource['channelSecrets'] & { opsgenieApiKey: string | null };
  /** The address its owner proved by following the confirmation link. */
  emailConfirmedAddress: string | null;
}

/** Alerts may go to the e-mail address: the account's own, or one proven by its link (docs/alerts.md "Proven addresses"). */
export const emailProven = (s: RoutingState, accountEmail: string | null) =>
  emailAddressStatus(s.settings.email.address, accountEmail, s.emailConfirmedAddress) === 'confirmed';

/** What the channel rules (`channelsFor`, `reminderChannels`) need of one user, read alike for alerts and reminders. */
export function recipientOf(state: RoutingState, watching: boolean, accountEmail: string | null): RecipientState {
  return {
    settings: state.settings,
    watching,
    hasRoutingKey: Boolean(state.pagerdutyRoutingKey),
    slackConnected: state.slackConnection?.connected === true,
    hasTeamsUrl: Boolean(state.channelSecrets.teamsWebhookUrl),
    hasGoogleChatUrl: Boolean(state.channelSecrets.googleChatWebhookUrl),
    hasOpsgenieKey: Boolean(state.channelSecrets.opsgenieApiKey),
    emailProven: emailProven(state, accountEmail),
  };
}

/**
 * Users an event of each vendor concerns: its watchers, plus users with a per-channel
 * vendor list naming it (`mentioning`), watching it or not.
 */
export function candidatesByVendor(
  vendors: readonly string[],
  watchers: ReadonlyMap<string, readonly string[]>,
  mentioning: ReadonlyMap<string, readonly string[]>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const v of vendors) {
    const set = new Set(watchers.get(v) ?? []);
    for (const u of mentioning.get(v) ?? []) set.add(u);
    out.set(v, set);
  }
  return out;
}

/**
 * The events to hold for organisations whose secrets do not open (`closed`; docs/alerts.md
 * "Held alerts"): each event that concerns one of them (a candidate of its vendor), and every
 * event for one with any enabled route (its routes may take any vendor, by their owner rule).
 * Routed later, for that organisation alone, once it opens again.
 */
export function heldEvents<E extends { vendor: string }>(
  events: readonly E[],
  candidates: ReadonlyMap<string, ReadonlySet<string>>,
  routes: readonly { orgId: string }[],
  closed: ReadonlySet<string>,
): [orgId: string, event: E][] {
  if (!closed.size) return [];
  const withRoutes = new Set(routes.map((r) => r.orgId));
  const out: [string, E][] = [];
  for (const orgId of closed) {
    for (const e of events) if (withRoutes.has(orgId) || candidates.get(e.vendor)?.has(orgId)) out.push([orgId, e]);
  }
  return out;
}

/**
 * Users whose account e-mail address must be read: e-mail is on and its address is not
 * proven by link, yet it may be the account's own (saved before confirmation existed).
 */
export function needAccountEmail(states: ReadonlyMap<string, RoutingState>): string[] {
  return [...states].filter(([, s]) => s.settings.email.enabled && !emailProven(s, null)).map(([id]) => id);
}

const impactOf = (payload: unknown): Impact => {
  const v = (payload as { impact?: unknown })?.impact;
  return v === 'minor' || v === 'major' || v === 'critical' ? v : 'none';
};

/** What the channel rules read of a logged event. */
export function alertEventOf(e: StoredEvent): AlertEvent {
  return {
    type: e.type,
    vendor: e.vendor,
    impact: impactOf(e.payload),
    components: Array.isArray(e.payload.components) ? e.payload.components.map(String) : [],
    kind: changeKind(e.type, e.payload),
  };
}

/** How a new row starts: in-app and feed items are stored, not sent, so they are done when written. */
export function initialStatus(channel: AlertChannel, at: string): { status: DeliveryStatus; nextAttemptAt: string | null } {
  const stored = (STORED_CHANNELS as readonly string[]).includes(channel);
  return stored ? { status: 'succeeded', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: at };
}

/** A delivery row of one event for one user and channel, as the dispatcher writes it. */
export interface RoutedDelivery {
  id: string;
  eventSeq: number;
  orgId: string;
  channel: AlertChannel;
  eventType: EventType;
  vendor: string;
  entityId: string;
  payloadJson: string;
  occurredAt: string;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  receiver: string | null;
  /** The alert route of the row (src/domain/alert-routes.ts); absent = the notification preferences. */
  routeId?: string;
  /** JSON of the organisation's services the event hits; absent = it has no services. */
  affectedServicesJson?: string;
}

export interface RoutingInput {
  events: readonly StoredEvent[];
  /** Users to consider per vendor (`candidatesByVendor`). */
  candidates: ReadonlyMap<string, Iterable<string>>;
  /** Watchers per vendor: the channels without a vendor list of their own go by them. */
  watchers: ReadonlyMap<string, readonly string[]>;
  /** Preferences per user; a candidate without any gets nothing. */
  states: ReadonlyMap<string, RoutingState>;
  /** Account e-mail addresses of the users of `needAccountEmail`. */
  accountEmails: ReadonlyMap<string, string>;
  available: ChannelAvailability;
  now: Date;
}

/** One row per (event, user, channel) the rules let through, in event order. */
export function routeEvents(input: RoutingInput, newId: () => string = newDeliveryId): RoutedDelivery[] {
  const now = input.now.toISOString();
  const rows: RoutedDelivery[] = [];
  for (const e of input.events) {
    const watching = new Set(input.watchers.get(e.vendor) ?? []);
    const alertEvent = alertEventOf(e);
    // Serialised once per event: its rows share it.
    const payloadJson = JSON.stringify(e.payload);
    for (const orgId of input.candidates.get(e.vendor) ?? []) {
      const state = input.states.get(orgId);
      if (!state) continue;
      const recipient = recipientOf(state, watching.has(orgId), input.accountEmails.get(orgId) ?? null);
      for (const channel of channelsFor(alertEvent, recipient, input.available)) {
        rows.push({
          id: newId(),
          eventSeq: e.seq,
          orgId,
          channel,
          eventType: e.type,
          vendor: e.vendor,
          entityId: e.entityId,
          payloadJson,
          occurredAt: e.occurredAt,
          ...initialStatus(channel, now),
          receiver: receiverOf(channel, state),
        });
      }
    }
  }
  return rows;
}
