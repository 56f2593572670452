// Poll failures summed up over a window for the service log: one info line per window
// instead of one per failed source (an offline start failed 337 polls in its first
// minute). Each failure itself is logged at debug (docs/operations.md, "Logs").

export interface PollFailureSummary {
  /** Failed polls in the window. */
  failed: number;
  /** Distinct sources among them. */
  sources: number;
  /** Failures per error kind (the text `sourceHealth.lastError` shows), the most frequent first. */
  byError: Record<string, number>;
  /** A few of the vendors concerned, the first to fail first. */
  vendors: string[];
  /** Vendors concerned beyond those named. */
  moreVendors: number;
  /** Length of the window the summary covers. */
  windowSeconds: number;
}

const NAMED_VENDORS = 5;
const NAMED_ERRORS = 8;
const ERROR_KEY_LENGTH = 120;

export class PollFailureTally {
  private failed = 0;
  private readonly sources = new Set<string>();
  private readonly vendors = new Set<string>();
  private readonly errors = new Map<string, number>();
  private startedAt: number | null = null;

  private readonly windowMs: number;

  constructor(windowMs: number) {
    this.windowMs = windowMs;
  }

  add(failure: { sourceId: string; vendor: string; error: string | null }, atMs: number): void {
    this.startedAt ??= atMs;
    this.failed++;
    this.sources.add(failure.sourceId);
    this.vendors.add(failure.vendor);
    const key = (failure.error ?? 'unknown error').slice(0, ERROR_KEY_LENGTH);
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  /** The summary once the window since the first failure has passed (or `force`), then starts over; null when there is nothing to say yet. */
  take(nowMs: number, force = false): PollFailureSummary | null {
    if (this.startedAt === null || (!force && nowMs - this.startedAt < this.windowMs)) return null;
    const sorted = [...this.errors].sort((a, b) => b[1] - a[1]);
    const byError: Record<string, number> = {};
    for (const [k, n] of sorted.slice(0, NAMED_ERRORS)) byError[k] = n;
    const rest = sorted.slice(NAMED_ERRORS).reduce((n, [, c]) => n + c, 0);
    if (rest) byError['other errors'] = rest;
    const vendors = [...this.vendors];
    const summary: PollFailureSummary = {
      failed: this.failed,
      sources: this.sources.size,
      byError,
      vendors: vendors.slice(0, NAMED_VENDORS),
      moreVendors: Math.max(0, vendors.length - NAMED_VENDORS),
      windowSeconds: Math.round((nowMs - this.startedAt) / 1000),
    };
    this.failed = 0;
    this.sources.clear();
    this.vendors.clear();
    this.errors.clear();
    this.startedAt = null;
    return summary;
  }
}

/** The summary's message line: "337 polls of 337 sources failed in 60 s (timed out after 10000 ms: 300, …)". */
export function pollFailureMessage(s: PollFailureSummary): string {
  const kinds = Object.entries(s.byError)
    .slice(0, 3)
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const who = s.vendors.join(', ') + (s.moreVendors ? ` and ${s.moreVendors} more vendors` : '');
  return `${s.failed} source polls failed in ${s.windowSeconds} s (${kinds}); vendors: ${who}`;
}
