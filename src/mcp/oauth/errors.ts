import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthError } from '../../domain/oauth-errors.ts';

// OAuth error responses (RFC 6749 §5.2, RFC 7591 §3.2.2) for an OAuthError
// (domain/oauth-errors.ts). The body keeps the OAuth fields clients parse (`error`,
// `error_description`) and adds the project's error-body fields (`success`, `message`, `requestId`).

export function sendOAuthError(req: FastifyRequest, reply: FastifyReply, err: OAuthError) {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  if (err.code === 'invalid_client' && /^Basic /i.test(req.headers.authorization ?? '')) {
    reply.header('WWW-Authenticate', 'Basic realm="oauth"');
  }
  return reply.code(err.status).send({
    error: err.code,
    error_description: err.description,
    success: false,
    message: err.description,
    requestId: req.id,
  });
}
