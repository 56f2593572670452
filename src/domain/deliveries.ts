import { randomUUID } from 'node:crypto';
import { type AlertChannel, STORED_CHANNELS } from './alerts.ts';

// Rules every delivery row follows, whoever creates it: the dispatcher, the test
// alert, the delivery worker (docs/alerts.md).

/** Where a delivery row stands (docs/alerts.md); also a filter of the delivery log. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export const newDeliveryId = () => `dlv_${randomUUID().replace(/-/g, '')}`;

/** The lease of a claimed row: longer than any send can take, so a live worker never loses it. */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 1_000;

/** What a row's receiver is read from: the user's settings and opened channel secrets. */
export interface ReceiverSource {
  settings: { webhook: { url: string | null } };
  channelSecrets: { teamsWebhookUrl: string | null; googleChatWebhookUrl: string | null };
}

const hostOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/**
 * Fair-share key of a row (docs/alerts.md): the host with port of a URL channel
 * (webhook, Teams, Google Chat), else the channel's one service (PagerDuty,
 * Opsgenie, Slack, SMTP); none for the stored channels.
 */
export function receiverOf(channel: AlertChannel, state: ReceiverSource): string | null {
  if (channel === 'webhook') return hostOf(state.settings.webhook.url);
  if (channel === 'teams') return hostOf(state.channelSecrets.teamsWebhookUrl);
  if (channel === 'google_chat') return hostOf(state.channelSecrets.googleChatWebhookUrl);
  return (STORED_CHANNELS as readonly string[]).includes(channel) ? null : channel;
}
