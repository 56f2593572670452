import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretBox } from '../domain/secret-box.ts';

// Encryption at rest of channel secrets (docs/security.md, "Channel secrets"):
// AES-256-GCM with a random 96-bit nonce per value. A stored value reads
// `sb1:<key id>:<base64url(nonce | tag | ciphertext)>`; the key id (first 8 hex
// characters of SHA-256 of the key) says which key wrote it, so after a rotation
// values written with the previous key are still read and rewritten with the
// current one.

const PREFIX = 'sb1:';
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);
const isSealed = (v: string) => v.startsWith(PREFIX);

export function secretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  if (current.length !== 32) throw new Error('the secrets key must be 32 bytes');
  const keys = new Map<string, Buffer>([current, ...previous].map((k) => [keyIdOf(k), k]));
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(plain) {
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', current, nonce);
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return `${PREFIX}${keyId}:${Buffer.concat([nonce, c.getAuthTag(), ct]).toString('base64url')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [, kid, data] = stored.split(':');
      const key = keys.get(kid ?? '');
      if (!key || !data) throw new Error(`secret sealed with an unknown key (${kid}): set SECRETS_KEY_PREVIOUS to the key it was written with`);
      const raw = Buffer.from(data, 'base64url');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
    stale(stored) {
      return !stored.startsWith(`${PREFIX}${keyId}:`);
    },
  };
}

/** For repositories opened without the key (tools over public data): any secret refuses. */
export const keylessBox: SecretBox = {
  keyId: 'none',
  seal() {
    throw new Error('no secrets key: this store handle cannot write channel secrets');
  },
  open(stored) {
    if (isSealed(stored)) throw new Error('no secrets key: this store handle cannot read channel secrets');
    return stored;
  },
  stale: () => false,
};

const KEY_FILE = 'secrets.key';

/**
 * The box from SECRETS_KEY / SECRETS_KEY_PREVIOUS (64 hex characters each;
 * PREVIOUS may list several, comma-separated). Without SECRETS_KEY a key is
 * generated once into the data directory (mode 0600) and reused; `warn` is told,
 * since that key sits next to the data it protects.
 */
export function loadSecretBox(o: { key: string | null; previous: string[]; dataDir: string; warn?: (msg: string) => void }): SecretBox {
  const previous = o.previous.map((h) => Buffer.from(h, 'hex'));
  if (o.key) return secretBox(Buffer.from(o.key, 'hex'), previous);
  const file = path.join(o.dataDir, KEY_FILE);
  let hex: string;
  try {
    hex = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(o.dataDir, { recursive: true });
    hex = randomBytes(32).toString('hex');
    // Written whole under a name of its own, then linked into place: instances starting
    // together on one data directory never read a key file that is still empty.
    const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(written, `${hex}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(written, file);
    } catch (e) {
      // Another process of the same data directory linked its key first: use theirs.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      hex = fs.readFileSync(file, 'utf8').trim();
    } finally {
      fs.rmSync(written, { force: true });
    }
  }
  if (!KEY_HEX.test(hex)) throw new Error(`${file} does not hold a 64-hex-character key`);
  o.warn?.(`SECRETS_KEY is not set: channel secrets are encrypted with the key in ${file}; set SECRETS_KEY in production`);
  return secretBox(Buffer.from(hex, 'hex'), previous);
}
