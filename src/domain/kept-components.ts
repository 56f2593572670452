// Components of a source that names only what is affected now (docs/mappings.md "Cloud
// depth"): a component seen before and not named by this poll stays in the vendor's list as
// operational, so a team can name "EC2 in us-east-1" as a dependency while nothing is wrong
// there. Pure: the ingest use case reads the stored list and writes what this returns.
import type { ComponentRecord } from './records.ts';

/** Most components kept for one vendor; past it, components not named by the poll are dropped. */
export const MAX_KEPT_COMPONENTS = 5000;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The poll's components, then those stored before it does not name (as operational), in group and name order. */
export function keepUnlistedComponents(stored: readonly ComponentRecord[], polled: readonly ComponentRecord[]): ComponentRecord[] {
  const named = new Set(polled.map((c) => c.id));
  const kept = stored.filter((c) => !named.has(c.id)).slice(0, Math.max(0, MAX_KEPT_COMPONENTS - polled.length));
  const all = [...polled, ...kept.map((c) => ({ ...c, status: 'operational' as const }))];
  // Code-unit order, as the adapters order them: the same on every machine, and cheap.
  all.sort((a, b) => cmp(a.group ?? a.name, b.group ?? b.name) || cmp(a.name, b.name) || cmp(a.id, b.id));
  return all.map((c, position) => ({ ...c, position }));
}
