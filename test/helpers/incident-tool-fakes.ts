import { type HttpReceiver, type ReceivedRequest, type Reply, startReceiver } from './receivers.ts';

// Fakes of the incident tools and status pages alert routes write to, each under its own
// path prefix of one local server, speaking the documented wire format: the credential the
// product checks, its answers (ids to keep, error bodies) and its status words. They keep
// what they were told, so a test reads the tool's state as the team would see it.
//   /grafana     Grafana annotations HTTP API (bearer service account token)
//   /servicenow  ServiceNow Event Management jsonv2 (basic auth)
//   /firehydrant FireHydrant Signals ingest URL (token in the path)
//   /rootly      Rootly alerts API (JSON:API, bearer key)
//   /statuspage  Atlassian Statuspage REST API (`OAuth <key>`)
//   /instatus    Instatus API (bearer key)

export interface ToolCredentials {
  grafanaToken: string;
  serviceNow: { user: string; password: string };
  fireHydrantToken: string;
  rootlyKey: string;
  statuspageKey: string;
  instatusKey: string;
}

export interface ToolFakes {
  rx: HttpReceiver;
  annotations: Map<number, Record<string, unknown>>;
  rootlyAlerts: Map<string, { attributes: Record<string, unknown>; status: 'open' | 'resolved' }>;
  /** `page/component` → status, for both page products. */
  pageComponents: Map<string, string>;
  /** Answers forced for a path prefix (e.g. a 503 from ServiceNow); checked first. */
  forced: Map<string, Reply>;
  /**
   * `METHOD /path prefix` → delay: the next such request is acted on (an annotation or alert
   * created) and answered this many ms late, once (a timeout after the tool wrote it).
   */
  late: Map<string, number>;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export async function startToolFakes(c: ToolCredentials): Promise<ToolFakes> {
  const annotations = new Map<number, Record<string, unknown>>();
  const rootlyAlerts = new Map<string, { attributes: Record<string, unknown>; status: 'open' | 'resolved' }>();
  const pageComponents = new Map<string, string>();
  const forced = new Map<string, Reply>();
  const late = new Map<string, number>();
  let nextAnnotation = 1;
  let nextAlert = 1;

  const grafana = (req: ReceivedRequest, path: string): Reply => {
    if (req.headers.authorization !== `Bearer ${c.grafanaToken}`) return json(401, { message: 'invalid API key', traceID: '' });
    if (req.method === 'POST' && path === '/api/annotations') {
      const body = JSON.parse(req.body);
      if (typeof body.text !== 'string' || !body.text) return json(400, { message: 'text is required' });
      const id = nextAnnotation++;
      annotations.set(id, body);
      return json(200, { message: 'Annotation added', id });
    }
    // Find annotations: every `tags` given must be on it (matchAny off), `dashboardUID` narrows.
    if (req.method === 'GET' && path.startsWith('/api/annotations?')) {
      const q = new URL(path, 'http://grafana').searchParams;
      const tags = q.getAll('tags');
      const dashboard = q.get('dashboardUID');
      const found = [...annotations]
        .filter(([, a]) => tags.every((x) => (a.tags as string[] | undefined)?.includes(x)) && (!dashboard || a.dashboardUID === dashboard))
        .slice(0, Number(q.get('limit') ?? 100))
        .map(([id, a]) => ({ id, dashboardUID: a.dashboardUID ?? '', time: a.time, timeEnd: a.timeEnd ?? a.time, tags: a.tags ?? [], text: a.text }));
      return json(200, found);
    }
    const m = /^\/api\/annotations\/([0-9]+)$/.exec(path);
    if (req.method === 'PATCH' && m) {
      const a = annotations.get(Number(m[1]));
      if (!a) return json(404, { message: 'Could not find annotation to update' });
      Object.assign(a, JSON.parse(req.body));
      return json(200, { message: 'Annotation patched' });
    }
    return json(404, { message: 'Not found' });
  };

  const serviceNow = (req: ReceivedRequest, path: string): Reply => {
    const basic = `Basic ${Buffer.from(`${c.serviceNow.user}:${c.serviceNow.password}`).toString('base64')}`;
    if (req.headers.authorization !== basic)
      return json(401, { error: { message: 'User Not Authenticated', detail: 'Required to provide Auth information' }, status: 'failure' });
    if (req.method !== 'POST' || path !== '/api/global/em/jsonv2')
      return json(400, { error: { message: 'Requested URI does not represent any resource' }, status: 'failure' });
    const records = JSON.parse(req.body).records;
    if (!Array.isArray(records) || !records.length) return json(400, { error: { message: 'No records' }, status: 'failure' });
    return json(200, { result: { 'Default Bulk Endpoint': `${records.length} events were inserted` } });
  };

  const fireHydrant = (req: ReceivedRequest, path: string): Reply => {
    if (path !== `/v1/process/${c.fireHydrantToken}`) return json(404, { errors: ['event source not found'] });
    const b = JSON.parse(req.body);
    if (typeof b.summary !== 'string' || String(b.idempotency_key ?? '').length > 255) return json(400, { errors: ['invalid event'] });
    return json(202, { success: true });
  };

  const rootly = (req: ReceivedRequest, path: string): Reply => {
    if (req.headers.authorization !== `Bearer ${c.rootlyKey}`) return json(401, { errors: [{ title: 'Unauthorized', status: '401' }] });
    if (!String(req.headers['content-type']).startsWith('application/vnd.api+json')) return json(415, { errors: [{ title: 'Unsupported media type' }] });
    if (req.method === 'POST' && path === '/v1/alerts') {
      const attributes = JSON.parse(req.body).data?.attributes ?? {};
      if (!attributes.summary || !attributes.source) return json(422, { errors: [{ title: 'Validation failed', detail: "summary can't be blank" }] });
      // Alerts with one deduplication key count as one: the open one is answered again.
      for (const [id, a] of rootlyAlerts) {
        if (a.status === 'open' && a.attributes.deduplication_key === attributes.deduplication_key) {
          a.attributes = attributes;
          return json(201, { data: { id, type: 'alerts', attributes: { ...attributes, status: 'open' } } });
        }
      }
      const id = `alrt-${nextAlert++}`;
      rootlyAlerts.set(id, { attributes, status: 'open' });
      return json(201, { data: { id, type: 'alerts', attributes: { ...attributes, status: 'open' } } });
    }
    const m = /^\/v1\/alerts\/([^/]+)\/resolve$/.exec(path);
    if (req.method === 'POST' && m) {
      const a = rootlyAlerts.get(decodeURIComponent(m[1]!));
      if (!a) return json(404, { errors: [{ title: 'Record not found' }] });
      a.status = 'resolved';
      return json(200, { data: { id: m[1], type: 'alerts', attributes: { ...a.attributes, status: 'resolved' } } });
    }
    return json(404, { errors: [{ title: 'Not found' }] });
  };

  const page = (req: ReceivedRequest, path: string, product: 'statuspage' | 'instatus'): Reply => {
    const auth = product === 'statuspage' ? `OAuth ${c.statuspageKey}` : `Bearer ${c.instatusKey}`;
    if (req.headers.authorization !== auth)
      return product === 'statuspage'
        ? json(401, { error: 'Could not authenticate' })
        : json(401, { error: { code: 'unauthorized', message: 'Invalid API key' } });
    const m = product === 'statuspage' ? /^\/v1\/pages\/([^/]+)\/components\/([^/]+)$/.exec(path) : /^\/v1\/([^/]+)\/components\/([^/]+)$/.exec(path);
    const key = m ? `${m[1]}/${m[2]}` : '';
    if (!m || !pageComponents.has(key))
      return product === 'statuspage' ? json(404, { error: 'Not found' }) : json(404, { error: { code: 'not_found', message: 'Component not found' } });
    const expected = product === 'statuspage' ? 'PATCH' : 'PUT';
    if (req.method === expected) {
      const b = JSON.parse(req.body);
      const status = product === 'statuspage' ? b.component?.status : b.status;
      const valid =
        product === 'statuspage'
          ? ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance']
          : ['OPERATIONAL', 'DEGRADEDPERFORMANCE', 'PARTIALOUTAGE', 'MAJOROUTAGE', 'UNDERMAINTENANCE'];
      if (!valid.includes(status)) return json(422, { error: 'status is invalid' });
      pageComponents.set(key, status);
    } else if (req.method !== 'GET') return json(405, { error: 'Method not allowed' });
    return json(200, { id: m[2], page_id: m[1], name: `Component ${m[2]}`, status: pageComponents.get(key) });
  };

  const rx = await startReceiver((req) => {
    for (const [prefix, reply] of forced) if (req.path.startsWith(prefix)) return reply;
    const answer = act(req);
    for (const [key, delayMs] of late) {
      if (!`${req.method} ${req.path}`.startsWith(key)) continue;
      late.delete(key);
      return { ...answer, delayMs };
    }
    return answer;
  });
  return { rx, annotations, rootlyAlerts, pageComponents, forced, late, close: () => rx.close() };

  function act(req: ReceivedRequest): Reply {
    const [, product = '', ...rest] = req.path.split('/');
    const path = `/${rest.join('/')}`;
    switch (product) {
      case 'grafana':
        return grafana(req, path);
      case 'servicenow':
        return serviceNow(req, path);
      case 'firehydrant':
        return fireHydrant(req, path);
      case 'rootly':
        return rootly(req, path);
      case 'statuspage':
      case 'instatus':
        return page(req, path, product);
      default:
        return { status: 404 };
    }
  }
}
