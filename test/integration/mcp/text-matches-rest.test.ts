import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../../../src/store/repositories/maintenances-repository.ts';
import { statusRepository } from '../../../src/store/repositories/status-repository.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { connect, type Connected, createKey, createUser, textOf } from '../../helpers/mcp.ts';
import { incident, maintenance } from '../../helpers/records.ts';

// Every MCP tool that summarises records in its text says what the REST API says about the
// same records: title, status, impact, times and the latest update (by time: upstreams list
// updates newest first or oldest first). The expected text is built here from the REST JSON,
// not from the code that writes the MCP text.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
/** Times as the answers print them: minutes, UTC. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

interface Update {
  status: string;
  body: string;
  createdAt: string;
}
const newestOf = (updates: Update[]) => [...updates].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];

/** The lines of the text that belong to the record whose first line names `title`. */
function block(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('- ') && l.includes(` ${title} [`));
  assert.notEqual(start, -1, `no line for '${title}' in:\n${text}`);
  const out = [lines[start]!];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('  ')) break;
    out.push(l);
  }
  return out;
}

function latestUpdateLine(lines: string[], updates: Update[], what: string) {
  const newest = newestOf(updates);
  const said = lines.filter((l) => l.startsWith('  Latest update'));
  if (!newest) return assert.deepEqual(said, [], `${what}: no updates, no latest update`);
  assert.deepEqual(said, [`  Latest update (${utc(newest.createdAt)}): ${newest.body}`], what);
}

function matchesIncident(text: string, rest: any) {
  const lines = block(text, rest.title);
  const head = lines[0]!;
  assert.ok(head.includes(`${rest.title} [impact ${rest.impact}] `), `${rest.id} impact: ${head}`);
  if (rest.resolvedAt) {
    assert.equal(rest.status, 'resolved');
    assert.ok(head.includes(`started ${utc(rest.startedAt)}, resolved ${utc(rest.resolvedAt)}`), `${rest.id} times: ${head}`);
  } else {
    assert.ok(head.includes(`${rest.status} since ${utc(rest.startedAt)}`), `${rest.id} status and start: ${head}`);
  }
  if (rest.components.length) assert.ok(lines.includes(`  Affects: ${rest.components.join(', ')}`), `${rest.id} components`);
  latestUpdateLine(lines, rest.updates, rest.id);
  if (rest.url) assert.ok(lines.includes(`  ${rest.url}`), `${rest.id} link`);
}

function matchesMaintenance(text: string, rest: any) {
  const lines = block(text, rest.title);
  const head = lines[0]!;
  const until = rest.scheduledUntil ? ` to ${utc(rest.scheduledUntil)}` : '';
  assert.ok(head.includes(`${rest.title} [${rest.status}] [impact ${rest.impact}] ${utc(rest.scheduledFor)}${until}`), `${rest.id}: ${head}`);
  if (rest.startedAt) assert.ok(head.includes(`started ${utc(rest.startedAt)}`), `${rest.id} started: ${head}`);
  else assert.ok(!head.includes('started'), `${rest.id} never started: ${head}`);
  if (rest.completedAt) assert.ok(head.includes(`completed ${utc(rest.completedAt)}`), `${rest.id} completed: ${head}`);
  else assert.ok(!head.includes('completed'), `${rest.id} not completed: ${head}`);
  if (rest.components.length) assert.ok(lines.includes(`  Affects: ${rest.components.join(', ')}`), `${rest.id} components`);
  latestUpdateLine(lines, rest.updates, rest.id);
}

/** Record lines ("- ...") in a text: as many as the records it summarises. */
const recordLines = (text: string) => text.split('\n').filter((l) => l.startsWith('- ')).length;

