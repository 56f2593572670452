import { webhookUrlProblem } from './outbound-url.ts';

// Telemetry connectors (docs/early-warning.md "Prometheus connectors"): an organisation's
// Prometheus, a PromQL query per vendor it depends on, a threshold and a duration. Pure: the
// answer of `GET /api/v1/query` read into a value, the rule that a value above the threshold
// for the duration is a breach, and the checks of what an admin sends.

export const MAX_CONNECTORS = 10;
export const MAX_QUERIES = 20;
export const MAX_QUERY_LENGTH = 2000;
export const MAX_DURATION_SECONDS = 3600;
/** Strength of a `telemetry` observation while a query is in breach; of the one that says it ended. */
export const TELEMETRY_BREACH_STRENGTH = 0.9;
export const TELEMETRY_CLEAR_STRENGTH = 0.05;

export interface TelemetryQuery {
  vendor: string;
  query: string;
  threshold: number;
  durationSeconds: number;
}

/** What the last evaluation of one query saw; nothing until it ran. */
export interface QueryState {
  /** The highest finite value of the answer; null when the answer had none (no series, NaN only). */
  value: number | null;
  /** Since when the value has been above the threshold without a break. */
  aboveSince: string | null;
  /** A breach was observed (and not yet followed by its end). */
  breaching: boolean;
  error: string | null;
  evaluatedAt: string;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

export interface Problem {
  field: string;
  why: string;
}

/** What is wrong with a connector's URL and queries (the schema checked types and sizes). */
export function connectorProblems(c: { baseUrl?: string; queries?: TelemetryQuery[] }, allowList: readonly string[]): Problem[] {
  const out: Problem[] = [];
  if (c.baseUrl !== undefined) {
    const why = webhookUrlProblem(c.baseUrl, allowList);
    if (why) out.push({ field: 'baseUrl', why });
    else if (/[?#]/.test(c.baseUrl)) out.push({ field: 'baseUrl', why: 'must carry no query or fragment' });
  }
  (c.queries ?? []).forEach((q, i) => {
    if (!q.query.trim() || CONTROL.test(q.query)) out.push({ field: `queries[${i}].query`, why: 'must be one line of PromQL without control characters' });
    if (!Number.isFinite(q.threshold)) out.push({ field: `queries[${i}].threshold`, why: 'must be a finite number' });
  });
  return out;
}

/** A connector whose token this instance cannot open: no query is sent without it. */
export const TOKEN_UNREADABLE = 'token unreadable (secrets key changed; save the token again)';

export type PromAnswer = { ok: true; value: number | null; series: number } | { ok: false; error: string };

/**
 * Reads an instant query's answer: a vector (the highest finite sample), a scalar, or an
 * error in Prometheus' error body; anything else (not JSON, another shape) is an error.
 * `NaN`, `+Inf` and `-Inf` are no reading: a ratio over no traffic says nothing.
 */
export function readPromAnswer(status: number, text: string): PromAnswer {
  type Item = { value?: unknown };
  let body: { status?: unknown; errorType?: unknown; error?: unknown; data?: { resultType?: unknown; result?: unknown } } | null;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, error: `HTTP ${status}: the answer is not JSON` };
  }
  if (!body || typeof body !== 'object') return { ok: false, error: `HTTP ${status}: unexpected answer` };
  if (body.status === 'error')
    return {
      ok: false,
      error: `HTTP ${status}: ${String(body.errorType ?? 'error').slice(0, 40)}: ${String(body.error ?? '')
        .replace(CONTROL, ' ')
        .slice(0, 200)}`,
    };
  if (status !== 200 || body.status !== 'success' || !body.data) return { ok: false, error: `HTTP ${status}: unexpected answer` };
  const num = (v: unknown) => {
    const n = typeof v === 'string' ? Number(v) : Number.NaN;
    return Number.isFinite(n) ? n : null;
  };
  const { resultType, result } = body.data;
  if (resultType === 'scalar') return Array.isArray(result) ? { ok: true, value: num(result[1]), series: 1 } : { ok: false, error: 'unexpected scalar' };
  if (resultType !== 'vector' || !Array.isArray(result))
    return { ok: false, error: `unsupported result type '${String(resultType).slice(0, 20)}' (an instant vector or scalar is needed)` };
  let max: number | null = null;
  for (const item of result as Item[]) {
    const v = Array.isArray(item?.value) ? num(item.value[1]) : null;
    if (v !== null && (max === null || v > max)) max = v;
  }
  return { ok: true, value: max, series: result.length };
}

export type Verdict = 'breach' | 'cleared' | 'none';

/**
 * One evaluation of a query: the next state, and whether it makes an observation: a breach
 * (above the threshold for at least the duration), its end, or nothing. A failed query keeps
 * the previous run (it neither breaks nor extends it).
 */
export function evaluate(prev: QueryState | null, q: TelemetryQuery, answer: PromAnswer, now: Date): { state: QueryState; verdict: Verdict } {
  const at = now.toISOString();
  if (!answer.ok)
    return {
      state: { value: prev?.value ?? null, aboveSince: prev?.aboveSince ?? null, breaching: prev?.breaching ?? false, error: answer.error, evaluatedAt: at },
      verdict: 'none',
    };
  const above = answer.value !== null && answer.value > q.threshold;
  const aboveSince = above ? (prev?.aboveSince ?? at) : null;
  const held = aboveSince !== null && now.getTime() - Date.parse(aboveSince) >= q.durationSeconds * 1000;
  const wasBreaching = prev?.breaching ?? false;
  const state: QueryState = { value: answer.value, aboveSince, breaching: held, error: null, evaluatedAt: at };
  return { state, verdict: held ? 'breach' : wasBreaching ? 'cleared' : 'none' };
}
