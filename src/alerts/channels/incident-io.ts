import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';
import { isClosingType } from '../../domain/signal-alerts.ts';
import { incidentDescription, recordFacts, recordKey } from './incident-tool-body.ts';

// incident.io HTTP alert source (docs/alerts.md "incident.io"): one alert per vendor
// incident, keyed by `deduplication_key`; every event fires it again with the latest text
// and the resolution sends `status: resolved`. Bearer token of the source.

type IncidentIoTarget = Extract<Target, { channel: 'incident_io' }>;

export const isClosing = (d: Pick<Delivery, 'eventType'>) => isClosingType(d.eventType);

export function incidentIoBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  return {
    title: clip(t.title, 500),
    status: isClosing(d) ? 'resolved' : 'firing',
    deduplication_key: clip(recordKey(d), 500),
    description: incidentDescription(t, `**${t.headline}**`),
    metadata: { ...recordFacts(d, t), ...(t.affects ? { services: t.affects } : {}) },
    ...(t.url ? { source_url: t.url } : {}),
  };
}

export function incidentIoChannel(o: JsonPostDeps): Channel<IncidentIoTarget> {
  return {
    send(d, target, signal) {
      return postJson(o, target.url, incidentIoBody(d), signal, {
        label: 'incident.io',
        headers: { authorization: `Bearer ${target.token}` },
        // The alert source was deleted.
        gone: [404],
        detail: errorDetail,
      });
    },
  };
}
