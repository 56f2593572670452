// Answers given before a request reaches its operation: Node's HTTP parser
// (headers too large, broken framing), Fastify's router (a malformed
// percent-encoding, an over-long path parameter) and body parser (too large,
// unsupported content type). The handlers in plugins/errors.ts give them the
// contract's error body; this table puts them on every operation of the OpenAPI
// document they can happen to, so clients know to expect them.

type Applies = 'every' | 'path-parameters' | 'body';

export const TRANSPORT_RESPONSES: Record<number, { description: string; applies: Applies }> = {
  400: {
    description: 'Malformed request: invalid percent-encoding in the URL, an unparsable body, or broken HTTP framing',
    applies: 'every',
  },
  413: { description: 'Request body larger than 1 MB', applies: 'body' },
  414: { description: 'A path parameter longer than 100 characters', applies: 'path-parameters' },
  415: { description: 'Unsupported Content-Type (send application/json)', applies: 'body' },
  431: { description: 'Request headers (the URL included) larger than 16 kB', applies: 'every' },
};

/** Methods whose bodies Fastify parses (and so may refuse with 413 or 415). */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const errorBodyRef = { $ref: '#/components/schemas/ErrorBody' };

/** Adds the transport-level answers to each operation of an OpenAPI 3.0 document (in place). */
export function addTransportResponses<T extends { paths?: object }>(doc: T): T {
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document's operation objects, read loosely
  for (const [path, ops] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, any> | undefined>)) {
    for (const [method, op] of Object.entries(ops ?? {})) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      for (const [code, { description, applies }] of Object.entries(TRANSPORT_RESPONSES)) {
        if (applies === 'path-parameters' && !path.includes('{')) continue;
        if (applies === 'body' && !BODY_METHODS.has(method)) continue;
        op.responses[code] ??= { description, content: { 'application/json': { schema: errorBodyRef } } };
      }
    }
  }
  return doc;
}
