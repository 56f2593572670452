import type { Dispatcher } from 'undici';
import { parseRetryAfter } from '../../domain/alerts.ts';
import type { Clock } from '../../domain/clock.ts';
import { header, post } from '../http-post.ts';
import { assertAllowedUrl } from '../../infra/ssrf-guard.ts';
import { describeError, failed, type SendOutcome, sent } from './channel.ts';

// One JSON POST to a user-supplied (or operator-set) URL through the guarded
// agent, turned into a SendOutcome the same way for every chat and paging
// channel: 2xx sent; 429/5xx/timeouts retried (Retry-After honoured); 4xx the
// receiver will keep refusing fails now; "gone" answers also switch the channel
// off (docs/alerts.md, "Retry schedule").

export interface JsonPostDeps {
  dispatcher: Dispatcher;
  allowList: readonly string[];
  clock: Clock;
}

export interface JsonPostRules {
  /** Name in error texts, e.g. "Teams". */
  label: string;
  headers?: Record<string, string>;
  /** Answers meaning the target was deleted: permanent, and the channel is switched off. */
  gone?: number[];
  /** Short detail of an error answer for the delivery log (never the request). */
  detail?: (body: string) => string;
  /** POST unless said (Grafana and Statuspage PATCH, Instatus PUT, a read-only check GETs). */
  method?: 'POST' | 'PATCH' | 'PUT' | 'GET';
  contentType?: string;
}

/** The outcome and, on success, the answer's body (ids some tools hand back for later calls). */
export interface JsonExchange {
  outcome: SendOutcome;
  body: string;
}

// 420 is Statuspage's older rate-limit answer (docs/alert-routes.md "Our own status page").
const RETRYABLE_4XX = new Set([408, 409, 420, 425, 429]);

export async function postJson(o: JsonPostDeps, target: string, payload: unknown, signal: AbortSignal, rules: JsonPostRules): Promise<SendOutcome> {
  return (await exchangeJson(o, target, payload, signal, rules)).outcome;
}

export async function exchangeJson(o: JsonPostDeps, target: string, payload: unknown, signal: AbortSignal, rules: JsonPostRules): Promise<JsonExchange> {
  const only = (outcome: SendOutcome): JsonExchange => ({ outcome, body: '' });
  let url: URL;
  try {
    url = new URL(target);
    assertAllowedUrl(url, o.allowList);
  } catch (err) {
    return only(failed(describeError(err), { permanent: true }));
  }
  try {
    const res = await post(
      o.dispatcher,
      url.toString(),
      JSON.stringify(payload),
      {
        'content-type': rules.contentType ?? 'application/json; charset=utf-8',
        'user-agent': 'vendor-status-alerts/1',
        ...rules.headers,
      },
      signal,
      rules.method,
    );
    if (res.statusCode >= 200 && res.statusCode < 300) return { outcome: sent(res.statusCode), body: res.body };
    const detail = rules.detail?.(res.body) ?? '';
    const error = `${rules.label}: HTTP ${res.statusCode}${detail ? `: ${detail}` : ''}`;
    if (rules.gone?.includes(res.statusCode)) {
      return only(failed(`${error} (target gone, channel switched off)`, { statusCode: res.statusCode, permanent: true, disableChannel: true }));
    }
    const retryAfterMs = parseRetryAfter(header(res.headers, 'retry-after'), o.clock.now());
    const permanent = res.statusCode >= 400 && res.statusCode < 500 && !RETRYABLE_4XX.has(res.statusCode);
    return only(failed(error, { statusCode: res.statusCode, retryAfterMs, permanent }));
  } catch (err) {
    const code = (err as { code?: string }).code ?? ((err as Error).cause as { code?: string } | undefined)?.code;
    return only(failed(describeError(err), { permanent: code === 'ERR_BLOCKED_DESTINATION' }));
  }
}

/** `message` of a JSON error body (Google, Opsgenie), else the start of a plain-text one (Slack webhooks). */
export function errorDetail(body: string): string {
  try {
    const j = JSON.parse(body) as { message?: unknown; error?: { message?: unknown; status?: unknown } };
    const m = j.error?.message ?? j.message;
    if (typeof m === 'string') return `${typeof j.error?.status === 'string' ? `${j.error.status} ` : ''}${m}`.slice(0, 200);
  } catch {
    /* plain text */
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 100);
}

/**
 * Answers of the incident tools and status pages that mean the destination refuses us
 * for good (key revoked, source or page deleted): the route is switched off with the
 * reason shown (docs/alert-routes.md). A 400 or 422 fails only the one alert.
 */
export const REFUSED_FOR_GOOD = [401, 403, 404, 410];

/** A JSON answer's `id` (Grafana) or `data.id` (JSON:API), else null. */
export function answerId(body: string): string | null {
  try {
    const j = JSON.parse(body) as { id?: unknown; data?: { id?: unknown } };
    const id = j.data?.id ?? j.id;
    if ((typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id)) || (typeof id === 'number' && Number.isSafeInteger(id))) return String(id);
  } catch {
    /* not JSON */
  }
  return null;
}
