import { request } from 'undici';
import { assertAllowedUrl, guardedAgent } from './ssrf-guard.ts';

// The Prometheus HTTP API client of telemetry connectors (docs/early-warning.md "Prometheus
// connectors"): `GET /api/v1/query?query=…&timeout=…` under the base URL an admin gave,
// through the outbound guard (a private address only when OUTBOUND_ALLOW_PRIVATE lists it),
// with a deadline, an optional bearer token and an answer of at most `maxBytes`.

export interface PrometheusClient {
  query(baseUrl: string, token: string | null, query: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export function prometheusClient(o: { allowList: readonly string[]; timeoutMs: number; maxBytes?: number }): PrometheusClient {
  const agent = guardedAgent({ allowList: o.allowList, timeoutMs: o.timeoutMs, connections: 4 });
  const maxBytes = o.maxBytes ?? 1024 * 1024;
  return {
    async query(baseUrl, token, query) {
      const url = new URL('api/v1/query', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      url.searchParams.set('query', query);
      // Prometheus stops the query itself a little before we give up on the answer.
      url.searchParams.set('timeout', `${Math.max(1, Math.floor((o.timeoutMs * 0.9) / 1000))}s`);
      assertAllowedUrl(url, o.allowList);
      const res = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal: AbortSignal.timeout(o.timeoutMs),
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw Object.assign(new Error('answer too large'), { code: 'ANSWER_TOO_LARGE' });
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
    },
    close: () => agent.close(),
  };
}
