import { test } from 'node:test';
import { startApp, TestClock } from './test/helpers/app.ts';
import { api } from './test/helpers/fleet.ts';
test('x', async () => {
  const clock = new TestClock(new Date('2026-05-04T09:00:00.000Z'));
  const t = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '5' } });
  for (let i = 0; i < 2; i++) {
  const t0 = Date.now();
  const report = await t.app.ingest.scheduler.runRound({ force: true });
  console.log('round ms', Date.now() - t0, report.events);
  console.log(report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.error}`));
  const d = report.outcomes.map(o => o.durationMs).sort((a,b)=>a-b); console.log('p50', d[d.length>>1], 'max', d.at(-1));
  clock.advance(15000);
  }
  const incidents = await api(t, '/incidents?timePeriod=30d&limit=200');
  console.log(incidents.body.total, (await api(t, '/maintenance?limit=200')).body.total);
  const advisories = await api(t, '/advisories-unified?timePeriod=90d');
  console.log(advisories.body.total, advisories.body.items.map((a: any) => a.cves));
  console.log((await api(t, '/vendors/github/updates?timePeriod=30d')).body.items.length);
  await t.close();
});
