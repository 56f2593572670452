import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadOnce } from '../infra/load-once.ts';
import type { Services } from '../services/index.ts';
import { type McpCaller, HISTORY_SCOPE, type QuotaOutcome, SUPPORTED_SCOPES } from './context.ts';
import { MCP_PATH, type Origins, PRM_PATH } from './origins.ts';

// The MCP endpoint (Streamable HTTP, stateless: a new server and transport per
// POST) and its RFC 9728 protected-resource metadata. Authentication happens
// here, before the SDK sees the request, because the answer to a protected tool
// called without a token must be an HTTP 401 whose WWW-Authenticate header points
// MCP clients at the metadata (that is how they discover OAuth).

// The MCP SDK, zod and the tool definitions load with the first MCP request, not with the
// app: most processes (the CLI, a server nobody connects an assistant to) never need them
// (docs/architecture.md, "Optional infrastructure").
const loadRuntime = loadOnce(async () => {
  const [server, transport] = await Promise.all([import('./server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]);
  return { server, transport };
});

export type BearerResult = { ok: true; caller: McpCaller } | { ok: false; description: string };

export interface McpEndpointDeps {
  services: Services;
  /** What "now" is for answers (the app's clock). */
  now: () => Date;
  origins: Origins;
  /** Resolves a bearer token (OAuth access token or API key) to a caller. */
  authenticate(token: string, req: FastifyRequest): Promise<BearerResult>;
  /** The anonymous caller of a request without credentials. */
  anonymous(req: FastifyRequest): McpCaller;
  /**
   * Counts `calls` tool calls against the caller's quota and sets the rate-limit
   * headers on the reply. Absent: nothing is counted.
   */
  meter?(req: FastifyRequest, reply: FastifyReply, caller: McpCaller, calls: number): Promise<QuotaOutcome>;
  /** Origins a browser-based client may call from (besides our own). */
  allowedOrigins: string[];
}

interface JsonRpcMessage {
  method?: unknown;
  params?: { name?: unknown };
}

const messagesOf = (body: unknown): JsonRpcMessage[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is JsonRpcMessage => typeof m === 'object' && m !== null);

const toolCalls = (body: unknown) => messagesOf(body).filter((m) => m.method === 'tools/call');

function bearerOf(req: FastifyRequest): { token: string | null; malformed: boolean } {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
    return m ? { token: m[1], malformed: false } : { token: null, malformed: true };
  }
  const key = req.headers['x-api-key'];
  if (typeof key === 'string' && key) return { token: key, malformed: false };
  return { token: null, malformed: false };
}

const quote = (s: string) => s.replace(/[\\"]/g, '');

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export async function mcpEndpoint(app: FastifyInstance, deps: McpEndpointDeps) {
  const { origins } = deps;

  function unauthorized(req: FastifyRequest, reply: FastifyReply, error: 'invalid_token' | null, description: string) {
    const params = [
      ...(error ? [`error="${error}"`, `error_description="${quote(description)}"`] : []),
      `resource_metadata="${origins.resourceMetadataUrl(req)}"`,
      `scope="${HISTORY_SCOPE}"`,
    ];
    reply.header('WWW-Authenticate', `Bearer ${params.join(', ')}`);
    return reply.code(401).send({
      success: false,
      error: error ?? 'unauthorized',
      error_description: description,
      message: description,
      requestId: req.id,
    });
  }

  const prm = (req: FastifyRequest) => ({
    resource: origins.resource(req),
    authorization_servers: [origins.issuer(req)],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Vendor Infrastructure Status (MCP)',
    resource_documentation: `${origins.issuer(req)}/docs`,
  });
  // Path-aware location first (what MCP clients try), the root as a fallback.
  for (const url of [`${PRM_PATH}${MCP_PATH}`, PRM_PATH]) {
    app.get(url, { schema: { hide: true } }, async (req, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      return prm(req);
    });
  }

  app.post(MCP_PATH, { schema: { hide: true }, bodyLimit: 262_144 }, async (req, reply) => {
    const origin = req.headers.origin;
    // DNS-rebinding guard the MCP transport spec asks for: a browser origin must be ours or allowed.
    if (origin !== undefined && origin !== origins.requestOrigin(req) && !deps.allowedOrigins.includes(origin)) {
      return jsonRpcError(reply, 403, -32000, `Origin ${origin} is not allowed`);
    }

    const { token, malformed } = bearerOf(req);
    let caller: McpCaller;
    if (malformed) return unauthorized(req, reply, 'invalid_token', 'The Authorization header must be "Bearer <token>"');
    if (token !== null) {
      const result = await deps.authenticate(token, req);
      if (!result.ok) return unauthorized(req, reply, 'invalid_token', result.description);
      caller = result.caller;
    } else {
      caller = deps.anonymous(req);
    }

    const calls = toolCalls(req.body);
    const { server: mcp, transport: http } = await loadRuntime();
    const protectedCall = calls.find((c) => typeof c.params?.name === 'string' && mcp.PROTECTED_TOOLS.has(c.params.name));
    if (protectedCall && caller.auth.kind === 'anonymous') {
      return unauthorized(req, reply, null, `${String(protectedCall.params?.name)} needs a bearer token: sign in with OAuth or use an API key`);
    }
    if (protectedCall && caller.auth.kind === 'oauth' && !caller.auth.scopes.includes(HISTORY_SCOPE)) {
      reply.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${HISTORY_SCOPE}", resource_metadata="${origins.resourceMetadataUrl(req)}"`);
      return reply.code(403).send({
        success: false,
        error: 'insufficient_scope',
        error_description: `The token lacks the ${HISTORY_SCOPE} scope`,
        message: `The token lacks the ${HISTORY_SCOPE} scope`,
        requestId: req.id,
      });
    }

    const quota = calls.length && deps.meter ? await deps.meter(req, reply, caller, calls.length) : ({ allowed: true } as const);

    // From here the SDK writes the response; headers set on the reply so far are copied over.
    const headers = reply.getHeaders();
    reply.hijack();
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
    }
    reply.raw.setHeader('X-Request-Id', req.id);
    const server = mcp.buildMcpServer({ services: deps.services, now: deps.now, caller, quota, log: req.log });
    const transport = new http.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      req.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
    }
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      handler: async (_req, reply) => {
        reply.header('Allow', 'POST');
        return jsonRpcError(reply, 405, -32000, 'Method not allowed.');
      },
    });
  }
}
