// OAuth error codes (RFC 6749 §5.2, RFC 7591 §3.2.2) and the error that carries one: thrown by
// the OAuth use cases (services/oauth/) and answered by the authorization server
// (mcp/oauth/errors.ts; docs/mcp.md).

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

  constructor(code: OAuthErrorCode, description: string, status = code === 'invalid_client' ? 401 : code === 'slow_down' ? 429 : 400) {
    super(description);
    this.code = code;
    this.description = description;
    this.status = status;
    this.name = 'OAuthError';
  }
}
