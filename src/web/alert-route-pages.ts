import type { DatadogSite } from '../domain/channel-targets.ts';
import type { ComponentMapping } from '../domain/status-page-push.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTE_KINDS, type RouteChannel, type RouteKind } from '../domain/alert-routes.ts';
import { DomainError } from '../domain/errors.ts';
import { roleAtLeast } from '../domain/org-roles.ts';
import { IMPACTS, type Impact } from '../domain/records.ts';
import type { DestinationInput } from '../services/alerts/alert-routes-service.ts';
import type { UserViewer } from '../services/context.ts';
import { commaList, formField, formPage, ID_ROUTE, PAGE_ROUTE, type PageHelpers } from './page-forms.ts';
import { type AlertRoutesPageData, alertRoutesPage } from './pages/alert-routes.ts';

// The alert routes page (docs/alert-routes.md; docs/web.md "Team"): plain forms posting to
// these routes, which call the same use cases as the REST API. A refused form shows the
// page again with the reason and the refusal's status; a done one redirects (303).

const DONE: Record<string, string> = {
  added: 'Route added.',
  on: 'Route switched on.',
  off: 'Route switched off.',
  deleted: 'Route deleted.',
};

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 403,
  role_required: 403,
  unavailable: 503,
};

type Body = Record<string, unknown> | null | undefined;
const text = (body: Body, name: string, max = 300): string => formField(body, name, max).trim();

/** The status page mapping, one `vendor: component -> page component id` a line. */
function mappingOf(value: string): ComponentMapping[] {
  return value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const m = /^([^:]+):(.+)->(.+)$/.exec(line);
      if (!m)
        throw new DomainError('invalid_parameter', `Component mapping: write each line as vendor: component -> page component id ('${line.slice(0, 80)}')`, {
          parameter: 'mapping',
        });
      return { vendor: m[1]!.trim(), component: m[2]!.trim(), pageComponentId: m[3]!.trim() };
    });
}

/** The REST body's destination, from the form's channel and its one destination field. */
function destinationOf(body: Body): DestinationInput {
  const channel = text(body, 'channel');
  const target = text(body, 'target', 2048);
  switch (channel as RouteChannel) {
    case 'webhook':
    case 'teams':
    case 'google_chat':
      return { channel: channel as 'webhook' | 'teams' | 'google_chat', url: target };
    case 'pagerduty':
      return { channel: 'pagerduty', routingKey: target };
    case 'opsgenie':
      return { channel: 'opsgenie', apiKey: target, region: text(body, 'region') === 'eu' ? 'eu' : 'us' };
    case 'jsm':
      return { channel: 'jsm', apiKey: target };
    case 'incident_io':
      return { channel: 'incident_io', url: target, token: text(body, 'secret', 512) };
    case 'datadog':
      return { channel: 'datadog', apiKey: target, site: text(body, 'site') as DatadogSite };
    case 'mattermost':
      return { channel: 'mattermost', url: target };
    case 'telegram':
      return { channel: 'telegram', chatId: target, botToken: text(body, 'secret', 512) };
    case 'grafana':
      return { channel: 'grafana', url: target, token: text(body, 'secret', 512), dashboardUid: text(body, 'dashboardUid', 40) || null };
    case 'servicenow':
      return { channel: 'servicenow', url: target, username: text(body, 'username', 100), password: formField(body, 'secret', 256) };
    case 'firehydrant':
      return { channel: 'firehydrant', url: target };
    case 'rootly':
      return { channel: 'rootly', apiKey: target };
    case 'statuspage':
    case 'instatus':
      return {
        channel: channel as 'statuspage' | 'instatus',
        apiKey: target,
        pageId: text(body, 'pageId', 64),
        components: mappingOf(formField(body, 'mapping', 10_000)),
      };
    case 'slack':
      return { channel: 'slack', conversation: target };
    case 'email':
      return { channel: 'email', to: commaList(target) };
    default:
      throw new DomainError('invalid_parameter', 'Choose a channel', { parameter: 'channel' });
  }
}

function kindsOf(body: Body): RouteKind[] {
  const raw = body?.kinds;
  const given = (Array.isArray(raw) ? raw : [raw]).filter((k): k is RouteKind => typeof k === 'string' && (ROUTE_KINDS as readonly string[]).includes(k));
  if (!given.length) throw new DomainError('invalid_parameter', 'Choose at least one kind of change to alert on', { parameter: 'kinds' });
  return given;
}

export async function alertRoutePageRoutes(app: FastifyInstance, h: PageHelpers) {
  const { alertRoutes, namedWatchlists, orgs } = app.services;

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: AlertRoutesPageData['notice'], status = 200) {
    const [org, routes, watchlists] = await Promise.all([orgs.get(v, v.orgId), alertRoutes.list(v, v.orgId), namedWatchlists.list(v, v.orgId)]);
    const ctx = h.context(request, reply);
    const page = alertRoutesPage({ orgName: org.name, routes, watchlists, canEdit: roleAtLeast(v.role, 'editor'), csrf: ctx.csrfToken, notice });
    return h.send(reply.code(status), ctx, { ...page, status });
  }

  const forms = formPage<NonNullable<AlertRoutesPageData['notice']>>(app, { path: '/team/routes', done: DONE, refusals: STATUS, show });
  const action = forms.action;
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  forms.page();

  action('/team/routes', PAGE_ROUTE, async (v, request) => {
    const body = request.body as Body;
    const vendors = commaList(text(body, 'vendors', 5000));
    const impact = text(body, 'minImpact');
    await alertRoutes.create(v, v.orgId, {
      name: text(body, 'name', 200),
      destination: destinationOf(body),
      filters: {
        vendors: vendors.length ? vendors : null,
        watchlistId: vendors.length ? null : text(body, 'watchlistId', 64) || null,
        minImpact: (IMPACTS as readonly string[]).includes(impact) ? (impact as Impact) : 'none',
        kinds: kindsOf(body),
      },
    });
    return 'added';
  });
  action('/team/routes/:id/on', ID_ROUTE, async (v, request) => {
    await alertRoutes.update(v, v.orgId, idOf(request), { enabled: true });
    return 'on';
  });
  action('/team/routes/:id/off', ID_ROUTE, async (v, request) => {
    await alertRoutes.update(v, v.orgId, idOf(request), { enabled: false });
    return 'off';
  });
  action('/team/routes/:id/delete', ID_ROUTE, async (v, request) => {
    await alertRoutes.remove(v, v.orgId, idOf(request));
    return 'deleted';
  });
  action('/team/routes/:id/test', ID_ROUTE, async (v, request) => {
    const r = await alertRoutes.test(v, v.orgId, idOf(request));
    return r.delivered ? `Test alert delivered (${r.latencyMs} ms).` : `Test alert not delivered: ${r.error ?? `status ${r.statusCode}`}.`;
  });
}
