import { audienceFor } from '../../services/access/audience.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { planPolicy } from '../../domain/plans.ts';
import { INCIDENT_STATUSES } from '../../domain/records.ts';
import { requestSubject } from '../../services/access/limits.ts';
import { vendorFilter } from '../envelope.ts';
import { resumePoint, serveEventStream } from '../event-stream.ts';
import { INCIDENT_STREAM_SSE_EVENTS, StreamEventSchema } from '../schemas/stream-events.ts';
import { ErrorBody, errorResponses, LimitParam, OffsetParam, QueryInteger, QueryObject, StringEnum, VendorListParam } from '../schemas/common.ts';
import { clientKey } from '../client-key.ts';

// GET /incidents/stream (docs/stream.md). Everything that can fail
// with a status (validation, unknown vendor, quota, stream cap) happens before the
// response starts; then the reply is taken over from Fastify and written as
// server-sent events by the process's stream hub.

export async function streamRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { services, config } = app;

  app.get(
    '/incidents/stream',
    {
      schema: {
        operationId: 'streamIncidents',
        summary: 'Live incident changes (server-sent events)',
        description: [
          'A `text/event-stream`. First a `snapshot` event (the incidents matching the filters, honouring `limit` and `offset`), then',
          '`incident.created`, `incident.updated` and `incident.resolved` events, each with `id:` = the global sequence number of the',
          'event log and `data:` = `{type, occurredAt, incident}`. A `: ping` comment every 15 s; `retry: 5000`.',
          'A reconnecting client sends `Last-Event-ID` (or `lastEventId` in the query) and receives the events it missed instead of',
          'a snapshot, unless they are older than the log keeps. One open stream counts as one request; open streams are capped per plan.',
          'A signed-in member also gets `early_warning` events (no `id:`) when a signal of the organisation they act for opens or changes,',
          'and, when that organisation has services, `affectedServices` on each incident (snapshot, live and replayed events): its own services only.',
        ].join(' '),
        tags: ['stream'],
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String({ description: 'Resume after this event id (set by EventSource on reconnect)' })),
        }),
        querystring: QueryObject(
          {
            limit: LimitParam(50),
            offset: OffsetParam,
            vendor: Type.Optional(VendorListParam),
            vendors: Type.Optional({ ...VendorListParam, description: 'Alias of `vendor`' }),
            status: Type.Optional(StringEnum(INCIDENT_STATUSES)),
            lastEventId: Type.Optional(
              QueryInteger({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Resume point for clients that cannot set Last-Event-ID' }),
            ),
          },
          { additionalProperties: false },
        ),
        // An OpenAPI extension (docs/stream.md, "Payloads in the OpenAPI document"); FastifySchema does not know x- keys.
        ...{ 'x-sse-events': INCIDENT_STREAM_SSE_EVENTS },
        response: {
          200: {
            description:
              'Server-sent events: `snapshot`, then `incident.created | incident.updated | incident.resolved`, `early_warning` for members of the organisation whose signal it is, and `shutdown` when the server stops. Incidents carry `affectedServices` only on the stream of a signed-in member (the services of that organisation). The `data:` of each event is described by `x-sse-events` (components StreamSnapshotEvent, IncidentCreatedEvent, IncidentUpdatedEvent, IncidentResolvedEvent, StreamShutdownEvent, EarlyWarningEvent); the content schema is the `data:` of one event.',
            content: { 'text/event-stream': { schema: Type.Ref(StreamEventSchema) } },
          },
          ...errorResponses,
          429: Type.Ref(ErrorBody, { description: 'Rate limit exceeded, or too many open streams for the plan' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const requested = vendorFilter(q);
      const vendors = requested ? await services.catalog.requireAll(requested, audienceFor(request.viewer)) : undefined;
      const lastId = resumePoint(q.lastEventId, request.headers['last-event-id']);

      // Concurrent streams per account (all its keys and sessions), anonymous per address.
      const v = request.viewer;
      const cap = planPolicy(v.plan, config.rateLimits).concurrentStreams;
      const subject = requestSubject(v, clientKey(request));
      await serveEventStream(app, request, reply, {
        vendors,
        status: q.status,
        limit: q.limit,
        offset: q.offset,
        lastId,
        slot: { subject, cap, plan: v.plan },
        viewer: v,
        notices: true,
        affectedServices: true,
      });
    },
  );
}
