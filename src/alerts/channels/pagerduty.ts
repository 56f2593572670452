import type { Dispatcher } from 'undici';
import { parseRetryAfter } from '../../domain/alerts.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { header, post } from '../http-post.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import { type Channel, describeError, failed, type SendOutcome, sent, type Target } from './channel.ts';
import { isClosingType } from '../../domain/signal-alerts.ts';

// PagerDuty Events API v2: `trigger` when an incident opens or changes (and when
// a maintenance window starts), `resolve` when it is resolved (completed).
// dedup_key is the record id, so every event of one incident lands on one
// PagerDuty alert. 202 = accepted; 400 = invalid, not retried; 429 and 5xx retried.

type PagerDutyTarget = Extract<Target, { channel: 'pagerduty' }>;

const SEVERITY: Record<string, 'critical' | 'error' | 'warning' | 'info'> = {
  critical: 'critical',
  major: 'error',
  minor: 'warning',
  none: 'info',
};

/** PagerDuty answers 429 without saying how long to wait; its guidance is about 30 s. */
const DEFAULT_429_WAIT_MS = 30_000;

export function pagerdutyEvent(d: Delivery, routingKey: string): Record<string, unknown> {
  const resolve = isClosingType(d.eventType);
  const dedupKey = clip(d.entityId, 255);
  if (resolve) return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  const t = alertText(d);
  const severity = d.eventType.startsWith('maintenance.') ? 'info' : (SEVERITY[t.impact] ?? 'warning');
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: clip(`${t.title}${t.status ? ` (${t.status})` : ''}${t.affects ? ` — ${t.affects}` : ''}`, 1024),
      source: clip(t.vendorName, 255),
      severity,
      timestamp: d.occurredAt,
      ...(t.components.length ? { component: clip(t.components.join(', '), 255) } : {}),
      group: d.vendor,
      class: d.eventType,
      custom_details: {
        vendor: d.vendor,
        status: t.status,
        impact: t.impact,
        components: t.components,
        latest_update: t.latest ? clip(t.latest, 2000) : null,
        ...(t.affects ? { services: clip(t.affects, 1000) } : {}),
        delivery_id: d.id,
      },
    },
    client: 'Vendor Status API',
    ...(t.url ? { client_url: t.url, links: [{ href: t.url, text: `${t.vendorName} status page` }] } : {}),
  };
}

export function pagerdutyChannel(o: { url: string; dispatcher?: Dispatcher; clock: Clock }): Channel<PagerDutyTarget> {
  return {
    async send(d, target, signal): Promise<SendOutcome> {
      const body = JSON.stringify(pagerdutyEvent(d, target.routingKey));
      try {
        const res = await post(o.dispatcher, o.url, body, { 'content-type': 'application/json' }, signal);
        if (res.statusCode === 202 || (res.statusCode >= 200 && res.statusCode < 300)) return sent(res.statusCode);
        let detail = '';
        try {
          const parsed = JSON.parse(res.body) as { message?: string; errors?: string[] };
          detail = [parsed.message, ...(parsed.errors ?? [])].filter(Boolean).join('; ');
        } catch {
          /* not JSON */
        }
        const error = `HTTP ${res.statusCode}${detail ? `: ${detail}` : ''}`;
        if (res.statusCode === 400) return failed(error, { statusCode: 400, permanent: true });
        const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'), o.clock.now()) ?? (res.statusCode === 429 ? DEFAULT_429_WAIT_MS : null);
        return failed(error, { statusCode: res.statusCode, retryAfterMs });
      } catch (err) {
        return failed(describeError(err));
      }
    },
  };
}
