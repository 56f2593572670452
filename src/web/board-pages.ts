import type { FastifyInstance, FastifyReply } from 'fastify';
import { frameAncestorsDirective } from '../domain/boards.ts';
import { BOARD_PATH } from '../services/feeds/board-service.ts';
import type { Assets } from './assets.ts';
import { boardDocument, boardMain } from './pages/board.ts';
import { CONTENT_SECURITY_POLICY } from './security.ts';

// The public page of a board and its live partial (docs/boards.md). Registered inside
// the web plugin (its security headers and error pages apply), then the headers that
// differ for a page meant to be embedded are set per board.

const TOKEN_PARAM = { type: 'object', properties: { token: { type: 'string', maxLength: 64 } }, required: ['token'] } as const;
/**
 * The session is read only to know whether the visitor is a member of the organisation
 * that owns the board, who also sees its affected services (docs/boards.md "Affected
 * services"); everyone else sees the public page. Nothing is set (no cookie, no CSRF token).
 */
const BOARD_ROUTE = { schema: { hide: true, params: TOKEN_PARAM }, config: { auth: 'optional' as const } };

/** The site's policy with the board's own frame-ancestors (every other page keeps 'none'). */
const boardPolicy = (frameAncestors: readonly string[]) => CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", frameAncestorsDirective(frameAncestors));

function boardHeaders(reply: FastifyReply, frameAncestors: readonly string[]) {
  reply
    .header('Content-Security-Policy', boardPolicy(frameAncestors))
    // Superseded by frame-ancestors in browsers that know CSP; it must not contradict it.
    .removeHeader('X-Frame-Options')
    // The URL is the credential: it must not travel on in Referer headers.
    .header('Referrer-Policy', 'no-referrer')
    .header('Cross-Origin-Resource-Policy', 'cross-origin')
    // Revocation takes effect at once: no cache keeps a copy.
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex')
    // A member of the owning organisation sees more than anyone else.
    .header('Vary', 'Cookie');
}

export async function boardPageRoutes(app: FastifyInstance, opts: { assets: Assets }) {
  const { boards } = app.services;
  const { clock } = app;

  app.get<{ Params: { token: string } }>(`${BOARD_PATH}:token`, BOARD_ROUTE, async (request, reply) => {
    const board = await boards.publicView(request.params.token, request.viewer);
    boardHeaders(reply, board.frameAncestors);
    return reply.type('text/html; charset=utf-8').send(boardDocument(board, request.params.token, clock.now(), opts.assets, app.config.demo).value);
  });

  app.get<{ Params: { token: string } }>(`${BOARD_PATH}:token/partial`, BOARD_ROUTE, async (request, reply) => {
    const board = await boards.publicView(request.params.token, request.viewer);
    boardHeaders(reply, board.frameAncestors);
    return reply.type('text/html; charset=utf-8').send(boardMain(board, clock.now()).value);
  });
}
