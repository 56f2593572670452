import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticator } from '../../src/services/access/authenticator.ts';
import { sha256hex } from '../../src/services/access/secrets.ts';
import { type Clock, systemClock } from '../../src/domain/clock.ts';
import { apiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts';
import { sessionsRepository } from '../../src/store/repositories/sessions-repository.ts';
import { startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { ownerViewer } from '../helpers/access.ts';

// The credential cache for API keys (src/services/access/authenticator.ts, docs/access.md
// "Credential cache"), on the store of the leg: a key is verified against the database
// once, then remembered; a revocation made elsewhere (another instance, the CLI: here,
// straight in the database) is seen within AUTH_CACHE_SECONDS; one made through this
// process at once.

describe('credential cache (API keys)', () => {
  let t: TestApp;
  let lookups = 0;
  let userId: string;

  before(async () => {
    t = await startApp();
    const user = await t.app.services.accounts.createUser({ email: 'cache@example.com', password: 'a long password 42', plan: 'pro' });
    userId = user.id;
  });
  after(() => t.close());

  function make(cacheSeconds: number, clock: Clock = systemClock) {
    const repo = apiKeysRepository(t.store.db);
    const counted = {
      ...repo,
      findActiveByHash: (hash: string) => {
        lookups++;
        return repo.findActiveByHash(hash);
      },
    };
    return authenticator({ apiKeys: counted, sessions: sessionsRepository(t.store.db), clock, cacheSeconds });
  }

  it('verifies a key against the database once, then answers from memory', async () => {
    const auth = make(60);
    const { secret } = await t.app.services.keys.create(ownerViewer(userId, 'pro'), 'once');
    lookups = 0;
    for (let i = 0; i < 5; i++) assert.equal((await auth.verifyKey(secret))?.userId, userId);
    assert.equal(lookups, 1);
    // Remembered, and its lastUsedAt written this minute: the answer comes without a promise.
    const remembered = auth.verifyKey(secret);
    assert.ok(!(remembered instanceof Promise));
    assert.equal(remembered?.userId, userId);
    // A different key, even one character off, is its own lookup and is refused.
    const other = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    assert.equal(await auth.verifyKey(other), null);
    assert.equal(lookups, 2);
  });

  it('a revocation through this process applies at once', async () => {
    const auth = make(60);
    const { key, secret } = await t.app.services.keys.create(ownerViewer(userId, 'pro'), 'forget');
    assert.ok(await auth.verifyKey(secret));
    await apiKeysRepository(t.store.db).revoke(userId, key.id, new Date());
    auth.forgetKey(sha256hex(secret));
    assert.equal(await auth.verifyKey(secret), null);
  });

  it('a revocation made elsewhere is seen within AUTH_CACHE_SECONDS, checked ahead in the background', async () => {
    const clock = new TestClock(new Date());
    const auth = make(1, clock);
    const { key, secret } = await t.app.services.keys.create(ownerViewer(userId, 'pro'), 'elsewhere');
    lookups = 0;
    assert.ok(await auth.verifyKey(secret));
    await apiKeysRepository(t.store.db).revoke(userId, key.id, new Date());
    // Within the TTL the remembered answer stands (documented) ...
    assert.ok(await auth.verifyKey(secret));
    assert.equal(lookups, 1);
    // ... past half of it, a use starts a re-check without waiting for it ...
    clock.advance(600);
    assert.ok(await auth.verifyKey(secret));
    assert.equal(lookups, 2);
    // ... and once the TTL has passed the key is refused whatever the timing of that re-check.
    clock.advance(500);
    assert.equal(await auth.verifyKey(secret), null);
  });

  it('a clock that steps back makes remembered answers stale, not fresher', async () => {
    const clock = new TestClock(new Date());
    const auth = make(60, clock);
    const { key, secret } = await t.app.services.keys.create(ownerViewer(userId, 'pro'), 'clock-back');
    assert.ok(await auth.verifyKey(secret));
    await apiKeysRepository(t.store.db).revoke(userId, key.id, new Date());
    clock.advance(-3_600_000);
    assert.equal(await auth.verifyKey(secret), null);
  });

  it('with AUTH_CACHE_SECONDS=0 every use asks the database', async () => {
    const auth = make(0);
    const { secret } = await t.app.services.keys.create(ownerViewer(userId, 'pro'), 'nocache');
    lookups = 0;
    for (let i = 0; i < 3; i++) assert.ok(await auth.verifyKey(secret));
    assert.equal(lookups, 3);
  });
});
