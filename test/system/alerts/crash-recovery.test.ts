import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { waitFor } from '../../helpers/wait.ts';

// kill -9 of a delivering server in the middle of sending, then a restart: every
// delivery still arrives (at-least-once, the same webhook-id on a repeat).

const USERS = 10;
const EVENTS = 20;

function startServer(t: TestApp): ChildProcess {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: t.config.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DELIVER: 'on',
    ROLES: 'api,deliver',
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    DELIVERY_TIMEOUT_MS: '1000',
    DELIVERY_CONCURRENCY: '16',
    REDIS_PREFIX: t.config.redisPrefix,
  };
  if (t.config.databaseUrl) {
    env.DATABASE_URL = t.config.databaseUrl;
    env.DATABASE_SCHEMA = t.config.databaseSchema!;
  }
  return spawn(process.execPath, ['src/server.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
}

describe('crash recovery', () => {
  let t: TestApp;
  let hook: HttpReceiver;
  let child: ChildProcess | null = null;
  let answering = true;
  const acknowledged = new Set<string>();

  before(async () => {
    hook = await startReceiver((req) => {
      // The first deliveries are answered; then the receiver holds requests open, so the
      // process is killed with sends in flight and rows claimed but not completed.
      if (answering && acknowledged.size < 40) {
        acknowledged.add(String(req.headers['webhook-id']));
        return { status: 200 };
      }
      if (!answering) return { status: 200, hang: true };
      acknowledged.add(String(req.headers['webhook-id']));
      return { status: 200 };
    });
    t = await startApp({ env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    await hook?.close();
  });

  test('kill -9 mid-delivery, restart: every delivery arrives', async () => {
    for (let i = 0; i < USERS; i++) await webhookUser(t, ['github'], `${hook.url}/u${i}`);
    for (let i = 0; i < EVENTS; i++) await emit(t, 'incident.created', incident('github'));
    const total = USERS * EVENTS;

    child = startServer(t);
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    // Switch to holding requests once 40 were acknowledged; kill while some hang.
    await waitFor(
      () => {
        if (acknowledged.size >= 40) answering = false;
        return hook.requests.length >= 50;
      },
      { message: '40 acknowledged deliveries', timeoutMs: 30_000 },
    ).catch((err) => {
      throw new Error(`${err.message}\n${stderr}`);
    });
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const counts = await t.repos.deliveries.countByStatus();
    assert.ok((counts.succeeded ?? 0) < total, 'the kill happened before everything was delivered');
    assert.equal((counts.pending ?? 0) + (counts.succeeded ?? 0), total, 'every delivery row exists');

    answering = true;
    child = startServer(t);
    child.stderr!.on('data', (c) => (stderr += c));
    await waitFor(async () => ((await t.repos.deliveries.countByStatus()).succeeded ?? 0) === total, {
      message: 'every delivery succeeded after the restart',
      timeoutMs: 40_000,
    }).catch((err) => {
      throw new Error(`${err.message}\n${stderr}`);
    });
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    child = null;

    // Every delivery id reached the receiver with a 2xx at least once.
    const ids = new Set<string>();
    for (const r of hook.requests) ids.add(String(r.headers['webhook-id']));
    assert.equal(ids.size, total);
    for (const id of ids) assert.ok(acknowledged.has(id), `${id} acknowledged`);
    assert.ok(hook.requests.length >= total);
  });
});
