import type { components } from './schema.js';

// The incident stream (GET /api/v1/infrastructure/incidents/stream, the server's
// docs/stream.md) read with fetch streaming: works in Node 18+ and browsers, can send
// an API key header (EventSource cannot), and resumes after a drop by sending the
// last event id it saw as Last-Event-ID, so no event is lost or repeated.

type Schemas = components['schemas'];

/** SSE event name -> payload (`data:`), from the document's `x-sse-events`. */
export interface StreamEventMap {
  snapshot: Schemas['StreamSnapshotEvent'];
  'incident.created': Schemas['IncidentCreatedEvent'];
  'incident.updated': Schemas['IncidentUpdatedEvent'];
  'incident.resolved': Schemas['IncidentResolvedEvent'];
  shutdown: Schemas['StreamShutdownEvent'];
  /** An early-warning signal of the reader's organisation (signed-in members only; no `id:`). */
  early_warning: Schemas['EarlyWarningEvent'];
}

export type StreamEventName = keyof StreamEventMap;

/** One event: `event` narrows `data`. `id` is null for events without an `id:` line (shutdown). */
export type StreamMessage = { [K in StreamEventName]: { event: K; id: string | null; data: StreamEventMap[K] } }[StreamEventName];

export interface IncidentStreamOptions {
  /** Origin of the service, e.g. `https://status.example.com`. */
  baseUrl: string;
  /** Sent as X-API-Key; omit for the anonymous tier. */
  apiKey?: string;
  /** Path of the stream; the default is the incident stream. */
  path?: string;
  query?: { vendor?: string; status?: 'investigating' | 'monitoring' | 'resolved'; limit?: number; offset?: number };
  /** Resume after this event id instead of starting with a snapshot. */
  lastEventId?: string;
  /** Delay before reconnecting; the server's `retry:` is used when unset (5000 ms, shorter on shutdown). */
  retryMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Told about each drop before the reconnect (for logging). */
  onDisconnect?: (err: unknown) => void;
}

/** A refusal that reconnecting would not cure (400, 401, 403, 404). */
export class StreamRequestError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(
    status: number,
    body: string,
  ) {
    super(`incident stream refused: HTTP ${status} ${body.slice(0, 200)}`);
    this.status = status;
    this.body = body;
    this.name = 'StreamRequestError';
  }
}

const KNOWN = new Set<string>(['snapshot', 'incident.created', 'incident.updated', 'incident.resolved', 'shutdown', 'early_warning']);

/** Incremental parser of the text/event-stream format (WHATWG HTML, server-sent events). */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  /** The last `id:` seen (kept across events, as EventSource does). */
  lastEventId: string | null = null;
  retry: number | null = null;

  /** Feeds a chunk of text; returns the events it completed. */
  push(chunk: string): { event: string; id: string | null; data: string }[] {
    this.buffer += chunk;
    const out: { event: string; id: string | null; data: string }[] = [];
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length) out.push({ event: this.event || 'message', id: this.id, data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        this.id = null;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'id' && !value.includes('\0')) {
        this.id = value;
        this.lastEventId = value;
      } else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    }
    return out;
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Yields the stream's events for as long as the caller iterates (or until `signal`
 * aborts). After a drop, a server shutdown or a 429/5xx it reconnects with the last id
 * it received; a 4xx that retrying cannot fix throws StreamRequestError.
 */
export async function* streamIncidents(opts: IncidentStreamOptions): AsyncGenerator<StreamMessage, void, undefined> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const url = new URL(opts.path ?? '/api/v1/infrastructure/incidents/stream', opts.baseUrl);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  let lastEventId = opts.lastEventId ?? null;
  let retryMs = 5000;

  while (!opts.signal?.aborted) {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    let dropped: unknown = null;
    try {
      const res = await doFetch(url, { headers, signal: opts.signal, cache: 'no-store' });
      if (res.status !== 200 || !res.body) {
        const body = await res.text().catch(() => '');
        if (res.status === 429 || res.status >= 500) {
          const after = Number(res.headers.get('retry-after'));
          dropped = new StreamRequestError(res.status, body);
          if (Number.isFinite(after) && after > 0) retryMs = after * 1000;
        } else {
          throw new StreamRequestError(res.status, body);
        }
      } else {
        const parser = new SseParser();
        const decoder = new TextDecoder();
        const reader = res.body.getReader();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            for (const e of parser.push(decoder.decode(value, { stream: true }))) {
              if (parser.retry !== null) retryMs = parser.retry;
              if (e.id !== null) lastEventId = e.id;
              if (!KNOWN.has(e.event)) continue;
              yield { event: e.event, id: e.id, data: JSON.parse(e.data) } as StreamMessage;
            }
            if (parser.retry !== null) retryMs = parser.retry;
          }
        } finally {
          await reader.cancel().catch(() => {});
        }
        dropped = new Error('stream ended');
      }
    } catch (err) {
      if (err instanceof StreamRequestError) throw err;
      if (opts.signal?.aborted) return;
      dropped = err;
    }
    opts.onDisconnect?.(dropped);
    await sleep(opts.retryMs ?? retryMs, opts.signal);
  }
}
