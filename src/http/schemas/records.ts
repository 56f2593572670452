import { TRANSPARENCY_DAYS } from '../../domain/early-warning-transparency.ts';
import { VendorTransparencySchema } from './transparency.ts';
import { Type } from '@sinclair/typebox';
import { COMPONENT_STATUSES, DATA_TYPES, IMPACTS, INCIDENT_STATUSES, INDICATORS, MAINTENANCE_STATUSES, SEVERITIES } from '../../domain/records.ts';
import { BADGES } from '../../domain/stats.ts';
import { DateTime, Nullable, StringEnum } from './common.ts';

// Item records of the list envelope (docs/api.md "Envelope and records"). Items accept additional properties.
const open = { additionalProperties: true };

/** Present only for a member of an organisation with services (docs/services.md "Records: affectedServices"). */
const AffectedServices = Type.Optional(
  Type.Array(
    Type.Object({
      serviceId: Type.String(),
      serviceName: Type.String(),
      confidence: StringEnum(['high', 'medium', 'low'] as const),
      reasons: Type.Array(Type.String()),
    }),
    { description: "The caller's organisation's services this record may hit; only for members of an organisation with services" },
  ),
);

const RecordUpdateSchema = Type.Object({
  status: Type.String(),
  sourceStatus: Type.Optional(Type.String({ description: 'The upstream\'s own word for the phase, e.g. identified (docs/mappings.md "Vendor\'s own words")' })),
  body: Type.String(),
  createdAt: DateTime(),
});

export const IncidentSchema = Type.Object(
  {
    id: Type.String({ description: '`<vendor>:<upstream id>`', examples: ['github:abc123'] }),
    vendor: Type.String(),
    vendorName: Type.String(),
    title: Type.String(),
    status: StringEnum(INCIDENT_STATUSES),
    sourceStatus: Type.String({ description: 'The upstream status word, e.g. identified' }),
    impact: StringEnum(IMPACTS),
    startedAt: DateTime(),
    updatedAt: DateTime(),
    resolvedAt: Nullable(DateTime()),
    durationMinutes: Nullable(Type.Integer()),
    components: Type.Array(Type.String()),
    updates: Type.Array(RecordUpdateSchema),
    url: Nullable(Type.String()),
    source: Type.String(),
    affectedServices: AffectedServices,
  },
  { ...open, $id: 'Incident', description: 'Incident' },
);

export const MaintenanceSchema = Type.Object(
  {
    id: Type.String(),
    vendor: Type.String(),
    vendorName: Type.String(),
    title: Type.String(),
    status: StringEnum(MAINTENANCE_STATUSES),
    sourceStatus: Type.String(),
    impact: StringEnum(IMPACTS),
    scheduledFor: DateTime(),
    scheduledUntil: Nullable(DateTime()),
    startedAt: Nullable(DateTime()),
    completedAt: Nullable(DateTime()),
    components: Type.Array(Type.String()),
    updates: Type.Array(RecordUpdateSchema),
    url: Nullable(Type.String()),
    source: Type.String(),
    affectedServices: AffectedServices,
  },
  { ...open, $id: 'Maintenance', description: 'Maintenance window' },
);

export const AdvisorySchema = Type.Object(
  {
    id: Type.String(),
    vendor: Type.String(),
    vendorName: Type.String(),
    title: Type.String(),
    severity: StringEnum(SEVERITIES),
    cves: Type.Array(Type.String()),
    publishedAt: DateTime(),
    updatedAt: DateTime(),
    summary: Type.String(),
    url: Nullable(Type.String()),
    source: Type.String(),
  },
  { ...open, $id: 'Advisory', description: 'Security advisory' },
);

export const UpdateSchema = Type.Object(
  {
    id: Type.String(),
    vendor: Type.String(),
    vendorName: Type.String(),
    title: Type.String(),
    publishedAt: DateTime(),
    summary: Type.String(),
    categories: Type.Array(Type.String()),
    url: Nullable(Type.String()),
    source: Type.String(),
  },
  { ...open, $id: 'ReleaseUpdate', description: 'Product update (release note)' },
);

export const VendorSummarySchema = Type.Object(
  {
    id: Type.String({ description: 'Vendor slug' }),
    name: Type.String(),
    description: Type.String(),
    website: Type.String({ format: 'uri' }),
    category: Type.String(),
    statusPageUrl: Type.String({ format: 'uri' }),
    availableDataTypes: Type.Array(StringEnum(DATA_TYPES)),
    monitored: Type.Boolean({ description: 'false: no machine-readable status source; its status is never known (docs/web.md "Not monitored")' }),
  },
  { ...open, $id: 'VendorProfile', description: 'Vendor profile' },
);

const SourceHealthSchema = Type.Object({
  lastSuccessAt: Nullable(DateTime()),
  lastErrorAt: Nullable(DateTime()),
  lastError: Nullable(Type.String()),
  stale: Type.Boolean({ description: 'A source of this vendor has been failing past the threshold (docs/operations.md)' }),
});

