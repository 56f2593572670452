import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../domain/errors.ts';

// Requests Node's HTTP parser lets through but that different hops could read
// differently. The parser already refuses the framing ambiguities (Content-Length
// with Transfer-Encoding, differing lengths, bad chunks, obs-fold, bare LF); what
// remains is a repeated Host header: Node keeps the first, a proxy may route by
// another, and Host names our own origin (CSRF Origin check, OAuth and feed URLs
// without PUBLIC_URL). RFC 9112 §3.2: such a request gets 400.

/** More than one Host header line. */
export function hasAmbiguousHost(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}

/** Refuses ambiguous requests before anything else looks at them, and closes the connection. */
export const requestHygienePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (!hasAmbiguousHost(request.raw)) return done();
      reply.header('connection', 'close');
      done(new DomainError('invalid_parameter', 'A request must carry exactly one Host header', { parameter: 'Host' }));
    });
  },
  { name: 'request-hygiene' },
);
