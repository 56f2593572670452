import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller's X-Request-Id when it is a safe token, else a fresh UUID (every listener uses this). */
export function requestIdFor(req: IncomingMessage): string {
  return requestIdFrom(req.headers['x-request-id']);
}

/** The same, from the header's value (the cache-hit path reads it from the raw header lines). */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}
