import type { FastifyRequest } from 'fastify';

// Where clients reach us. The OAuth issuer, the MCP resource URL and the
// metadata URLs are absolute, so they are built from PUBLIC_URL when it is set,
// otherwise from the request (Host, or X-Forwarded-Host/-Proto behind a trusted
// proxy). The MCP endpoint may also be served on its own port (MCP_PORT); both
// listeners are one logical resource, and tokens are accepted on either.

export const MCP_PATH = '/mcp';
export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

export interface Origins {
  /** The origin this request was addressed to, as the client sees it. */
  requestOrigin(req: FastifyRequest): string;
  /** The authorization server (issuer) origin. */
  issuer(req: FastifyRequest): string;
  /** The MCP resource URL for clients of this listener. */
  resource(req: FastifyRequest): string;
  /** Protected-resource metadata URL for this listener's MCP endpoint. */
  resourceMetadataUrl(req: FastifyRequest): string;
  /** True when `resource` names this service's MCP endpoint (on any of its listeners). */
  isOurResource(resource: string, req: FastifyRequest): boolean;
}

export interface OriginOptions {
  publicUrl: string | null;
  /** Port the main listener is bound to (known once it listens). */
  mainPort(): number | null;
  /** Port of the separate MCP listener, if any. */
  mcpPort(): number | null;
  /** True for the separate MCP listener, whose issuer is the main listener. */
  onMcpListener: boolean;
}

function requestOrigin(req: FastifyRequest): string {
  const host = req.host && HOST.test(req.host) ? req.host : 'localhost';
  const protocol = req.protocol === 'https' ? 'https' : 'http';
  return `${protocol}://${host}`;
}

function withPort(origin: string, port: number | null): string | null {
  if (port === null) return null;
  const u = new URL(origin);
  u.port = String(port);
  return u.origin;
}

export function createOrigins(opts: OriginOptions): Origins {
  const issuer = (req: FastifyRequest) => {
    if (opts.publicUrl) return opts.publicUrl;
    const own = requestOrigin(req);
    return opts.onMcpListener ? (withPort(own, opts.mainPort()) ?? own) : own;
  };
  const ownOrigin = (req: FastifyRequest) => (opts.publicUrl && !opts.onMcpListener ? opts.publicUrl : requestOrigin(req));

  return {
    requestOrigin,
    issuer,
    resource: (req) => `${ownOrigin(req)}${MCP_PATH}`,
    resourceMetadataUrl: (req) => `${ownOrigin(req)}${PRM_PATH}${MCP_PATH}`,
    isOurResource(resource, req) {
      let u: URL;
      try {
        u = new URL(resource);
      } catch {
        return false;
      }
      if (u.pathname !== MCP_PATH || u.search || u.hash || u.username || u.password) return false;
      const own = requestOrigin(req);
      const known = new Set<string>([own, issuer(req)]);
      if (opts.publicUrl) known.add(opts.publicUrl);
      for (const base of [own, issuer(req)]) {
        for (const port of [opts.mainPort(), opts.mcpPort()]) {
          const o = withPort(base, port);
          if (o) known.add(o);
        }
      }
      return known.has(u.origin);
    },
  };
}
