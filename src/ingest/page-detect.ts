// Finds what a status page a user named serves (docs/per-user.md "Detection"): the
// endpoints of `probePlan` are fetched in order through the guarded fetcher, each body is
// recognised by `detectPlatform` (the same recognition `catalog verify` uses) and must
// then parse with the adapter of that platform. The first endpoint that passes both wins.
import { feedSourceType, probePlan, statusIoApiUrl, type PageDetector, type ProbeAttempt } from '../domain/custom-sources.ts';
import { detectPlatform } from '../domain/platform-detect.ts';
import type { SourceType } from '../domain/records.ts';
import { parseSource } from './adapters/index.ts';
import { createHttpFetcher, FetchError, type Fetcher } from '../infra/fetch.ts';

export interface PageDetectOptions {
  fetcher: Fetcher;
  timeoutMs: number;
  maxBytes: number;
  now: () => Date;
}

const ACCEPT = 'application/json, application/atom+xml, application/rss+xml, text/html;q=0.8, */*;q=0.5';

async function fetchBody(url: string, o: PageDetectOptions) {
  const res = await o.fetcher(url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, accept: ACCEPT, untrusted: true, maxRedirects: 3 });
  if (res.notModified) throw new FetchError('http_status', 'HTTP 304', 304);
  return res;
}

const describe = (err: unknown) => (err instanceof FetchError ? err.message : err instanceof Error ? err.message : String(err));

/** Probes a page; never throws for what the page answers (every outcome is in `tried`). */
export function pageDetector(o: PageDetectOptions): PageDetector {
  return async (pageUrl) => {
    const tried: ProbeAttempt[] = [];
    const accept = (type: SourceType, url: string, body: Buffer, contentType: string | null): string | null => {
      try {
        parseSource(type, { vendor: 'probe', url, body, contentType, now: o.now() });
        return null;
      } catch (err) {
        return describe(err);
      }
    };
    for (const probe of probePlan(pageUrl)) {
      let res;
      try {
        res = await fetchBody(probe.url, o);
      } catch (err) {
        tried.push({ url: probe.url, result: describe(err) });
        // A refused destination is refused for every path under it.
        if (err instanceof FetchError && /refused/.test(err.message)) break;
        continue;
      }
      const detected = detectPlatform(res.body, res.contentType);
      if (detected === 'statusio' || detected === 'html') {
        const api = statusIoApiUrl(res.body.toString('utf8'));
        if (api && probe.accepts.includes('statusio')) {
          tried.push({ url: probe.url, result: 'a status.io page' });
          try {
            const apiRes = await fetchBody(api, o);
            const problem = detectPlatform(apiRes.body, apiRes.contentType) === 'statusio' ? accept('statusio', api, apiRes.body, apiRes.contentType) : 'not status.io data';
            if (problem === null) return { found: true, type: 'statusio', url: api, tried: [...tried, { url: api, result: 'statusio' }] };
            tried.push({ url: api, result: problem });
          } catch (err) {
            tried.push({ url: api, result: describe(err) });
          }
          continue;
        }
      }
      const type: SourceType | null =
        detected === 'feed' ? feedSourceType(res.body.toString('utf8')) : detected && detected !== 'html' ? detected : null;
      const acceptedHere = type !== null && probe.accepts.includes(detected === 'feed' ? 'feed' : (type as SourceType));
      if (!type || !acceptedHere) {
        tried.push({ url: probe.url, result: detected === 'html' ? 'an HTML page without a known platform' : detected ? `${detected}, not expected here` : 'not a recognised status format' });
        continue;
      }
      const problem = accept(type, res.url, res.body, res.contentType);
      if (problem === null) return { found: true, type, url: probe.url, tried: [...tried, { url: probe.url, result: type }] };
      tried.push({ url: probe.url, result: `looks like ${type} but does not parse: ${problem}` });
    }
    return { found: false, tried };
  };
}

/** A detector over its own guarded connection pool, opened on first use; `close()` it with the app. */
export function httpPageDetector(o: { allowList: readonly string[]; timeoutMs: number; maxBytes: number; now: () => Date }): PageDetector & { close(): Promise<void> } {
  let fetcher: ReturnType<typeof createHttpFetcher> | null = null;
  const detect: PageDetector = (url) => {
    fetcher ??= createHttpFetcher({ connectionsPerOrigin: 2, allowList: o.allowList, connectTimeoutMs: o.timeoutMs });
    return pageDetector({ fetcher, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, now: o.now })(url);
  };
  return Object.assign(detect, { close: async () => fetcher?.close() });
}
