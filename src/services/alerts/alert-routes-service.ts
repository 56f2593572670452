import { randomUUID } from 'node:crypto';
import {
  type AlertRoute,
  defaultRouteFilters,
  destinationProblems,
  filterProblems,
  MAX_ROUTES,
  maskedDestination,
  type Problem,
  type RouteDestination,
  type RouteFilters,
  routeReceiver,
} from '../../domain/alert-routes.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { orgName } from '../../domain/org-names.ts';
import { invalidPreferences, sameEmail } from '../../domain/preferences.ts';
import { uniqueSlugs } from '../../domain/watchlist.ts';
import type { AlertRoutesRepository } from '../../store/repositories/alert-routes-repository.ts';
import type { NamedWatchlistsRepository } from '../../store/repositories/named-watchlists-repository.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { AlertsService, TestResult } from './alerts-service.ts';
import { audienceFor } from '../access/audience.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import { newWebhookSecret } from './channel-secrets.ts';

// An organisation's alert routes (docs/alert-routes.md): members read them, editors create,
// change, test and delete them. Destinations are checked as the notification preferences'
// are (formats, the outbound URL rules); an e-mail route writes only to addresses of the
// organisation's members, so a route cannot mail strangers. Every change is audited with
// the destination masked.

/** A destination as the API takes it: the webhook's signing secret is made here. */
export type DestinationInput =
  | { channel: 'webhook'; url: string; format?: 'standard' | 'discord' | 'slack' }
  | (Omit<Extract<RouteDestination, { channel: 'grafana' }>, 'dashboardUid'> & { dashboardUid?: string | null })
  | Exclude<RouteDestination, { channel: 'webhook' | 'grafana' }>;

export interface RouteInput {
  name: string;
  enabled?: boolean;
  destination: DestinationInput;
  filters?: Partial<RouteFilters>;
}

export type RouteChangeInput = Partial<RouteInput> & { rotateSecret?: boolean };

/** A route as answers show it; `secret` only in the answer that made it. */
export interface RouteView {
  id: string;
  name: string;
  enabled: boolean;
  disabledReason: string | null;
  channel: RouteDestination['channel'];
  destination: Record<string, unknown>;
  filters: RouteFilters;
  createdAt: string;
  updatedAt: string;
}

