import { audienceFor } from '../../services/access/audience.ts';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Envelope, errorResponses } from '../schemas/common.ts';
import { VendorSummarySchema } from '../schemas/records.ts';

const VendorListResponse = Type.Object(
  { success: Type.Boolean(), vendors: Type.Array(Type.Ref(VendorSummarySchema)), total: Type.Integer() },
  { description: 'Vendor list response' },
);

export async function discoveryRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const listSchema = (operationId: string, summary: string) => ({
    operationId,
    summary,
    tags: ['discovery'],
    response: { 200: VendorListResponse, ...errorResponses },
  });
  const list = async (req: FastifyRequest) => {
    const vendors = await app.services.catalog.list(audienceFor(req.viewer));
    return { success: true, vendors, total: vendors.length };
  };
  app.get('/vendor-list', { schema: listSchema('listVendors', 'List tracked vendors and their data types') }, list);
  app.get('/vendors', { schema: listSchema('listVendorsAlias', 'Alias of /vendor-list') }, list);

  app.get(
    '/vendor-count',
    {
      schema: {
        operationId: 'countVendors',
        summary: 'Number of tracked vendors',
        tags: ['discovery'],
        response: { 200: Envelope(Type.Object({ count: Type.Integer() }), 'One item with the vendor count'), ...errorResponses },
      },
    },
    async (req) => app.envelope([{ count: await app.services.catalog.count(audienceFor(req.viewer)) }]),
  );
}
