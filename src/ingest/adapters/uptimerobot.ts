// UptimeRobot status pages (`https://stats.uptimerobot.com/<page id>`, or a page on its own
// domain). The page's own scripts read its monitors from a public JSON endpoint,
// `https://stats.uptimerobot.com/api/getMonitorList/<page id>?page=1`, named on the page as
// `window.pspApiPath`: `{status: "ok", data: [{monitorId, name, statusClass, groupId,
// groupName, ...}]}`; older pages answered `{status: "ok", psp: {monitors: [...]}}`. It lists
// monitors and their state only, no incidents. Sources and mapping: docs/mappings.md "UptimeRobot".
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Indicator } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, indicatorFromComponents } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'uptimerobot';
const MAX_MONITORS = 5000;

const MonitorSchema = Type.Object({
  monitorId: Type.Union([Type.Number(), Type.String()]),
  name: Type.String(),
  statusClass: Type.String(),
  groupId: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String()]))),
  groupName: OptStr,
});

const PayloadSchema = Type.Object({
  status: Type.Literal('ok'),
  data: Type.Optional(Type.Array(MonitorSchema)),
  psp: Type.Optional(Type.Object({ monitors: Type.Array(MonitorSchema) })),
});

type Monitor = Static<typeof MonitorSchema>;

/**
 * `statusClass` is the colour class the page paints a monitor with: `success` up, `warning`
 * seems down, `danger` down. A paused monitor (`paused`, `black`) is not being checked, so its
 * state is not known.
 */
export function uptimerobotComponentStatus(statusClass: string): ComponentStatus {
  switch (statusClass.trim().toLowerCase()) {
    case 'success':
      return 'operational';
    case 'warning':
      return 'degraded_performance';
    case 'danger':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

/** The page has no status of its own: it is its checked monitors' (none checked: unknown). */
function indicatorOf(statuses: ComponentStatus[]): Indicator {
  const known = statuses.filter((s) => s !== 'unknown');
  return known.length === 0 ? 'unknown' : indicatorFromComponents(known);
}

/** Group 0 is the page's default group ("Monitors (default)"): no group of the vendor's. */
const groupOf = (m: Monitor): string | null => {
  if (m.groupId === undefined || m.groupId === null || String(m.groupId) === '0') return null;
  return m.groupName ? collapseWhitespace(m.groupName) || null : null;
};

export const uptimerobotAdapter = defineAdapter('uptimerobot', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const monitors = data.data ?? data.psp?.monitors;
  if (!monitors) throw new AdapterError(`${SOURCE}: no monitor list (expected data or psp.monitors)`, { kind: 'invalid payload at /data' });
  if (monitors.length > MAX_MONITORS) throw new AdapterError(`${SOURCE}: more than ${MAX_MONITORS} monitors`, { kind: 'too many components' });
  const seen = new Set<string>();
  const components = [];
  for (const m of monitors) {
    const id = String(m.monitorId).trim();
    if (!id || seen.has(id)) continue;
    seen.add(id);
    components.push({
      id,
      name: collapseWhitespace(m.name) || id,
      status: uptimerobotComponentStatus(m.statusClass),
      group: groupOf(m),
      position: components.length,
    });
  }
  const indicator = indicatorOf(components.map((c) => c.status));
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
  };
});
