// Statuspage v2 endpoints on recorded payloads; expected figures come from
// the recorded payloads' own notes and the payloads themselves.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countBy, parseFixture } from './helpers.ts';

const SP = 'statuspage-v2';

describe('statuspage-v2 summary.json', () => {
  test('Cloudflare 2026-07-29: groups flattened onto their components, maintenances, identified incident', (t) => {
    const s = parseFixture(t, `${SP}/cloudflare/2026-07-29/summary.json`);
    if (!s) return;
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    // 470 rows = 8 group containers + 462 components; the containers become `group`.
    const components = s.components!;
    assert.equal(components.length, 462);
    assert.deepEqual(
      countBy(components, (c) => c.status),
      { operational: 415, partial_outage: 26, major_outage: 1, under_maintenance: 20 },
    );
    assert.equal(new Set(components.map((c) => c.group)).size, 8);
    assert.ok(components.every((c) => c.group !== null));
    assert.deepEqual(components[0], { id: '0hs0rl6hzmvx', name: 'Abuse Reports', status: 'operational', group: 'Cloudflare Sites and Services', position: 0 });
    const workers = components.find((c) => c.id === '57srcl8zcn7c');
    assert.deepEqual(workers, { id: '57srcl8zcn7c', name: 'Workers', status: 'major_outage', group: 'Cloudflare Sites and Services', position: 111 });

    assert.equal(s.incidents!.length, 1);
    const incident = s.incidents![0]!;
    assert.equal(incident.id, 'cloudflare:z325n2dc14tk');
    assert.equal(incident.status, 'investigating');
    assert.equal(incident.sourceStatus, 'identified');
    assert.equal(incident.impact, 'major');
    assert.equal(incident.startedAt, '2026-07-29T20:03:32.073Z');
    assert.equal(incident.updatedAt, '2026-07-29T20:03:43.989Z');
    assert.equal(incident.resolvedAt, null);
    assert.deepEqual(incident.components, ['Workers']);
    assert.equal(incident.url, 'https://stspg.io/5jbwy32nh51w');
    assert.equal(incident.updates.length, 1);
    assert.equal(incident.updates[0]!.status, 'investigating');
    // The vendor's own phase word stays beside the normalised status.
    assert.equal(incident.updates[0]!.sourceStatus, 'identified');
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);

    const maintenances = s.maintenances!;
    assert.equal(maintenances.length, 16);
    assert.deepEqual(
      countBy(maintenances, (m) => m.status),
      { scheduled: 12, in_progress: 4 },
    );
    assert.ok(maintenances.every((m) => m.impact === 'none' && m.sourceStatus === m.status));
    assert.equal(
      maintenances.reduce((n, m) => n + m.updates.length, 0),
      26,
    );
    const khi = maintenances.find((m) => m.id === 'cloudflare:7qhk4v76j4tx')!;
    assert.equal(khi.scheduledFor, '2026-07-29T20:00:00.000Z');
    assert.equal(khi.scheduledUntil, '2026-07-29T22:00:00.000Z');
    assert.equal(khi.startedAt, '2026-07-29T20:00:08.266Z', 'first in_progress update, not the announcement time');
    assert.equal(khi.completedAt, null);
    assert.deepEqual(
      khi.updates.map((u) => u.status),
      ['in_progress', 'scheduled', 'scheduled'],
    );
    assert.deepEqual(khi.components, ['Karachi, Pakistan - (KHI)']);
    const cdg = maintenances.find((m) => m.id === 'cloudflare:gg374l1rfnrm')!;
    assert.equal(cdg.status, 'scheduled');
    assert.equal(cdg.startedAt, null);
  });

  test('Anthropic 2026-07-29: critical incident over four components', (t) => {
    const s = parseFixture(t, `${SP}/anthropic/2026-07-29/summary.json`);
    if (!s) return;
    assert.equal(s.status!.indicator, 'partial_outage');
    assert.equal(s.components!.length, 6);
    assert.deepEqual(
      countBy(s.components!, (c) => c.status),
      { major_outage: 4, operational: 2 },
    );
    const [incident] = s.incidents!;
    assert.equal(s.incidents!.length, 1);
    assert.equal(incident!.id, 'anthropic:q2kg8n613kr3');
    assert.equal(incident!.title, 'Elevated errors across all models');
    assert.equal(incident!.status, 'investigating');
    assert.equal(incident!.impact, 'critical');
    assert.equal(incident!.startedAt, '2026-07-29T19:49:45.378Z');
    assert.equal(incident!.components.length, 4);
    assert.equal(incident!.url, 'https://stspg.io/p7pqqb00414c');
    assert.deepEqual(s.maintenances, []);
  });

  test('Atlassian Bitbucket 2026-07-31: operational page with a monitoring, impact-none incident', (t) => {
    const s = parseFixture(t, `${SP}/atlassian-bitbucket/2026-07-31/summary.json`);
    if (!s) return;
    assert.deepEqual(s.status, { indicator: 'operational', description: 'All Systems Operational' });
    assert.equal(s.components!.length, 13);
    assert.ok(s.components!.every((c) => c.status === 'operational'));
    const [incident] = s.incidents!;
    assert.equal(incident!.id, 'bitbucket:0y9sqyfyl262');
    assert.equal(incident!.status, 'monitoring');
    assert.equal(incident!.impact, 'none');
    assert.equal(incident!.components.length, 13);
    assert.equal(incident!.updates.length, 1);
  });

  test('GitHub summaries 2020-05-22, 2020-12-17, 2022-11-25, 2026-07-24', (t) => {
    const a = parseFixture(t, `${SP}/github/2020-05-22/summary.json`);
    if (!a) return;
    assert.equal(a.status!.indicator, 'degraded');
    assert.deepEqual(
      countBy(a.components!, (c) => c.status),
      { operational: 5, partial_outage: 4 },
    );
    assert.equal(a.incidents!.length, 1);
    assert.equal(a.incidents![0]!.id, 'github:6tcfpztf6j9m');
    assert.equal(a.incidents![0]!.impact, 'minor');
    assert.equal(a.incidents![0]!.updates.length, 6);
    assert.equal(a.incidents![0]!.url, 'http://stspg.io/g1l6nqnlv29b');

    const b = parseFixture(t, `${SP}/github/2020-12-17/summary.json`)!;
    assert.deepEqual(b.status, { indicator: 'maintenance', description: 'Service Under Maintenance' });
    assert.deepEqual(
      countBy(b.components!, (c) => c.status),
      { operational: 8, under_maintenance: 1 },
    );
    assert.deepEqual(b.incidents, []);
    const [m] = b.maintenances!;
    assert.equal(b.maintenances!.length, 1);
    assert.equal(m!.id, 'github:3jr0nb7zjpbm');
    assert.equal(m!.status, 'in_progress');
    assert.equal(m!.impact, 'none', 'Statuspage impact "maintenance" is not an outage level');
    assert.equal(m!.sourceStatus, 'in_progress');
    assert.equal(m!.scheduledFor, '2020-12-15T10:00:00.000Z');
    assert.equal(m!.scheduledUntil, '2020-12-19T04:00:00.000Z');
    assert.equal(m!.startedAt, '2020-12-15T10:00:40.056Z');
    assert.deepEqual(m!.components, ['GitHub Actions']);
    assert.equal(m!.updates.length, 3);

    const c = parseFixture(t, `${SP}/github/2022-11-25/summary.json`)!;
    assert.equal(c.status!.indicator, 'degraded');
    assert.deepEqual(
      countBy(c.components!, (x) => x.status),
      { operational: 10, partial_outage: 1 },
    );
    assert.equal(c.incidents![0]!.id, 'github:ljwdk6qml8z8');
    assert.equal(c.incidents![0]!.impact, 'major');
    assert.equal(c.incidents![0]!.updates.length, 7);
    assert.equal(c.incidents![0]!.components.length, 2);

    const d = parseFixture(t, `${SP}/github/2026-07-24/summary.json`)!;
    assert.equal(d.status!.indicator, 'partial_outage');
    assert.deepEqual(
      countBy(d.components!, (x) => x.status),
      { operational: 11, major_outage: 1 },
    );
    assert.equal(d.incidents![0]!.id, 'github:jxd617hfwfq8');
    assert.equal(d.incidents![0]!.impact, 'critical');
    assert.equal(d.incidents![0]!.updates.length, 3);
  });

  test('Discord trimmed summary: a component whose group row was cut stays ungrouped', (t) => {
    const s = parseFixture(t, `${SP}/discord/2022-02-19/summary.json`);
    if (!s) return;
    assert.equal(s.status!.indicator, 'operational');
    assert.deepEqual(s.components, [{ id: 'qk867vbbh84x', name: 'South Korea', status: 'operational', group: null, position: 0 }]);
    assert.deepEqual(s.incidents, []);
    assert.deepEqual(s.maintenances, []);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });
});

