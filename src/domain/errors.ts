// Domain errors carry a code and know nothing of HTTP; each edge (REST, MCP, CLI)
// maps the code once.

export type ErrorCode =
  | 'invalid_parameter'
  | 'not_found'
  | 'unauthorized'
  | 'direct_api_not_allowed'
  | 'session_required'
  | 'origin_not_allowed'
  | 'csrf_token_invalid'
  | 'plan_required'
  /** The caller's role in the organisation is below what the action needs (domain/org-roles.ts). */
  | 'role_required'
  /** Password sign-in refused: the member's organisation requires single sign-on (docs/teams.md). */
  | 'sso_required'
  | 'limit_exceeded'
  | 'rate_limit_exceeded'
  | 'conflict'
  /** Well-formed, but nothing usable could be made of it (a page whose platform is not detected). */
  | 'unprocessable'
  | 'unavailable'
  | 'internal_error';

export class DomainError extends Error {
  readonly code: ErrorCode;
  /** Extra fields that belong in the error body (e.g. `currentPlan`, `hint`, `limit`). */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export const invalidParameter = (name: string, why: string) => new DomainError('invalid_parameter', `Invalid parameter '${name}': ${why}`, { parameter: name });

/** A member below `needed` tried something that needs it (403 with `role` and `requiredRole`). */
export const roleRequired = (role: string | null, needed: string) =>
  new DomainError('role_required', `This needs the ${needed} role or higher in the organisation`, { role, requiredRole: needed });

export const notFound = (message: string) => new DomainError('not_found', message);
