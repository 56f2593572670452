import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

// Passwords are hashed with scrypt (node:crypto, i.e. OpenSSL). The stored string
// names its parameters, `scrypt$<logN>$<r>$<p>$<salt>$<hash>`, so the cost can
// be raised later without invalidating existing hashes. Defaults follow the OWASP
// equivalents for scrypt (N=2^15, r=8, p=3); PASSWORD_HASH_COST sets log2 N.

const R = 8;
const P = 3;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const opts: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, logN, R, P);
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 1 || logN > 22) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, Buffer.from(parts[4], 'base64url'), logN, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
