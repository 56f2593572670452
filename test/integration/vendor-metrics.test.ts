import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { createRepositories } from '../../src/services/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { incident, maintenance } from '../helpers/records.ts';
import { seedDashboard } from '../helpers/seed.ts';

// Vendor status on /metrics (docs/integrations.md, "Prometheus"): after seeding
// statuses, a scrape parsed as the exposition format shows each vendor's indicator
// level and active incidents; per-component series only with METRICS_COMPONENT_SERIES,
// and they follow changes on the next scrape.

type Family = ReturnType<typeof parsePrometheus>[number];

async function scrape(t: TestApp): Promise<Map<string, Family>> {
  const res = await fetch(`${t.url}/metrics`);
  assert.equal(res.status, 200);
  const families = parsePrometheus(await res.text());
  return new Map(families.map((f) => [f.name, f]));
}

function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string>): number | undefined {
  const m = families.get(name)?.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
  return m ? Number(m.value) : undefined;
}

describe('vendor status metrics', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    await seedDashboard(t.store);
    // Hetzner has no machine-readable source: what is stored for it must not show.
    await createRepositories(t.store).status.setStatus('hetzner', {
      indicator: 'operational',
      description: 'All Systems Operational',
      checkedAt: new Date().toISOString(),
    });
    await createRepositories(t.store).maintenances.upsert(
      maintenance('hetzner', 'now', {
        status: 'in_progress',
        scheduledFor: new Date(Date.now() - 3_600_000).toISOString(),
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
      'f',
    );
    // An incident stored before the vendor lost its source: nothing can resolve it now.
    await createRepositories(t.store).incidents.upsert(incident('hetzner', 'left-over', { startedAt: new Date(Date.now() - 86_400_000).toISOString() }), 'f');
    await createRepositories(t.store).maintenances.upsert(
      maintenance('datadog', 'now', {
        status: 'in_progress',
        scheduledFor: new Date(Date.now() - 3_600_000).toISOString(),
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
      'f',
    );
  });
  after(async () => t.close());

  test('indicator levels and active incidents per vendor; no component series by default', async () => {
    const f = await scrape(t);
    assert.equal(f.get('vis_vendor_status')?.type, 'GAUGE');
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'github' }), 3, 'partial_outage');
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'cloudflare' }), 2, 'degraded, from its minor incident');
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'datadog' }), 1, 'maintenance in progress');
    // Hetzner has no machine-readable source: unknown whatever is stored for it (docs/web.md "Not monitored").
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'hetzner' }), -1, 'not monitored');
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'slack' }), -1, 'never polled: unknown');
    assert.equal(valueOf(f, 'vis_vendor_active_incidents', { vendor: 'github' }), 1);
    assert.equal(valueOf(f, 'vis_vendor_active_incidents', { vendor: 'cloudflare' }), 1);
    assert.equal(valueOf(f, 'vis_vendor_active_incidents', { vendor: 'hetzner' }), undefined, 'not monitored: no count');
    assert.equal(valueOf(f, 'vis_vendor_active_incidents', { vendor: 'slack' }), 0, 'monitored, nothing open');
    assert.equal(f.has('vis_component_status'), false);
  });
});

describe('vendor status metrics with METRICS_COMPONENT_SERIES', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { METRICS_COMPONENT_SERIES: 'true' } });
    await seedDashboard(t.store);
  });
  after(async () => t.close());

  test('one series per component, updated on the next scrape', async () => {
    let f = await scrape(t);
    assert.equal(valueOf(f, 'vis_component_status', { vendor: 'github', component: 'Actions' }), 3);
    assert.equal(valueOf(f, 'vis_component_status', { vendor: 'github', component: 'Pages' }), 2);
    assert.equal(valueOf(f, 'vis_component_status', { vendor: 'github', component: 'Git Operations' }), 0);
    const r = createRepositories(t.store);
    await r.status.setStatus('github', { indicator: 'major_outage', description: 'Major outage', checkedAt: new Date().toISOString() });
    await r.status.replaceComponents(
      'github',
      [{ id: 'actions', name: 'Actions', status: 'major_outage', group: null, position: 1 }],
      new Date().toISOString(),
    );
    await r.incidents.upsert(incident('github', 'second', { status: 'investigating', impact: 'critical' }), 'f');
    f = await scrape(t);
    assert.equal(valueOf(f, 'vis_vendor_status', { vendor: 'github' }), 4);
    assert.equal(valueOf(f, 'vis_vendor_active_incidents', { vendor: 'github' }), 2);
    assert.equal(valueOf(f, 'vis_component_status', { vendor: 'github', component: 'Actions' }), 4);
    assert.equal(valueOf(f, 'vis_component_status', { vendor: 'github', component: 'Pages' }), undefined, 'a removed component leaves');
  });
});
