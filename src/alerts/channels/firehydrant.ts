import { createHash } from 'node:crypto';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { type JsonPostDeps, postJson, REFUSED_FOR_GOOD } from './json-post.ts';
import { isClosing } from './incident-io.ts';
import { errorsListDetail, incidentDescription, recordKey } from './incident-tool-body.ts';

// FireHydrant Signals, generic webhook event source (docs/alerts.md "FireHydrant"): the
// source's ingest URL carries its JWT, so the URL is the secret. Every event of one vendor
// incident sends the same `idempotency_key` (one alert while it is open); the resolution
// sends `status: CLOSED`, which resolves it.

type FireHydrantTarget = Extract<Target, { channel: 'firehydrant' }>;

const LEVEL: Record<string, string> = { critical: 'FATAL', major: 'ERROR', minor: 'WARN', none: 'INFO' };

/** At most 255 characters (FireHydrant refuses longer keys): a digest past that. */
export function idempotencyKey(d: Pick<Delivery, 'vendor' | 'entityId'>): string {
  const key = recordKey(d);
  return key.length <= 255 ? key : `${d.vendor.slice(0, 100)}:${createHash('sha256').update(key).digest('hex')}`;
}

export function fireHydrantBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const maintenance = d.eventType.startsWith('maintenance.');
  return {
    summary: clip(t.title, 250),
    body: incidentDescription(t),
    status: isClosing(d) ? 'CLOSED' : 'OPEN',
    level: maintenance ? 'INFO' : (LEVEL[t.impact] ?? 'WARN'),
    idempotency_key: idempotencyKey(d),
    tags: [`vendor:${d.vendor}`, `impact:${t.impact}`, 'source:vendor-status'].map((x) => clip(x, 200)),
    annotations: {
      vendor: d.vendor,
      vendor_name: t.vendorName,
      event_type: d.eventType,
      status: t.status,
      components: clip(t.components.join(', '), 1000),
      delivery_id: d.id,
      // Vendor incidents page nobody at the top priority unless they are critical.
      'signals.firehydrant.com/notification-priority': t.impact === 'critical' ? 'HIGH' : t.impact === 'major' ? 'MEDIUM' : 'LOW',
    },
    links: t.url ? [{ href: t.url, text: `${t.vendorName} status page` }] : [],
  };
}

/** FireHydrant's `errors` list of a refusal. */
const fireHydrantDetail = (body: string) => errorsListDetail(body, (e) => (typeof e === 'string' ? e : JSON.stringify(e)));

export function fireHydrantChannel(o: JsonPostDeps): Channel<FireHydrantTarget> {
  return {
    send(d, target, signal) {
      return postJson(o, target.url, fireHydrantBody(d), signal, { label: 'FireHydrant', gone: REFUSED_FOR_GOOD, detail: fireHydrantDetail });
    },
  };
}
