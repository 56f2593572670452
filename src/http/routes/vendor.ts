import { audienceFor } from '../../services/access/audience.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DATA_TYPES } from '../../domain/records.ts';
import {
  Envelope,
  errorResponses,
  LimitParam,
  notModifiedResponse,
  QueryObject,
  SkipCacheParam,
  StringEnum,
  TimePeriodParam,
  VendorSlug,
} from '../schemas/common.ts';
import {
  AdvisorySchema,
  CapabilitiesSchema,
  ComplianceResponseSchema,
  IncidentSchema,
  MaintenanceSchema,
  UpdateSchema,
  VendorStatsSchema,
  VendorStatusSchema,
  VendorSummarySchema,
} from '../schemas/records.ts';

const VendorParams = Type.Object({ vendor: VendorSlug });

export async function vendorRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services;

  app.get(
    '/vendor-info/:vendor',
    {
      schema: {
        operationId: 'getVendorInfo',
        summary: 'Vendor profile',
        tags: ['vendor'],
        params: VendorParams,
        response: { 200: Envelope(Type.Ref(VendorSummarySchema), 'One item: the vendor profile'), ...errorResponses },
      },
    },
    async (req) => app.envelope([await s.catalog.info(req.params.vendor, audienceFor(req.viewer))]),
  );

  app.get(
    '/vendor-status/:vendor',
    {
      schema: {
        operationId: 'getVendorStatus',
        summary: 'Current operational summary of a vendor',
        tags: ['vendor'],
        params: VendorParams,
        // Declared so `skipCache=true` is read as a boolean and unknown parameters are
        // dropped before the cache key is made (docs/access.md "Response cache").
        querystring: Type.Object({ skipCache: Type.Optional(SkipCacheParam) }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Ref(VendorStatusSchema), 'One item: the vendor status'), ...errorResponses, ...notModifiedResponse },
      },
      config: { cacheTtlSeconds: 30 },
    },
    async (req) => app.envelope([await s.status.vendorStatus(req.params.vendor, audienceFor(req.viewer))]),
  );

  app.get(
    '/vendor-capabilities/:vendor',
    {
      schema: {
        operationId: 'getVendorCapabilities',
        summary: 'Data types and features available for a vendor',
        tags: ['vendor'],
        params: VendorParams,
        response: { 200: Envelope(CapabilitiesSchema, 'One item: the capabilities'), ...errorResponses },
      },
    },
    async (req) => app.envelope([await s.catalog.capabilities(req.params.vendor, audienceFor(req.viewer))]),
  );

  app.get(
    '/vendor-stats/:vendor',
    {
      schema: {
        operationId: 'getVendorStats',
        summary: 'Incident and reliability statistics of a vendor',
        description: 'Defaults to 30d, clamped to the plan window. Rules: docs/statistics.md.',
        tags: ['analytics'],
        params: VendorParams,
        querystring: Type.Object({ timePeriod: Type.Optional(TimePeriodParam) }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Ref(VendorStatsSchema), 'One item: the statistics'), ...errorResponses },
      },
    },
    async (req) => {
      const { stats, dataWindow } = await s.stats.vendorStats(req.params.vendor, req.query.timePeriod, req.viewer);
      // The caller's organisation's own figures, in the item's open properties (docs/early-warning.md "Transparency").
      const earlyWarning = await s.earlyWarning.transparency.forViewer(req.viewer, req.params.vendor);
      return app.envelope([earlyWarning ? { ...stats, earlyWarning } : stats], { dataWindow });
    },
  );

  const complianceSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description: 'Requires the Standard plan or higher.',
    tags: ['vendor'],
    params: VendorParams,
    response: { 200: ComplianceResponseSchema, ...errorResponses },
  });
  // The second is the legacy alias of the form /{vendor}-compliance (served for every catalog vendor).
  for (const [url, operationId, summary] of [
    ['/vendors/:vendor/compliance', 'getVendorCompliance', 'Compliance certifications of a vendor'],
    ['/:vendor-compliance', 'getVendorComplianceLegacy', 'Legacy alias of /vendors/{vendor}/compliance'],
  ] as const) {
    app.get(url, { schema: complianceSchema(operationId, summary) }, async (req) => ({
      success: true,
      ...(await s.catalog.compliance(req.params.vendor, req.viewer)),
    }));
  }

  app.get(
    '/vendors/:vendor/:dataType',
    {
      schema: {
        operationId: 'getVendorData',
        summary: "A vendor's incidents, maintenance, advisories or updates",
        description:
          '`activeOnly=true` keeps ongoing incidents (or, for maintenance, windows not yet completed). 404 when the vendor does not publish the data type.',
        tags: ['vendor'],
        params: Type.Object({ vendor: VendorSlug, dataType: StringEnum(DATA_TYPES) }),
        querystring: QueryObject(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            activeOnly: Type.Optional(Type.Boolean()),
            limit: LimitParam(50),
            skipCache: Type.Optional(SkipCacheParam),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Envelope(
            Type.Union([Type.Ref(IncidentSchema), Type.Ref(MaintenanceSchema), Type.Ref(AdvisorySchema), Type.Ref(UpdateSchema)]),
            'Records of the requested type, newest first',
          ),
          ...errorResponses,
          ...notModifiedResponse,
        },
      },
      config: { cacheTtlSeconds: 60 },
    },
    async (req) => {
      const r = await s.records.vendorData(req.params.vendor, req.params.dataType, req.query, req.viewer);
      return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
    },
  );
}
