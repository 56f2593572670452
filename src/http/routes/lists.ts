import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { INCIDENT_STATUSES } from '../../domain/records.ts';
import { vendorFilter } from '../envelope.ts';
import {
  Envelope,
  errorResponses,
  LimitParam,
  notModifiedResponse,
  OffsetParam,
  QueryObject,
  SkipCacheParam,
  StringEnum,
  TimePeriodParam,
  VendorListParam,
} from '../schemas/common.ts';
import { ActivityItemSchema, AdvisorySchema, IncidentSchema, MaintenanceSchema } from '../schemas/records.ts';

/** A long vendor list belongs in POST /dashboard-favorites; GET answers but points there. */
export const LONG_VENDOR_LIST = 25;
export const FAVORITES_HINT = 'For long vendor lists use POST /api/v1/infrastructure/dashboard-favorites with {"vendors": [...], "sections": [...]}';

const vendorParams = {
  vendor: Type.Optional(VendorListParam),
  vendors: Type.Optional({ ...VendorListParam, description: 'Alias of `vendor`' }),
};

export async function listRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services;

  const incidentsSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description: 'Newest first. `activeOnly=true` returns only ongoing (not resolved) incidents.',
    tags: ['lists'],
    querystring: QueryObject(
      {
        limit: LimitParam(50),
        offset: OffsetParam,
        ...vendorParams,
        status: Type.Optional(StringEnum(INCIDENT_STATUSES)),
        timePeriod: Type.Optional(TimePeriodParam),
        activeOnly: Type.Optional(Type.Boolean()),
        skipCache: Type.Optional(SkipCacheParam),
      },
      { additionalProperties: false },
    ),
    response: { 200: Envelope(Type.Ref(IncidentSchema), 'Incidents across vendors'), ...errorResponses, ...notModifiedResponse },
  });
  for (const [url, operationId, summary] of [
    ['/incidents', 'listIncidents', 'Incidents across vendors'],
    ['/incidents-unified', 'listIncidentsUnified', 'Legacy name of /incidents'],
  ] as const) {
    app.get(url, { schema: incidentsSchema(operationId, summary), config: { cacheTtlSeconds: 60 } }, async (req) => {
      const q = req.query;
      const r = await s.records.incidents({ ...q, vendors: vendorFilter(q) }, req.viewer);
      return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
    });
  }

  const maintenanceSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description: 'Newest first by scheduled start. `scheduledOnly=true` returns only windows not yet completed.',
    tags: ['lists'],
    querystring: QueryObject(
      {
        scheduledOnly: Type.Optional(Type.Boolean()),
        limit: LimitParam(50),
        offset: OffsetParam,
        ...vendorParams,
        timePeriod: Type.Optional(TimePeriodParam),
        skipCache: Type.Optional(SkipCacheParam),
      },
      { additionalProperties: false },
    ),
    response: { 200: Envelope(Type.Ref(MaintenanceSchema), 'Maintenance windows across vendors'), ...errorResponses, ...notModifiedResponse },
  });
  for (const [url, operationId, summary] of [
    ['/maintenance', 'listMaintenance', 'Maintenance across vendors'],
    ['/maintenance-unified', 'listMaintenanceUnified', 'Legacy name of /maintenance'],
  ] as const) {
    app.get(url, { schema: maintenanceSchema(operationId, summary), config: { cacheTtlSeconds: 60 } }, async (req) => {
      const r = await s.records.maintenance({ ...req.query, vendors: vendorFilter(req.query) }, req.viewer);
      return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
    });
  }

  app.get(
    '/advisories-unified',
    {
      schema: {
        operationId: 'listAdvisories',
        summary: 'Security advisories across vendors',
        tags: ['lists'],
        querystring: QueryObject(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            limit: LimitParam(50),
            offset: OffsetParam,
            ...vendorParams,
            skipCache: Type.Optional(SkipCacheParam),
          },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(Type.Ref(AdvisorySchema), 'Advisories across vendors'), ...errorResponses, ...notModifiedResponse },
      },
      config: { cacheTtlSeconds: 60 },
    },
    async (req) => {
      const r = await s.records.advisories({ ...req.query, vendors: vendorFilter(req.query) }, req.viewer);
      return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
    },
  );

  app.get(
    '/dashboard-recent-activity',
    {
      schema: {
        operationId: 'getRecentActivity',
        summary: 'Merged feed of incidents, maintenance, advisories and updates',
        description: `Newest first; default window 7d. For more than ${LONG_VENDOR_LIST} vendors prefer POST /dashboard-favorites (section recentActivity).`,
        tags: ['lists'],
        querystring: QueryObject(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            ...vendorParams,
            limit: LimitParam(50),
            skipCache: Type.Optional(SkipCacheParam),
          },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(ActivityItemSchema, 'Activity items'), ...errorResponses, ...notModifiedResponse },
      },
      config: { cacheTtlSeconds: 60 },
    },
    async (req, reply) => {
      const vendors = vendorFilter(req.query);
      const r = await s.records.recentActivity({ ...req.query, vendors }, req.viewer);
      const long = (vendors?.length ?? 0) > LONG_VENDOR_LIST;
      if (long) reply.header('Link', '</api/v1/infrastructure/dashboard-favorites>; rel="alternate"; type="application/json"');
      return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow, hint: long ? FAVORITES_HINT : undefined });
    },
  );
}
