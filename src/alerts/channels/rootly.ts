import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import { type Channel, type SendOutcome, type Target, threadKey } from './channel.ts';
import { oneAtATime } from './one-at-a-time.ts';
import { answerId, exchangeJson, type JsonPostDeps, REFUSED_FOR_GOOD } from './json-post.ts';
import { isClosing } from './incident-io.ts';
import { errorsListDetail, incidentDescription, recordFacts, recordKey } from './incident-tool-body.ts';

// Rootly alerts API (docs/alerts.md "Rootly"): JSON:API bodies with a bearer API key.
// A vendor incident opens an alert (`POST /v1/alerts`, source `api`) whose
// `deduplication_key` is the incident, so updates fold into it; the alert id Rootly
// answers is kept, and the resolution calls `POST /v1/alerts/{id}/resolve`.

type RootlyTarget = Extract<Target, { channel: 'rootly' }>;

export const ROOTLY_BASE = 'https://api.rootly.com';
const JSON_API = 'application/vnd.api+json';

export function rootlyAlertBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  return {
    data: {
      type: 'alerts',
      attributes: {
        source: 'api',
        summary: clip(t.title, 500),
        description: incidentDescription(t),
        deduplication_key: clip(recordKey(d), 500),
        external_id: clip(recordKey(d), 500),
        ...(t.url ? { external_url: t.url } : {}),
        data: recordFacts(d, t),
      },
    },
  };
}

export function rootlyResolveBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  return { data: { type: 'alerts', attributes: { resolution_message: clip(`${t.vendorName} resolved: ${t.title}`, 1000), resolve_related_incidents: false } } };
}

/** Rootly's JSON:API `errors[].title`/`detail` of a refusal. */
const rootlyDetail = (body: string) =>
  errorsListDetail(body, (e) => {
    const x = (e ?? {}) as { title?: unknown; detail?: unknown };
    return String(x.detail ?? x.title ?? '');
  });

const entity = recordKey;

export function rootlyChannel(o: JsonPostDeps & { baseUrl: string; threads: AlertThreadsRepository }): Channel<RootlyTarget> {
  const base = o.baseUrl.replace(/\/+$/, '');
  // The key's last four tell alerts of one Rootly account from those of a key swapped in later.
  const account = (t: RootlyTarget) => `rootly:${t.apiKey.slice(-4)}`;
  const serial = oneAtATime();
  return {
    send(d, target, signal) {
      return d.isTest ? sendOne(d, target, signal) : serial(`${threadKey(d)}\u0000${entity(d)}`, () => sendOne(d, target, signal));
    },
  };

  async function sendOne(d: Delivery, target: RootlyTarget, signal: AbortSignal): Promise<SendOutcome> {
    const rules = {
      label: 'Rootly',
      headers: { authorization: `Bearer ${target.apiKey}`, accept: JSON_API },
      contentType: JSON_API,
      gone: REFUSED_FOR_GOOD,
      detail: rootlyDetail,
    };
    const known = d.isTest ? null : await o.threads.get(d.orgId, threadKey(d), entity(d));
    let id = known && known.conversation === account(target) ? known.ref : null;
    if (!isClosing(d) || !id) {
      const created = await exchangeJson(o, `${base}/v1/alerts`, rootlyAlertBody(d), signal, rules);
      if (!created.outcome.ok) return created.outcome;
      id = answerId(created.body);
      if (id && !d.isTest)
        await o.threads.save(d.orgId, threadKey(d), entity(d), { conversation: account(target), ref: id }, o.clock.now()).catch(() => undefined);
      if (!isClosing(d)) return created.outcome;
      if (!id)
        return {
          ...created.outcome,
          ok: false,
          permanent: true,
          error: 'Rootly: the alert was created but its id was not in the answer, so it cannot be resolved',
        };
    }
    // An alert someone deleted in Rootly answers 404 here: that one resolve fails, the route stays on.
    return (await exchangeJson(o, `${base}/v1/alerts/${encodeURIComponent(id)}/resolve`, rootlyResolveBody(d), signal, { ...rules, gone: [401, 403] })).outcome;
  }
}
