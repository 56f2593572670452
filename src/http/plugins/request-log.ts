import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// Request lines at debug, a summary at info (docs/operations.md "Logs"): at the
// default level an operator's console shows what happens (start-up, polls, errors)
// rather than one line per API call. Fastify's own lines keep their messages and
// fields; only their level changes.

const SUMMARY_EVERY_MS = 60_000;

export class RequestLogController extends Fastify.LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest) {
    request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }
}

/** One info line a minute with the number of requests answered and how many failed. */
export const requestSummaryPlugin = fp(
  async (app: FastifyInstance) => {
    let served = 0;
    let clientErrors = 0;
    let serverErrors = 0;
    app.addHook('onResponse', (_request, reply, done) => {
      served++;
      if (reply.statusCode >= 500) serverErrors++;
      else if (reply.statusCode >= 400) clientErrors++;
      done();
    });
    const timer = setInterval(() => {
      if (!served) return;
      app.log.info({ requests: served, clientErrors, serverErrors }, `${served} requests in the last minute (${clientErrors} 4xx, ${serverErrors} 5xx)`);
      served = clientErrors = serverErrors = 0;
    }, SUMMARY_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'request-summary' },
);
