import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller's X-Request-Id when it is a safe token, else a fresh UUID (every listener uses this). */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}
