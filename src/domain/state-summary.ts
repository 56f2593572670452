import type { Indicator } from './records.ts';

// One rule for every place that sums up the state of several vendors in a word or
// a colour (overview, boards, MCP answers; docs/web.md "Summary"): a vendor that
// was never read, or whose sources are stale, is counted as not observed, and the
// sum is green only when every counted vendor is observed operational. A vendor without a
// machine-readable source is *not monitored* (docs/web.md "Not monitored"): counted apart,
// never operational, never a problem.

export interface VendorState {
  indicator: Indicator;
  /** Its sources have been failing past the stale threshold (docs/operations.md "Source health"). */
  stale: boolean;
  /** An incident is open or the status page reports degradation or an outage. */
  problem: boolean;
  /** It has a machine-readable status source; false: not monitored at all. */
  monitored: boolean;
}

export type SummaryTone = 'ok' | 'problems' | 'unknown';

export interface StateSummary {
  total: number;
  problems: number;
  /** Monitored but never read (indicator unknown) or stale, and reporting no problem. */
  notObserved: number;
  /** No machine-readable status source: nothing can be observed. */
  notMonitored: number;
  tone: SummaryTone;
  headline: string;
}

const PROBLEM_INDICATORS: ReadonlySet<Indicator> = new Set(['degraded', 'partial_outage', 'major_outage']);

/** An incident open, or the status page itself reporting degradation (maintenance is not a problem). */
export const reportsProblem = (indicator: Indicator, activeIncidents: number): boolean => PROBLEM_INDICATORS.has(indicator) || activeIncidents > 0;

/** Monitored, read, and read recently enough to be believed. */
export const isObserved = (v: Pick<VendorState, 'indicator' | 'stale' | 'monitored'>): boolean => v.monitored && v.indicator !== 'unknown' && !v.stale;

const vendors = (n: number) => (n === 1 ? 'vendor' : 'vendors');

export function summarizeState(list: readonly VendorState[]): StateSummary {
  const total = list.length;
  const problems = list.filter((v) => v.monitored && v.problem).length;
  const notMonitored = list.filter((v) => !v.monitored).length;
  const notObserved = list.filter((v) => v.monitored && !v.problem && !isObserved(v)).length;
  const operational = total - problems - notMonitored - notObserved;
  const tone: SummaryTone = problems ? 'problems' : notObserved || notMonitored || !total ? 'unknown' : 'ok';
  const unmonitored = notMonitored ? `; ${notMonitored} not monitored` : '';
  let headline: string;
  if (!total) headline = 'No vendors';
  else if (problems) headline = `${problems} of ${total} ${vendors(total)} report problems${notObserved ? `; ${notObserved} not observed` : ''}${unmonitored}`;
  else if (notObserved || notMonitored) {
    const first = notObserved
      ? `${notObserved} of ${total} ${vendors(total)} not observed${unmonitored}`
      : `${notMonitored} of ${total} ${vendors(total)} not monitored`;
    headline = operational ? `${first}; the other ${operational} operational` : first;
  } else headline = total === 1 ? 'The vendor is operational' : `All ${total} vendors are operational`;
  return { total, problems, notObserved, notMonitored, tone, headline };
}
