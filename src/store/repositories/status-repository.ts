import type { Audience } from '../../domain/audience.ts';
import { visibleTo } from './visibility.ts';
import type { Kysely } from 'kysely';
import type { ComponentRecord, ComponentStatus, Indicator } from '../../domain/records.ts';
import type { Database } from '../schema.ts';

// Current page-level state of each vendor: indicator and components.

export interface StoredStatus {
  indicator: Indicator;
  description: string;
  checkedAt: string;
}

export interface StoredComponent {
  vendor: string;
  name: string;
  status: ComponentStatus;
  group: string | null;
}

export function statusRepository(db: Kysely<Database>) {
  return {
    async setStatus(vendor: string, s: StoredStatus): Promise<void> {
      const row = { vendor, indicator: s.indicator, description: s.description, checked_at: s.checkedAt };
      await db
        .insertInto('vendor_status')
        .values(row)
        .onConflict((oc) => oc.column('vendor').doUpdateSet({ indicator: row.indicator, description: row.description, checked_at: row.checked_at }))
        .execute();
    },

    async statuses(audience: Audience, vendors?: string[]): Promise<Map<string, StoredStatus>> {
      let q = visibleTo(db, db.selectFrom('vendor_status').selectAll(), audience);
      if (vendors?.length) q = q.where('vendor', 'in', vendors);
      const rows = await q.execute();
      return new Map(rows.map((r) => [r.vendor, { indicator: r.indicator as Indicator, description: r.description, checkedAt: r.checked_at }]));
    },

    /** Replace a vendor's component list with what the source reported. */
    async replaceComponents(vendor: string, components: ComponentRecord[], at: string): Promise<void> {
      await db.deleteFrom('components').where('vendor', '=', vendor).execute();
      if (!components.length) return;
      // Chunked so a page with hundreds of components stays under bind-parameter limits.
      for (let i = 0; i < components.length; i += 100) {
        await db
          .insertInto('components')
          .values(
            components.slice(i, i + 100).map((c) => ({
              vendor,
              id: c.id,
              name: c.name,
              status: c.status,
              group_name: c.group,
              position: c.position,
              updated_at: at,
            })),
          )
          .onConflict((oc) => oc.columns(['vendor', 'id']).doNothing())
          .execute();
      }
    },

    /** A vendor's stored components as records, in page order (to compare with a new poll). */
    async componentRecords(vendor: string): Promise<ComponentRecord[]> {
      const rows = await db
        .selectFrom('components')
        .select(['id', 'name', 'status', 'group_name', 'position'])
        .where('vendor', '=', vendor)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, status: r.status as ComponentStatus, group: r.group_name, position: r.position }));
    },

    /** Component ids and current names of these vendors (a service's dependencies name components by id). */
    async componentNames(vendors: string[]): Promise<Map<string, Map<string, string>>> {
      const out = new Map<string, Map<string, string>>();
      if (!vendors.length) return out;
      for (let i = 0; i < vendors.length; i += 500) {
        const rows = await db
          .selectFrom('components')
          .select(['vendor', 'id', 'name'])
          .where('vendor', 'in', vendors.slice(i, i + 500))
          .execute();
        for (const r of rows) {
          const names = out.get(r.vendor) ?? new Map<string, string>();
          names.set(r.id, r.name);
          out.set(r.vendor, names);
        }
      }
      return out;
    },

    async components(audience: Audience, vendors?: string[]): Promise<StoredComponent[]> {
      let q = visibleTo(db, db.selectFrom('components').select(['vendor', 'name', 'status', 'group_name']), audience);
      if (vendors?.length) q = q.where('vendor', 'in', vendors);
      const rows = await q.orderBy('vendor').orderBy('position').orderBy('name').execute();
      return rows.map((r) => ({ vendor: r.vendor, name: r.name, status: r.status as ComponentStatus, group: r.group_name }));
    },
  };
}

export type StatusRepository = ReturnType<typeof statusRepository>;