describe('statuspage-v2 status.json and components.json', () => {
  test('status.json carries only the page indicator', (t) => {
    const cases = [
      ['discord/2022-02-19/status.json', 'operational', 'All Systems Operational'],
      ['github/2020-05-22/status.json', 'degraded', 'Minor Service Outage'],
      ['github/2020-12-17/status.json', 'maintenance', 'Service Under Maintenance'],
    ] as const;
    for (const [file, indicator, description] of cases) {
      const s = parseFixture(t, `${SP}/${file}`);
      if (!s) return;
      assert.deepEqual(s, { status: { indicator, description } }, file);
    }
  });

  test('components.json', (t) => {
    const discord = parseFixture(t, `${SP}/discord/2022-02-19/components.json`);
    if (!discord) return;
    assert.deepEqual(discord, { components: [{ id: 'rhznvxg4v7yh', name: 'API', status: 'operational', group: null, position: 0 }] });
    const github = parseFixture(t, `${SP}/github/2024-09-17/components.json`)!;
    assert.equal(github.components!.length, 2);
    assert.ok(github.components!.every((c) => c.status === 'operational'));
    assert.equal(github.incidents, undefined, 'components.json says nothing about incidents');
  });
});

describe('statuspage-v2 incidents', () => {
  test('Discord incidents.json: updates newest first, display_at times, plain bodies', (t) => {
    const s = parseFixture(t, `${SP}/discord/2022-02-19/incidents.json`);
    if (!s) return;
    assert.equal(s.incidentsAreCompleteUnresolvedSet, false, 'incidents.json is history');
    const [i] = s.incidents!;
    assert.equal(s.incidents!.length, 1);
    assert.equal(i!.id, 'discord:n4njzfn1mqy0');
    assert.equal(i!.title, 'Messaging issues');
    assert.equal(i!.status, 'resolved');
    assert.equal(i!.sourceStatus, 'resolved');
    assert.equal(i!.impact, 'minor');
    assert.equal(i!.startedAt, '2022-02-15T21:14:17.737Z');
    assert.equal(i!.updatedAt, '2022-02-15T21:37:37.404Z');
    assert.equal(i!.resolvedAt, '2022-02-15T21:37:37.388Z');
    assert.deepEqual(i!.components, ['API']);
    assert.equal(i!.url, 'https://stspg.io/y1w39cblgvhz');
    assert.deepEqual(
      i!.updates.map((u) => u.status),
      ['resolved', 'monitoring', 'investigating', 'investigating'],
    );
    assert.deepEqual(i!.updates[0], {
      status: 'resolved',
      sourceStatus: 'resolved',
      body: 'This incident has been resolved.',
      createdAt: '2022-02-15T21:37:37.388Z',
    });
  });

  test('Discord incidents/unresolved.json: empty but complete', (t) => {
    const s = parseFixture(t, `${SP}/discord/2022-02-19/incidents/unresolved.json`);
    if (!s) return;
    assert.deepEqual(s, { incidents: [], incidentsAreCompleteUnresolvedSet: true });
  });

  test('Emma incidents.json: 22 resolved incidents without started_at', (t) => {
    const s = parseFixture(t, `${SP}/emma/2019-02-21/incidents.json`);
    if (!s) return;
    const incidents = s.incidents!;
    assert.equal(incidents.length, 22);
    assert.deepEqual(
      countBy(incidents, (i) => i.status),
      { resolved: 22 },
    );
    assert.deepEqual(
      countBy(incidents, (i) => i.impact),
      { minor: 14, none: 5, major: 3 },
    );
    assert.equal(
      incidents.reduce((n, i) => n + i.updates.length, 0),
      105,
    );
    const first = incidents[0]!;
    assert.equal(first.id, 'emma:x0ljvc9m1wxj');
    assert.equal(first.startedAt, '2019-02-20T18:00:19.418Z', 'created_at stands in for the missing started_at');
    assert.equal(first.resolvedAt, '2019-02-20T19:40:58.572Z');
    assert.deepEqual(first.components, []);
  });

  test('Cloudflare 2019 and GitHub 2024 incidents.json', (t) => {
    const cf = parseFixture(t, `${SP}/cloudflare/2019-01-10/incidents.json`);
    if (!cf) return;
    assert.equal(cf.incidents!.length, 2);
    assert.deepEqual(
      countBy(cf.incidents!, (i) => `${i.status}/${i.impact}`),
      { 'resolved/minor': 2 },
    );
    assert.equal(
      cf.incidents!.reduce((n, i) => n + i.updates.length, 0),
      6,
    );
    assert.equal(cf.incidents![0]!.id, 'cloudflare:q746ybtyb6q0');
    assert.equal(cf.incidents![0]!.startedAt, '2018-09-17T19:29:21.132Z');
    assert.equal(cf.incidents![0]!.resolvedAt, '2018-09-18T07:45:41.290Z');

    const gh = parseFixture(t, `${SP}/github/2024-09-17/incidents.json`)!;
    assert.deepEqual(
      gh.incidents!.map((i) => [i.id, i.status, i.impact]),
      [
        ['github:69sb0f8lydp4', 'resolved', 'major'],
        ['github:r3x7x31k7nn1', 'resolved', 'minor'],
      ],
    );
    assert.equal(gh.incidents![0]!.resolvedAt, '2024-09-16T22:08:39.333Z');
    assert.equal(
      gh.incidents!.reduce((n, i) => n + i.updates.length, 0),
      12,
    );
  });

  test('single incident endpoint /incidents/<code>.json', (t) => {
    const cases = [
      ['b40k7ckrs7sp', 'none', 8, 1, '2022-04-25T08:59:00.677Z'],
      ['f0mhbz9xn497', 'major', 30, 8, '2023-05-09T11:32:57.678Z'],
      ['gqx5l06jjxhp', 'critical', 8, 10, '2023-06-29T17:52:11.466Z'],
    ] as const;
    for (const [code, impact, updates, components, startedAt] of cases) {
      const s = parseFixture(t, `${SP}/github/incidents/${code}.json`);
      if (!s) return;
      assert.equal(s.incidents!.length, 1);
      assert.equal(s.incidentsAreCompleteUnresolvedSet, false);
      const i = s.incidents![0]!;
      assert.equal(i.id, `github:${code}`);
      assert.equal(i.status, 'resolved');
      assert.equal(i.impact, impact);
      assert.equal(i.updates.length, updates);
      assert.equal(i.components.length, components);
      assert.equal(i.startedAt, startedAt);
      assert.deepEqual(
        countBy(i.updates, (u) => u.status),
        { investigating: updates - 1, resolved: 1 },
      );
    }
  });
});

