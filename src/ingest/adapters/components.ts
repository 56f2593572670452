// Ordering of grouped components. Statuspage and incident.io number positions per
// level (a group's children restart at 1), so records get a single display-order
// index instead: top-level items by position, each group's children right after it.
import type { ComponentRecord, ComponentStatus } from '../../domain/records.ts';

export interface RawComponent {
  id: string;
  name: string;
  status: ComponentStatus;
  /** Upstream position within its level; null sorts last. */
  position: number | null;
}

export interface RawGroup {
  id: string;
  name: string;
  position: number | null;
  children: RawComponent[];
}

type Slot = { position: number | null; index: number; group: RawGroup | null; component: RawComponent | null };

const byPosition = (a: { position: number | null; index: number }, b: { position: number | null; index: number }) =>
  (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || a.index - b.index;

export function orderComponents(ungrouped: RawComponent[], groups: RawGroup[]): ComponentRecord[] {
  const slots: Slot[] = [
    ...ungrouped.map((component, index) => ({ position: component.position, index, group: null, component })),
    ...groups.map((group, index) => ({ position: group.position, index: ungrouped.length + index, group, component: null })),
  ].sort(byPosition);
  const out: ComponentRecord[] = [];
  for (const slot of slots) {
    if (slot.component) {
      out.push({ id: slot.component.id, name: slot.component.name, status: slot.component.status, group: null, position: out.length });
    } else if (slot.group) {
      const children = slot.group.children.map((c, index) => ({ c, index, position: c.position })).sort(byPosition);
      for (const { c } of children) {
        out.push({ id: c.id, name: c.name, status: c.status, group: slot.group.name, position: out.length });
      }
    }
  }
  return out;
}
