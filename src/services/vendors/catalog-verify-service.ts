// `catalog verify`: polls every catalog source once and says, per source, whether the
// entry still holds (docs/operations.md "Checking the catalog"). Read-only: it never
// touches the store, so the catalog and sources loaded there stay as they are.
import { detectPlatform, platformMatches, sourceRequest, type DetectedPlatform } from '../../domain/platform-detect.ts';
import type { CatalogVendor, SourceType } from '../../domain/records.ts';
import { FetchError, type Fetcher } from '../../infra/fetch.ts';
import { KeyedLimiter } from '../../infra/keyed-limiter.ts';

export const VERDICTS = ['ok', 'moved', 'wrong-platform', 'dead'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface SourceCheck {
  vendor: string;
  type: SourceType;
  url: string;
  verdict: Verdict;
  /** HTTP status of the last answer, when there was one. */
  httpStatus: number | null;
  /** Where a redirect ended, when it left the source's host. */
  finalUrl: string | null;
  /** The platform the body looks like (null: not recognised). */
  detected: DetectedPlatform;
  detail: string;
  durationMs: number;
}

export interface VerifyReport {
  checkedAt: string;
  totals: Record<Verdict, number>;
  results: SourceCheck[];
}

/** Reads one fetched body as a source of `type`; throws when it does not parse (the ingest adapters). */
export type SourceParser = (type: SourceType, input: { vendor: string; url: string; body: Buffer; contentType: string | null; now: Date }) => unknown;

export interface VerifyOptions {
  fetcher: Fetcher;
  parse: SourceParser;
  concurrency: number;
  perHost: number;
  timeoutMs: number;
  maxBytes: number;
  now: () => Date;
  onResult?: (check: SourceCheck) => void;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
};

async function checkSource(vendor: string, type: SourceType, url: string, o: VerifyOptions): Promise<SourceCheck> {
  const started = Date.now();
  const base = { vendor, type, url, finalUrl: null, detected: null as DetectedPlatform };
  const done = (c: Omit<SourceCheck, 'durationMs'>): SourceCheck => ({ ...c, durationMs: Date.now() - started });
  let res;
  try {
    res = await o.fetcher(url, {
      timeoutMs: o.timeoutMs,
      maxBytes: o.maxBytes,
      ...sourceRequest(type),
    });
  } catch (err) {
    const detail = err instanceof FetchError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    return done({ ...base, verdict: 'dead', httpStatus: err instanceof FetchError ? err.status : null, detail });
  }
  if (res.notModified) return done({ ...base, verdict: 'ok', httpStatus: 304, detail: 'not modified' });
  const moved = hostOf(res.url) !== hostOf(url);
  const detected = detectPlatform(res.body, res.contentType);
  let parseError: string | null = null;
  try {
    o.parse(type, { vendor, url: res.url, body: res.body, contentType: res.contentType, now: o.now() });
  } catch (err) {
    parseError = err instanceof Error ? err.message : String(err);
  }
  const common = { ...base, httpStatus: res.status, detected, finalUrl: moved ? res.url : null };
  if (moved) return done({ ...common, verdict: 'moved', detail: `redirected to ${hostOf(res.url)}${parseError ? `; ${parseError}` : ''}` });
  if (parseError !== null || !platformMatches(type, detected)) {
    const seen = detected ? `serves ${detected}` : 'serves an unrecognised body';
    return done({ ...common, verdict: 'wrong-platform', detail: parseError ? `${seen}; ${parseError}` : `${seen}, not ${type}` });
  }
  return done({ ...common, verdict: 'ok', detail: detected ? `serves ${detected}` : 'parsed' });
}

/** Every source of every vendor, polled once, at most `concurrency` at a time (`perHost` per host). */
export async function verifyCatalog(catalog: CatalogVendor[], o: VerifyOptions): Promise<VerifyReport> {
  const limiter = new KeyedLimiter(o.concurrency, o.perHost);
  const jobs = catalog.flatMap((v) => v.sources.map((s) => ({ vendor: v.slug, type: s.type, url: s.url })));
  const results = await Promise.all(
    jobs.map((j) =>
      limiter.run(hostOf(j.url), async () => {
        const check = await checkSource(j.vendor, j.type, j.url, o);
        o.onResult?.(check);
        return check;
      }),
    ),
  );
  const totals = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of results) totals[r.verdict]++;
  return { checkedAt: o.now().toISOString(), totals, results };
}
