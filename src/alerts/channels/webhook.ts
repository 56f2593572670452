import { createHmac } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { parseRetryAfter } from '../../domain/alerts.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import { header, post } from '../http-post.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import { assertAllowedUrl } from '../../infra/ssrf-guard.ts';
import { type Channel, describeError, failed, type SendOutcome, sent, type Target } from './channel.ts';
import { slackMessage } from './slack.ts';
import { isClosingType } from '../../domain/signal-alerts.ts';

// Webhooks: Standard Webhooks (https://www.standardwebhooks.com) or, for Discord
// URLs, Discord's execute-webhook body, or for Slack incoming webhooks a Block
// Kit message with its plain `text` fallback (answered `200 ok` in plain text). The signature covers the exact bytes
// sent; `webhook-id` is the delivery id, the same on every retry, so receivers
// can drop duplicates.

type WebhookTarget = Extract<Target, { channel: 'webhook' }>;

/** Payloads stay under the spec's 20 kB advice: long update histories are cut to the newest ones. */
const MAX_BODY_BYTES = 20_000;

/**
 * Bodies by payload object: the rows of one claimed event share their payload
 * (see the deliveries repository), and their bodies are the same bytes.
 */
const bodies = new WeakMap<object, { eventType: string; occurredAt: string; body: string }>();

/** `{type, timestamp, data}`: the event type, when it happened, and the record. */
export function standardBody(d: Pick<Delivery, 'eventType' | 'occurredAt' | 'payload'>): string {
  const hit = bodies.get(d.payload);
  if (hit && hit.eventType === d.eventType && hit.occurredAt === d.occurredAt) return hit.body;
  const body = buildStandardBody(d);
  bodies.set(d.payload, { eventType: d.eventType, occurredAt: d.occurredAt, body });
  return body;
}

function buildStandardBody(d: Pick<Delivery, 'eventType' | 'occurredAt' | 'payload'>): string {
  // The organisation's services the alert hits travel beside the record, not in it
  // (docs/alert-routes.md "Affected services in alerts"); absent when it has no services.
  const { affectedServices, ...record } = d.payload;
  const extra = Array.isArray(affectedServices) ? { affectedServices, affects: alertText({ ...d, vendor: '', isTest: false }).affects } : {};
  let data: Record<string, unknown> = record;
  let body = JSON.stringify({ type: d.eventType, timestamp: d.occurredAt, data, ...extra });
  let keep = Array.isArray(data.updates) ? (data.updates as unknown[]).length : 0;
  while (Buffer.byteLength(body) > MAX_BODY_BYTES && keep > 1) {
    keep = Math.floor(keep / 2);
    const updates = [...(record.updates as { createdAt?: string }[])]
      .sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')))
      .slice(0, keep);
    data = { ...record, updates, updatesTruncated: true };
    body = JSON.stringify({ type: d.eventType, timestamp: d.occurredAt, data, ...extra });
  }
  return body;
}

/** `v1,<base64 HMAC-SHA256>` per secret, space separated (rotation: old and new both sign). */
export function sign(id: string, timestampSeconds: number, body: string, secrets: string[]): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith('whsec_') ? s.slice(6) : s, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

const COLORS: Record<string, number> = { critical: 0xb91c1c, major: 0xea580c, minor: 0xca8a04, none: 0x2563eb };

/** Discord execute-webhook body: one embed within Discord's limits, no pings. */
export function discordBody(d: Delivery): string {
  const t = alertText(d);
  const resolved = isClosingType(d.eventType);
  const fields = [
    { name: 'Status', value: clip(t.status || '-', 1024), inline: true },
    { name: 'Impact', value: clip(t.impact, 1024), inline: true },
    ...(t.components.length ? [{ name: 'Components', value: clip(t.components.join(', '), 1024), inline: false }] : []),
    ...(t.affects ? [{ name: 'Services', value: clip(t.affects, 1024), inline: false }] : []),
  ];
  const embed = {
    title: clip(t.title, 256),
    description: clip(`**${t.headline}**${t.latest ? `\n${t.latest}` : ''}`, 2000),
    ...(t.url ? { url: t.url } : {}),
    timestamp: d.occurredAt,
    color: resolved ? 0x16a34a : (COLORS[t.impact] ?? COLORS.none),
    fields,
    footer: { text: clip(`${d.eventType} · ${d.id}`, 256) },
  };
  return JSON.stringify({ username: 'Vendor Status', allowed_mentions: { parse: [] }, embeds: [embed] });
}

export function webhookChannel(o: { dispatcher: Dispatcher; allowList: readonly string[]; clock: Clock }): Channel<WebhookTarget> {
  return {
    async send(d, target, signal): Promise<SendOutcome> {
      let url: URL;
      try {
        url = new URL(target.url);
        assertAllowedUrl(url, o.allowList);
      } catch (err) {
        return failed(describeError(err), { permanent: true });
      }
      let body: string;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'vendor-status-alerts/1' };
      if (target.format === 'discord') {
        body = discordBody(d);
      } else if (target.format === 'slack') {
        body = JSON.stringify({ ...slackMessage(d), unfurl_links: false, unfurl_media: false });
      } else {
        if (!target.secrets.length) return failed('no signing secret', { permanent: true });
        body = standardBody(d);
        // Wall-clock time: receivers check it against their own clock (replay window).
        const ts = Math.floor(Date.now() / 1000);
        headers['webhook-id'] = d.id;
        headers['webhook-timestamp'] = String(ts);
        headers['webhook-signature'] = sign(d.id, ts, body, target.secrets);
      }
      try {
        const res = await post(o.dispatcher, url.toString(), body, headers, signal);
        if (res.statusCode >= 200 && res.statusCode < 300) return sent(res.statusCode);
        const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'), o.clock.now());
        const error = `HTTP ${res.statusCode}`;
        if (res.statusCode === 410) return failed(`${error}: receiver gone, webhook disabled`, { statusCode: 410, permanent: true, disableChannel: true });
        // Discord: an unknown webhook (404) will never come back.
        if (target.format === 'discord' && res.statusCode === 404) return failed(`${error}: unknown Discord webhook`, { statusCode: 404, permanent: true });
        if (target.format === 'slack') {
          // Slack answers errors as a status plus a plain-text code (channel_not_found, invalid_payload, …).
          const code = res.body.trim().slice(0, 60);
          const slackError = `${error}${code ? `: ${code}` : ''}`;
          if (res.statusCode === 404) return failed(`${slackError}, webhook disabled`, { statusCode: 404, permanent: true, disableChannel: true });
          if (res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 429)
            return failed(slackError, { statusCode: res.statusCode, permanent: true });
          return failed(slackError, { statusCode: res.statusCode, retryAfterMs });
        }
        // Standard Webhooks: anything but 2xx is a failure and is retried (3xx too: redirects are not followed).
        return failed(error, { statusCode: res.statusCode, retryAfterMs });
      } catch (err) {
        const blocked =
          (err as { code?: string }).code === 'ERR_BLOCKED_DESTINATION' ||
          ((err as Error).cause instanceof Error && ((err as Error).cause as { code?: string }).code === 'ERR_BLOCKED_DESTINATION');
        return failed(describeError(err), { permanent: blocked });
      }
    },
  };
}
