import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { userWithKey } from '../../helpers/access.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';
import { send } from '../../helpers/users.ts';

// Detections of user-named status pages (docs/per-user.md "Custom status pages"), 30 per
// hour per account, were counted in a window aligned to the clock hour: 30 just before
// the hour and 30 just after it made 60 detections (each sending requests out) within
// a minute. The window slides: any hour holds at most 30.

describe('status page detections per hour', () => {
  const HOUR = 3_600_000;
  const clock = new TestClock(new Date(Math.ceil(Date.now() / HOUR) * HOUR + HOUR - 10_000));
  let t: TestApp;
  let pages: FakeStatusPages;
  before(async () => {
    pages = await startFakeStatusPages();
    t = await startApp({ clock, env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
  });
  after(async () => {
    await t?.close();
    await pages?.close();
  });

  test('30 detections just before the hour leave none just after it; an hour after the first, they open again', async () => {
    const u = await userWithKey(t, 'pro', 'detect');
    const detect = async () => (await send(`${t.url}/api/v1/account/status-pages`, 'POST', { 'x-api-key': u.secret }, { url: `${pages.url}/plain/` })).status;
    const before: number[] = [];
    for (let i = 0; i < 30; i++) before.push(await detect());
    assert.deepEqual(before, Array(30).fill(422), 'each detection ran (nothing found there)');
    clock.advance(20_000); // past the clock hour
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push(await detect());
    assert.deepEqual(after, Array(5).fill(429));
    clock.advance(HOUR - 20_000 + 1000);
    assert.equal(await detect(), 422, 'an hour after the first detection');
  });
});
