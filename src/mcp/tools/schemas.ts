import { z } from 'zod';
import { IMPACTS, INCIDENT_STATUSES, INDICATORS, MAINTENANCE_STATUSES } from '../../domain/records.ts';

// Output shapes of the tools. Records are the same objects the REST API returns
// (docs/api.md "Envelope and records"); they stay open (extra fields allowed) like the REST items.

const RecordUpdate = z.object({ status: z.string(), sourceStatus: z.string().optional(), body: z.string(), createdAt: z.string() });

export const IncidentOut = z.looseObject({
  id: z.string(),
  vendor: z.string(),
  vendorName: z.string(),
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  sourceStatus: z.string(),
  impact: z.enum(IMPACTS),
  startedAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  durationMinutes: z.number().int().nullable(),
  components: z.array(z.string()),
  updates: z.array(RecordUpdate),
  url: z.string().nullable(),
  source: z.string(),
});

export const MaintenanceOut = z.looseObject({
  id: z.string(),
  vendor: z.string(),
  vendorName: z.string(),
  title: z.string(),
  status: z.enum(MAINTENANCE_STATUSES),
  scheduledFor: z.string(),
  scheduledUntil: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  components: z.array(z.string()),
  updates: z.array(RecordUpdate),
  url: z.string().nullable(),
  source: z.string(),
});

export const IndicatorEnum = z.enum(INDICATORS);

export const DataWindowOut = z.object({
  requested: z.string().nullable().describe('The timePeriod asked for'),
  applied: z.string().describe('The window used (`all` when unlimited)'),
  capped: z.boolean().describe("True when the request exceeded the plan's window and was shortened"),
  since: z.string().nullable().describe('Start of the applied window'),
});

/** Accepts a slug or a display name ("GitHub", "github"). */
export const VendorArg = z.string().trim().min(1).max(100).describe('Vendor slug (the `id` from list_vendors, e.g. `github`) or its display name');

export const DataFreshness = {
  lastUpdated: z.string().nullable().describe('Newest successful poll of any status page (null: none yet)'),
  source: z.enum(['live', 'demo']).describe('`demo` when the service watches its simulated fleet'),
};

/** Records are open objects in the output schemas (extra fields allowed), as typed here. */
export const openRecords = <T extends object>(items: T[]) => items as (T & Record<string, unknown>)[];
