import { audienceFor } from '../../services/access/audience.ts';
import { z } from 'zod';
import { DATA_TYPES } from '../../domain/records.ts';
import { NOT_MONITORED } from '../../domain/monitoring.ts';
import { isObserved } from '../../domain/state-summary.ts';
import { defineTool } from '../context.ts';
import { incidentLine, maintenanceLine, oneLine, plural, when } from './format.ts';
import { DataFreshness, IncidentOut, IndicatorEnum, MaintenanceOut, openRecords, VendorArg } from './schemas.ts';

const VendorOut = z.object({
  id: z.string().describe('Slug used by the other tools'),
  name: z.string(),
  category: z.string(),
  website: z.string(),
  statusPageUrl: z.string(),
  availableDataTypes: z.array(z.enum(DATA_TYPES)),
  monitored: z.boolean().describe('false: no machine-readable status source, so its status is never known'),
});

export const listVendors = defineTool({
  name: 'list_vendors',
  title: 'List vendors',
  description:
    'Lists the infrastructure vendors whose status pages this service watches (cloud, CDN, payments, AI APIs, developer tools ...), ' +
    'with the slug each other tool takes. Optional filters: `category` (exact, e.g. cloud, devtools, ai-ml) and `search` ' +
    '(matches slug, name or description). No sign-in needed.',
  inputSchema: {
    category: z.string().trim().max(100).optional().describe('Only vendors of this category, e.g. cloud'),
    search: z.string().trim().max(100).optional().describe('Text to look for in slug, name or description'),
  },
  outputSchema: {
    count: z.number().int(),
    vendors: z.array(VendorOut),
    categories: z.array(z.string()).describe('Every category in the catalog'),
  },
  requiresAuth: false,
  async run({ category, search }, { services, caller }) {
    const all = await services.catalog.list(audienceFor(caller.viewer));
    const categories = [...new Set(all.map((v) => v.category))].sort();
    let list = all;
    if (category) list = list.filter((v) => v.category.toLowerCase() === category.toLowerCase());
    if (search) {
      const q = search.toLowerCase();
      list = list.filter((v) => v.id.includes(q) || v.name.toLowerCase().includes(q) || v.description.toLowerCase().includes(q));
    }
    const vendors = list.map((v) => ({
      id: v.id,
      name: v.name,
      category: v.category,
      website: v.website,
      statusPageUrl: v.statusPageUrl,
      availableDataTypes: v.availableDataTypes,
      monitored: v.monitored,
    }));
    const filters = [category ? `category '${category}'` : '', search ? `matching '${search}'` : ''].filter(Boolean).join(', ');
    const head = `${plural(vendors.length, 'vendor')}${filters ? ` (${filters})` : ''}`;
    const text = vendors.length
      ? `${head}:\n${vendors.map((v) => `- ${v.name} (id: ${v.id}, ${v.category}): ${v.monitored ? v.availableDataTypes.join(', ') : NOT_MONITORED}`).join('\n')}`
      : `${head}. Categories: ${categories.join(', ')}.`;
    return { text, data: { count: vendors.length, vendors, categories } };
  },
});

export const getVendorStatus = defineTool({
  name: 'get_vendor_status',
  title: 'Current status of one vendor',
  description:
    'Current operational status of one vendor: overall indicator, ongoing incidents, maintenance in progress and components that are not operational. ' +
    'Takes the slug or the display name. No sign-in needed.',
  inputSchema: { vendor: VendorArg },
  outputSchema: {
    vendor: z.string(),
    vendorName: z.string(),
    indicator: IndicatorEnum,
    description: z.string(),
    monitored: z.boolean().describe('false: no machine-readable status source; the indicator is unknown, never operational'),
    checkedAt: z.string().nullable(),
    activeIncidents: z.array(IncidentOut),
    activeMaintenance: z.array(MaintenanceOut),
    components: z.array(z.object({ name: z.string(), status: z.string(), group: z.string().nullable() })),
    sourceHealth: z.object({ lastSuccessAt: z.string().nullable(), lastErrorAt: z.string().nullable(), lastError: z.string().nullable(), stale: z.boolean() }),
    ...DataFreshness,
  },
  requiresAuth: false,
  async run({ vendor }, { services, caller, now: ctxNow }) {
    const audience = audienceFor(caller.viewer);
    const v = await services.vendorLookup.resolve(vendor, audience);
    const [s, profile] = await Promise.all([services.status.vendorStatus(v.id, audience), services.catalog.info(v.id, audience)]);
    const { lastUpdated, source } = await services.freshness.current();
    const now = ctxNow();
    // Not observed (never read, or stale): the last state read is not stated as current (src/domain/state-summary.ts).
    const observed = isObserved({ indicator: s.indicator, stale: s.sourceHealth.stale, monitored: s.monitored });
    const name = oneLine(s.vendorName);
    let head: string;
    if (!s.monitored) head = `${name}: ${NOT_MONITORED}. Its status, incidents and maintenance are not known here (${s.indicator}).`;
    else if (!s.sourceHealth.stale) head = `${name}: ${oneLine(s.description)} (${s.indicator}), checked ${when(s.checkedAt)}.`;
    else if (s.sourceHealth.lastSuccessAt) {
      head = `${name}: not observed, its status page has not been read since ${when(s.sourceHealth.lastSuccessAt)}; last read: ${oneLine(s.description)} (${s.indicator}).`;
    } else head = `${name}: not observed, its status page has never been read (${s.indicator}).`;
    const lines = [head];
    if (s.monitored) {
      lines.push(
        s.activeIncidents.length
          ? `${plural(s.activeIncidents.length, 'ongoing incident')}:\n${s.activeIncidents.map((i) => incidentLine(i, now, false)).join('\n')}`
          : observed
            ? 'No ongoing incidents.'
            : 'No ongoing incidents known (not observed).',
      );
    }
    if (s.activeMaintenance.length) {
      lines.push(`Maintenance now:\n${s.activeMaintenance.map((m) => maintenanceLine(m, false)).join('\n')}`);
    }
    const impaired = s.components.filter((c) => c.status !== 'operational');
    if (impaired.length) {
      lines.push(`Components not operational: ${impaired.map((c) => `${oneLine(c.name, 100)} (${c.status})`).join(', ')}.`);
    } else if (s.components.length) {
      lines.push(observed ? `All ${s.components.length} components operational.` : `All ${s.components.length} components operational when last read.`);
    }
    if (s.sourceHealth.stale) {
      lines.push(`Note: this vendor's status page has not been read successfully since ${when(s.sourceHealth.lastSuccessAt)}; data is stale.`);
    } else if (s.sourceHealth.lastErrorAt && (!s.sourceHealth.lastSuccessAt || s.sourceHealth.lastErrorAt > s.sourceHealth.lastSuccessAt)) {
      lines.push(`Note: the last poll of this vendor's status page failed (${when(s.sourceHealth.lastErrorAt)}); data may be stale.`);
    }
    lines.push(`Status page: ${profile.statusPageUrl}`);
    return {
      text: lines.join('\n'),
      data: {
        vendor: s.vendor,
        vendorName: s.vendorName,
        indicator: s.indicator,
        description: s.description,
        monitored: s.monitored,
        checkedAt: s.checkedAt,
        activeIncidents: openRecords(s.activeIncidents),
        activeMaintenance: openRecords(s.activeMaintenance),
        components: s.components.map((c) => ({ name: c.name, status: c.status, group: c.group ?? null })),
        sourceHealth: s.sourceHealth,
        lastUpdated,
        source,
      },
    };
  },
});
