import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';

// The one place where errors become HTTP: domain codes map to statuses, Fastify's
// own errors (validation, body parsing, size) become the contract's error body,
// and a 5xx never carries internals to the client.

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  not_found: 404,
  unauthorized: 401,
  direct_api_not_allowed: 403,
  session_required: 403,
  origin_not_allowed: 403,
  csrf_token_invalid: 403,
  plan_required: 403,
  limit_exceeded: 403,
  rate_limit_exceeded: 429,
  conflict: 409,
  unprocessable: 422,
  unavailable: 503,
  internal_error: 500,
};

export interface ErrorPayload {
  success: false;
  error: string;
  message: string;
  requestId: string;
  [k: string]: unknown;
}

function errorBody(request: FastifyRequest, error: string, message: string, extra: Record<string, unknown> = {}): ErrorPayload {
  return { success: false, error, message, ...extra, requestId: request.id };
}

/** Names the parameter behind an Ajv validation error, e.g. `limit` or `body.vendors`. */
function validationParameter(err: FastifyError): { name: string; why: string } {
  const v = err.validation?.[0];
  if (!v) return { name: 'request', why: err.message };
  const missing = (v.params as { missingProperty?: string })?.missingProperty;
  const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
  const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const name = missing ?? extra ?? (path || err.validationContext || 'request');
  const why = extra ? 'is not a known field' : missing ? 'is required' : (v.message ?? 'is invalid');
  const ctx = err.validationContext === 'body' && !name.startsWith('body') ? `body.${name}` : name;
  return { name: ctx, why };
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof DomainError) {
        const status = STATUS_BY_CODE[err.code];
        if (err.code === 'rate_limit_exceeded' && typeof err.details.retryAfter === 'number') {
          reply.header('Retry-After', String(err.details.retryAfter));
        }
        if (err.code === 'unavailable') {
          // The store's cause (connection refused, disk full, ...) is for the operator's log only.
          if (err.cause) request.log.warn({ err: err.cause }, 'store unavailable');
          reply.header('Retry-After', '5');
        }
        return reply.code(status).send(errorBody(request, err.code, err.message, err.details));
      }
      if (err.validation) {
        const { name, why } = validationParameter(err);
        return reply
          .code(400)
          .send(errorBody(request, 'invalid_parameter', `Invalid parameter '${name}': ${why}`, { parameter: name }));
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const name =
          status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status === 404 ? 'not_found' : 'bad_request';
        // Fastify's 4xx messages (bad JSON, wrong content type) are safe to show.
        return reply.code(status).send(errorBody(request, name, err.message));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(500).send(errorBody(request, 'internal_error', 'Internal server error'));
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(errorBody(request, 'not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`));
    });
  },
  { name: 'errors' },
);

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook
 * runs (a malformed percent-encoding, a path parameter over maxParamLength).
 * Fastify's own answer has another shape and quotes the path back.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('X-Request-Id', request.id);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.code(414).send(errorBody(request, 'uri_too_long', 'A path parameter is too long'));
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    return reply.code(400).send(errorBody(request, 'bad_request', 'The URL is malformed (invalid percent-encoding)'));
  }
  request.log.error({ err }, 'router error');
  return reply.code(500).send(errorBody(request, 'internal_error', 'Internal server error'));
}

/**
 * Fastify's `clientErrorHandler`: bytes Node's HTTP parser refuses (broken
 * framing, headers over 16 kB, headers that never finish). There is no request
 * yet, so the answer is written on the socket, in the error body shape, and says
 * the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers (the URL included) are larger than 16 kB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request headers did not arrive in time']
        : [400, 'bad_request', 'Malformed HTTP request'];
  this.log.debug({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ success: false, error, message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