export const routeView = (r: AlertRoute, reveal = false): RouteView => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  disabledReason: r.disabledReason,
  channel: r.destination.channel,
  destination:
    reveal && r.destination.channel === 'webhook' ? { ...maskedDestination(r.destination), secret: r.destination.secret } : maskedDestination(r.destination),
  filters: r.filters,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export function alertRoutesService(d: {
  routes: AlertRoutesRepository;
  namedWatchlists: Pick<NamedWatchlistsRepository, 'get'>;
  members: Pick<OrganisationsRepository, 'members'>;
  catalog: CatalogService;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  alerts: Pick<AlertsService, 'sendRouteTest'>;
  clock: Clock;
  allowPrivate: readonly string[];
}) {
  const missing = () => notFound('No such alert route');
  const taken = (name: string) => new DomainError('conflict', `The organisation already has an alert route named '${name}'`, { parameter: 'name' });
  const refuse = (problems: Problem[]) => {
    if (problems.length) throw invalidPreferences(problems);
  };

  function destinationOf(input: DestinationInput, previous: RouteDestination | null, rotate: boolean): RouteDestination {
    if (input.channel === 'grafana') return { ...input, dashboardUid: input.dashboardUid ?? null };
    if (input.channel !== 'webhook') return input;
    const keep = previous?.channel === 'webhook' && !rotate ? previous.secret : null;
    return { channel: 'webhook', url: input.url, format: input.format ?? 'standard', secret: keep ?? newWebhookSecret() };
  }

  /** Filters as given, completed with the defaults; vendors known to the caller, the list the organisation's. */
  async function filtersOf(v: Viewer, orgId: string, given: Partial<RouteFilters> | undefined, base: RouteFilters): Promise<RouteFilters> {
    const f: RouteFilters = { ...base, ...given };
    refuse(filterProblems(f));
    if (f.vendors) f.vendors = await d.catalog.requireAll(uniqueSlugs(f.vendors), audienceFor(v));
    if (f.watchlistId && !(await d.namedWatchlists.get(orgId, f.watchlistId))) {
      throw new DomainError('invalid_parameter', "Invalid parameter 'filters.watchlistId': no such watchlist in this organisation", {
        parameter: 'filters.watchlistId',
      });
    }
    f.components = [...new Set(f.components)];
    f.kinds = [...new Set(f.kinds)];
    f.services = [...new Set(f.services)];
    return f;
  }

  async function checkDestination(orgId: string, dest: RouteDestination) {
    refuse(destinationProblems(dest, d.allowPrivate));
    if (dest.channel !== 'email') return;
    const members = await d.members.members(orgId);
    const stranger = dest.to.find((a) => !members.some((m) => sameEmail(m.email, a)));
    if (stranger !== undefined) {
      refuse([{ field: 'destination.to', why: `'${stranger.slice(0, 80)}' is not the address of a member of this organisation` }]);
    }
  }

  async function editable(viewer: Viewer, orgId: string) {
    const v = await d.orgs.actingIn(viewer, orgId);
    return { v, owner: ownerOrg(v, 'editor') };
  }

  return {
    async list(viewer: Viewer, orgId: string): Promise<RouteView[]> {
      const v = await d.orgs.actingIn(viewer, orgId);
      return (await d.routes.list(ownerOrg(v))).map((r) => routeView(r));
    },

    async get(viewer: Viewer, orgId: string, id: string): Promise<RouteView> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const r = await d.routes.get(ownerOrg(v), id);
      if (!r) throw missing();
      return routeView(r);
    },

    async create(viewer: Viewer, orgId: string, input: RouteInput): Promise<RouteView> {
      const { v, owner } = await editable(viewer, orgId);
      const name = orgName(input.name);
      const destination = destinationOf(input.destination, null, false);
      await checkDestination(owner, destination);
      const filters = await filtersOf(v, owner, input.filters, defaultRouteFilters());
      const r = await d.routes.create(
        {
          id: `rte_${randomUUID().replace(/-/g, '')}`,
          orgId: owner,
          name,
          enabled: input.enabled ?? true,
          destination,
          receiver: routeReceiver(destination),
          filters,
          now: d.clock.now(),
        },
        MAX_ROUTES,
      );
      if (r.status === 'full') throw new DomainError('limit_exceeded', `An organisation holds at most ${MAX_ROUTES} alert routes`, { limit: MAX_ROUTES });
      if (r.status === 'name_taken') throw taken(name);
      await d.audit.record(owner, v, 'route.created', `route:${r.route.id}`, {
        after: { name, enabled: r.route.enabled, destination: maskedDestination(destination), filters },
      });
      return routeView(r.route, true);
    },

    async update(viewer: Viewer, orgId: string, id: string, input: RouteChangeInput): Promise<RouteView> {
      const { v, owner } = await editable(viewer, orgId);
      const before = await d.routes.get(owner, id);
      if (!before) throw missing();
      const name = input.name === undefined ? undefined : orgName(input.name);
      const rotate = input.rotateSecret === true;
      let destination: RouteDestination | undefined;
      if (input.destination) destination = destinationOf(input.destination, before.destination, rotate);
      else if (rotate && before.destination.channel === 'webhook') destination = { ...before.destination, secret: newWebhookSecret() };
      if (destination) await checkDestination(owner, destination);
      const filters = input.filters === undefined ? undefined : await filtersOf(v, owner, input.filters, before.filters);
      const r = await d.routes.update(
        owner,
        id,
        { name, enabled: input.enabled, destination, receiver: destination && routeReceiver(destination), filters },
        d.clock.now(),
      );
      if (r.status === 'not_found') throw missing();
      if (r.status === 'name_taken') throw taken(name!);
      const shown = (x: AlertRoute) => ({ name: x.name, enabled: x.enabled, destination: maskedDestination(x.destination), filters: x.filters });
      await d.audit.record(owner, v, 'route.updated', `route:${id}`, { before: shown(before), after: shown(r.route) });
      return routeView(r.route, rotate);
    },

    async remove(viewer: Viewer, orgId: string, id: string): Promise<void> {
      const { v, owner } = await editable(viewer, orgId);
      const before = await d.routes.get(owner, id);
      if (!before || !(await d.routes.delete(owner, id))) throw missing();
      await d.audit.record(owner, v, 'route.deleted', `route:${id}`, { before: { name: before.name, destination: maskedDestination(before.destination) } });
    },

    /** One test alert through the route now, whether it is switched on or not. */
    async test(viewer: Viewer, orgId: string, id: string): Promise<TestResult> {
      const { owner } = await editable(viewer, orgId);
      const r = await d.routes.get(owner, id);
      if (!r) throw missing();
      return d.alerts.sendRouteTest(owner, r.destination.channel, r.id);
    },
  };
}

export type AlertRoutesService = ReturnType<typeof alertRoutesService>;
