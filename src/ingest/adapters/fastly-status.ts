// Fastly's status page, `https://www.fastlystatus.com`: an HTML page without a JSON endpoint.
// Its component table has one row per component (`tr[data-path]`; a path without `-` is a
// top-level row, `data-pid` names its tab), the component's name in a link of the first cell and
// today's state as an icon class `component-<state>` in the third cell; the tabs
// (`a[data-toggle="tab"]`, href ending in `-<tab id>`) name the groups. Regions (North America,
// Europe, ...) are rows of a tab. Mapping: docs/mappings.md "Fastly".
import type { ComponentRecord, ComponentStatus } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { decodeBody } from './body.ts';
import { scanHtml } from './html-scan.ts';
import { INDICATOR_DESCRIPTIONS, indicatorFromReadComponents } from './mapping.ts';
import { plainLine } from './text.ts';

const SOURCE = 'fastly-status';
/** The page is read up to this many characters. */
const MAX_PAGE_CHARS = 4 * 1024 * 1024;
const MAX_NAME = 200;

/** Fastly's icon words. An incident's phase on a component is Statuspage's wording. */
export function fastlyComponentStatus(word: string): ComponentStatus {
  switch (word) {
    case 'available':
    case 'informational':
    // An incident identified or being monitored: the page shows a notice, not an impairment.
    case 'identified':
    case 'monitoring':
      return 'operational';
    case 'maintenance':
      return 'under_maintenance';
    case 'degraded':
    case 'investigating':
      return 'degraded_performance';
    case 'unavailable':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

interface Row {
  pid: string;
  cell: number;
  inLink: boolean;
  name: string;
  state: string | null;
}

export function fastlyComponents(html: string): { name: string; state: string; tab: string | null }[] {
  const tabs = new Map<string, string>();
  const rows: { name: string; state: string; pid: string }[] = [];
  let tab: { id: string; text: string } | null = null;
  let row: Row | null = null;
  scanHtml(html.slice(0, MAX_PAGE_CHARS), {
    open(name, a) {
      if (name === 'a' && a['data-toggle'] === 'tab' && a.href) tab = { id: a.href.split('-').pop() ?? '', text: '' };
      if (name === 'tr' && typeof a['data-path'] === 'string') {
        // Only top-level rows: their path has no `-`.
        row = a['data-path'].includes('-') ? null : { pid: a['data-pid'] ?? '', cell: -1, inLink: false, name: '', state: null };
        return;
      }
      if (!row) return;
      if (name === 'td') row.cell++;
      else if (name === 'a' && row.cell === 0) row.inLink = true;
      else if (name === 'i' && row.cell === 2 && row.state === null) row.state = /(?:^|\s)component-([a-z]+)(?:\s|$)/.exec(a.class ?? '')?.[1] ?? '';
    },
    text(text) {
      // A name is bounded however the page splits or pads its text.
      if (tab) tab.text = (tab.text + text).slice(0, MAX_NAME);
      if (row?.inLink) row.name = (row.name + text).slice(0, MAX_NAME);
    },
    close(name) {
      if (name === 'a') {
        if (tab) {
          const text = plainLine(tab.text);
          if (text && tab.id) tabs.set(tab.id, text);
          tab = null;
        }
        if (row) row.inLink = false;
      } else if (name === 'tr' && row) {
        const clean = plainLine(row.name);
        if (clean && row.state !== null) rows.push({ name: clean, state: row.state, pid: row.pid });
        row = null;
      }
    },
  });
  return rows.map((r) => ({ name: r.name, state: r.state, tab: tabs.get(r.pid) ?? null }));
}

export const fastlyStatusAdapter = defineAdapter('fastly-status', (input: AdapterInput) => {
  const found = fastlyComponents(decodeBody(SOURCE, input.body, input.contentType));
  const components: ComponentRecord[] = [];
  const ids = new Set<string>();
  for (const c of found) {
    const id = c.tab ? `${c.tab}/${c.name}` : c.name;
    if (ids.has(id)) continue;
    ids.add(id);
    components.push({ id, name: c.name, status: fastlyComponentStatus(c.state), group: c.tab, position: components.length });
  }
  if (components.length === 0) throw new AdapterError(`${SOURCE}: no component rows in the page`, { kind: 'no components' });
  const indicator = indicatorFromReadComponents(components.map((c) => c.status));
  return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] }, components };
});
