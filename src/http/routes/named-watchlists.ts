import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { NamedWatchlistChange, NamedWatchlistSchema, NewNamedWatchlist, OrgIdParams, WatchlistParams } from '../schemas/orgs.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Named watchlists of an organisation (docs/teams.md, "Named watchlists"): members read
// them, editors change them (403 `role_required` below). Unknown body fields are refused.

const tags = ['organisations'];
const One = Type.Object({ success: Type.Boolean(), watchlist: NamedWatchlistSchema });

export async function namedWatchlistRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { namedWatchlists } = app.services;

  app.get(
    '/orgs/:orgId/watchlists',
    {
      schema: {
        operationId: 'listNamedWatchlists',
        summary: "The organisation's named watchlists",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), watchlists: Type.Array(NamedWatchlistSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, watchlists: await namedWatchlists.list(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/watchlists',
    {
      schema: {
        operationId: 'createNamedWatchlist',
        summary: 'Create a named watchlist (editors); the name is unique in the organisation',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: NewNamedWatchlist,
        response: { 201: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const watchlist = await namedWatchlists.create(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, watchlist };
    },
  );

  app.get(
    '/orgs/:orgId/watchlists/:watchlistId',
    {
      schema: {
        operationId: 'getNamedWatchlist',
        summary: 'One named watchlist',
        tags,
        security: USER_SECURITY,
        params: WatchlistParams,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, watchlist: await namedWatchlists.get(requireOrg(request), request.params.orgId, request.params.watchlistId) }),
  );

  app.put(
    '/orgs/:orgId/watchlists/:watchlistId',
    {
      schema: {
        operationId: 'updateNamedWatchlist',
        summary: 'Rename a named watchlist and/or replace its vendors (editors)',
        tags,
        security: USER_SECURITY,
        params: WatchlistParams,
        body: NamedWatchlistChange,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({
      success: true,
      watchlist: await namedWatchlists.update(requireOrg(request), request.params.orgId, request.params.watchlistId, request.body),
    }),
  );

  app.delete(
    '/orgs/:orgId/watchlists/:watchlistId',
    {
      schema: {
        operationId: 'deleteNamedWatchlist',
        summary: 'Delete a named watchlist (editors)',
        tags,
        security: USER_SECURITY,
        params: WatchlistParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await namedWatchlists.remove(requireOrg(request), request.params.orgId, request.params.watchlistId);
      return { success: true };
    },
  );
}
