import type { VendorTrends } from '../../services/records/trends-service.ts';
import { html, type Html } from '../html.ts';
import { uptimeGrade } from '../../domain/stats.ts';
import { columnChart, percentFloor, rowChart, UPTIME_TONE } from './charts.ts';
import { formatDate, formatDuration, percent } from './format.ts';

// The vendor page's trend charts (docs/web.md, "Charts"): incidents per week,
// MTTR per week and the uptime of each component over 90 days.

const shortDate = (iso: string) => formatDate(iso).replace(/ \d{4}$/, '');

export function trendCharts(name: string, t: VendorTrends, lockedNote: string | null): Html {
  const weeks = t.weeks;
  const incidents = columnChart({
    id: 'chart-incidents',
    title: `${name}: incidents per week`,
    description: `Incidents that started in each of the last ${weeks.length} weeks (Monday to Sunday, UTC), oldest first. Weeks we did not observe have no bar.`,
    labelHeader: 'Week of',
    valueHeader: 'Incidents',
    data: weeks.map((w) => ({ label: shortDate(w.weekStart), value: w.incidentCount, text: String(w.incidentCount ?? '') })),
  });
  const mttr = columnChart({
    id: 'chart-mttr',
    title: `${name}: mean time to resolve per week`,
    description: `Mean duration, in hours, of the incidents that started each week and are resolved. A week without a resolved incident has no bar.`,
    labelHeader: 'Week of',
    valueHeader: 'Mean time to resolve',
    unit: 'h',
    data: weeks.map((w) => ({
      label: shortDate(w.weekStart),
      value: w.mttrMinutes === null ? null : Math.round((w.mttrMinutes / 60) * 10) / 10,
      text: formatDuration(w.mttrMinutes),
      note: w.mttrLocked ? (lockedNote ?? 'not in your plan') : w.incidentCount === null ? undefined : 'none resolved',
    })),
  });
  const comps = t.components;
  const components = comps.length
    ? rowChart(
        {
          id: 'chart-components',
          title: `${name}: uptime per component, last ${t.componentDays} days`,
          description: `Uptime of each component over the observed part of the last ${t.componentDays} days, from the incidents that name it (major and critical minutes down, minor half). The axis starts at ${percentFloor(comps.map((c) => c.uptimePercent))}%.`,
          labelHeader: 'Component',
          valueHeader: 'Uptime',
          data: comps.map((c) => ({
            label: c.component,
            value: c.uptimePercent,
            text: percent(c.uptimePercent),
            tone: UPTIME_TONE[uptimeGrade(c.uptimePercent)],
          })),
        },
        { percentFrom: percentFloor(comps.map((c) => c.uptimePercent)) },
      )
    : html`<p class="empty">This vendor publishes no component list, so there is no uptime per component.</p>`;
  return html`<section aria-labelledby="trends-title" class="panel" id="trends">
    <h2 id="trends-title">Trends</h2>
    <div class="chart-grid">${incidents}${mttr}</div>
    ${t.mttrSince ? html`<p class="muted">Mean time to resolve is a statistic: shown for weeks inside your plan's window. ${lockedNote ? html`<a href="/account#plan">Longer history</a> comes with higher plans.` : ''}</p>` : ''}
    ${components}
  </section>`;
}
