// Components of a source that names only what is affected now (docs/mappings.md "Cloud
// depth"): a component seen before and not named by this poll stays in the vendor's list as
// operational, so a team can name "EC2 in us-east-1" as a dependency while nothing is wrong
// there. Pure: the ingest use case reads the stored list and writes what this returns.
import type { ComponentRecord } from './records.ts';

/** Most components kept for one vendor; past it, components not named by the poll are dropped. */
export const MAX_KEPT_COMPONENTS = 5000;

/** The poll's components, then those stored before it does not name (as operational), in group and name order. */
export function keepUnlistedComponents(stored: readonly ComponentRecord[], polled: readonly ComponentRecord[]): ComponentRecord[] {
  const named = new Set(polled.map((c) => c.id));
  const kept = stored.filter((c) => !named.has(c.id)).slice(0, Math.max(0, MAX_KEPT_COMPONENTS - polled.length));
  const all = [...polled, ...kept.map((c) => ({ ...c, status: 'operational' as const }))];
  all.sort((a, b) => (a.group ?? a.name).localeCompare(b.group ?? b.name) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return all.map((c, position) => ({ ...c, position }));
}
