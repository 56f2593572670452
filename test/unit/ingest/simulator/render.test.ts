// Round trips: records → real upstream format (src/ingest/simulator/render/) → adapter → the same records.
// Records use whole-minute times where a format prints minutes only (feed update stamps).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdvisoryRecord, ComponentRecord, IncidentRecord, MaintenanceRecord, SourceType, UpdateRecord } from '../../../../src/domain/records.ts';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import {
  advisoryFeed,
  releaseFeed,
  renderAtom,
  renderGcpIncidents,
  renderIncidentioWidget,
  renderInstatusSummary,
  renderRss,
  renderStatuspageIncidents,
  renderStatuspageMaintenances,
  renderStatuspageSummary,
  statuspageHistoryFeed,
} from '../../../../src/ingest/simulator/render/index.ts';
import { assertSnapshotInvariants, input } from '../adapters/helpers.ts';

/** Parsed records keep the rendered phase word on each update; the rendered records carry none. */
const plain = <T extends { updates: { sourceStatus?: string }[] }>(list: T[] | undefined): T[] | undefined =>
  list?.map((r) => ({ ...r, updates: r.updates.map(({ sourceStatus: _word, ...u }) => u) }));

const V = 'acme';
const PAGE = { id: 'pg7acme', name: 'Acme Cloud', url: 'https://status.acme.test', updatedAt: '2026-04-10T12:00:00.000Z' };
const parse = (type: SourceType, body: string, url = 'https://status.acme.test/api/v2/summary.json') => {
  const s = parseSource(type, input(V, url, body, new Date('2026-04-10T12:00:00Z')));
  assertSnapshotInvariants(s, V, type);
  return s;
};

const components: ComponentRecord[] = [
  { id: 'cmp-api', name: 'API', status: 'partial_outage', group: null, position: 0 },
  { id: 'cmp-fra', name: 'Frankfurt', status: 'under_maintenance', group: 'Regions', position: 1 },
  { id: 'cmp-iad', name: 'Virginia', status: 'operational', group: 'Regions', position: 2 },
  { id: 'cmp-web', name: 'Dashboard', status: 'degraded_performance', group: null, position: 3 },
];

function incident(source: string, overrides: Partial<IncidentRecord> = {}): IncidentRecord {
  return {
    id: `${V}:inc7k2`,
    vendor: V,
    title: 'Elevated API error rates',
    status: 'investigating',
    sourceStatus: 'identified',
    impact: 'major',
    startedAt: '2026-04-10T09:12:00.000Z',
    updatedAt: '2026-04-10T09:40:00.000Z',
    resolvedAt: null,
    components: ['API'],
    updates: [
      { status: 'investigating', body: 'The cause is a bad config push; rolling back.', createdAt: '2026-04-10T09:40:00.000Z' },
      { status: 'investigating', body: 'We are seeing errors on write requests.', createdAt: '2026-04-10T09:12:00.000Z' },
    ],
    url: 'https://stspg.io/acme7k2',
    source,
    ...overrides,
  };
}

function resolvedIncident(source: string, overrides: Partial<IncidentRecord> = {}): IncidentRecord {
  return incident(source, {
    id: `${V}:inc5p1`,
    title: 'Delayed webhook deliveries',
    status: 'resolved',
    sourceStatus: 'resolved',
    impact: 'minor',
    startedAt: '2026-04-08T14:00:00.000Z',
    updatedAt: '2026-04-08T15:30:00.000Z',
    resolvedAt: '2026-04-08T15:30:00.000Z',
    components: ['Dashboard'],
    updates: [
      { status: 'resolved', body: 'Deliveries are back to normal & the backlog is drained.', createdAt: '2026-04-08T15:30:00.000Z' },
      { status: 'monitoring', body: 'A fix is deployed; <queues> are draining.', createdAt: '2026-04-08T15:00:00.000Z' },
      { status: 'investigating', body: 'Webhooks are delayed by up to 20 minutes.', createdAt: '2026-04-08T14:00:00.000Z' },
    ],
    url: 'https://stspg.io/acme5p1',
    ...overrides,
  });
}

function inProgressMaintenance(source: string, overrides: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  return {
    id: `${V}:mnt3q9`,
    vendor: V,
    title: 'Frankfurt storage upgrade',
    status: 'in_progress',
    sourceStatus: 'in_progress',
    impact: 'none',
    scheduledFor: '2026-04-10T10:00:00.000Z',
    scheduledUntil: '2026-04-10T13:00:00.000Z',
    startedAt: '2026-04-10T10:02:00.000Z',
    completedAt: null,
    components: ['Frankfurt'],
    updates: [
      { status: 'in_progress', body: 'Maintenance is under way.', createdAt: '2026-04-10T10:02:00.000Z' },
      { status: 'scheduled', body: 'We will upgrade the Frankfurt storage tier.', createdAt: '2026-04-03T08:00:00.000Z' },
    ],
    url: 'https://stspg.io/acme3q9',
    source,
    ...overrides,
  };
}

