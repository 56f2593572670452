import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../src/domain/errors.ts';
import { ErrorBody } from '../../src/http/schemas/common.ts';
import { Nullable } from '../../src/http/schemas/common.ts';

// Routes that break their own documentation on request, to prove the response
// checks of test/helpers/openapi-responses.ts catch each kind of drift. Only
// registered by the tests of that helper (startApp's `routes` option).

export const DRIFT_PATH = '/test-drift/:mode';

const Thing = Type.Object(
  {
    name: Type.String(),
    count: Nullable(Type.Integer()),
    at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export function driftRoutes(app: FastifyInstance) {
  app.get<{ Params: { mode: string } }>(
    DRIFT_PATH,
    {
      schema: {
        operationId: 'testDrift',
        summary: 'Answers as its mode says',
        params: Type.Object({ mode: Type.String() }),
        response: { 200: Thing, 404: Type.Ref(ErrorBody) },
      },
    },
    async (request, reply) => {
      switch (request.params.mode) {
        case 'ok':
          return { name: 'a', count: null, at: new Date(0), extra: 'dropped by the serializer' };
        case 'status':
          return reply.code(202).send({ name: 'a', count: 1 });
        case 'error':
          throw new DomainError('unavailable', 'Down for the test');
        case 'not-found':
          throw new DomainError('not_found', 'Nothing here');
        case 'null':
          // The serializer would write "" and the wire would look fine.
          return { name: null, count: 1 };
        case 'string-count':
          return { name: 'a', count: '12' };
        case 'missing':
          return { count: 1 };
        case 'text':
          return reply.type('text/plain').send('plain words');
        case 'raw-json':
          // A string skips the serializer: what is written is what is sent.
          return reply.type('application/json').send('{"name":7,"unknown":true}');
        default:
          return reply.code(404).send({ success: false, error: 'not_found', message: 'unknown mode' });
      }
    },
  );

  app.get(
    '/test-drift-stream',
    {
      schema: {
        operationId: 'testDriftStream',
        summary: 'A hijacked reply with the wrong content type',
        response: { 200: { description: 'Events', content: { 'text/event-stream': { schema: Type.String() } } } },
      },
    },
    async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.end('data: not an event stream\n\n');
    },
  );

  // Left out of the document on purpose: never checked.
  app.get('/test-drift-hidden', { schema: { hide: true } }, async (_request, reply) => reply.code(299).type('x/y').send('anything'));
}
