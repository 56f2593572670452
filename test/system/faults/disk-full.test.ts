// @store-independent: always the embedded SQLite store on a full disk; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { login, userWithKey } from '../../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { send } from '../../helpers/users.ts';
import { assertUnavailable } from './support.ts';

// The embedded SQLite store on a disk that fills up: DATA_DIR is a tiny tmpfs mounted
// by the test (root, or CAP_SYS_ADMIN, is needed: without it the test fails and says
// so). With the disk full, writes (signup, key creation, watchlist) answer 503 with the
// error body, reads keep working, the process stays up; once space is freed writes work
// again, and every write that was answered 2xx is still there. Both CI legs run this
// against SQLite: the fault is the embedded store's own.

const SIZE = '8m';

function mountTmpfs(dir: string) {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`disk-full test: could not mount a ${SIZE} tmpfs on ${dir} (it needs root or CAP_SYS_ADMIN): ${e.stderr?.toString().trim() || e.message}`);
  }
}

function unmount(dir: string) {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Busy (a file still open): detach now, freed when the last handle closes.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

/** Writes zeros until the file system refuses; returns the bytes written. */
function fill(file: string): number {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (let size = chunk.length; size >= 512; ) {
      try {
        written += fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size /= 2; // the last few KB too
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

describe('disk full under the SQLite store', () => {
  let mountpoint: string;
  let mounted = false;
  let t: TestApp;
  let key: Record<string, string>;
  let session: Record<string, string>;
  let slugs: string[];
  const filler = () => path.join(mountpoint, 'filler');
  const accepted = { watchlist: [] as string[], emails: [] as string[] };
  let n = 0;
  const signup = (email = `disk.${process.pid}.${n++}@example.com`) =>
    send(`${t.url}/api/v1/auth/signup`, 'POST', {}, { email, password: 'correct horse battery' }).then((r) => ({ ...r, email }));

  before(async () => {
    mountpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-diskfull-'));
    mountTmpfs(mountpoint);
    mounted = true;
    // Should the process end before `after` runs, the mount still goes (lazily: files may be open).
    process.once('exit', () => {
      if (mounted) execFileSync('umount', ['-l', mountpoint], { stdio: 'ignore' });
    });
    // SQLite whatever the leg (an empty DATABASE_URL means the embedded store).
    t = await startApp({ env: { DATA_DIR: path.join(mountpoint, 'data'), DATABASE_URL: '', API_KEY_MIN_PLAN: 'free' } });
    assert.equal(t.store.dialect, 'sqlite');
    const u = await userWithKey(t, 'pro');
    key = { 'x-api-key': u.secret };
    // The service's own origin: a session's state-changing call must come from it.
    session = { cookie: await login(t, u.email, u.password), origin: t.url };
    slugs = (await getJson(`${t.api}/vendor-list`)).body.vendors.map((v: { id: string }) => v.id);
  });
  after(async () => {
    try {
      await t?.close();
    } finally {
      if (mounted) unmount(mountpoint);
      mounted = false;
      if (mountpoint) fs.rmSync(mountpoint, { recursive: true, force: true });
    }
  });

  test('with space: writes work', async () => {
    const w = await send(`${t.api}/watchlist/${slugs[0]}`, 'POST', key);
    assert.equal(w.status, 200);
    accepted.watchlist.push(slugs[0]!);
    const s = await signup();
    assert.equal(s.status, 201);
    accepted.emails.push(s.email);
  });

  test('disk full: writes answer 503 with the error body, reads keep working', async (ctx) => {
    const bytes = fill(filler());
    // The first writes may still fit in space SQLite already holds; soon one does not.
    let i = 1;
    let first: Awaited<ReturnType<typeof send>> | null = null;
    for (; i < slugs.length && !first; i++) {
      const r = await send(`${t.api}/watchlist/${slugs[i]}`, 'POST', key);
      if (r.status === 200) accepted.watchlist.push(slugs[i]!);
      else first = r;
    }
    assert.ok(first, 'a write failed once the disk was full');
    assertUnavailable(first, 'watchlist add');
    const fitted = accepted.watchlist.length - 1;

    const s = await signup();
    assertUnavailable(s, 'signup');
    const k = await send(`${t.url}/api/v1/account/keys`, 'POST', session, { name: 'disk full' });
    assertUnavailable(k, 'key creation');
    const w = await send(`${t.api}/watchlist/${slugs[i]}`, 'POST', key);
    assertUnavailable(w, 'watchlist add again');

    // Reads need no space.
    for (const [what, r] of [
      ['vendor list', await getJson(`${t.api}/vendor-list`)],
      ['incidents', await getJson(`${t.api}/incidents?skipCache=true`)],
      ['watchlist', await getJson(`${t.api}/watchlist`, { headers: key })],
      ['account', await getJson(`${t.url}/api/v1/account`, { headers: session })],
    ] as const) {
      assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
    }
    const wl = await getJson(`${t.api}/watchlist`, { headers: key });
    assert.deepEqual(wl.body.vendors, accepted.watchlist);
    // Alive; and ready, since every read still works.
    assert.equal((await getJson(`${t.url}/healthz`)).status, 200);
    assert.equal((await getJson(`${t.url}/readyz`)).status, 200);
    ctx.diagnostic(`disk full: filler ${bytes} bytes on a ${SIZE} tmpfs; ${fitted} writes still fitted before the first 503`);
  });

  test('space freed: writes work again and nothing accepted was lost', async () => {
    fs.rmSync(filler());
    const w = await send(`${t.api}/watchlist/${slugs[slugs.length - 1]}`, 'POST', key);
    assert.equal(w.status, 200, JSON.stringify(w.body));
    accepted.watchlist.push(slugs[slugs.length - 1]!);
    const s = await signup();
    assert.equal(s.status, 201, JSON.stringify(s.body));
    accepted.emails.push(s.email);
    const k = await send(`${t.url}/api/v1/account/keys`, 'POST', session, { name: 'after' });
    assert.equal(k.status, 201, JSON.stringify(k.body));

    assert.deepEqual((await getJson(`${t.api}/watchlist`, { headers: key })).body.vendors, accepted.watchlist);
    // Each account made while there was space can log in.
    for (const email of accepted.emails) await login(t, email, 'correct horse battery');
  });
});
