import type { ComponentStatus, Indicator } from './records.ts';

// Statuses as numbers for Prometheus (docs/integrations.md, "Prometheus"): higher is
// worse, so `>= 3` means an outage; maintenance sits below degraded; `unknown` (never
// polled, or no data) is -1 so that "worse than" alerts do not fire on it.

export const INDICATOR_LEVEL: Record<Indicator, number> = {
  unknown: -1,
  operational: 0,
  maintenance: 1,
  degraded: 2,
  partial_outage: 3,
  major_outage: 4,
};

export const COMPONENT_LEVEL: Record<ComponentStatus, number> = {
  unknown: -1,
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
};
