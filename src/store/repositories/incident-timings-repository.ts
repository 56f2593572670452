import type { Kysely } from 'kysely';
import type { Impact } from '../../domain/records.ts';
import type { IncidentTiming } from '../../domain/trends.ts';
import type { Database } from '../schema.ts';
import { fromJson } from './json.ts';

// The narrow read behind the trend charts (docs/statistics.md, "Trends"): only
// vendor, impact and the two instants, plus the component list when asked for;
// never titles or update histories, which are most of an incident row.

export function incidentTimingsRepository(db: Kysely<Database>) {
  return {
    /** Incidents of `vendors` that started at or after `since`, or are still open. */
    async since(vendors: string[], since: string, withComponents: boolean): Promise<IncidentTiming[]> {
      if (!vendors.length) return [];
      const base = db
        .selectFrom('incidents')
        .select(['vendor', 'impact', 'started_at', 'resolved_at'])
        .where('vendor', 'in', vendors)
        .where((eb) => eb.or([eb('started_at', '>=', since), eb('status', '!=', 'resolved')]));
      const rows = withComponents ? await base.select('components').execute() : await base.execute();
      return rows.map((r) => ({
        vendor: r.vendor,
        impact: r.impact as Impact,
        startedAt: r.started_at,
        resolvedAt: r.resolved_at,
        components: 'components' in r ? fromJson<string[]>(r.components as string, []) : [],
      }));
    },
  };
}

export type IncidentTimingsRepository = ReturnType<typeof incidentTimingsRepository>;
