import { OAuthError } from '../../domain/oauth-errors.ts';

// OAuth parameters arrive as a query string or a form (or JSON) body. Each must
// appear at most once (RFC 6749 §3.1, §3.2) and be a string.

export type Params = Record<string, string | undefined>;

export function readParams(source: unknown, names: readonly string[]): Params {
  const out: Params = {};
  if (source === undefined || source === null) return out;
  if (typeof source !== 'object' || Array.isArray(source)) throw new OAuthError('invalid_request', 'Expected form parameters');
  const obj = source as Record<string, unknown>;
  for (const name of names) {
    const v = obj[name];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) throw new OAuthError('invalid_request', `Parameter '${name}' is repeated`);
    if (typeof v !== 'string') throw new OAuthError('invalid_request', `Parameter '${name}' must be a string`);
    if (v.length > 4096) throw new OAuthError('invalid_request', `Parameter '${name}' is too long`);
    // OAuth values are printable (RFC 6749 Appendix A); a NUL also fails PostgreSQL lookups.
    if (/[\u0000-\u001f\u007f]/.test(v)) throw new OAuthError('invalid_request', `Parameter '${name}' contains control characters`);
    // An empty parameter is treated as omitted (RFC 6749 §3.1).
    if (v !== '') out[name] = v;
  }
  return out;
}
