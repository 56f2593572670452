import type { IncomingHttpHeaders } from 'node:http';
import { parseCookie } from 'cookie';

/**
 * One cookie of a request, read by the parser `@fastify/cookie` uses (the plugin is
 * registered without its parsing hook). A header that does not mention the name is not
 * parsed: the session is looked up on every request, before Fastify too
 * (`src/http/access/hot-path.ts`). Takes plain headers so that path can use it.
 */
export function cookieValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const header = headers.cookie;
  if (!header?.includes(name)) return undefined;
  return parseCookie(header)[name];
}
