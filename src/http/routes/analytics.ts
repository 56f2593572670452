import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { vendorFilter } from '../envelope.ts';
import { Envelope, errorResponses, notModifiedResponse, TimePeriodParam, VendorListParam } from '../schemas/common.ts';
import { AggregateStatsSchema, VendorStatsSchema } from '../schemas/records.ts';
import { FAVORITES_HINT, LONG_VENDOR_LIST } from './lists.ts';

export async function analyticsRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas (docs/api.md): no hand-written query types.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services;

  app.get(
    '/vendor-stats-aggregate',
    {
      schema: {
        operationId: 'getAggregateStats',
        summary: 'Rollup of statistics across all vendors',
        tags: ['analytics'],
        querystring: Type.Object({ timePeriod: Type.Optional(TimePeriodParam) }, { additionalProperties: false }),
        response: { 200: Envelope(AggregateStatsSchema, 'One item: the rollup'), ...errorResponses, ...notModifiedResponse },
      },
      config: { cacheTtlSeconds: 60 },
    },
    async (req) => {
      const { stats, dataWindow } = await s.stats.aggregate(req.query.timePeriod, req.viewer);
      return app.envelope([stats], { dataWindow });
    },
  );

  app.get(
    '/vendor-stats-favorites',
    {
      schema: {
        operationId: 'getFavoriteStats',
        summary: 'Statistics for a list of vendors',
        description: `Requires \`vendor\` (or \`vendors\`). For more than ${LONG_VENDOR_LIST} vendors prefer POST /dashboard-favorites (section stats).`,
        tags: ['analytics'],
        querystring: Type.Object(
          {
            timePeriod: Type.Optional(TimePeriodParam),
            vendor: Type.Optional(VendorListParam),
            vendors: Type.Optional({ ...VendorListParam, description: 'Alias of `vendor`' }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(Type.Ref(VendorStatsSchema), 'One item per listed vendor'), ...errorResponses, ...notModifiedResponse },
      },
      config: { cacheTtlSeconds: 60 },
    },
    async (req, reply) => {
      const vendors = vendorFilter(req.query);
      if (!vendors?.length) {
        throw new DomainError('invalid_parameter', "Invalid parameter 'vendor': at least one vendor slug is required", { parameter: 'vendor' });
      }
      const r = await s.stats.favorites(vendors, req.query.timePeriod, req.viewer);
      const long = vendors.length > LONG_VENDOR_LIST;
      if (long) reply.header('Link', '</api/v1/infrastructure/dashboard-favorites>; rel="alternate"; type="application/json"');
      return app.envelope(r.items, { total: r.items.length, dataWindow: r.dataWindow, hint: long ? FAVORITES_HINT : undefined });
    },
  );
}
