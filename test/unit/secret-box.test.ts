import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mock, test } from 'node:test';
import { keyIdOf, loadSecretBox, secretBox } from '../../src/infra/secret-box.ts';

test('sealed values are AES-256-GCM with the key id; tampering and unknown keys refuse', () => {
  const k1 = randomBytes(32);
  const box = secretBox(k1);
  const sealed = box.seal('xoxb-123-secret');
  assert.match(sealed, new RegExp(`^sb1:${keyIdOf(k1)}:[A-Za-z0-9_-]+$`));
  assert.ok(!sealed.includes('secret'));
  assert.notEqual(box.seal('xoxb-123-secret'), sealed, 'a fresh nonce per value');
  assert.equal(box.open(sealed), 'xoxb-123-secret');
  assert.equal(box.open('legacy-clear'), 'legacy-clear', 'values written before encryption read as they are');
  assert.equal(box.stale('legacy-clear'), true);
  assert.equal(box.stale(sealed), false);
  const raw = Buffer.from(sealed.split(':')[2]!, 'base64url');
  raw[raw.length - 1]! ^= 1;
  assert.throws(() => box.open(`sb1:${keyIdOf(k1)}:${raw.toString('base64url')}`));
  assert.throws(() => secretBox(randomBytes(32)).open(sealed), /unknown key/);
});

test('rotation: the new key reads values of the previous one and marks them stale', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const old = secretBox(k1).seal('R0utingKey');
  const box = secretBox(k2, [k1]);
  assert.equal(box.open(old), 'R0utingKey');
  assert.equal(box.stale(old), true);
  assert.equal(box.stale(box.seal('x')), false);
});

test('without SECRETS_KEY a key is generated once into the data directory, with a warning', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-key-'));
  try {
    const warnings: string[] = [];
    const a = loadSecretBox({ key: null, previous: [], dataDir: dir, warn: (m) => warnings.push(m) });
    const b = loadSecretBox({ key: null, previous: [], dataDir: dir });
    assert.equal(a.keyId, b.keyId, 'the same key on the next start');
    assert.equal(b.open(a.seal('s')), 's');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /SECRETS_KEY is not set/);
    assert.equal(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777, 0o600);
    const hex = randomBytes(32).toString('hex');
    assert.equal(loadSecretBox({ key: hex, previous: [], dataDir: dir }).keyId, keyIdOf(Buffer.from(hex, 'hex')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('instances starting together on one data directory share one key; none reads a half-written file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-key-'));
  const write = fs.writeFileSync;
  let other: ReturnType<typeof loadSecretBox> | undefined;
  let loading = false;
  // The other instance loads while this one is between creating its file and writing the key.
  const writing = mock.method(fs, 'writeFileSync', (file: fs.PathOrFileDescriptor, data: string, opts: fs.WriteFileOptions) => {
    write(file, '', opts);
    if (!loading) {
      loading = true;
      other = loadSecretBox({ key: null, previous: [], dataDir: dir });
    }
    write(file, data);
  });
  try {
    const first = loadSecretBox({ key: null, previous: [], dataDir: dir });
    assert.ok(other);
    assert.equal(first.keyId, other.keyId, 'both use the key that was linked first');
    assert.equal(first.open(other.seal('s')), 's');
    assert.deepEqual(fs.readdirSync(dir), ['secrets.key'], 'no partial files are left');
  } finally {
    writing.mock.restore();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
