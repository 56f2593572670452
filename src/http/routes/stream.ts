import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { planPolicy } from '../../domain/plans.ts';
import { INCIDENT_STATUSES, type IncidentStatus } from '../../domain/records.ts';
import { eventFrame, OPENING, snapshotFrame, SSE_HEADERS } from '../../events/sse.ts';
import { StreamConnection } from '../../events/stream-connection.ts';
import { requestSubject } from '../../services/access/limits.ts';
import { vendorFilter } from '../envelope.ts';
import { ErrorBody, errorResponses, LimitParam, OffsetParam, QueryInteger, StringEnum, VendorListParam } from '../schemas/common.ts';

// GET /incidents/stream (DESIGN.md §6; docs/stream.md). Everything that can fail
// with a status (validation, unknown vendor, quota, stream cap) happens before the
// response starts; then the reply is taken over from Fastify and written as
// server-sent events by the process's stream hub.

interface StreamQs {
  limit: number;
  offset: number;
  vendor?: string;
  vendors?: string;
  status?: IncidentStatus;
  lastEventId?: number;
}

const LAST_EVENT_ID = /^\d{1,15}$/;

export async function streamRoutes(app: FastifyInstance) {
  const { services, config } = app;

  app.get<{ Querystring: StreamQs }>(
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
        ].join(' '),
        tags: ['stream'],
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String({ description: 'Resume after this event id (set by EventSource on reconnect)' })),
        }),
        querystring: Type.Object(
          {
            limit: Type.Optional(LimitParam(50)),
            offset: Type.Optional(OffsetParam),
            vendor: Type.Optional(VendorListParam),
            vendors: Type.Optional({ ...VendorListParam, description: 'Alias of `vendor`' }),
            status: Type.Optional(StringEnum(INCIDENT_STATUSES)),
            lastEventId: Type.Optional(
              QueryInteger({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Resume point for clients that cannot set Last-Event-ID' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: 'Server-sent events: `snapshot`, then `incident.created | incident.updated | incident.resolved`',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses,
          429: Type.Ref(ErrorBody, { description: 'Rate limit exceeded, or too many open streams for the plan' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const requested = vendorFilter(q);
      const vendors = requested ? await services.catalog.requireAll(requested) : undefined;
      let lastId: number | null = q.lastEventId ?? null;
      const header = request.headers['last-event-id'];
      if (lastId === null && typeof header === 'string' && header !== '') {
        if (!LAST_EVENT_ID.test(header)) {
          throw new DomainError('invalid_parameter', 'Last-Event-ID must be an event id sent by this stream', { parameter: 'Last-Event-ID' });
        }
        lastId = Number(header);
      }

      // HEAD (served by this GET route) has no body to stream: Node would hold the
      // headers back until the response ends, so the client waited forever on a slot.
      if (request.method === 'HEAD') {
        return reply.code(200).header('content-type', SSE_HEADERS['content-type']).header('cache-control', SSE_HEADERS['cache-control']).send();
      }

      // Concurrent streams per account (all its keys and sessions), anonymous per address.
      const v = request.viewer;
      const cap = planPolicy(v.plan, config.rateLimits).concurrentStreams;
      const raw = reply.raw;
      const gone = () => raw.destroyed || !raw.socket || raw.socket.destroyed;
      const slot = await app.streams.slots.acquire(requestSubject(v, request.ip), cap, () => !gone());
      if (!slot.ok) {
        // A refused request is not counted.
        const m = request.metered;
        if (m) await services.limiter.refund(m.subject, m.windows).catch(() => {});
        app.metrics.rateLimited(v.plan, 'streams');
        throw new DomainError(
          'rate_limit_exceeded',
          `Too many open streams: ${cap} concurrent stream${cap === 1 ? '' : 's'} on the ${v.plan} plan. Close one and retry.`,
          { limit: cap, used: slot.used, retryAfter: 5, currentPlan: v.plan },
        );
      }

      // The client may have reset the connection while the slot was being taken: its
      // 'close' has then already fired and would never give the slot back (docs/stream.md).
      if (gone()) {
        slot.release();
        return reply.hijack();
      }

      const { hub } = app.streams;
      const log = request.log;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
      res.write(OPENING);
      const conn = new StreamConnection(
        res,
        { vendors: vendors ? new Set(vendors) : null, status: q.status ?? null },
        config.streamBufferBytes,
        (reason) => {
          hub.noteDropped();
          log.info({ reason }, 'event stream client dropped');
        },
      );
      res.once('close', () => {
        hub.detach(conn);
        slot.release();
      });

      try {
        await hub.attach(conn);
        if (lastId !== null && (await services.stream.canResume(lastId))) {
          let through = lastId;
          for await (const page of services.stream.replay(lastId, { vendors, status: q.status })) {
            for (const e of page.events) await conn.writePaced(eventFrame(e));
            through = page.through;
            if (conn.closed) return;
          }
          conn.goLive(through);
        } else {
          const snap = await services.stream.snapshot({ vendors, status: q.status, limit: q.limit, offset: q.offset }, v);
          conn.write(snapshotFrame(snap.seq, snap.at, snap.items, snap.total));
          conn.goLive(snap.seq);
        }
      } catch (err) {
        // The status line is gone; the client reconnects and resumes.
        log.warn({ err }, 'event stream failed while starting');
        res.destroy();
      }
    },
  );
}
