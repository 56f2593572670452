import type { Indicator } from './records.ts';

// One wording per indicator, whatever the source format (docs/mappings.md
// "Status description"): Statuspage's phrases, which most pages use. Upstream
// descriptions vary by format and are not shown.
export const INDICATOR_DESCRIPTIONS: Record<Indicator, string> = {
  operational: 'All Systems Operational',
  degraded: 'Minor Service Outage',
  partial_outage: 'Partial System Outage',
  major_outage: 'Major System Outage',
  maintenance: 'Service Under Maintenance',
  unknown: 'Status Unknown',
};

export const describeIndicator = (indicator: Indicator): string => INDICATOR_DESCRIPTIONS[indicator];
