import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { nearestName } from '../../domain/suggest.ts';

// One rule for query strings on every operation of the API description: a
// parameter the operation does not document is refused with 400 naming it
// (docs/api.md, "Parameters"). The app-wide validator removes unknown
// properties, so without this a typo (`?timeperiod=7d`) would silently give the
// default answer. The check is the first step of the route's chain, ahead of
// authentication and the response cache, so an unknown parameter never reaches a
// cached entry. Routes hidden from the description (web pages, /docs, OAuth, MCP) keep
// their own rules: OAuth must ignore unknown parameters (RFC 6749, 3.1).

const MAX_LISTED = 10;

type Schema = { properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };

/** Names a querystring schema declares (objects, and members of allOf/anyOf/oneOf). */
function declaredNames(schema: Schema | undefined): Set<string> {
  const out = new Set<string>();
  const visit = (s: Schema | undefined) => {
    if (!s || typeof s !== 'object') return;
    for (const k of Object.keys(s.properties ?? {})) out.add(k);
    for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(sub);
  };
  visit(schema);
  return out;
}

function unknownQueryError(unknown: string[], allowed: Set<string>): DomainError {
  const listed = unknown
    .slice(0, MAX_LISTED)
    .map((u) => `'${u}'`)
    .join(', ');
  // A typo of a documented name says which one was meant (docs/api.md, "Errors").
  const suggestion = nearestName(unknown[0]!, allowed);
  return new DomainError(
    'invalid_parameter',
    `Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${listed}${unknown.length > MAX_LISTED ? ', …' : ''}` +
      (suggestion
        ? ` (did you mean '${suggestion}'?)`
        : allowed.size
          ? `; this operation takes ${[...allowed].sort().join(', ')}`
          : '; this operation takes none'),
    { parameter: unknown[0], unknownParameters: unknown.slice(0, MAX_LISTED), ...(suggestion ? { suggestion } : {}) },
  );
}

function guard(allowed: Set<string>) {
  return function refuseUnknownQuery(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
    const q = request.query;
    if (!q || typeof q !== 'object') return done();
    const unknown = Object.keys(q).filter((k) => !allowed.has(k));
    done(unknown.length ? unknownQueryError(unknown, allowed) : undefined);
  };
}

/**
 * The query check of a route's chain (src/http/access/pipeline.ts): only on the operations
 * the description lists (a route without a schema, or hidden, is not one), not on preflights.
 * HEAD answers like GET (the generated HEAD routes come through here too).
 */
export function queryCheckFor(route: RouteOptions): ((request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void) | null {
  const schema = route.schema as ({ hide?: boolean; querystring?: Schema } & Record<string, unknown>) | undefined;
  if (!schema || schema.hide) return null;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.every((m) => m === 'OPTIONS')) return null;
  return guard(declaredNames(schema.querystring));
}