describe('MCP text answers match the REST records they summarise', () => {
  let t: TestApp;
  let c: Connected;
  let key: string;
  const rest = async (path: string) => {
    const r = await getJson(`${t.api}${path}`, { headers: { 'x-api-key': key } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.items as any[];
  };

  before(async () => {
    t = await startApp();
    const inc = incidentsRepository(t.store.db);
    // Newest first, as Statuspage lists them.
    await inc.upsert(
      incident('github', 'actions', {
        title: 'Degraded Actions',
        startedAt: at(-3 * HOUR),
        status: 'monitoring',
        sourceStatus: 'monitoring',
        impact: 'major',
        components: ['Actions', 'Webhooks'],
        url: 'https://www.githubstatus.com/incidents/actions',
        updates: [
          { status: 'monitoring', body: 'A fix has been deployed; we are monitoring.', createdAt: at(-20 * MIN) },
          { status: 'identified', body: 'The cause has been identified.', createdAt: at(-90 * MIN) },
          { status: 'investigating', body: 'We are investigating delays.', createdAt: at(-3 * HOUR) },
        ],
      }),
      'f',
    );
    // Oldest first, as some feeds list them.
    await inc.upsert(
      incident('github', 'pages', {
        title: 'Pages builds failing',
        startedAt: at(-2 * DAY),
        status: 'resolved',
        impact: 'minor',
        resolvedAt: at(-2 * DAY + 95 * MIN),
        updates: [
          { status: 'investigating', body: 'Pages builds are failing.', createdAt: at(-2 * DAY) },
          { status: 'resolved', body: 'Builds succeed again.', createdAt: at(-2 * DAY + 95 * MIN) },
        ],
      }),
      'f',
    );
    await inc.upsert(incident('cloudflare', 'dns', { title: 'DNS resolution errors', startedAt: at(-40 * MIN), impact: 'critical', updates: [] }), 'f');

    const mnt = maintenancesRepository(t.store.db);
    await mnt.upsert(
      maintenance('github', 'db', {
        title: 'Database upgrade',
        status: 'in_progress',
        sourceStatus: 'in_progress',
        impact: 'minor',
        scheduledFor: at(-HOUR),
        scheduledUntil: at(HOUR),
        startedAt: at(-55 * MIN),
        components: ['API'],
        updates: [
          { status: 'in_progress', body: 'Maintenance is under way.', createdAt: at(-55 * MIN) },
          { status: 'scheduled', body: 'Maintenance is scheduled.', createdAt: at(-3 * DAY) },
        ],
      }),
      'f',
    );
    await mnt.upsert(maintenance('github', 'net', { title: 'Network maintenance', scheduledFor: at(2 * DAY) }), 'f');
    await mnt.upsert(
      maintenance('github', 'done', {
        title: 'Storage migration',
        status: 'completed',
        sourceStatus: 'completed',
        scheduledFor: at(-4 * DAY),
        scheduledUntil: at(-4 * DAY + 2 * HOUR),
        startedAt: at(-4 * DAY + 5 * MIN),
        completedAt: at(-4 * DAY + 90 * MIN),
        updates: [
          { status: 'scheduled', body: 'Scheduled.', createdAt: at(-6 * DAY) },
          { status: 'completed', body: 'Completed.', createdAt: at(-4 * DAY + 90 * MIN) },
        ],
      }),
      'f',
    );
    await statusRepository(t.store.db).setStatus('github', { indicator: 'degraded', description: 'Degraded performance', checkedAt: at(-MIN) });

    const user = await createUser(t, 'pro');
    key = await createKey(t, user);
    c = await connect(`${t.url}/mcp`, { token: key });
  });
  after(async () => {
    await c?.close();
    await t?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await c.client.callTool({ name, arguments: args });
    assert.notEqual(r.isError, true, textOf(r));
    return { text: textOf(r), data: r.structuredContent as any };
  };

  test('get_active_incidents', async () => {
    const { text, data } = await call('get_active_incidents', {});
    const records = await rest('/incidents?activeOnly=true');
    assert.deepEqual(data.incidents.map((i: any) => i.id).sort(), records.map((i) => i.id).sort());
    assert.equal(recordLines(text), records.length);
    for (const r of records) matchesIncident(text, r);
  });

  for (const args of [{ vendor: 'github' }, {}, { vendor: 'github', status: 'resolved' }]) {
    test(`get_incident_history ${JSON.stringify(args)}`, async () => {
      const { text, data } = await call('get_incident_history', args);
      const q = new URLSearchParams(args as Record<string, string>).toString();
      const records = await rest(`/incidents${q ? `?${q}` : ''}`);
      assert.deepEqual(
        data.incidents.map((i: any) => i.id),
        records.map((i) => i.id),
      );
      assert.equal(recordLines(text), records.length);
      for (const r of records) matchesIncident(text, r);
    });
  }

  for (const upcoming of [true, false]) {
    test(`get_maintenance upcoming=${upcoming}`, async () => {
      const { text, data } = await call('get_maintenance', { vendor: 'github', upcoming });
      const records = await rest(`/maintenance?vendor=github${upcoming ? '&scheduledOnly=true' : ''}`);
      assert.deepEqual(
        data.maintenance.map((m: any) => m.id),
        records.map((m) => m.id),
      );
      assert.equal(recordLines(text), records.length);
      for (const r of records) matchesMaintenance(text, r);
    });
  }

  for (const vendor of ['github', 'cloudflare']) {
    test(`get_vendor_status ${vendor}`, async () => {
      const { text } = await call('get_vendor_status', { vendor });
      const [status] = await rest(`/vendor-status/${vendor}`);
      assert.ok(
        text.startsWith(`${status.vendorName}: ${status.description} (${status.indicator}), checked ${status.checkedAt ? utc(status.checkedAt) : 'unknown'}.`),
        text,
      );
      assert.equal(recordLines(text), status.activeIncidents.length + status.activeMaintenance.length);
      for (const r of status.activeIncidents) matchesIncident(text, r);
      for (const r of status.activeMaintenance) matchesMaintenance(text, r);
      // The same records as the lists serve.
      const open = await rest(`/incidents?vendor=${vendor}&activeOnly=true`);
      assert.deepEqual(status.activeIncidents.map((i: any) => i.id).sort(), open.map((i) => i.id).sort());
    });
  }
});
