import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Opaque secrets with a recognisable prefix (so an OAuth token is told apart
// from an API key at a glance, and secret scanners can spot them), stored as
// SHA-256 hex digests only.

export const ACCESS_TOKEN_PREFIX = 'mcp_at_';
export const REFRESH_TOKEN_PREFIX = 'mcp_rt_';
export const CODE_PREFIX = 'mcp_ac_';
export const CLIENT_SECRET_PREFIX = 'mcp_cs_';
export const CLIENT_ID_PREFIX = 'mcp_client_';

/** 256 random bits, base64url. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
export const newId = (prefix: string) => `${prefix}${randomBytes(16).toString('base64url')}`;

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 7636: code_challenge = BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** 43-128 characters of the unreserved set (RFC 7636 §4.1); a challenge is the same alphabet. */
export const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
