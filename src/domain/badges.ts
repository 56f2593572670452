import type { ComponentStatus, Indicator } from './records.ts';

// What a status badge says and in which colour (docs/integrations.md, "Badges").
// Colours are shields.io's named colours, so the endpoint JSON and our own SVG agree.

export interface Badge {
  label: string;
  message: string;
  color: string;
}

const BY_INDICATOR: Record<Indicator, Omit<Badge, 'label'>> = {
  operational: { message: 'operational', color: 'brightgreen' },
  degraded: { message: 'degraded', color: 'yellow' },
  partial_outage: { message: 'partial outage', color: 'orange' },
  major_outage: { message: 'major outage', color: 'red' },
  maintenance: { message: 'maintenance', color: 'blue' },
  unknown: { message: 'unknown', color: 'lightgrey' },
};

const BY_COMPONENT_STATUS: Record<ComponentStatus, Omit<Badge, 'label'>> = {
  operational: BY_INDICATOR.operational,
  degraded_performance: BY_INDICATOR.degraded,
  partial_outage: BY_INDICATOR.partial_outage,
  major_outage: BY_INDICATOR.major_outage,
  under_maintenance: BY_INDICATOR.maintenance,
  unknown: BY_INDICATOR.unknown,
};

/** A source failing past the stale threshold: the last state read is not shown as current (docs/integrations.md, "Badges"). */
const STALE: Omit<Badge, 'label'> = { message: 'stale', color: 'lightgrey' };

/** No machine-readable status source: grey, and says so (docs/web.md "Not monitored"). */
const NOT_MONITORED_BADGE: Omit<Badge, 'label'> = { message: 'not monitored', color: 'lightgrey' };

export const indicatorBadge = (label: string, indicator: Indicator, stale = false, monitored = true): Badge => ({
  label,
  ...(!monitored ? NOT_MONITORED_BADGE : stale ? STALE : BY_INDICATOR[indicator]),
});

export const componentBadge = (label: string, status: ComponentStatus, stale = false): Badge => ({ label, ...(stale ? STALE : BY_COMPONENT_STATUS[status]) });
