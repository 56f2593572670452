import { startApp, TestClock } from './test/helpers/app.ts';
const clock = new TestClock(new Date('2026-05-04T09:00:00.000Z'));
const t = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '5' } });
for (let i = 0; i < 4; i++) {
  const t0 = Date.now();
  const report = await t.app.ingest.scheduler.runRound({ force: true });
  console.log('round ms', Date.now() - t0, report.events, report.outcomes.filter(o=>o.status==='not_modified').length);
  clock.advance(15000);
}
await t.close();
