import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import type { ComponentRecord } from '../../domain/records.ts';
import { type ComponentMapping, pageStatus, type StatusPageProduct } from '../../domain/status-page-push.ts';
import { type Channel, failed, sent, type SendOutcome, type Target } from './channel.ts';
import { errorDetail, exchangeJson, type JsonPostDeps, REFUSED_FOR_GOOD } from './json-post.ts';

// Our own status page (docs/alert-routes.md "Our own status page"): on each incident or
// maintenance event of a vendor, every component of the team's Atlassian Statuspage or
// Instatus page mapped to one of the vendor's components is set to that component's status
// as we observe it now (`PATCH /v1/pages/{page}/components/{id}`, `PUT /v1/{page}/components/{id}`).
// Setting a status is idempotent, so a retry sends every call again; a component we have not
// observed is left alone. A test send only reads the mapped components (GET), so it changes nothing.

type PageTarget = Extract<Target, { channel: StatusPageProduct }>;

export const STATUSPAGE_BASE = 'https://api.statuspage.io';
export const INSTATUS_BASE = 'https://api.instatus.com';

/** The call that sets one page component. */
export function componentCall(
  product: StatusPageProduct,
  pageId: string,
  componentId: string,
  status: string,
): { method: 'PATCH' | 'PUT'; path: string; body: Record<string, unknown> } {
  const page = encodeURIComponent(pageId);
  const id = encodeURIComponent(componentId);
  return product === 'statuspage'
    ? { method: 'PATCH', path: `/v1/pages/${page}/components/${id}`, body: { component: { status } } }
    : { method: 'PUT', path: `/v1/${page}/components/${id}`, body: { status } };
}

const readPath = (product: StatusPageProduct, pageId: string, componentId: string) =>
  product === 'statuspage'
    ? `/v1/pages/${encodeURIComponent(pageId)}/components/${encodeURIComponent(componentId)}`
    : `/v1/${encodeURIComponent(pageId)}/components/${encodeURIComponent(componentId)}`;

/** The vendor component a mapping line names: by id, else by name. */
const componentOf = (records: readonly ComponentRecord[], m: ComponentMapping) =>
  records.find((r) => r.id === m.component) ?? records.find((r) => r.name === m.component) ?? null;

/** Statuspage's `{"error": "…"}`, Instatus' `{"error": {"code", "message"}}`, else the common reading. */
function pageDetail(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: unknown };
    if (typeof j.error === 'string') return j.error.slice(0, 200);
  } catch {
    /* not JSON */
  }
  return errorDetail(body);
}

export interface ComponentStatusReader {
  componentRecords(vendor: string): Promise<ComponentRecord[]>;
  /** A source of the vendor has been failing past the threshold: what we hold may be out of date. */
  stale(vendor: string): Promise<boolean>;
}

export function statusPageChannel(product: StatusPageProduct, o: JsonPostDeps & { baseUrl: string; status: ComponentStatusReader }): Channel<PageTarget> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const label = product === 'statuspage' ? 'Statuspage' : 'Instatus';
  return {
    async send(d: Delivery, target, signal): Promise<SendOutcome> {
      const auth = product === 'statuspage' ? `OAuth ${target.apiKey}` : `Bearer ${target.apiKey}`;
      const rules = { label, headers: { authorization: auth, accept: 'application/json' }, gone: REFUSED_FOR_GOOD, detail: pageDetail };
      if (d.isTest) {
        for (const m of target.components) {
          const read = await exchangeJson(o, `${base}${readPath(product, target.pageId, m.pageComponentId)}`, null, signal, { ...rules, method: 'GET' });
          if (!read.outcome.ok) return read.outcome;
        }
        return sent(200);
      }
      const lines = target.components.filter((m) => m.vendor === d.vendor);
      if (!lines.length) return failed(`${label}: no component of ${d.vendor} is mapped to the page`, { permanent: true });
      // Statuses last seen before the vendor's source started failing are not observed now.
      if (await o.status.stale(d.vendor))
        return failed(`${label}: nothing pushed: the status page of ${d.vendor} has not been read for a while, so its components are not observed now`, {
          permanent: true,
        });
      const records = await o.status.componentRecords(d.vendor);
      let pushed = 0;
      let last: number | null = null;
      const unobserved: string[] = [];
      for (const m of lines) {
        const c = componentOf(records, m);
        const status = c ? pageStatus(product, c.status) : null;
        if (!status) {
          unobserved.push(m.component);
          continue;
        }
        const call = componentCall(product, target.pageId, m.pageComponentId, status);
        const res = await exchangeJson(o, `${base}${call.path}`, call.body, signal, { ...rules, method: call.method });
        if (!res.outcome.ok) return res.outcome;
        pushed++;
        last = res.outcome.statusCode;
      }
      if (!pushed) return failed(`${label}: nothing pushed: no observed status for ${unobserved.slice(0, 5).join(', ').slice(0, 300)}`, { permanent: true });
      return sent(last);
    },
  };
}
