import { createHash } from 'node:crypto';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson, REFUSED_FOR_GOOD } from './json-post.ts';
import { isClosing } from './incident-io.ts';

// ServiceNow Event Management inbound events (docs/alerts.md "ServiceNow"): one event per
// change of a vendor incident, `POST <instance>/api/global/em/jsonv2` with `{records:[…]}`,
// basic auth of a user with the `evt_mgmt_integration` role. Every event of one incident
// shares a `message_key`, so ServiceNow keeps one alert; the resolution sends severity 0
// (Clear), which closes it.

type ServiceNowTarget = Extract<Target, { channel: 'servicenow' }>;

/** ServiceNow severities: 1 Critical, 2 Major, 3 Minor, 4 Warning, 0 Clear. */
const SEVERITY: Record<string, string> = { critical: '1', major: '2', minor: '3', none: '4' };

/** `yyyy-MM-dd HH:mm:ss` in GMT, the form `time_of_event` takes. */
export function gmtTime(iso: string): string {
  const t = Date.parse(iso);
  return (Number.isFinite(t) ? new Date(t) : new Date(0)).toISOString().slice(0, 19).replace('T', ' ');
}

/** The alert's key: `vendor:recordId`, a digest past 200 characters so two incidents never share one. */
export function messageKey(d: Pick<Delivery, 'vendor' | 'entityId'>): string {
  const key = `vendor-status:${d.vendor}:${d.entityId}`;
  return key.length <= 200 ? key : `vendor-status:${d.vendor.slice(0, 60)}:${createHash('sha256').update(key).digest('hex')}`;
}

export function serviceNowBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const maintenance = d.eventType.startsWith('maintenance.');
  return {
    records: [
      {
        source: 'VendorStatusAPI',
        event_class: maintenance ? 'vendor-maintenance' : 'vendor-incident',
        node: clip(t.vendorName, 100),
        resource: clip(t.components.join(', '), 100),
        metric_name: maintenance ? 'maintenance' : 'incident',
        type: 'Vendor Status',
        severity: isClosing(d) ? '0' : maintenance ? '4' : (SEVERITY[t.impact] ?? '4'),
        message_key: messageKey(d),
        description: clip(
          [`${t.headline}: ${t.title}`, t.status && `Status: ${t.status}`, t.affects && `Services: ${t.affects}`, t.latest, t.url].filter(Boolean).join('\n'),
          4000,
        ),
        time_of_event: gmtTime(d.occurredAt),
        resolution_state: isClosing(d) ? 'Closing' : 'New',
        // A string holding JSON: ServiceNow parses it into the alert's additional information.
        additional_info: JSON.stringify({
          vendor: d.vendor,
          event_type: d.eventType,
          impact: t.impact,
          status: t.status,
          components: t.components.slice(0, 50),
          ...(t.url ? { url: t.url } : {}),
          delivery_id: d.id,
        }),
      },
    ],
  };
}

export const SERVICENOW_EVENTS_PATH = '/api/global/em/jsonv2';

export function serviceNowChannel(o: JsonPostDeps): Channel<ServiceNowTarget> {
  return {
    send(d, target, signal) {
      const basic = Buffer.from(`${target.username}:${target.password}`, 'utf8').toString('base64');
      return postJson(o, `${target.url.replace(/\/+$/, '')}${SERVICENOW_EVENTS_PATH}`, serviceNowBody(d), signal, {
        label: 'ServiceNow',
        headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
        gone: REFUSED_FOR_GOOD,
        detail: errorDetail,
      });
    },
  };
}
