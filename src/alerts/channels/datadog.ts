import { createHash } from 'node:crypto';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';
import { isClosing } from './incident-io.ts';

// Datadog Events API v2 (docs/alerts.md "Datadog"): an alert event per change of a vendor
// incident, grouped into one Datadog alert by `aggregation_key`; the resolution sends
// status `ok`. DD-API-KEY header; the intake host follows the organisation's site.

type DatadogTarget = Extract<Target, { channel: 'datadog' }>;

const PRIORITY: Record<string, string> = { critical: '1', major: '2', minor: '3', none: '4' };

/** At most 100 characters: long keys are shortened to a digest so two incidents never share one. */
export function aggregationKey(d: Pick<Delivery, 'vendor' | 'entityId'>): string {
  const key = `${d.vendor}:${d.entityId}`;
  return key.length <= 100 ? key : `${d.vendor.slice(0, 40)}:${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

export function datadogBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const maintenance = d.eventType.startsWith('maintenance.');
  return {
    data: {
      type: 'event',
      attributes: {
        title: clip(t.title, 500),
        category: 'alert',
        attributes: {
          status: isClosing(d) ? 'ok' : t.impact === 'critical' || t.impact === 'major' ? 'error' : 'warn',
          priority: maintenance ? '5' : (PRIORITY[t.impact] ?? '3'),
        },
        message: clip(
          [
            t.headline,
            t.status && `Status: ${t.status}`,
            t.components.length ? `Components: ${t.components.join(', ')}` : '',
            t.affects && `Services: ${t.affects}`,
            t.latest,
            t.url,
          ]
            .filter(Boolean)
            .join('\n'),
          4000,
        ),
        aggregation_key: aggregationKey(d),
        tags: [`vendor:${d.vendor}`, `impact:${t.impact}`, `event:${d.eventType}`, 'source:vendor-status'].map((x) => clip(x, 200)),
      },
    },
  };
}

export const datadogIntakeUrl = (site: string) => `https://event-management-intake.${site}/api/v2/events`;

export function datadogChannel(o: JsonPostDeps & { urlFor: (site: string) => string }): Channel<DatadogTarget> {
  return {
    send(d, target, signal) {
      return postJson(o, o.urlFor(target.site), datadogBody(d), signal, { label: 'Datadog', headers: { 'dd-api-key': target.apiKey }, detail: errorDetail });
    },
  };
}
