import type { StoredEvent } from '../domain/events.ts';
import type { Incident } from '../domain/records.ts';

// Wire format of the incident stream (docs/stream.md). JSON.stringify escapes line
// breaks, so every `data:` fits on one line.

const RETRY_MS = 5000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies must pass events on as they come.
  'x-accel-buffering': 'no',
} as const;

export const OPENING = Buffer.from(`retry: ${RETRY_MS}\n\n`);
export const PING = Buffer.from(': ping\n\n');
export const CLOSING = Buffer.from(': server closing, reconnect\n\n');

/** Reconnect delay suggested by the shutdown event: spread over this range so clients do not return all at once. */
export const SHUTDOWN_RETRY_MS = { min: 1000, spread: 2000 } as const;

/**
 * The last event of a stream ended by a shutting-down server. No `id:` line, so the
 * client's resume point stays at the last incident event; `retry:` asks it to come
 * back sooner than the usual 5 s (to another instance, through the load balancer).
 */
export function shutdownFrame(at: Date, retryMs: number): Buffer {
  const data = { type: 'shutdown', occurredAt: at.toISOString(), reconnectAfterMs: retryMs };
  return Buffer.from(`event: shutdown\nretry: ${retryMs}\ndata: ${JSON.stringify(data)}\n\n`);
}

function frame(id: number | null, event: string, data: unknown): Buffer {
  const head = id === null ? '' : `id: ${id}\n`;
  return Buffer.from(`${head}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * An incident event as sent: always with its `id:`, a resume point that misses nothing
 * (docs/stream.md, ordering). `affectedServices`: the reader's organisation's services the
 * incident may hit, only on a member's stream (docs/stream.md "Affected services").
 */
export function eventFrame(e: StoredEvent, affectedServices?: readonly unknown[]): Buffer {
  const incident = affectedServices ? { ...(e.payload as Incident), affectedServices } : (e.payload as Incident);
  return frame(e.seq, e.type, { type: e.type, occurredAt: e.occurredAt, incident });
}

/** An early-warning notice (docs/early-warning.md "Outputs"): no `id:`, it is not in the event log. */
export function noticeFrame(n: { change: string; signal: { updatedAt: string } }): Buffer {
  return frame(null, 'early_warning', { type: 'early_warning', occurredAt: n.signal.updatedAt, change: n.change, signal: n.signal });
}

export function snapshotFrame(seq: number, at: Date, items: Incident[], total: number): Buffer {
  return frame(seq, 'snapshot', { type: 'snapshot', occurredAt: at.toISOString(), total, incidents: items });
}
