import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A vendor status page on loopback for the "add a page by URL" tests: each page lives
// under /pages/<name>/ and answers the Statuspage v2 API the way Atlassian documents it
// (summary, incidents, scheduled maintenances) with payloads written here. /plain/ is
// an HTML page of no known platform; /redirect/ sends every request to a private address.

export interface FakeIncident {
  id: string;
  name: string;
  status: 'investigating' | 'identified' | 'monitoring' | 'resolved';
  impact: 'none' | 'minor' | 'major' | 'critical';
  createdAt: string;
}

export interface FakeStatusPages {
  url: string;
  /** Incidents served per page name (created on first use). */
  incidents(page: string): FakeIncident[];
  /** Requested paths, in order. */
  hits: string[];
  close(): Promise<void>;
}

const PAGE_ID = 'ab12cd34ef56';

function incidentJson(i: FakeIncident, base: string) {
  return {
    id: i.id,
    name: i.name,
    status: i.status,
    impact: i.impact,
    created_at: i.createdAt,
    updated_at: i.createdAt,
    started_at: i.createdAt,
    resolved_at: i.status === 'resolved' ? i.createdAt : null,
    shortlink: `${base}/incidents/${i.id}`,
    incident_updates: [
      { id: `${i.id}-u1`, status: i.status, body: `We are looking into ${i.name.toLowerCase()}.`, created_at: i.createdAt, display_at: i.createdAt },
    ],
    components: [],
  };
}

export async function startFakeStatusPages(): Promise<FakeStatusPages> {
  const byPage = new Map<string, FakeIncident[]>();
  const hits: string[] = [];
  const incidents = (page: string) => {
    let list = byPage.get(page);
    if (!list) byPage.set(page, (list = []));
    return list;
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(path);
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path.startsWith('/redirect')) {
      res.writeHead(302, { location: 'http://10.255.255.1/api/v2/summary.json' });
      return res.end();
    }
    if (path === '/plain/' || path === '/plain') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><html><head><title>Our status</title></head><body>All good.</body></html>');
    }
    const m = /^\/pages\/([a-z0-9-]+)(\/.*)?$/.exec(path);
    if (!m) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    const name = m[1]!;
    const rest = m[2] ?? '/';
    const base = `http://${req.headers.host}/pages/${name}`;
    const page = { id: PAGE_ID, name: `Acme ${name}`, url: base, time_zone: 'Etc/UTC', updated_at: new Date().toISOString() };
    const list = incidents(name);
    const open = list.filter((i) => i.status !== 'resolved');
    if (rest === '/api/v2/summary.json') {
      return json({
        page,
        status: open.length ? { indicator: 'minor', description: 'Minor Service Outage' } : { indicator: 'none', description: 'All Systems Operational' },
        components: [{ id: 'c1', name: 'API', status: open.length ? 'degraded_performance' : 'operational', position: 1, group_id: null, group: false }],
        incidents: open.map((i) => incidentJson(i, base)),
        scheduled_maintenances: [],
      });
    }
    if (rest === '/api/v2/incidents.json') return json({ page, incidents: list.map((i) => incidentJson(i, base)) });
    if (rest === '/api/v2/scheduled-maintenances.json') return json({ page, scheduled_maintenances: [] });
    if (rest === '/' || rest === '') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(`<!doctype html><html><head><title>Acme ${name} status</title></head><body>Status</body></html>`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    incidents,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
