import type { CatalogSource, CatalogVendor, SourceType } from './records.ts';

// Self-healing of catalog sources (docs/catalog.md "Self-healing"): when a vendor's status
// sources keep failing, the page it names is probed again at the documented endpoints of
// every platform we read. What it serves now becomes a repair: applied at once when the
// page kept its own name on the vendor's own host (a platform move), otherwise proposed to
// an operator (`npm run cli -- catalog repair`). Pure rules; the scan lives in the service.

/** A source is broken after this many failed polls in a row … */
export const REPAIR_AFTER_FAILURES = 10;
/** … and this long without a successful one (a vendor's bad hour is not a platform move). */
export const REPAIR_AFTER_MS = 6 * 3_600_000;
/** A vendor is probed again at most once per this period, whatever it answered. */
export const RECHECK_AFTER_MS = 24 * 3_600_000;
/** Vendors probed per scan: the probes go through the guarded fetcher, one vendor at a time. */
export const VENDORS_PER_SCAN = 20;

/** Sources that are advisory or release-note feeds are not the status page: never repaired. */
const FEED_TYPES: readonly SourceType[] = ['advisory-feed', 'release-feed'];
export const isStatusSource = (type: string) => !(FEED_TYPES as readonly string[]).includes(type);

export interface SourceState {
  type: string;
  url: string;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  /** Start of the current run of failures (null while the source succeeds). */
  failingSince: string | null;
}

/**
 * Whether every status source of a vendor is broken: each has failed at least
 * REPAIR_AFTER_FAILURES polls in a row for at least REPAIR_AFTER_MS, none succeeding.
 */
export function vendorNeedsRepair(sources: readonly SourceState[], now: Date): boolean {
  const status = sources.filter((s) => isStatusSource(s.type));
  if (!status.length) return false;
  const cutoff = now.getTime() - REPAIR_AFTER_MS;
  const since = (s: SourceState) => Date.parse(s.failingSince ?? s.lastSuccessAt ?? '');
  return status.every((s) => s.consecutiveFailures >= REPAIR_AFTER_FAILURES && since(s) <= cutoff);
}

export const REPAIR_OUTCOMES = ['proposed', 'applied', 'accepted', 'rejected', 'unchanged', 'not_found'] as const;
export type RepairOutcome = (typeof REPAIR_OUTCOMES)[number];
/** Outcomes whose new sources replace the catalog's (at start-up too). */
export const IN_FORCE: readonly RepairOutcome[] = ['applied', 'accepted'];

export interface RepairSource {
  type: SourceType;
  url: string;
  intervalSeconds?: number;
}

/** What one probe of a vendor's page found, and what became of it. */
export interface SourceRepair {
  vendor: string;
  /** The vendor's status sources when the probe ran. */
  from: RepairSource[];
  /** What the page serves now (empty when nothing was found). */
  to: RepairSource[];
  /** The platform found, or null. */
  platform: SourceType | null;
  /** The name the page gives itself, as read (null when the format has none). */
  pageName: string | null;
  outcome: RepairOutcome;
  /** Why the outcome: shown to the operator. */
  reason: string;
  /** Every endpoint tried and what it answered (kinds of failure only). */
  tried: { url: string; result: string }[];
  checkedAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

const STOP_WORDS = new Set(['status', 'statuspage', 'page', 'inc', 'ltd', 'llc', 'gmbh', 'the', 'system', 'systems', 'service']);

/** A name reduced to what identifies it: "GitHub Status" and "github" are the same page name. */
export function normalisedName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP_WORDS.has(w))
    .join('');
}

/** Whether the page still names itself as the vendor the catalog lists. */
export const keepsPageName = (vendorName: string, pageName: string | null): boolean =>
  pageName !== null && normalisedName(pageName) !== '' && normalisedName(pageName) === normalisedName(vendorName);

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
};

const sameSources = (a: readonly RepairSource[], b: readonly RepairSource[]) =>
  a.length === b.length && a.every((s) => b.some((t) => t.type === s.type && t.url === s.url));

/**
 * What to do with a probe's finding. Nothing found, or the same sources: nothing to repair
 * (the page itself is down, or fails in a way a new endpoint would not mend). A move is
 * applied without an operator only when the page kept its own name and the new sources are
 * on the status page's own host: a page on another host, or under another name, could be
 * someone else's, so an operator decides.
 */
export function judgeFinding(
  vendor: { name: string; statusPageUrl: string },
  from: readonly RepairSource[],
  found: { to: RepairSource[]; platform: SourceType | null; pageName: string | null },
): { outcome: RepairOutcome; reason: string } {
  if (!found.to.length) return { outcome: 'not_found', reason: 'no documented endpoint of a known platform answered with a status we can read' };
  if (sameSources(found.to, from)) return { outcome: 'unchanged', reason: 'the page still serves the listed sources; they fail for another reason' };
  const pageHost = hostOf(vendor.statusPageUrl);
  const offHost = found.to.some((s) => hostOf(s.url) !== pageHost);
  if (offHost) return { outcome: 'proposed', reason: `the new sources are not on the status page's host (${pageHost ?? 'unknown'})` };
  if (!keepsPageName(vendor.name, found.pageName)) {
    return {
      outcome: 'proposed',
      reason: found.pageName === null ? 'the page does not give its name' : `the page now calls itself "${found.pageName}", not "${vendor.name}"`,
    };
  }
  return { outcome: 'applied', reason: `moved to ${found.platform}; the page kept its name "${found.pageName}"` };
}

/**
 * The catalog with the repairs in force: each repaired vendor's status sources replaced by
 * the new ones, as long as the catalog still lists the sources the repair replaced (once
 * the catalog file itself is corrected, the repair has nothing left to do).
 */
export function applyRepairs(catalog: readonly CatalogVendor[], repairs: readonly Pick<SourceRepair, 'vendor' | 'from' | 'to' | 'outcome'>[]): CatalogVendor[] {
  const byVendor = new Map(repairs.filter((r) => IN_FORCE.includes(r.outcome) && r.to.length).map((r) => [r.vendor, r]));
  if (!byVendor.size) return [...catalog];
  return catalog.map((v) => {
    const r = byVendor.get(v.slug);
    if (!r) return v;
    const status = v.sources.filter((s) => isStatusSource(s.type));
    if (!sameSources(status, r.from)) return v;
    const kept = v.sources.filter((s) => !isStatusSource(s.type));
    // Found by probing, not vouched for by a maintainer: polled through the outbound guard.
    const repaired: CatalogSource[] = r.to.map((s) => ({ ...s, guarded: true }));
    return { ...v, sources: [...repaired, ...kept] };
  });
}
