import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import { type Channel, type SendOutcome, sent, type Target, threadKey } from './channel.ts';
import { oneAtATime } from './one-at-a-time.ts';
import { answerId, errorDetail, exchangeJson, type JsonPostDeps, REFUSED_FOR_GOOD } from './json-post.ts';

// Grafana annotations HTTP API (docs/alerts.md "Grafana"): a vendor incident or maintenance
// window is one annotation, created on its first event (`POST /api/annotations`) and
// edited by later ones (`PATCH /api/annotations/{id}`); the resolution sets `timeEnd`, so
// the annotation becomes a region over the outage. Without a dashboard UID it is an
// organisation annotation that dashboards pick up by tag. Service-account bearer token.

type GrafanaTarget = Extract<Target, { channel: 'grafana' }>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const ms = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** When the vendor says it started (incident start, maintenance start or schedule), else when we saw it. */
export function startedMs(d: Pick<Delivery, 'payload' | 'occurredAt'>): number {
  const p = d.payload;
  return ms(str(p.startedAt)) ?? ms(str(p.scheduledFor)) ?? ms(d.occurredAt) ?? 0;
}

/** When it ended, for the closing events only. */
export function endedMs(d: Pick<Delivery, 'payload' | 'occurredAt' | 'eventType'>): number | null {
  if (d.eventType !== 'incident.resolved' && d.eventType !== 'maintenance.completed') return null;
  const p = d.payload;
  return ms(str(p.resolvedAt)) ?? ms(str(p.completedAt)) ?? ms(d.occurredAt);
}

export function grafanaTags(d: Pick<Delivery, 'vendor' | 'eventType' | 'payload' | 'isTest'>): string[] {
  const t = alertText(d);
  const kind = d.eventType.startsWith('maintenance.') ? 'maintenance' : 'incident';
  return ['vendor-status', `vendor:${d.vendor}`, `impact:${t.impact}`, kind, ...(d.isTest ? ['test'] : [])].map((x) => clip(x, 100));
}

/** The body of the create; an edit sends the same fields but the dashboard. */
export function grafanaAnnotation(d: Delivery, dashboardUid: string | null): Record<string, unknown> {
  const t = alertText(d);
  const end = endedMs(d);
  const text = [
    `${t.headline}: ${t.title}`,
    t.status && `Status: ${t.status}`,
    t.components.length ? `Components: ${t.components.join(', ')}` : '',
    t.affects && `Services: ${t.affects}`,
    t.url,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    ...(dashboardUid ? { dashboardUID: dashboardUid } : {}),
    time: startedMs(d),
    ...(end !== null ? { timeEnd: end } : {}),
    tags: grafanaTags(d),
    text: clip(text, 4000),
  };
}

const entity = (d: Delivery) => `${d.vendor}:${d.entityId}`;
const base = (url: string) => url.replace(/\/+$/, '');

export function grafanaChannel(o: JsonPostDeps & { threads: AlertThreadsRepository }): Channel<GrafanaTarget> {
  const serial = oneAtATime();
  return {
    send(d, target, signal) {
      return d.isTest ? sendOne(d, target, signal) : serial(`${threadKey(d)}\u0000${entity(d)}`, () => sendOne(d, target, signal));
    },
  };

  async function sendOne(d: Delivery, target: GrafanaTarget, signal: AbortSignal): Promise<SendOutcome> {
    const rules = {
      label: 'Grafana',
      headers: { authorization: `Bearer ${target.token}`, accept: 'application/json' },
      gone: REFUSED_FOR_GOOD,
      detail: errorDetail,
    };
    const body = grafanaAnnotation(d, target.dashboardUid);
    // The annotation of this record on this Grafana (a changed URL starts anew).
    const known = d.isTest ? null : await o.threads.get(d.orgId, threadKey(d), entity(d));
    if (known && known.conversation === base(target.url)) {
      const { dashboardUID: _unused, ...edit } = body;
      const patched = await exchangeJson(o, `${base(target.url)}/api/annotations/${encodeURIComponent(known.ref)}`, edit, signal, {
        ...rules,
        method: 'PATCH',
        gone: [401, 403],
      });
      // Someone deleted the annotation in Grafana: create it again rather than switch the route off.
      if (patched.outcome.statusCode !== 404) return patched.outcome;
      await o.threads.deleteOne(d.orgId, threadKey(d), entity(d));
    }
    const created = await exchangeJson(o, `${base(target.url)}/api/annotations`, body, signal, rules);
    const id = created.outcome.ok ? answerId(created.body) : null;
    if (id && !d.isTest) {
      // Sent either way: an id that could not be kept only means the next event adds another annotation.
      await o.threads.save(d.orgId, threadKey(d), entity(d), { conversation: base(target.url), ref: id }, o.clock.now()).catch(() => undefined);
    }
    return created.outcome.ok ? sent(created.outcome.statusCode) : created.outcome;
  }
}
