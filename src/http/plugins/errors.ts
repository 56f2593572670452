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
  role_required: 403,
  sso_required: 403,
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

/** A route's path (`/badges/:vendor.svg`, `/docs/*`) as a regular expression over request paths. */
function pathPattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

type AjvError = NonNullable<FastifyError['validation']>[number];

/**
 * Ajv's wording, said for people (docs/api.md, "Errors"): the allowed values listed instead
 * of "must be equal to one of the allowed values", no regular expression quoted back.
 */
function peopleWording(v: AjvError): string {
  const p = (v.params ?? {}) as { allowedValues?: unknown[]; type?: string | string[]; format?: string; limit?: number };
  switch (v.keyword) {
    case 'enum':
      return `must be one of ${(p.allowedValues ?? []).map(String).join(', ')}`;
    case 'pattern':
      return 'has characters or a form that is not allowed here (see this parameter in the API reference)';
    case 'type': {
      const t = Array.isArray(p.type) ? p.type.join(' or ') : p.type;
      return `must be ${t === 'integer' ? 'a whole number' : t === 'number' ? 'a number' : t === 'boolean' ? 'true or false' : `a ${t}`}`;
    }
    case 'format':
      return p.format === 'date-time' ? 'must be a date and time such as 2026-01-31T12:00:00Z' : `must be a valid ${p.format}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'minItems':
      return `must list at least ${p.limit}`;
    case 'maxItems':
      return `must list at most ${p.limit}`;
    default:
      return v.message ?? 'is invalid';
  }
}

/** Names the parameter behind an Ajv validation error, e.g. `limit` or `body.vendors`. */
function validationParameter(err: FastifyError): { name: string; why: string } {
  const v = err.validation?.[0];
  if (!v) return { name: 'request', why: err.message };
  const missing = (v.params as { missingProperty?: string })?.missingProperty;
  const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
  const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const name = missing ?? extra ?? (path || err.validationContext || 'request');
  const why = extra ? 'is not a known field' : missing ? 'is required' : peopleWording(v);
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
        return reply.code(400).send(errorBody(request, 'invalid_parameter', `Invalid parameter '${name}': ${why}`, { parameter: name }));
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const name = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status === 404 ? 'not_found' : 'bad_request';
        // Fastify's 4xx messages (bad JSON, wrong content type) are safe to show.
        return reply.code(status).send(errorBody(request, name, err.message));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(500).send(errorBody(request, 'internal_error', 'Internal server error'));
    });

    // A known path asked with another method is 405 with `Allow`, not "not found"
    // (RFC 9110, 15.5.6; docs/api.md, "Errors").
    const routes: { method: string; path: RegExp }[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method, path: pathPattern(route.url ?? route.path) });
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      if (request.method !== 'OPTIONS') {
        const allowed = [...new Set(routes.filter((r) => r.path.test(path)).map((r) => r.method))].filter((m) => m !== 'OPTIONS').sort();
        if (allowed.length && !allowed.includes(request.method)) {
          return reply
            .code(405)
            .header('Allow', allowed.join(', '))
            .send(errorBody(request, 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`));
        }
      }
      reply.code(404).send(errorBody(request, 'not_found', `Route ${request.method} ${path} not found`));
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
