import crypto, { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// API keys: `vis_` + 40 base62 characters (~238 bits). Stored only as a SHA-256
// digest plus a display prefix; a fast hash is right here because the secret is
// random and long, unlike a password.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const API_KEY_BODY_LENGTH = 40;
export const API_KEY_PATTERN = /^vis_[0-9A-Za-z]{32,128}$/;
/** Characters of the secret kept for display: `vis_` + 8. */
const API_KEY_PREFIX_LENGTH = 12;

/** Uniform base62 by rejection sampling (bytes >= 248 are dropped: 248 = 4 * 62). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const generateApiKey = () => `vis_${randomBase62(API_KEY_BODY_LENGTH)}`;
export const apiKeyPrefix = (secret: string) => secret.slice(0, API_KEY_PREFIX_LENGTH);

/** Session cookie value: 32 random bytes. */
export const generateSessionToken = () => randomBytes(32).toString('base64url');
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

// One-shot hashing (node >= 20.12) avoids a Hash object per call: this runs on every keyed request.
const oneShot = (crypto as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;
export const sha256hex = oneShot ? (s: string) => oneShot('sha256', s, 'hex') : (s: string) => createHash('sha256').update(s).digest('hex');

const oneShotB64 = (crypto as { hash?: (alg: string, data: string, enc: 'base64') => string }).hash;
/**
 * A digest of a secret under a per-process pepper: a name to remember a verified
 * credential by in memory that is neither the secret nor its database digest.
 */
export const keyedDigest = oneShotB64
  ? (pepper: string, s: string) => oneShotB64('sha256', pepper + s, 'base64')
  : (pepper: string, s: string) => createHash('sha256').update(pepper).update(s).digest('base64');

/** Constant-time equality of two strings (false on different lengths). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
