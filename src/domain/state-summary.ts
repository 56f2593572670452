import type { Indicator } from './records.ts';

// One rule for every place that sums up the state of several vendors in a word or
// a colour (overview, boards, MCP answers; docs/web.md "Summary"): a vendor that
// was never read, or whose sources are stale, is counted as not observed, and the
// sum is green only when every counted vendor is observed operational.

export interface VendorState {
  indicator: Indicator;
  /** Its sources have been failing past the stale threshold (docs/operations.md "Source health"). */
  stale: boolean;
  /** An incident is open or the status page reports degradation or an outage. */
  problem: boolean;
}

export type SummaryTone = 'ok' | 'problems' | 'unknown';

export interface StateSummary {
  total: number;
  problems: number;
  /** Never read (indicator unknown) or stale, and reporting no problem. */
  notObserved: number;
  tone: SummaryTone;
  headline: string;
}

const PROBLEM_INDICATORS: ReadonlySet<Indicator> = new Set(['degraded', 'partial_outage', 'major_outage']);

/** An incident open, or the status page itself reporting degradation (maintenance is not a problem). */
export const reportsProblem = (indicator: Indicator, activeIncidents: number): boolean => PROBLEM_INDICATORS.has(indicator) || activeIncidents > 0;

/** Read, and read recently enough to be believed. */
export const isObserved = (v: Pick<VendorState, 'indicator' | 'stale'>): boolean => v.indicator !== 'unknown' && !v.stale;

const vendors = (n: number) => (n === 1 ? 'vendor' : 'vendors');

export function summarizeState(list: readonly VendorState[]): StateSummary {
  const total = list.length;
  const problems = list.filter((v) => v.problem).length;
  const notObserved = list.filter((v) => !v.problem && !isObserved(v)).length;
  const tone: SummaryTone = problems ? 'problems' : notObserved || !total ? 'unknown' : 'ok';
  const unseen = `${notObserved} of ${total} ${vendors(total)} not observed`;
  let headline: string;
  if (!total) headline = 'No vendors';
  else if (problems) headline = `${problems} of ${total} ${vendors(total)} report problems${notObserved ? `; ${notObserved} not observed` : ''}`;
  else if (notObserved) headline = notObserved === total ? unseen : `${unseen}; the other ${total - notObserved} operational`;
  else headline = total === 1 ? 'The vendor is operational' : `All ${total} vendors are operational`;
  return { total, problems, notObserved, tone, headline };
}
