import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LimitWindow } from '../../infra/rate-limiter.ts';
import { planWindowsTable, requestSubject } from '../../services/access/limits.ts';
import { isFirstPartyCall } from '../access/first-party.ts';
import { clientKey } from '../client-key.ts';
import { rateLimitError, refusalKind, setRateLimitHeaders } from '../access/rate-limit-headers.ts';

// Rate limits on the REST routes (docs/access.md "Rate limits"): every route under the
// data API unless `config.rateLimit: false`, counted against the organisation (or the
// client address), 429 when a window is full. The steps are put in a route's chain by
// src/http/access/pipeline.ts; a cached route is counted by the cache lookup at its point
// in the order (a 304 is free).

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Count the route against the plan's limits; default: true under the data API. */
    rateLimit?: boolean;
    /** A per-user route whose calls from our own pages are not counted (access/first-party.ts); default true. */
    firstParty?: boolean;
  }
  interface FastifyInstance {
    rateLimit: {
      /** Counts the request (RateLimit headers on the reply); throws the contract's 429 when a window is full. */
      meter(request: FastifyRequest, reply: FastifyReply): Promise<void>;
      /** Takes back what this request was counted (it ended in a 304 or a handler's 400). */
      refund(request: FastifyRequest): void;
      /** `meter`, except for calls of our own pages to a per-user route (access/first-party.ts). */
      meterUnlessFirstParty(request: FastifyRequest, reply: FastifyReply): Promise<void>;
      /** onResponse: a handler's own validation 400 (after metering) is not counted. */
      refundBadRequest(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
  interface FastifyRequest {
    /** What this request was counted against (refunded when it ends in a 304). */
    metered: { subject: string; windows: readonly LimitWindow[] } | null;
  }
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { limiter } = app.access;
    const windowsByPlan = planWindowsTable(app.config.rateLimits);
    const { metrics } = app;
    app.decorateRequest('metered', null);

    async function meter(request: FastifyRequest, reply: FastifyReply) {
      const v = request.viewer;
      const windows = windowsByPlan[v.plan];
      const subject = requestSubject(v, clientKey(request));
      const r = await limiter.consume(subject, windows);
      setRateLimitHeaders(reply, windows, r);
      if (!r.allowed) {
        metrics.rateLimited(v.plan, refusalKind(r));
        throw rateLimitError(r, v.plan);
      }
      request.metered = { subject, windows };
    }

    async function meterUnlessFirstParty(request: FastifyRequest, reply: FastifyReply) {
      if (!isFirstPartyCall(request, app.config.webOrigins)) await meter(request, reply);
    }

    function refund(request: FastifyRequest) {
      const m = request.metered;
      if (!m) return;
      request.metered = null;
      limiter.refund(m.subject, m.windows).catch((err) => request.log.warn({ err }, 'rate-limit refund failed'));
    }

    // A handler's own validation 400 (after metering) is not counted either (docs/access.md).
    async function refundBadRequest(request: FastifyRequest, reply: FastifyReply) {
      if (reply.statusCode === 400) refund(request);
    }

    app.decorate('rateLimit', { meter, refund, meterUnlessFirstParty, refundBadRequest });
  },
  { name: 'rate-limit', dependencies: ['viewer'] },
);
