import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';
import { isClosingType } from '../../domain/signal-alerts.ts';

// Opsgenie Alert API v2 (docs/alerts.md, "Opsgenie"): an incident opens an alert
// whose alias is the incident (so repeats de-duplicate on Opsgenie's side),
// priority from its impact; an update adds a note to that alert; resolution
// closes it by alias. Answers are 202 and processed asynchronously.
//
// Jira Service Management Operations (Opsgenie's successor) takes the same
// alert model, key header and bodies under another path: an `OpsApi` below is
// all a JSM target needs (its base URL and `alertsPath`).

type OpsgenieTarget = Extract<Target, { channel: 'opsgenie' }>;
type JsmTarget = Extract<Target, { channel: 'jsm' }>;

/** Where an alert API lives: base URL (no trailing slash) and the alerts collection path. */
export interface OpsApi {
  baseUrl: string;
  alertsPath: string;
}

export const OPSGENIE_BASE = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' } as const;
export const OPSGENIE_ALERTS_PATH = '/v2/alerts';
/** JSM Operations integration events API: same `GenieKey` auth and bodies; one host for every region. */
export const JSM_BASE = 'https://api.atlassian.com';
export const JSM_ALERTS_PATH = '/jsm/ops/integration/v2/alerts';

const PRIORITY: Record<string, 'P1' | 'P2' | 'P3' | 'P4'> = { critical: 'P1', major: 'P2', minor: 'P3', none: 'P4' };

export interface OpsRequest {
  path: string;
  body: Record<string, unknown>;
}

/** The call an event makes: create, add note, or close (by alias). */
export function opsgenieRequest(d: Delivery, api: Pick<OpsApi, 'alertsPath'>): OpsRequest {
  const t = alertText(d);
  const alias = clip(`${d.vendor}:${d.entityId}`, 512);
  const byAlias = (action: string) => `${api.alertsPath}/${encodeURIComponent(alias)}/${action}?identifierType=alias`;
  const source = 'Vendor Status API';
  if (isClosingType(d.eventType)) {
    return { path: byAlias('close'), body: { source, note: clip(`${t.headline}${t.latest ? `: ${t.latest}` : ''}`, 25_000) } };
  }
  if (d.eventType === 'incident.updated' || d.eventType === 'maintenance.updated' || d.eventType === 'early_warning.confirmed') {
    return { path: byAlias('notes'), body: { source, note: clip(`${t.status ? `[${t.status}] ` : ''}${t.latest ?? t.headline}`, 25_000) } };
  }
  const maintenance = d.eventType.startsWith('maintenance.');
  return {
    path: api.alertsPath,
    body: {
      message: clip(t.title, 130),
      alias,
      description: clip(
        [t.headline, t.status && `Status: ${t.status}`, t.affects && `Services: ${t.affects}`, t.latest, t.url].filter(Boolean).join('\n'),
        15_000,
      ),
      priority: maintenance ? 'P5' : (PRIORITY[t.impact] ?? 'P3'),
      source,
      entity: clip(t.vendorName, 512),
      tags: [d.vendor, d.eventType.split('.')[0]!, `impact:${t.impact}`].map((x) => clip(x, 50)),
      details: {
        vendor: d.vendor,
        status: t.status,
        impact: t.impact,
        components: clip(t.components.join(', '), 1000),
        ...(t.affects ? { services: clip(t.affects, 1000) } : {}),
        ...(t.url ? { url: t.url } : {}),
        delivery_id: d.id,
      },
    },
  };
}

/** Sends an event's call to an Opsgenie-model alert API (Opsgenie itself, or JSM Operations). */
function opsChannel<T extends OpsgenieTarget | JsmTarget>(o: JsonPostDeps & { apiFor: (target: T) => OpsApi; label: string }): Channel<T> {
  return {
    send(d, target, signal) {
      const api = o.apiFor(target);
      const req = opsgenieRequest(d, api);
      return postJson(o, `${api.baseUrl}${req.path}`, req.body, signal, {
        label: o.label,
        headers: { authorization: `GenieKey ${target.apiKey}` },
        detail: errorDetail,
      });
    },
  };
}

export const opsgenieChannel = (o: JsonPostDeps & { apiFor: (target: OpsgenieTarget) => OpsApi }): Channel<OpsgenieTarget> =>
  opsChannel({ ...o, label: 'Opsgenie' });

/** Jira Service Management Operations, Opsgenie's successor (docs/alerts.md "Jira Service Management"). */
export const jsmChannel = (o: JsonPostDeps & { baseUrl: string }): Channel<JsmTarget> =>
  opsChannel<JsmTarget>({ ...o, label: 'Jira Service Management', apiFor: () => ({ baseUrl: o.baseUrl.replace(/\/+$/, ''), alertsPath: JSM_ALERTS_PATH }) });
