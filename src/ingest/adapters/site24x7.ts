// Site24x7-hosted status pages: `<page>/sp/api/public/summary_details/statuspages/<encoded page
// id>`, the summary the page's own frontend reads. `data.current_status` lists component
// groups (`componentgroup_display_name`, `componentgroup_status`, `componentgroup_components`)
// and lone components (`display_name`, `component_status`); statuses are numbers. Only the
// current state is read: nothing else of this payload is evidenced. Mapping: docs/mappings.md
// "Site24x7".
import { Type } from '@sinclair/typebox';
import type { ComponentRecord, ComponentStatus } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, indicatorFromReadComponents } from './mapping.ts';
import { plainLine } from './text.ts';
import { check } from './validate.ts';

const SOURCE = 'site24x7';

const ComponentSchema = Type.Object({ display_name: Type.String(), component_status: Type.Number() });
const GroupSchema = Type.Object({
  componentgroup_display_name: Type.String(),
  componentgroup_status: Type.Number(),
  componentgroup_components: Type.Array(ComponentSchema),
});
const PayloadSchema = Type.Object({ data: Type.Object({ current_status: Type.Array(Type.Union([GroupSchema, ComponentSchema])) }) });

/** 1 operational, 2 informational, 3 degraded performance, 4 under maintenance, 5 partial outage, 6 major outage. */
export function site24x7ComponentStatus(code: number): ComponentStatus {
  switch (code) {
    case 1:
    case 2:
      // Informational: a notice on the page; the component is not said to be impaired.
      return 'operational';
    case 3:
      return 'degraded_performance';
    case 4:
      return 'under_maintenance';
    case 5:
      return 'partial_outage';
    case 6:
      return 'major_outage';
    default:
      return 'unknown';
  }
}

export const site24x7Adapter = defineAdapter('site24x7', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const components: ComponentRecord[] = [];
  const ids = new Set<string>();
  const add = (name: string, code: number, group: string | null) => {
    const clean = plainLine(name);
    if (!clean) return;
    const id = group ? `${group}/${clean}` : clean;
    if (ids.has(id)) return;
    ids.add(id);
    components.push({ id, name: clean, status: site24x7ComponentStatus(code), group, position: components.length });
  };
  for (const entry of data.data.current_status) {
    if ('componentgroup_components' in entry) {
      const group = plainLine(entry.componentgroup_display_name) || null;
      for (const c of entry.componentgroup_components) add(c.display_name, c.component_status, group);
    } else add(entry.display_name, entry.component_status, null);
  }
  if (components.length === 0) throw new AdapterError(`${SOURCE}: no components in current_status`, { kind: 'no components' });
  const indicator = indicatorFromReadComponents(components.map((c) => c.status));
  return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] }, components };
});
