import { audienceFor } from '../../services/access/audience.ts';
import { z } from 'zod';
import { defineTool } from '../context.ts';
import { freshness, maintenanceLine, plural, when } from './format.ts';
import { DataFreshness, DataWindowOut, MaintenanceOut, openRecords, VendorArg } from './schemas.ts';

export const getMaintenance = defineTool({
  name: 'get_maintenance',
  title: 'Maintenance windows',
  description:
    'Scheduled maintenance of one vendor (or all vendors). `upcoming` true (default) gives windows not yet completed: scheduled, ' +
    "in progress or verifying; false adds completed ones within the signed-in user's plan window. Requires sign-in (OAuth) or an API key.",
  inputSchema: {
    vendor: VendorArg.optional().describe('Vendor slug or name; omit for all vendors'),
    upcoming: z.boolean().default(true).describe('Only windows not yet completed (default true)'),
    limit: z.number().int().min(1).max(100).default(20).describe('Most windows to return (1-100, default 20)'),
  },
  outputSchema: {
    vendor: z.string().nullable(),
    vendorName: z.string().nullable(),
    upcoming: z.boolean(),
    dataWindow: DataWindowOut,
    total: z.number().int(),
    count: z.number().int(),
    maintenance: z.array(MaintenanceOut),
    ...DataFreshness,
  },
  requiresAuth: true,
  async run({ vendor, upcoming, limit }, { services, caller }) {
    const v = vendor ? await services.vendorLookup.resolve(vendor, audienceFor(caller.viewer)) : null;
    const [result, { lastUpdated, source }] = await Promise.all([
      services.records.maintenance({ vendors: v ? [v.id] : undefined, scheduledOnly: upcoming, limit, offset: 0 }, caller.viewer),
      services.freshness.current(),
    ]);
    const w = result.dataWindow;
    const who = v ? v.name : 'all vendors';
    const kind = upcoming ? 'upcoming or ongoing maintenance window' : 'maintenance window';
    const span = upcoming ? '' : w.since ? ` since ${when(w.since)}` : '';
    const lines: string[] = [];
    if (result.items.length) {
      const shown = result.items.length < result.total ? ` (showing ${result.items.length})` : '';
      lines.push(`${plural(result.total, kind)} for ${who}${span}${shown}:`);
      lines.push(...result.items.map((m) => maintenanceLine(m, !v)));
    } else {
      lines.push(`No ${kind}s for ${who}${span}.`);
    }
    lines.push(freshness(lastUpdated, source));
    return {
      text: lines.join('\n'),
      data: {
        vendor: v?.id ?? null,
        vendorName: v?.name ?? null,
        upcoming,
        dataWindow: { requested: w.requested, applied: w.applied, capped: w.capped, since: w.since },
        total: result.total,
        count: result.items.length,
        maintenance: openRecords(result.items),
        lastUpdated,
        source,
      },
    };
  },
});
