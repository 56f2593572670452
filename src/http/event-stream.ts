import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { UNMATCHED_ROUTE } from '../domain/metrics.ts';
import type { Plan } from '../domain/plans.ts';
import type { IncidentStatus } from '../domain/records.ts';
import { eventFrame, OPENING, snapshotFrame, SSE_HEADERS, StreamConnection } from '../events/index.ts';
import type { Viewer } from '../services/context.ts';
import { takeStreamSocket } from './stream-socket.ts';

// Serves an incident event stream once the route has validated its request
// (docs/stream.md): takes a concurrent-stream slot, then takes the reply over from
// Fastify and writes the snapshot or the replay, then live events, through the
// process's stream hub. Used by the incident stream and by public boards' streams.

export interface EventStreamRequest {
  vendors: string[] | undefined;
  status?: IncidentStatus;
  limit: number;
  offset: number;
  lastId: number | null;
  /** Counter of concurrent streams this one takes a slot of, and its cap. */
  slot: { subject: string; cap: number; plan: Plan };
  /** Whose history window the snapshot applies. */
  viewer: Viewer;
  /** Early-warning events of the viewer's organisation too (the incident stream, never a public board's). */
  notices?: boolean;
  /** Incidents carry the viewer's organisation's affected services (the incident stream, never a public board's). */
  affectedServices?: boolean;
}

const LAST_EVENT_ID = /^\d{1,15}$/;

/** The resume point: the query parameter when present (the client chose it explicitly), else the Last-Event-ID header. */
export function resumePoint(query: number | undefined, header: string | string[] | undefined): number | null {
  if (query !== undefined) return query;
  if (typeof header !== 'string' || header === '') return null;
  if (!LAST_EVENT_ID.test(header)) {
    throw new DomainError('invalid_parameter', 'Last-Event-ID must be an event id sent by this stream', { parameter: 'Last-Event-ID' });
  }
  return Number(header);
}

/**
 * Node builds the response's header block line by line and keeps it for the
 * response's life (`_header`, it answers `headersSent`): a tree of ~50 string pieces,
 * about 2 KB per open stream (docs/stream.md, "What a stream costs"). Reading one
 * character makes V8 store it as one flat string (~0.6 KB) and drop the pieces at the
 * next collection; nothing is written to the response.
 */
function flattenHeaderBlock(res: object) {
  const header = (res as { _header?: unknown })._header;
  if (typeof header === 'string' && header.length) header.charCodeAt(header.length - 1);
}

/** The slot's liveness check: the connection's socket only, so the slot holds nothing of the request. */
function socketOpen(socket: Socket | null) {
  return () => socket !== null && !socket.destroyed;
}

/** Gives both slots back; built here so that the closure holds the two slots and nothing of the request. */
function releaseBoth(own: { release(): void }, server: { release(): void } | null) {
  return () => {
    own.release();
    server?.release();
  };
}

export async function serveEventStream(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, o: EventStreamRequest) {
  const { services, config } = app;
  // HEAD (served by a GET route) has no body to stream: Node would hold the
  // headers back until the response ends, so the client waited forever on a slot.
  if (request.method === 'HEAD') {
    return reply.code(200).header('content-type', SSE_HEADERS['content-type']).header('cache-control', SSE_HEADERS['cache-control']).send();
  }
  const socket = request.raw.socket as Socket | null;
  const alive = socketOpen(socket);
  const refuse = async () => {
    // A refused request is not counted.
    const m = request.metered;
    if (m) await app.access.limiter.refund(m.subject, m.windows).catch(() => {});
    app.metrics.rateLimited(o.slot.plan, 'streams');
  };
  // Anonymous streams of this process, all addresses together: however many addresses
  // a client holds, anonymous streams cannot take every connection (docs/stream.md).
  const server = o.slot.plan === 'anonymous' ? await app.streams.anonymous.acquire('anonymous', config.anonymousStreamsPerServer) : null;
  if (server && !server.ok) {
    await refuse();
    throw new DomainError('rate_limit_exceeded', 'Too many anonymous streams open on this server; retry later or use an API key', {
      limit: config.anonymousStreamsPerServer,
      retryAfter: 5,
      currentPlan: o.slot.plan,
    });
  }
  const own = await app.streams.slots.acquire(o.slot.subject, o.slot.cap, alive);
  const release = releaseBoth(own, server);
  if (!own.ok) {
    release();
    await refuse();
    const cap = o.slot.cap;
    throw new DomainError(
      'rate_limit_exceeded',
      `Too many open streams: ${cap} concurrent stream${cap === 1 ? '' : 's'} on the ${o.slot.plan} plan. Close one and retry.`,
      { limit: cap, used: own.used, retryAfter: 5, currentPlan: o.slot.plan },
    );
  }

  // The client may have reset the connection while the slot was being taken: its
  // 'close' has then already fired and would never give the slot back (docs/stream.md).
  const res = reply.raw;
  if (res.destroyed || !alive()) {
    release();
    return reply.hijack();
  }

  const { hub } = app.streams;
  reply.hijack();
  res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
  res.write(OPENING);
  // From here the stream writes to the socket; the request, the response and Fastify's
  // request and reply are left to the collector (docs/stream.md, "What a stream costs").
  const taken = takeStreamSocket(request.raw, res);
  if (!taken) flattenHeaderBlock(res);
  const output = taken ? { out: taken.socket, chunked: taken.chunked, route: routeOf(request) } : { out: res, chunked: false, route: null };
  const { vendors, status, lastId } = o;
  const servicesOf = o.affectedServices ? services.stream.servicesOf(o.viewer) : null;
  // The connection's one 'close' listener detaches it from the hub and gives the slot back.
  const conn = new StreamConnection(
    output,
    {
      vendors: vendors ? new Set(vendors) : null,
      status: status ?? null,
      readerId: o.viewer.orgId,
      noticesFor: o.notices && o.viewer.orgId ? o.viewer.orgId : null,
      servicesOf,
    },
    config.streamBufferBytes,
    hub,
    release,
    String(request.id),
  );

  try {
    await hub.attach(conn);
    if (lastId !== null && (await services.stream.canResume(lastId))) {
      let through = lastId;
      for await (const page of services.stream.replay(lastId, { vendors, status }, o.viewer)) {
        const affected = await services.stream.affected(servicesOf, page.events);
        for (const e of page.events) await conn.writePaced(eventFrame(e, affected?.get(e.seq)));
        through = page.through;
        if (conn.closed) return;
      }
      conn.goLive(through);
    } else {
      const snap = await services.stream.snapshot({ vendors, status, limit: o.limit, offset: o.offset }, o.viewer);
      conn.write(snapshotFrame(snap.seq, snap.at, snap.items, snap.total));
      conn.goLive(snap.seq);
    }
  } catch (err) {
    // The status line is gone; the client reconnects and resumes.
    request.log.warn({ err }, 'event stream failed while starting');
    output.out.destroy();
  }
}

/** The route template the metrics count requests under (never the raw URL). */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
