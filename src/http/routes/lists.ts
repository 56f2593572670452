import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { INCIDENT_STATUSES, type IncidentStatus } from '../../domain/records.ts';
import { vendorFilter } from '../envelope.ts';
import {
  Envelope,
  errorResponses,
  LimitParam,
  notModifiedResponse,
  OffsetParam,
  SkipCacheParam,
  StringEnum,
  TimePeriodParam,
  VendorListParam,
} from '../schemas/common.ts';
import { ActivityItemSchema, AdvisorySchema, IncidentSchema, MaintenanceSchema } from '../schemas/records.ts';

/** A long vendor list belongs in POST /dashboard-favorites; GET answers but points there. */
export const LONG_VENDOR_LIST = 25;
export const FAVORITES_HINT =
  'For long vendor lists use POST /api/v1/infrastructure/dashboard-favorites with {"vendors": [...], "sections": [...]}';

const vendorParams = {
  vendor: Type.Optional(VendorListParam),
  vendors: Type.Optional({ ...VendorListParam, description: 'Alias of `vendor`' }),
};

interface IncidentQs {
  limit: number;
  offset: number;
  vendor?: string;
  vendors?: string;
  status?: IncidentStatus;
  timePeriod?: string;
  activeOnly?: boolean;
  skipCache?: boolean;
}

export async function listRoutes(app: FastifyInstance) {
  const s = app.services;

  const incidentsSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description: 'Newest first. `activeOnly=true` returns only ongoing (not resolved) incidents.',
    tags: ['lists'],
    querystring: Type.Object(
      {
        limit: Type.Optional(LimitParam(50)),
        offset: Type.Optional(OffsetParam),
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
  const incidents = async (req: { query: IncidentQs; viewer: import('../../services/context.ts').Viewer }) => {
    const q = req.query;
    const r = await s.records.incidents({ ...q, vendors: vendorFilter(q) }, req.viewer);
    return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
  };
  app.get<{ Querystring: IncidentQs }>(
    '/incidents',
    { schema: incidentsSchema('listIncidents', 'Incidents across vendors'), config: { cacheTtlSeconds: 60 } },
    incidents,
  );
  app.get<{ Querystring: IncidentQs }>(
    '/incidents-unified',
    { schema: incidentsSchema('listIncidentsUnified', 'Legacy name of /incidents'), config: { cacheTtlSeconds: 60 } },
    incidents,
  );

  type MaintQs = { scheduledOnly?: boolean; limit: number; offset: number; vendor?: string; vendors?: string; timePeriod?: string };
  const maintenanceSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    description: 'Newest first by scheduled start. `scheduledOnly=true` returns only windows not yet completed.',
    tags: ['lists'],
    querystring: Type.Object(
      {
        scheduledOnly: Type.Optional(Type.Boolean()),
        limit: Type.Optional(LimitParam(50)),
        offset: Type.Optional(OffsetParam),
        ...vendorParams,
        timePeriod: Type.Optional(TimePeriodParam),
        skipCache: Type.Optional(SkipCacheParam),
      },
      { additionalProperties: false },
    ),
    response: { 200: Envelope(Type.Ref(MaintenanceSchema), 'Maintenance windows across vendors'), ...errorResponses, ...notModifiedResponse },
  });
  const maintenance = async (req: { query: MaintQs; viewer: import('../../services/context.ts').Viewer }) => {
    const r = await s.records.maintenance({ ...req.query, vendors: vendorFilter(req.query) }, req.viewer);
    return app.envelope(r.items, { total: r.total, dataWindow: r.dataWindow });
  };
  app.get<{ Querystring: MaintQs }>(
    '/maintenance',
    { schema: maintenanceSchema('listMaintenance', 'Maintenance across vendors'), config: { cacheTtlSeconds: 60 } },
    maintenance,
  );
  app.get<{ Querystring: MaintQs }>(
    '/maintenance-unified',
    { schema: maintenanceSchema('listMaintenanceUnified', 'Legacy name of /maintenance'), config: { cacheTtlSeconds: 60 } },
    maintenance,
  );

  type PubQs = { timePeriod?: string; limit: number; offset: number; vendor?: string; vendors?: string };
  app.get<{ Querystring: PubQs }>(
    '/advisories-unified',
    {
      schema: {
        operationId: 'listAdvisories',
        summary: 'Security advisories across vendors',
        tags: ['lists'],
        querystring: Type.Object(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            limit: Type.Optional(LimitParam(50)),
            offset: Type.Optional(OffsetParam),
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

  app.get<{ Querystring: { timePeriod?: string; vendor?: string; vendors?: string; limit: number } }>(
    '/dashboard-recent-activity',
    {
      schema: {
        operationId: 'getRecentActivity',
        summary: 'Merged feed of incidents, maintenance, advisories and updates',
        description: `Newest first; default window 7d. For more than ${LONG_VENDOR_LIST} vendors prefer POST /dashboard-favorites (section recentActivity).`,
        tags: ['lists'],
        querystring: Type.Object(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            ...vendorParams,
            limit: Type.Optional(LimitParam(50)),
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
