// Finds what a status page a user named serves (docs/per-user.md "Detection"): the
// endpoints of `probePlan` are fetched in order through the guarded fetcher, each body is
// recognised by `detectPlatform` (the same recognition `catalog verify` uses) and must
// then parse with the adapter of that platform. The first endpoint that passes both wins.
import {
  feedSourceType,
  probePlan,
  statusIoApiUrl,
  uptimeRobotApiUrl,
  type PageDetection,
  type PageDetector,
  type ProbeAttempt,
} from '../domain/custom-sources.ts';
import { detectPlatform, pageNameOf } from '../domain/platform-detect.ts';
import { hundStreamComplete } from '../domain/server-sent-events.ts';
import type { SourceType } from '../domain/records.ts';
import { parseSource } from './adapters/index.ts';
import { createHttpFetcher, FetchError, type Fetcher } from '../infra/fetch.ts';

export interface PageDetectOptions {
  fetcher: Fetcher;
  timeoutMs: number;
  maxBytes: number;
  now: () => Date;
}

const ACCEPT = 'application/json, application/atom+xml, application/rss+xml, text/html;q=0.8, text/event-stream;q=0.6, */*;q=0.5';

async function fetchBody(url: string, o: PageDetectOptions, mayBeStream = false) {
  const res = await o.fetcher(url, {
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxBytes,
    accept: ACCEPT,
    untrusted: true,
    maxRedirects: 3,
    // Hund's live stream never ends: an endpoint that may be one is read until its first event.
    ...(mayBeStream ? { complete: hundStreamComplete } : {}),
  });
  if (res.notModified) throw new FetchError('http_status', 'HTTP 304', 304);
  return res;
}

/**
 * What the person who named the page is told of a failed probe: the kind of failure only,
 * as `sourceHealth.lastError` does, never text of the answer (keys, a fragment of the body)
 * nor what tells a refused connection from a silent one (docs/security.md, "What a failed
 * detection tells").
 */
export function probeFailureKind(err: unknown): string {
  if (!(err instanceof FetchError)) return 'could not be read';
  switch (err.code) {
    case 'http_status':
      return 'HTTP error';
    case 'too_large':
      return 'answer too large';
    case 'redirect':
      if (err.message.startsWith('destination refused')) return 'destination refused (not a public address)';
      return /refused/.test(err.message) ? 'redirect refused (not a public address)' : 'redirect not followed';
    default:
      return 'not reachable';
  }
}

/** Probes a page; never throws for what the page answers (every outcome is in `tried`). */
export function pageDetector(o: PageDetectOptions): PageDetector {
  // What was read is parsed again once the page has its slug, as a poll would parse it.
  const reader = (type: SourceType, url: string, body: Buffer, contentType: string | null) => {
    const readAt = o.now();
    return (vendor: string) => parseSource(type, { vendor, url, body, contentType, now: readAt });
  };
  return async (pageUrl) => {
    const tried: ProbeAttempt[] = [];
    let htmlPage: (PageDetection & { found: true }) | null = null;
    const accept = (type: SourceType, url: string, body: Buffer, contentType: string | null): string | null => {
      try {
        parseSource(type, { vendor: 'probe', url, body, contentType, now: o.now() });
        return null;
      } catch {
        return 'malformed';
      }
    };
    for (const probe of probePlan(pageUrl)) {
      // A Statuspage page is known once its HTML was read: only its own JSON API can say more
      // (a history feed has no components or page status), so no other platform is probed.
      if (htmlPage && !probe.accepts.includes('statuspage-v2')) continue;
      let res;
      try {
        res = await fetchBody(probe.url, o, probe.accepts.includes('hund'));
      } catch (err) {
        const kind = probeFailureKind(err);
        tried.push({ url: probe.url, result: kind });
        // A refused destination is refused for every path under it.
        if (kind.startsWith('destination refused')) break;
        continue;
      }
      const detected = detectPlatform(res.body, res.contentType);
      // status.io and UptimeRobot pages name the API their data comes from in their HTML.
      const named =
        detected === 'statusio' || detected === 'html'
          ? { type: 'statusio' as const, api: statusIoApiUrl(res.body.toString('utf8')), label: 'a status.io page' }
          : detected === 'uptimerobot' && !/^\s*[{[]/.test(res.body.subarray(0, 64).toString('utf8'))
            ? { type: 'uptimerobot' as const, api: uptimeRobotApiUrl(res.body.toString('utf8')), label: 'an UptimeRobot page' }
            : null;
      if (named?.api && probe.accepts.includes(named.type)) {
        const { api, type } = named;
        tried.push({ url: probe.url, result: named.label });
        try {
          const apiRes = await fetchBody(api, o);
          const problem = detectPlatform(apiRes.body, apiRes.contentType) === type ? accept(type, api, apiRes.body, apiRes.contentType) : `not ${type} data`;
          if (problem === null) {
            return {
              found: true,
              type,
              url: api,
              tried: [...tried, { url: api, result: type }],
              read: reader(type, apiRes.url, apiRes.body, apiRes.contentType),
              pageName: pageNameOf(res.body),
            };
          }
          tried.push({ url: api, result: problem });
        } catch (err) {
          tried.push({ url: api, result: probeFailureKind(err) });
        }
        continue;
      }
      const type: SourceType | null = detected === 'feed' ? feedSourceType(res.body.toString('utf8')) : detected && detected !== 'html' ? detected : null;
      const acceptedHere = type !== null && probe.accepts.includes(detected === 'feed' ? 'feed' : (type as SourceType));
      if (!type || !acceptedHere) {
        tried.push({
          url: probe.url,
          result:
            detected === 'html' ? 'an HTML page without a known platform' : detected ? `${detected}, not expected here` : 'not a recognised status format',
        });
        continue;
      }
      const problem = accept(type, res.url, res.body, res.contentType);
      if (problem === null && type === 'statuspage-html') {
        // Statuspage's JSON API, probed next, says more (history, upcoming maintenance): the page's
        // HTML is kept and used only when the API does not answer (docs/per-user.md "Detection").
        htmlPage ??= {
          found: true,
          type,
          url: probe.url,
          tried: [],
          read: reader(type, res.url, res.body, res.contentType),
          pageName: pageNameOf(res.body),
        };
        tried.push({ url: probe.url, result: 'statuspage-html (kept unless its API answers)' });
        continue;
      }
      if (problem === null) {
        return {
          found: true,
          type,
          url: probe.url,
          tried: [...tried, { url: probe.url, result: type }],
          read: reader(type, res.url, res.body, res.contentType),
          pageName: pageNameOf(res.body),
        };
      }
      tried.push({ url: probe.url, result: `looks like ${type} but does not parse` });
    }
    return htmlPage ? { ...htmlPage, tried } : { found: false, tried };
  };
}

/** A detector over its own guarded connection pool, opened on first use; `close()` it with the app. */
export function httpPageDetector(o: {
  allowList: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  now: () => Date;
}): PageDetector & { close(): Promise<void> } {
  let fetcher: ReturnType<typeof createHttpFetcher> | null = null;
  const detect: PageDetector = (url) => {
    fetcher ??= createHttpFetcher({ connectionsPerOrigin: 2, allowList: o.allowList, connectTimeoutMs: o.timeoutMs });
    return pageDetector({ fetcher, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, now: o.now })(url);
  };
  return Object.assign(detect, { close: async () => fetcher?.close() });
}
