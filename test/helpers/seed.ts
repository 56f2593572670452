import type { Store } from '../../src/store/db.ts';
import { createRepositories } from '../../src/services/index.ts';
import { incident, maintenance } from './records.ts';

// A small, realistic data set for page tests: one vendor down, one degraded
// with a page-level indicator and components, maintenance, history.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export async function seedDashboard(store: Store): Promise<void> {
  const r = createRepositories(store);
  await r.incidents.upsert(
    incident('github', 'outage', {
      title: 'Degraded performance for Actions and Pages',
      impact: 'major',
      status: 'investigating',
      startedAt: ago(2 * HOUR),
      updatedAt: ago(30 * 60_000),
      components: ['Actions', 'Pages'],
      updates: [
        { status: 'investigating', body: 'We are investigating reports of degraded performance for Actions.', createdAt: ago(2 * HOUR) },
        { status: 'identified', body: 'The cause was identified; a fix is being deployed.', createdAt: ago(30 * 60_000) },
      ],
      url: 'https://www.githubstatus.com/incidents/abc',
    }),
    'f',
  );
  for (let k = 1; k <= 6; k++) {
    await r.incidents.upsert(
      incident('github', `past${k}`, {
        title: `Elevated error rates on Git operations (${k})`,
        impact: k % 3 === 0 ? 'critical' : k % 2 ? 'minor' : 'major',
        status: 'resolved',
        startedAt: ago(k * 4 * DAY),
      }),
      'f',
    );
  }
  await r.incidents.upsert(
    incident('cloudflare', 'dns', { title: 'DNS resolution delays in Europe', impact: 'minor', status: 'monitoring', startedAt: ago(HOUR) }),
    'f',
  );
  await r.maintenances.upsert(maintenance('github', 'db', { title: 'Scheduled database maintenance', scheduledFor: ago(-2 * DAY), components: ['API'] }), 'f');
  await r.maintenances.upsert(
    maintenance('stripe', 'now', {
      title: 'Dashboard maintenance',
      status: 'in_progress',
      scheduledFor: ago(HOUR),
      startedAt: ago(HOUR),
    }),
    'f',
  );
  await r.status.setStatus('github', { indicator: 'partial_outage', description: 'Partial System Outage', checkedAt: ago(60_000) });
  await r.status.replaceComponents(
    'github',
    [
      { id: 'git', name: 'Git Operations', status: 'operational', group: null, position: 1 },
      { id: 'actions', name: 'Actions', status: 'partial_outage', group: null, position: 2 },
      { id: 'pages', name: 'Pages', status: 'degraded_performance', group: null, position: 3 },
      { id: 'api', name: 'API Requests', status: 'operational', group: null, position: 4 },
    ],
    ago(60_000),
  );
}