export const VendorStatusSchema = Type.Object(
  {
    vendor: Type.String(),
    vendorName: Type.String(),
    indicator: StringEnum(INDICATORS),
    description: Type.String(),
    monitored: Type.Boolean({
      description: 'false: no machine-readable status source; the indicator is unknown, never operational (docs/web.md "Not monitored")',
    }),
    sourceDescription: Nullable(
      Type.String({
        description: 'The page\'s own status description as published; null when the indicator is derived (docs/mappings.md "Vendor\'s own words")',
      }),
    ),
    activeIncidents: Type.Array(Type.Ref(IncidentSchema)),
    activeMaintenance: Type.Array(Type.Ref(MaintenanceSchema)),
    components: Type.Array(Type.Object({ name: Type.String(), status: StringEnum(COMPONENT_STATUSES), group: Nullable(Type.String()) })),
    checkedAt: Nullable(DateTime()),
    sourceHealth: SourceHealthSchema,
  },
  { ...open, $id: 'VendorStatus', description: 'Current operational summary' },
);

export const CapabilitiesSchema = Type.Object(
  {
    vendor: Type.String(),
    monitored: Type.Boolean({ description: 'false: no machine-readable status source (docs/web.md "Not monitored")' }),
    monitoring: Nullable(Type.String({ description: 'Why there is no status, when not monitored' })),
    dataTypes: Type.Array(StringEnum(DATA_TYPES)),
    features: Type.Object({
      status: Type.Boolean(),
      components: Type.Boolean(),
      statistics: Type.Boolean(),
      compliance: Type.Boolean(),
      stream: Type.Boolean(),
    }),
    sources: Type.Array(Type.Object({ type: Type.String(), url: Type.String() })),
  },
  { ...open, description: 'Available data types and features' },
);

const ByImpact = Type.Object({
  none: Type.Integer(),
  minor: Type.Integer(),
  major: Type.Integer(),
  critical: Type.Integer(),
});

export const VendorStatsSchema = Type.Object(
  {
    vendor: Type.String(),
    timePeriod: Type.String(),
    incidentCount: Type.Integer(),
    byImpact: ByImpact,
    mttrMinutes: Nullable(Type.Integer()),
    longestIncidentMinutes: Nullable(Type.Integer()),
    uptimePercent: Nullable(
      Type.Number({
        description: 'null ("not enough data") while less than a quarter of the window was observed (docs/statistics.md "Minimum observed share")',
      }),
    ),
    observedPercent: Type.Number({ minimum: 0, maximum: 100, description: 'How much of the window was observed, in percent' }),
    maintenanceCount: Type.Integer(),
    lastIncidentAt: Nullable(DateTime()),
    badge: StringEnum(BADGES, { description: '`unknown` when there is no uptime (not enough observed data)' }),
    earlyWarning: Type.Optional({
      ...VendorTransparencySchema,
      description: `Only for a caller acting for an organisation, on /vendor-stats/{vendor}: the organisation's own early-warning figures over ${TRANSPARENCY_DAYS} days (docs/early-warning.md "Transparency")`,
    }),
  },
  { ...open, $id: 'VendorStats', description: 'Incident and reliability statistics' },
);

export const AggregateStatsSchema = Type.Object(
  {
    timePeriod: Type.String(),
    vendorCount: Type.Integer(),
    incidentCount: Type.Integer(),
    activeIncidents: Type.Integer(),
    activeMaintenance: Type.Integer(),
    byImpact: ByImpact,
    badges: Type.Object(Object.fromEntries(BADGES.map((b) => [b, Type.Integer()])) as Record<(typeof BADGES)[number], ReturnType<typeof Type.Integer>>),
    indicators: Type.Record(Type.String(), Type.Integer(), {
      description: 'Vendors by current indicator; `not_monitored` for vendors without a machine-readable status source',
    }),
    notMonitored: Type.Integer({ description: 'Vendors without a machine-readable status source (docs/web.md "Not monitored")' }),
    averageUptimePercent: Nullable(Type.Number({ description: 'Mean over vendors with an uptime; null when none has one' })),
  },
  { ...open, description: 'Rollup across all vendors' },
);

export const ActivityItemSchema = Type.Object(
  {
    kind: StringEnum(['incident', 'maintenance', 'advisory', 'update'] as const),
    at: DateTime({ description: 'When the item last changed or was published' }),
    id: Type.String(),
    vendor: Type.String(),
    vendorName: Type.String(),
    title: Type.String(),
  },
  { ...open, description: 'One entry of the merged activity feed' },
);

const ComplianceItemSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  compliancePageLink: Nullable(Type.String({ format: 'uri' })),
  researchedAt: Nullable(DateTime()),
});

export const ComplianceResponseSchema = Type.Object(
  {
    success: Type.Boolean(),
    vendor: Type.String(),
    sourceUrl: Nullable(Type.String({ format: 'uri' })),
    sourceType: Type.String(),
    lastUpdated: Nullable(DateTime()),
    itemCount: Type.Integer(),
    message: Nullable(Type.String()),
    items: Type.Array(ComplianceItemSchema),
    scorecard: Type.Record(Type.String(), Type.Integer()),
  },
  { description: 'Compliance response' },
);
