import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { ownerViewer, uniqueEmail } from '../../helpers/access.ts';
import type { UserViewer } from '../../../src/services/context.ts';

const exec = promisify(execFile);

// The operator commands of docs/teams.md ("Operator", "Audit log"), run as processes
// against the storage of two running instances that write the same audit chain at once.

describe('operator CLI: organisations and the audit chain', () => {
  let a: TestApp;
  let b: TestApp;
  // Entries made ten days ago, so that retention has something to remove.
  const clock = new TestClock(new Date(Date.now() - 10 * 86_400_000));
  let ownerEmail: string;
  let orgId: string;

  before(async () => {
    a = await startApp({ clock, env: { AUTH_CACHE_SECONDS: '0' } });
    // Several instances share a store on PostgreSQL; the embedded SQLite store serves one
    // process (docs/deployment.md), where the same appends run concurrently in one instance.
    b = process.env.DATABASE_URL ? await startApp({ clock, shareStoreWith: a, env: { AUTH_CACHE_SECONDS: '0' } }) : a;
    ownerEmail = uniqueEmail('org-owner');
    const user = await a.app.services.accounts.createUser({ email: ownerEmail, password: 'correct horse battery', plan: 'pro' });
    const org = await a.app.services.orgs.create(ownerViewer(user.id, 'pro'), 'Payments');
    orgId = org.id;
  });
  after(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  const env = (extra: Record<string, string> = {}) => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: a.config.dataDir,
    ...(a.config.databaseUrl ? { DATABASE_URL: a.config.databaseUrl, DATABASE_SCHEMA: a.config.databaseSchema! } : {}),
    ...extra,
  });
  const cli = (args: string[], extra?: Record<string, string>) => exec(process.execPath, ['src/cli/index.ts', ...args], { env: env(extra) });
  const fails = (args: string[]) =>
    cli(args).then(
      () => assert.fail(`${args.join(' ')} succeeded`),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  test('two instances appending at once leave one unbroken chain', async () => {
    const user = (await a.app.services.accounts.findByEmail(ownerEmail))!;
    const v: UserViewer = { ...ownerViewer(user.id, 'pro'), orgId, role: 'owner' };
    const vendors = ['github', 'stripe', 'cloudflare', 'gitlab', 'slack'];
    await Promise.all(
      vendors.flatMap((slug, i) => [(i % 2 ? a : b).app.services.watchlist.add(v, slug), (i % 2 ? b : a).app.services.orgs.rename(v, orgId, `Payments ${i}`)]),
    );
    const entries = (await a.app.services.audit.list({ orgId, limit: 100 })).entries;
    assert.equal(entries.length, 1 + vendors.length * 2);
    assert.deepEqual(
      entries.map((e) => e.seq),
      Array.from({ length: entries.length }, (_, i) => entries.length - i),
    );
    const out = await cli(['audit', 'verify']);
    assert.match(out.stdout, /every chain intact/);
  });

  test('orgs list, create and set-plan; the plan change is audited as the operator', async () => {
    const listed = await cli(['orgs', 'list', '--json']);
    const orgs = JSON.parse(listed.stdout) as { id: string; name: string; plan: string; members: number; personal: boolean }[];
    const team = orgs.find((o) => o.id === orgId)!;
    assert.equal(team.personal, false);
    assert.equal(team.members, 1);
    assert.ok(orgs.some((o) => o.personal && o.members === 1));

    const created = await cli(['orgs', 'create', '--name', 'Platform', '--owner-email', ownerEmail, '--plan', 'enterprise']);
    const id = created.stdout.trim();
    assert.match(id, /^[0-9a-f-]{36}$/);
    await cli(['orgs', 'set-plan', '--id', id, '--plan', 'standard']);
    const org = await a.repos.organisations.get(id);
    assert.equal(org?.plan, 'standard');
    const log = (await a.app.services.audit.list({ orgId: id, limit: 10 })).entries;
    assert.deepEqual(
      log.map((e) => [e.action, e.actor.kind]),
      [
        ['org.plan_changed', 'operator'],
        ['org.created', 'operator'],
      ],
    );

    const bad = await fails(['orgs', 'set-plan', '--id', id, '--plan', 'platinum']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--plan must be one of/);
    const unknown = await fails(['orgs', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000', '--plan', 'pro']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No such organisation/);
    assert.equal((await fails(['orgs'])).code, 2);
  });

  test('retention removes old entries and the chain still verifies from its floor', async () => {
    const before = (await a.app.services.audit.list({ orgId, limit: 100 })).entries.length;
    const kept = await cli(['audit', 'prune']);
    assert.match(kept.stdout, /kept forever/);
    const pruned = await cli(['audit', 'prune'], { AUDIT_RETENTION_DAYS: '5' });
    assert.match(pruned.stdout, new RegExp(`^${before} entries`, 'm'));
    clock.advance(10 * 86_400_000);
    await a.app.services.orgs.rename(
      { ...ownerViewer((await a.app.services.accounts.findByEmail(ownerEmail))!.id, 'pro'), orgId, role: 'owner' },
      orgId,
      'Payments',
    );
    assert.match((await cli(['audit', 'verify'])).stdout, /every chain intact/);
  });

  test('an edited or deleted entry makes verify fail, naming the organisation and the entry', async () => {
    const db = a.store.db;
    const newest = await db.selectFrom('audit_log').selectAll().where('org_id', '=', orgId).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('audit_log').set({ target: 'org:someone-else' }).where('org_id', '=', orgId).where('seq', '=', newest.seq).execute();
    const edited = await fails(['audit', 'verify']);
    assert.equal(edited.code, 1);
    assert.match(edited.stdout, new RegExp(`organisation ${orgId}: hash_mismatch at entry ${newest.seq}`));

    await db.updateTable('audit_log').set({ target: newest.target }).where('org_id', '=', orgId).where('seq', '=', newest.seq).execute();
    assert.match((await cli(['audit', 'verify'])).stdout, /every chain intact/);
    await db.deleteFrom('audit_log').where('org_id', '=', orgId).where('seq', '=', newest.seq).execute();
    const deleted = await fails(['audit', 'verify']);
    assert.match(deleted.stdout, /head_mismatch/);
  });
});
