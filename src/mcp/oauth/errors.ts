import type { FastifyReply, FastifyRequest } from 'fastify';

// OAuth error responses (RFC 6749 §5.2, RFC 7591 §3.2.2). The body keeps the
// OAuth fields clients parse (`error`, `error_description`) and adds the
// project's error-body fields (`success`, `message`, `requestId`).

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'slow_down'
  | 'temporarily_unavailable'
  | 'server_error';

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly status: number;

  constructor(
    code: OAuthErrorCode,
    description: string,
    status = code === 'invalid_client' ? 401 : code === 'slow_down' ? 429 : 400,
  ) {
    super(description);
    this.code = code;
    this.description = description;
    this.status = status;
    this.name = 'OAuthError';
  }
}

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
