import { createHash } from 'node:crypto';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import { type Channel, type SendOutcome, sent, type Target, threadKey } from './channel.ts';
import { oneAtATime } from './one-at-a-time.ts';
import { answerId, errorDetail, exchangeJson, type JsonPostDeps, type JsonPostRules, REFUSED_FOR_GOOD } from './json-post.ts';
import { recordKey } from './incident-tool-body.ts';

// Grafana annotations HTTP API (docs/alerts.md "Grafana"): a vendor incident or maintenance
// window is one annotation, created on its first event (`POST /api/annotations`) and
// edited by later ones (`PATCH /api/annotations/{id}`); the resolution sets `timeEnd`, so
// the annotation becomes a region over the outage. Without a dashboard UID it is an
// organisation annotation that dashboards pick up by tag. Service-account bearer token.
// Each annotation carries a reference tag of its route and record, so a retry whose create
// may have landed (a timeout after Grafana wrote it) looks it up (`GET /api/annotations?tags=`)
// and edits it instead of adding a second one.

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

/**
 * The tag that names the annotation of one route's record: a digest, so it says nothing of
 * the organisation or the route to anyone reading the dashboard.
 */
export function referenceTag(d: Pick<Delivery, 'orgId' | 'channel' | 'routeId' | 'vendor' | 'entityId'>): string {
  return `vendor-status-ref:${createHash('sha256')
    .update(`${d.orgId}\u0000${threadKey(d)}\u0000${recordKey(d)}`)
    .digest('hex')
    .slice(0, 24)}`;
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
    tags: d.isTest ? grafanaTags(d) : [...grafanaTags(d), referenceTag(d)],
    text: clip(text, 4000),
  };
}

const entity = recordKey;
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
    const { dashboardUID: _unused, ...edit } = body;
    const patch = (id: string) =>
      exchangeJson(o, `${base(target.url)}/api/annotations/${encodeURIComponent(id)}`, edit, signal, { ...rules, method: 'PATCH', gone: [401, 403] });
    // The annotation of this record on this Grafana (a changed URL starts anew).
    const known = d.isTest ? null : await o.threads.get(d.orgId, threadKey(d), entity(d));
    if (known && known.conversation === base(target.url)) {
      const patched = await patch(known.ref);
      // Someone deleted the annotation in Grafana: create it again rather than switch the route off.
      if (patched.outcome.statusCode !== 404) return patched.outcome;
      await o.threads.deleteOne(d.orgId, threadKey(d), entity(d));
    } else if (!d.isTest && d.attempts > 1) {
      // A retry (`attempts` counts this one): the attempt before may have created it and timed out before the answer came.
      const found = await lookUp(d, target, signal, rules);
      if (typeof found !== 'string') return found;
      if (found) {
        const patched = await patch(found);
        if (patched.outcome.ok)
          await o.threads.save(d.orgId, threadKey(d), entity(d), { conversation: base(target.url), ref: found }, o.clock.now()).catch(() => undefined);
        if (patched.outcome.statusCode !== 404) return patched.outcome;
      }
    }
    const created = await exchangeJson(o, `${base(target.url)}/api/annotations`, body, signal, rules);
    const id = created.outcome.ok ? answerId(created.body) : null;
    if (id && !d.isTest) {
      // Sent either way: an id that could not be kept only means the next event adds another annotation.
      await o.threads.save(d.orgId, threadKey(d), entity(d), { conversation: base(target.url), ref: id }, o.clock.now()).catch(() => undefined);
    }
    return created.outcome.ok ? sent(created.outcome.statusCode) : created.outcome;
  }

  /** The id of the annotation carrying this record's reference tag; '' when there is none; a failed look-up's outcome. */
  async function lookUp(d: Delivery, target: GrafanaTarget, signal: AbortSignal, rules: JsonPostRules): Promise<string | SendOutcome> {
    const tag = referenceTag(d);
    const query = new URLSearchParams({ tags: tag, type: 'annotation', limit: '10' });
    if (target.dashboardUid) query.set('dashboardUID', target.dashboardUid);
    const got = await exchangeJson(o, `${base(target.url)}/api/annotations?${query}`, null, signal, { ...rules, method: 'GET' });
    if (!got.outcome.ok) return got.outcome;
    try {
      const list = JSON.parse(got.body) as unknown;
      // Checked here too: a Grafana that ignored the filter must not hand us another annotation.
      const hit = Array.isArray(list)
        ? (list as { id?: unknown; tags?: unknown }[]).find((a) => Array.isArray(a?.tags) && a.tags.includes(tag) && Number.isSafeInteger(a.id))
        : undefined;
      return hit ? String(hit.id) : '';
    } catch {
      return '';
    }
  }
}
