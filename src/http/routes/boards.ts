import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { planPolicy } from '../../domain/plans.ts';
import { BOARD_PATH } from '../../services/feeds/board-service.ts';
import { ipSubject } from '../../services/access/limits.ts';
import { anonymousViewer } from '../../services/context.ts';
import { resumePoint, serveEventStream } from '../event-stream.ts';
import { BoardCreateBody, BoardCreated, BoardList, BoardTokenParams } from '../schemas/boards.ts';
import { errors, USER_SECURITY } from './account.ts';
import { ErrorBody, IdParam, keylessErrorResponses, QueryInteger } from '../schemas/common.ts';
import { STREAM_SSE_EVENTS, StreamEventSchema } from '../schemas/stream-events.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { clientKey } from '../client-key.ts';

// Public status boards (docs/boards.md): the owner's API under /api/v1/boards (key or
// session; session writes carry the CSRF checks of the viewer plugin), and the
// board's public event stream at /b/{token}/stream. The page itself is a web page
// (src/web/board-pages.ts).

/** The owner's routes; registered under ACCOUNT_PREFIX. */
export async function boardRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { boards } = app.services;
  app.setValidatorCompiler(strictValidatorCompiler());
  // The create answer carries the token: no cache may keep any of these answers.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });
  const tags = ['boards'];

  app.post(
    '/boards',
    {
      schema: {
        operationId: 'createBoard',
        summary: 'Publish the watchlist as a public status board',
        description:
          'Copies the current watchlist into a new read-only page at an unguessable URL (`/b/{token}`), live over server-sent events and embeddable in frames (`frameAncestors`). It shows the vendors and their status, nothing of the account. The URL is in this answer only. 400 when the watchlist is empty; 403 beyond 20 boards.',
        tags,
        security: USER_SECURITY,
        body: Type.Optional(BoardCreateBody),
        response: { 201: BoardCreated, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const r = await boards.create(request.viewer, request.body ?? {});
      const origin = app.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
      return reply
        .code(201)
        .send({ success: true, board: r.board, url: `${origin}${r.path}`, token: r.token, ...(r.warnings.length ? { warnings: r.warnings } : {}) });
    },
  );

  app.get(
    '/boards',
    {
      schema: {
        operationId: 'listBoards',
        summary: "The caller's public status boards (never their URLs)",
        tags,
        security: USER_SECURITY,
        response: { 200: BoardList, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, boards: await boards.list(request.viewer) }),
  );

  app.delete(
    '/boards/:id',
    {
      schema: {
        operationId: 'revokeBoard',
        summary: 'Revoke a board: its URL answers 404 from now on',
        tags,
        security: USER_SECURITY,
        params: Type.Object({ id: IdParam('Board id from the list') }),
        response: { 204: Type.Null({ description: 'Revoked' }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      await boards.revoke(request.viewer, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The public stream of a board: incident events of its vendors only, for anyone with the URL. */
export async function boardStreamRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { boards } = app.services;
  app.get(
    `${BOARD_PATH}:token/stream`,
    {
      schema: {
        operationId: 'streamBoard',
        summary: "Live incident changes of a public board's vendors (server-sent events)",
        description:
          'The incident stream (`streamIncidents`, same events, ids and resume) limited to the vendors of the board; the snapshot is the first 50 of their incidents. No credentials: it counts against the anonymous per-address stream cap. A revoked or unknown token: 404.',
        tags: ['boards'],
        security: [{}],
        params: BoardTokenParams,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ description: 'Resume after this event id' })) }),
        querystring: Type.Object(
          { lastEventId: Type.Optional(QueryInteger({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Resume point' })) },
          { additionalProperties: false },
        ),
        ...{ 'x-sse-events': STREAM_SSE_EVENTS },
        response: {
          200: {
            description: 'Server-sent events, as `streamIncidents`',
            content: { 'text/event-stream': { schema: Type.Ref(StreamEventSchema) } },
          },
          ...keylessErrorResponses,
          429: Type.Ref(ErrorBody, { description: 'Rate limit exceeded, or too many open streams from this address' }),
        },
      },
      // Anonymous whoever calls (no account is involved), metered per address like anonymous API calls.
      config: { auth: 'none', rateLimit: true },
    },
    async (request, reply) => {
      const vendors = await boards.streamVendors(request.params.token);
      const lastId = resumePoint(request.query.lastEventId, request.headers['last-event-id']);
      await serveEventStream(app, request, reply, {
        vendors,
        limit: 50,
        offset: 0,
        lastId,
        slot: { subject: ipSubject(clientKey(request)), cap: planPolicy('anonymous', app.config.rateLimits).concurrentStreams, plan: 'anonymous' },
        viewer: anonymousViewer,
      });
    },
  );
}