function completedMaintenance(source: string, overrides: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  return inProgressMaintenance(source, {
    id: `${V}:mnt1z4`,
    title: 'Virginia network work',
    status: 'completed',
    sourceStatus: 'completed',
    scheduledFor: '2026-04-01T02:00:00.000Z',
    scheduledUntil: '2026-04-02T04:00:00.000Z',
    startedAt: '2026-04-01T02:00:00.000Z',
    completedAt: '2026-04-02T03:10:00.000Z',
    components: ['Virginia'],
    updates: [
      { status: 'completed', body: 'The work is complete.', createdAt: '2026-04-02T03:10:00.000Z' },
      { status: 'in_progress', body: 'Work has started.', createdAt: '2026-04-01T02:00:00.000Z' },
      { status: 'scheduled', body: 'Network work in Virginia.', createdAt: '2026-03-25T12:00:00.000Z' },
    ],
    url: 'https://stspg.io/acme1z4',
    ...overrides,
  });
}

function scheduledMaintenance(source: string, overrides: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  return inProgressMaintenance(source, {
    id: `${V}:mnt8w8`,
    title: 'API gateway certificate rotation',
    status: 'scheduled',
    sourceStatus: 'scheduled',
    scheduledFor: '2026-04-20T01:00:00.000Z',
    scheduledUntil: '2026-04-20T01:30:00.000Z',
    startedAt: null,
    components: ['API'],
    updates: [{ status: 'scheduled', body: 'Short connection resets are possible.', createdAt: '2026-04-09T16:00:00.000Z' }],
    url: 'https://stspg.io/acme8w8',
    ...overrides,
  });
}

