import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import type { ComponentMapping } from '../../domain/status-page-push.ts';

// What every channel implements: send one delivery to its target and say how it
// went. Channels never throw for a failed send; they report it, and the rules of
// src/domain/delivery-outcome.ts decide between retry, failure and disabling the channel.

export interface SendOutcome {
  ok: boolean;
  /** HTTP status (or SMTP reply code) when there was an answer. */
  statusCode: number | null;
  /** Short description of what went wrong; null on success. Never holds secrets. */
  error: string | null;
  /** Retry-After (or the channel's rate-limit hint) in ms. */
  retryAfterMs: number | null;
  /** Retrying cannot help (bad request, unknown recipient): fail now. */
  permanent: boolean;
  /** The receiver said it is gone for good (HTTP 410): switch the channel off. */
  disableChannel?: boolean;
}

export const sent = (statusCode: number | null): SendOutcome => ({ ok: true, statusCode, error: null, retryAfterMs: null, permanent: false });

export const failed = (error: string, o: Partial<SendOutcome> = {}): SendOutcome => ({
  ok: false,
  statusCode: null,
  retryAfterMs: null,
  permanent: false,
  ...o,
  error: error.slice(0, 500),
});

/** Where one user's channel sends to, resolved from their preferences when the row is claimed. */
export type Target =
  | { channel: 'webhook'; url: string; format: 'standard' | 'discord' | 'slack'; secrets: string[] }
  | { channel: 'pagerduty'; routingKey: string }
  | {
      channel: 'slack';
      /** The user's installed workspace bot token; null = the server's SLACK_BOT_TOKEN. */
      token: string | null;
      /** Channel id to post in; null = a DM to the member. */
      conversation: string | null;
      slackUserId: string | null;
      email: string | null;
    }
  | { channel: 'email'; to: string }
  | { channel: 'teams'; url: string }
  | { channel: 'google_chat'; url: string }
  | { channel: 'opsgenie'; apiKey: string; region: 'us' | 'eu' }
  | { channel: 'jsm'; apiKey: string }
  | { channel: 'incident_io'; url: string; token: string }
  | { channel: 'datadog'; site: string; apiKey: string }
  | { channel: 'mattermost'; url: string }
  | { channel: 'telegram'; botToken: string; chatId: string }
  | { channel: 'grafana'; url: string; token: string; dashboardUid: string | null }
  | { channel: 'servicenow'; url: string; username: string; password: string }
  | { channel: 'firehydrant'; url: string }
  | { channel: 'rootly'; apiKey: string }
  | { channel: 'statuspage' | 'instatus'; pageId: string; apiKey: string; components: readonly ComponentMapping[] };

export interface Channel<T extends Target = Target> {
  send(delivery: Delivery, target: T, signal: AbortSignal): Promise<SendOutcome>;
  close?(): Promise<void>;
}

/** Error text safe to store: the message of the error and of its cause. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause : null;
  if (cause?.message && cause.message !== err.message) return `${err.message}: ${cause.message}`;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  return err.message || err.name;
}

/**
 * Key of a row's threads (docs/alert-routes.md "Threads"): its channel, and for a row of an
 * alert route the route too, so each route's conversation has threads of its own.
 */
export const threadKey = (d: Pick<Delivery, 'channel' | 'routeId'>) => (d.routeId ? `${d.channel}:${d.routeId}` : d.channel);