describe('statuspage-v2 scheduled maintenances', () => {
  test('Discord scheduled-maintenances.json: completed window with every phase', (t) => {
    const s = parseFixture(t, `${SP}/discord/2022-02-19/scheduled-maintenances.json`);
    if (!s) return;
    assert.equal(s.incidents, undefined);
    const [m] = s.maintenances!;
    assert.equal(s.maintenances!.length, 1);
    assert.equal(m!.id, 'discord:chkt3cr0jf7b');
    assert.equal(m!.status, 'completed');
    assert.equal(m!.impact, 'major');
    assert.equal(m!.scheduledFor, '2015-09-22T08:00:00.000Z');
    assert.equal(m!.scheduledUntil, '2015-09-22T08:30:00.000Z');
    assert.equal(m!.startedAt, '2015-09-22T07:55:02.284Z');
    assert.equal(m!.completedAt, '2015-09-22T09:25:20.034Z');
    assert.deepEqual(
      m!.updates.map((u) => u.status),
      ['completed', 'verifying', 'in_progress', 'scheduled'],
    );
    // The upstream body has a CRLF between its two sentences; it comes out on one line.
    assert.match(m!.updates[0]!.body, /^Everything seems \S.* \S.*$/);
    assert.doesNotMatch(m!.updates[0]!.body, /[\r\n]/);
    assert.equal(m!.url, 'http://stspg.io/1UdW');
  });

  test('upcoming.json and active.json: empty lists', (t) => {
    for (const file of ['upcoming', 'active']) {
      const s = parseFixture(t, `${SP}/discord/2022-02-19/scheduled-maintenances/${file}.json`);
      if (!s) return;
      assert.deepEqual(s, { maintenances: [] });
    }
  });
});