describe('render → parse round trips', () => {
  test('Statuspage summary.json', () => {
    const incidents = [incident('statuspage-v2')];
    const maintenances = [inProgressMaintenance('statuspage-v2'), scheduledMaintenance('statuspage-v2')];
    const body = renderStatuspageSummary({
      page: PAGE,
      status: { indicator: 'partial_outage', description: 'Partial System Outage' },
      components,
      incidents,
      maintenances,
    });
    const s = parse('statuspage-v2', body);
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.deepEqual(s.components, components);
    assert.deepEqual(plain(s.incidents), incidents);
    assert.deepEqual(plain(s.maintenances), maintenances);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });

  test('Statuspage incidents.json and scheduled-maintenances.json', () => {
    const incidents = [
      incident('statuspage-v2'),
      resolvedIncident('statuspage-v2'),
      resolvedIncident('statuspage-v2', { id: `${V}:inc0pm`, sourceStatus: 'postmortem' }),
    ];
    const s = parse('statuspage-v2', renderStatuspageIncidents({ page: PAGE, incidents, components }), 'https://status.acme.test/api/v2/incidents.json');
    assert.deepEqual(plain(s.incidents), incidents);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, false);

    const maintenances = [inProgressMaintenance('statuspage-v2'), completedMaintenance('statuspage-v2'), scheduledMaintenance('statuspage-v2')];
    const m = parse('statuspage-v2', renderStatuspageMaintenances({ page: PAGE, maintenances }), 'https://status.acme.test/api/v2/scheduled-maintenances.json');
    assert.deepEqual(plain(m.maintenances), maintenances);
  });

  test('Instatus summary.json', () => {
    // The summary carries no updates or components; critical folds into MAJOROUTAGE.
    const bare = { components: [], updates: [] };
    const incidents = [incident('instatus', { ...bare, sourceStatus: 'IDENTIFIED', url: 'https://status.acme.test/inc7k2' })];
    const maintenances = [
      inProgressMaintenance('instatus', { ...bare, sourceStatus: 'INPROGRESS', startedAt: '2026-04-10T10:00:00.000Z', url: 'https://status.acme.test/mnt3q9' }),
      scheduledMaintenance('instatus', { ...bare, sourceStatus: 'NOTSTARTEDYET', url: 'https://status.acme.test/mnt8w8' }),
    ];
    const s = parse(
      'instatus',
      renderInstatusSummary({ page: { name: 'Acme', url: 'https://status.acme.test' }, indicator: 'partial_outage', incidents, maintenances }),
    );
    assert.equal(s.status!.indicator, 'partial_outage');
    assert.deepEqual(plain(s.incidents), incidents);
    assert.deepEqual(plain(s.maintenances), maintenances);
  });

  test('incident.io /proxy widget', () => {
    const incidents = [incident('incidentio')];
    const maintenances = [
      inProgressMaintenance('incidentio', { sourceStatus: 'maintenance_in_progress' }),
      scheduledMaintenance('incidentio', { sourceStatus: 'maintenance_scheduled' }),
    ];
    const body = renderIncidentioWidget({
      page: { name: 'Acme', url: 'https://status.acme.test' },
      components,
      incidents: [...incidents, resolvedIncident('incidentio')],
      maintenances,
    });
    const s = parse('incidentio', body, 'https://status.acme.test/proxy/status.acme.test');
    assert.deepEqual(s.components, components);
    assert.deepEqual(plain(s.incidents), incidents, 'resolved incidents are not on the widget');
    assert.deepEqual(plain(s.maintenances), maintenances);
    assert.equal(s.status!.indicator, 'partial_outage');
  });

  test('Google Cloud incidents.json', () => {
    const incidents = [
      incident('gcp-json', { sourceStatus: 'SERVICE_DISRUPTION', url: 'https://status.cloud.google.com/incidents/inc7k2' }),
      resolvedIncident('gcp-json', {
        sourceStatus: 'AVAILABLE',
        url: 'https://status.cloud.google.com/incidents/inc5p1',
        updates: resolvedIncident('gcp-json').updates.map((u) => (u.status === 'monitoring' ? { ...u, status: 'investigating' } : u)),
      }),
      resolvedIncident('gcp-json', {
        id: `${V}:inc9cr`,
        impact: 'critical',
        sourceStatus: 'AVAILABLE',
        components: ['Compute', 'Storage'],
        updates: [],
        url: 'https://status.cloud.google.com/incidents/inc9cr',
      }),
    ];
    const s = parse('gcp-json', renderGcpIncidents(incidents), 'https://status.cloud.google.com/incidents.json');
    assert.deepEqual(plain(s.incidents), incidents);
  });

  for (const [type, render] of [
    ['statuspage-rss', renderRss],
    ['statuspage-atom', renderAtom],
  ] as const) {
    test(`Statuspage history feed as ${type}`, () => {
      // Feeds publish neither impact nor components; incidents read back as minor.
      const feedless = { components: [], impact: 'minor' as const };
      const incidents = [
        incident(type, { ...feedless, sourceStatus: 'investigating', url: 'https://status.acme.test/incidents/inc7k2' }),
        resolvedIncident(type, { ...feedless, url: 'https://status.acme.test/incidents/inc5p1' }),
      ];
      const maintenances = [
        completedMaintenance(type, { components: [], url: 'https://status.acme.test/incidents/mnt1z4' }),
        scheduledMaintenance(type, { components: [], url: 'https://status.acme.test/incidents/mnt8w8' }),
      ];
      const body = render(statuspageHistoryFeed({ name: 'Acme', url: 'https://status.acme.test' }, incidents, maintenances));
      const s = parse(type, body, `https://status.acme.test/history.${type === 'statuspage-rss' ? 'rss' : 'atom'}`);
      const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
      assert.deepEqual(byId(plain(s.incidents)!), byId(incidents));
      assert.deepEqual(byId(plain(s.maintenances)!), byId(maintenances));
    });
  }

  const advisories: AdvisoryRecord[] = [
    {
      id: `${V}:ASA-2026-0007`,
      vendor: V,
      title: 'Privilege escalation in the agent installer',
      severity: 'high',
      cves: ['CVE-2026-20001', 'CVE-2026-20002'],
      publishedAt: '2026-04-02T10:00:00.000Z',
      updatedAt: '2026-04-05T08:30:00.000Z',
      summary: 'A local user could gain SYSTEM rights through the installer. Update the agent to 3.9.2.',
      url: 'https://security.acme.test/ASA-2026-0007',
      source: 'advisory-feed',
    },
    {
      id: `${V}:ASA-2026-0006`,
      vendor: V,
      title: 'Verbose error pages',
      severity: 'low',
      cves: [],
      publishedAt: '2026-03-20T09:00:00.000Z',
      updatedAt: '2026-03-20T09:00:00.000Z',
      summary: 'Error pages showed internal host names.',
      url: null,
      source: 'advisory-feed',
    },
  ];

  const releases: UpdateRecord[] = [
    {
      id: `${V}:rel-2026-04-09`,
      vendor: V,
      title: 'Regional failover for queues',
      publishedAt: '2026-04-09T17:00:00.000Z',
      summary: 'Queues can now fail over to a paired region.',
      categories: ['Queues', 'Feature'],
      url: 'https://acme.test/changelog/queues-failover',
      source: 'release-feed',
    },
    {
      id: `${V}:rel-2026-04-01`,
      vendor: V,
      title: 'CLI 5.0',
      publishedAt: '2026-04-01T12:00:00.000Z',
      summary: 'Removes the deprecated `login --token` flag.',
      categories: [],
      url: null,
      source: 'release-feed',
    },
  ];

  for (const render of [renderRss, renderAtom]) {
    test(`advisory feed as ${render === renderRss ? 'RSS' : 'Atom'}`, () => {
      const s = parse('advisory-feed', render(advisoryFeed({ title: 'Acme advisories', link: 'https://security.acme.test' }, advisories)));
      assert.deepEqual(s.advisories, advisories);
    });

    test(`release feed as ${render === renderRss ? 'RSS' : 'Atom'}`, () => {
      const s = parse('release-feed', render(releaseFeed({ title: 'Acme changelog', link: 'https://acme.test/changelog' }, releases)));
      assert.deepEqual(s.updates, releases);
    });
  }
});
