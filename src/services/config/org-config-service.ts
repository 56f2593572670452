import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type AlertRoute,
  defaultRouteFilters,
  destinationProblems,
  filterProblems,
  MAX_ROUTES,
  type RouteDestination,
  routeReceiver,
  type RouteFilters,
} from '../../domain/alert-routes.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import {
  type Comparable,
  type ConfigFile,
  type ConfigKind,
  type ConfigProblem,
  type ConfigRoute,
  duplicateNames,
  formatPath,
  type PathPart,
  type PlanItem,
  planKind,
  planSummary,
} from '../../domain/org-config.ts';
import { sameEmail } from '../../domain/preferences.ts';
import { watchlistLimit } from '../../domain/watchlist.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import { checkService, type Dependency, MAX_SERVICES, type Service } from '../../domain/team-services.ts';
import { alertRoutesRepository } from '../../store/repositories/alert-routes-repository.ts';
import type { NamedWatchlist } from '../../store/repositories/named-watchlists-repository.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { Database } from '../../store/schema.ts';
import { audienceFor } from '../access/audience.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditActor } from '../../domain/audit-chain.ts';
import { type AuditService, OPERATOR_ACTOR } from '../orgs/audit-service.ts';
import { MAX_NAMED_WATCHLISTS } from '../orgs/named-watchlists-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import { repositoriesOn } from '../repositories.ts';
import { newWebhookSecret } from '../alerts/channel-secrets.ts';
import { parseBackstage, parseConfig, writeConfig } from './config-file.ts';
import { backstageServices } from '../../domain/backstage.ts';

// Config as code (docs/services.md "Config as code"): an organisation's services, named
// watchlists and alert routes from one declarative file. Apply checks the whole file first
// (every problem with its path and line; nothing is written when there is one), plans the
// changes item by item (matched by name), and writes them in ONE transaction. Export writes
// the same format, so export then apply changes nothing. Destinations with secrets are
// never written out: a route's destination is `{channel, ref: <route id>}`, and apply keeps
// the stored destination of that route.

export interface ApplyResult {
  dryRun: boolean;
  applied: boolean;
  items: PlanItem[];
  summary: { create: number; update: number; delete: number; unchanged: number };
}

interface Current {
  services: Service[];
  lists: NamedWatchlist[];
  routes: AlertRoute[];
}

/** A route of the file, checked: its destination (kept or new) and filters in stored form. */
interface DesiredRoute {
  name: string;
  enabled: boolean;
  destination: RouteDestination | null;
  /** The route whose stored destination is kept. */
  ref: string | null;
  filters: RouteFilters & { watchlistName: string | null };
}

interface DesiredService {
  name: string;
  criticality: Service['criticality'];
  owner: string | null;
  tags: string[];
  dependencies: Dependency[];
}

export interface OrgConfigDeps {
  db: Kysely<Database>;
  box: SecretBox;
  vendors: Pick<VendorsRepository, 'existing'>;
  status: Pick<StatusRepository, 'componentNames'>;
  members: Pick<OrganisationsRepository, 'members' | 'get'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  allowPrivate: readonly string[];
  onChange?: (orgId: string) => void;
}

const refused = (problems: ConfigProblem[]) =>
  new DomainError(
    'invalid_parameter',
    `The file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was applied: ${problems
      .slice(0, 5)
      .map((p) => `${p.path}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`)
      .join('; ')}`,
    {
      parameter: 'yaml',
      problems: problems.slice(0, 200),
    },
  );

export function orgConfigService(d: OrgConfigDeps) {
  const read = async (orgId: string, db: Kysely<Database> = d.db): Promise<Current> => {
    const r = repositoriesOn(db);
    const routes = alertRoutesRepository(db, d.box);
    const [services, lists, routeList] = await Promise.all([r.services.list(orgId), r.namedWatchlists.list(orgId), routes.list(orgId)]);
    return { services, lists, routes: routeList };
  };

  /** The organisation's configuration in the file's format. */
  async function exportOf(orgId: string): Promise<ConfigFile> {
    const cur = await read(orgId);
    const names = await d.status.componentNames([
      ...new Set(cur.services.flatMap((s) => s.dependencies.filter((x) => x.components.length).map((x) => x.vendor))),
    ]);
    const listName = new Map(cur.lists.map((l) => [l.id, l.name]));
    const routeName = new Map(cur.routes.map((r) => [r.id, r.name]));
    // A component by its name when that name is the vendor's only one of it, else by id.
    const componentOut = (vendor: string, id: string) => {
      const known = names.get(vendor);
      const name = known?.get(id);
      if (!name) return id;
      const same = [...(known?.values() ?? [])].filter((n) => n.toLowerCase() === name.toLowerCase()).length;
      return same === 1 && !known?.has(name) ? name : id;
    };
    return {
      version: 1,
      services: cur.services.map((s) => ({
        name: s.name,
        criticality: s.criticality,
        owner: s.ownerRouteId ? (routeName.get(s.ownerRouteId) ?? null) : null,
        tags: s.tags,
        dependencies: s.dependencies.map((x) => ({
          vendor: x.vendor,
          kind: x.kind,
          components: x.components.map((c) => componentOut(x.vendor, c)),
          regions: x.regions,
        })),
      })),
      watchlists: cur.lists.map((l) => ({ name: l.name, vendors: l.vendors })),
      routes: cur.routes.map((r) => {
        const { watchlistId, ...filters } = r.filters;
        return {
          name: r.name,
          enabled: r.enabled,
          destination: { channel: r.destination.channel, ref: r.id },
          filters: { ...filters, watchlist: watchlistId ? (listName.get(watchlistId) ?? null) : null },
        };
      }),
    };
  }

  /** Every problem of the file against the organisation, and its items in stored form. */
  async function check(v: Viewer, orgId: string, file: ConfigFile, lineOf: (p: readonly PathPart[]) => number | null, cur: Current) {
    const problems: ConfigProblem[] = [];
    const at = (path: PathPart[], message: string) => problems.push({ path: formatPath(path), line: lineOf(path), message });
    const files = { services: file.services ?? [], watchlists: file.watchlists ?? [], routes: file.routes ?? [] };
    for (const [key, list] of Object.entries(files) as [keyof typeof files, { name: string }[]][]) {
      for (const i of duplicateNames(list)) at([key, i, 'name'], `the name '${list[i]!.name}' is given twice`);
    }
    // Vendors: one query for every slug the file names.
    const slugs = new Set<string>();
    for (const s of files.services) for (const x of s.dependencies ?? []) slugs.add(x.vendor);
    for (const l of files.watchlists) for (const x of l.vendors) slugs.add(x);
    for (const r of files.routes) for (const x of r.filters?.vendors ?? []) slugs.add(x);
    const known = await d.vendors.existing([...slugs], audienceFor(v));
    const vendorAt = (path: PathPart[], slug: string) => {
      if (!known.has(slug)) at(path, `unknown vendor '${slug}'`);
    };
    files.watchlists.forEach((l, i) => l.vendors.forEach((x, j) => vendorAt(['watchlists', i, 'vendors', j], x)));
    // The plan's cap of vendors per list, as for the lists of the API (docs/teams.md "Named watchlists").
    const limit = watchlistLimit(v.plan);
    files.watchlists.forEach((l, i) => {
      const n = new Set(l.vendors).size;
      if (limit !== null && n > limit) at(['watchlists', i, 'vendors'], `names ${n} vendors; the plan allows ${limit} per watchlist`);
    });
    const listNames = new Set([...files.watchlists.map((l) => l.name), ...cur.lists.map((l) => l.name)]);
    const routeNames = new Set([...files.routes.map((r) => r.name), ...cur.routes.map((r) => r.name)]);
    const storedRoute = new Map(cur.routes.map((r) => [r.id, r]));
    const memberEmails = files.routes.some((r) => 'to' in r.destination) ? (await d.members.members(orgId)).map((m) => m.email) : [];

    const routes: DesiredRoute[] = files.routes.map((r, i) => {
      const base = ['routes', i] as PathPart[];
      const f = r.filters ?? {};
      f.vendors?.forEach((x, j) => vendorAt([...base, 'filters', 'vendors', j], x));
      const filters: DesiredRoute['filters'] = {
        ...defaultRouteFilters(),
        vendors: f.vendors ? [...new Set(f.vendors)] : null,
        components: [...new Set(f.components ?? [])],
        minImpact: f.minImpact ?? 'none',
        kinds: [...new Set(f.kinds ?? defaultRouteFilters().kinds)],
        maintenance: f.maintenance ?? true,
        quietHours: f.quietHours ?? null,
        onlyAffectingServices: f.onlyAffectingServices ?? false,
        services: [...new Set(f.services ?? [])],
        watchlistName: f.watchlist ?? null,
      };
      if (filters.watchlistName && !listNames.has(filters.watchlistName))
        at([...base, 'filters', 'watchlist'], `no watchlist named '${filters.watchlistName}' in the file or the organisation`);
      for (const p of filterProblems({ ...filters, watchlistId: filters.watchlistName })) at([...base, ...p.field.split('.')], p.why);
      let destination: RouteDestination | null = null;
      let ref: string | null = null;
      const dest = r.destination as ConfigRoute['destination'];
      if ('ref' in dest) {
        const stored = storedRoute.get(dest.ref);
        if (!stored) at([...base, 'destination', 'ref'], `no alert route '${dest.ref}' in this organisation`);
        else if (dest.channel && dest.channel !== stored.destination.channel)
          at([...base, 'destination', 'channel'], `route '${dest.ref}' sends by ${stored.destination.channel}, not ${dest.channel}`);
        else ref = dest.ref;
      } else {
        const previous = cur.routes.find((x) => x.name === r.name)?.destination;
        destination =
          dest.channel === 'webhook'
            ? {
                channel: 'webhook',
                url: dest.url,
                format: dest.format ?? 'standard',
                secret: previous?.channel === 'webhook' ? previous.secret : newWebhookSecret(),
              }
            : dest.channel === 'opsgenie'
              ? { channel: 'opsgenie', apiKey: dest.apiKey, region: dest.region ?? 'us' }
              : (dest as RouteDestination);
        for (const p of destinationProblems(destination, d.allowPrivate)) at([...base, ...p.field.split('.')], p.why);
        if (destination.channel === 'email') {
          const stranger = destination.to.find((a) => !memberEmails.some((m) => sameEmail(m, a)));
          if (stranger !== undefined) at([...base, 'destination', 'to'], `'${stranger.slice(0, 80)}' is not the address of a member of this organisation`);
        }
      }
      return { name: r.name, enabled: r.enabled ?? true, destination, ref, filters };
    });

    const depVendors = [...new Set(files.services.flatMap((s) => (s.dependencies ?? []).filter((x) => x.components?.length).map((x) => x.vendor)))];
    const components = await d.status.componentNames(depVendors.filter((x) => known.has(x)));
    const services: DesiredService[] = files.services.map((s, i) => {
      const base = ['services', i] as PathPart[];
      const shaped = (s.dependencies ?? []).map((x) => ({
        vendor: x.vendor,
        kind: x.kind ?? 'hard',
        components: x.components ?? [],
        regions: x.regions ?? [],
      }));
      shaped.forEach((x, j) => vendorAt([...base, 'dependencies', j, 'vendor'], x.vendor));
      const checked = checkService({ name: s.name, tags: s.tags ?? [], dependencies: shaped });
      for (const p of checked.problems)
        at(
          [
            ...base,
            ...p.field
              .replace(/\[(\d+)\]/g, '.$1')
              .split('.')
              .map((x) => (/^\d+$/.test(x) ? Number(x) : x)),
          ],
          p.why,
        );
      const deps = checked.dependencies ?? [];
      deps.forEach((dep, j) => {
        const names = components.get(dep.vendor) ?? new Map<string, string>();
        const ids: string[] = [];
        dep.components.forEach((c) => {
          let id: string | undefined = names.has(c) ? c : undefined;
          if (id === undefined) {
            const byName = [...names].filter(([, n]) => n.toLowerCase() === c.toLowerCase());
            if (byName.length === 1) id = byName[0]![0];
          }
          if (id === undefined) {
            if (known.has(dep.vendor))
              at([...base, 'dependencies', j, 'components', shaped[j]!.components.indexOf(c)], `'${c.slice(0, 80)}' is not a component ${dep.vendor} reports`);
          } else if (!ids.includes(id)) ids.push(id);
        });
        dep.components = ids;
      });
      if (s.owner && !routeNames.has(s.owner)) at([...base, 'owner'], `no alert route named '${s.owner}' in the file or the organisation`);
      return { name: s.name, criticality: s.criticality ?? 'medium', owner: s.owner ?? null, tags: checked.tags ?? [], dependencies: deps };
    });
    return { problems, services, routes, lists: files.watchlists.map((l) => ({ name: l.name, vendors: [...new Set(l.vendors)] })) };
  }

  const destinationKey = (dest: RouteDestination) => JSON.stringify(dest);

  /** The plan: each kind's items compared in the same form (names for references, no ids). */
  function plan(cur: Current, want: Awaited<ReturnType<typeof check>>, pruneAll: boolean, file: ConfigFile): PlanItem[] {
    // Prune reaches only the kinds the file lists: a file of services alone never deletes routes.
    const prune = (key: 'services' | 'watchlists' | 'routes') => pruneAll && file[key] !== undefined;
    const listName = new Map(cur.lists.map((l) => [l.id, l.name]));
    const routeName = new Map(cur.routes.map((r) => [r.id, r.name]));
    const byId = new Map(cur.routes.map((r) => [r.id, r]));
    const storedRoutes: Comparable[] = cur.routes.map((r) => {
      const { watchlistId, ...filters } = r.filters;
      return {
        name: r.name,
        value: {
          enabled: r.enabled,
          destination: destinationKey(r.destination),
          filters: { ...filters, watchlist: watchlistId ? (listName.get(watchlistId) ?? null) : null },
        },
      };
    });
    const wantRoutes: Comparable[] = want.routes.map((r) => {
      const { watchlistName, watchlistId: _, ...filters } = r.filters;
      const dest = r.ref ? byId.get(r.ref)!.destination : r.destination!;
      return { name: r.name, value: { enabled: r.enabled, destination: destinationKey(dest), filters: { ...filters, watchlist: watchlistName } } };
    });
    const serviceValue = (s: { criticality: string; owner: string | null; tags: string[]; dependencies: Dependency[] }) => ({
      criticality: s.criticality,
      owner: s.owner,
      tags: s.tags,
      dependencies: s.dependencies,
    });
    return [
      ...planKind(
        'watchlist',
        want.lists.map((l) => ({ name: l.name, value: { vendors: l.vendors } })),
        cur.lists.map((l) => ({ name: l.name, value: { vendors: l.vendors } })),
        prune('watchlists'),
      ),
      ...planKind('route', wantRoutes, storedRoutes, prune('routes')),
      ...planKind(
        'service',
        want.services.map((s) => ({ name: s.name, value: serviceValue(s) })),
        cur.services.map((s) => ({ name: s.name, value: serviceValue({ ...s, owner: s.ownerRouteId ? (routeName.get(s.ownerRouteId) ?? null) : null }) })),
        prune('services'),
      ),
    ];
  }

  /** Writes the plan in one transaction; a cap reached or a name taken meanwhile undoes it all. */
  async function write(orgId: string, want: Awaited<ReturnType<typeof check>>, items: PlanItem[]): Promise<void> {
    const now = d.clock.now();
    const act = (kind: ConfigKind, name: string) => items.find((i) => i.kind === kind && i.name === name)?.action;
    await d.db.transaction().execute(async (trx) => {
      const r = repositoriesOn(trx);
      const routesRepo = alertRoutesRepository(trx, d.box);
      const cur = await read(orgId, trx);
      const fail = (why: string) => {
        throw new DomainError('conflict', `Nothing was applied: ${why}`);
      };
      // Watchlists first: routes name them.
      const listId = new Map(cur.lists.map((l) => [l.name, l.id]));
      for (const l of want.lists) {
        const a = act('watchlist', l.name);
        if (a === 'create') {
          const o = await r.namedWatchlists.create({ id: randomUUID(), orgId, name: l.name, vendors: l.vendors, now }, MAX_NAMED_WATCHLISTS);
          if (o.status !== 'created')
            fail(o.status === 'full' ? `an organisation holds at most ${MAX_NAMED_WATCHLISTS} named watchlists` : `the watchlist name '${l.name}' is taken`);
          else listId.set(l.name, o.list.id);
        } else if (a === 'update') {
          const o = await r.namedWatchlists.update(orgId, listId.get(l.name)!, { vendors: l.vendors }, now);
          if (o.status !== 'updated') fail(`the watchlist '${l.name}' changed meanwhile`);
        }
      }
      const routeId = new Map(cur.routes.map((x) => [x.name, x.id]));
      const storedById = new Map(cur.routes.map((x) => [x.id, x]));
      for (const w of want.routes) {
        const a = act('route', w.name);
        if (a !== 'create' && a !== 'update') continue;
        const { watchlistName, ...rest } = w.filters;
        const filters: RouteFilters = { ...rest, watchlistId: watchlistName ? (listId.get(watchlistName) ?? null) : null };
        const kept = w.ref ? storedById.get(w.ref) : undefined;
        if (w.ref && !kept) fail(`the alert route '${w.ref}' is gone`);
        const destination = kept ? kept.destination : w.destination!;
        if (a === 'create') {
          const o = await routesRepo.create(
            {
              id: `rte_${randomUUID().replace(/-/g, '')}`,
              orgId,
              name: w.name,
              enabled: w.enabled,
              destination,
              receiver: routeReceiver(destination),
              filters,
              now,
            },
            MAX_ROUTES,
          );
          if (o.status !== 'created')
            fail(o.status === 'full' ? `an organisation holds at most ${MAX_ROUTES} alert routes` : `the route name '${w.name}' is taken`);
          else routeId.set(w.name, o.route.id);
        } else {
          const o = await routesRepo.update(
            orgId,
            routeId.get(w.name)!,
            { enabled: w.enabled, destination, receiver: routeReceiver(destination), filters },
            now,
          );
          if (o.status !== 'updated') fail(`the alert route '${w.name}' changed meanwhile`);
        }
      }
      const serviceId = new Map(cur.services.map((s) => [s.name, s.id]));
      for (const s of want.services) {
        const a = act('service', s.name);
        const ownerRouteId = s.owner ? (routeId.get(s.owner) ?? null) : null;
        if (a === 'create') {
          const o = await r.services.create(
            {
              id: `svc_${randomUUID().replace(/-/g, '')}`,
              orgId,
              name: s.name,
              ownerRouteId,
              criticality: s.criticality,
              tags: s.tags,
              dependencies: s.dependencies,
              now,
            },
            MAX_SERVICES,
          );
          if (o.status !== 'created')
            fail(o.status === 'full' ? `an organisation holds at most ${MAX_SERVICES} services` : `the service name '${s.name}' is taken`);
        } else if (a === 'update') {
          const o = await r.services.update(
            orgId,
            serviceId.get(s.name)!,
            { ownerRouteId, criticality: s.criticality, tags: s.tags, dependencies: s.dependencies },
            now,
          );
          if (o.status !== 'updated') fail(`the service '${s.name}' changed meanwhile`);
        }
      }
      // Deletions last, services first (they name routes), then routes, then watchlists.
      for (const i of items.filter((x) => x.action === 'delete' && x.kind === 'service')) await r.services.delete(orgId, serviceId.get(i.name)!);
      for (const i of items.filter((x) => x.action === 'delete' && x.kind === 'route')) await routesRepo.delete(orgId, routeId.get(i.name)!);
      for (const i of items.filter((x) => x.action === 'delete' && x.kind === 'watchlist')) await r.namedWatchlists.delete(orgId, listId.get(i.name)!);
    });
  }

  async function operatorViewer(orgId: string): Promise<Viewer> {
    const org = await d.members.get(orgId);
    if (!org) throw notFound('No such organisation');
    return { plan: org.plan, userId: null, orgId, role: 'owner', authKind: 'key', keyId: null };
  }

  async function applyAs(v: Viewer, who: Viewer | AuditActor, orgId: string, input: { yaml: string; dryRun?: boolean; prune?: boolean }): Promise<ApplyResult> {
    const parsed = parseConfig(input.yaml);
    if (!parsed.file) throw refused(parsed.problems);
    const cur = await read(orgId);
    const want = await check(v, orgId, parsed.file, parsed.lineOf, cur);
    if (want.problems.length) throw refused(want.problems);
    const items = plan(cur, want, input.prune === true, parsed.file);
    const summary = planSummary(items);
    const changes = summary.create + summary.update + summary.delete;
    if (input.dryRun || !changes) return { dryRun: input.dryRun === true, applied: false, items, summary };
    await write(orgId, want, items);
    d.onChange?.(orgId);
    await d.audit.record(orgId, who, 'config.applied', `org:${orgId}`, {
      after: { summary, items: items.filter((i) => i.action !== 'unchanged').slice(0, 500) },
    });
    return { dryRun: false, applied: true, items, summary };
  }

  return {
    /** The organisation's configuration as a file (members). */
    async export(viewer: Viewer, orgId: string): Promise<{ yaml: string; config: ConfigFile }> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const config = await exportOf(ownerOrg(v));
      return { yaml: writeConfig(config), config };
    },

    /** Checks, plans and (unless a dry run) applies a file (editors). */
    async apply(viewer: Viewer, orgId: string, input: { yaml: string; dryRun?: boolean; prune?: boolean }): Promise<ApplyResult> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'editor');
      return applyAs(v, v, owner, input);
    },

    /** The operator CLI: acts as the organisation's owner would (docs/operations.md "Operator CLI"). */
    async exportAsOperator(orgId: string): Promise<string> {
      await operatorViewer(orgId);
      return writeConfig(await exportOf(orgId));
    },
    async applyAsOperator(orgId: string, input: { yaml: string; dryRun?: boolean; prune?: boolean }): Promise<ApplyResult> {
      return applyAs(await operatorViewer(orgId), OPERATOR_ACTOR, orgId, input);
    },

    /**
     * A Backstage catalog file (docs/services.md "From a Backstage catalog") applied as the
     * config file of its services; problems name the entity they come from.
     */
    async applyBackstageAsOperator(orgId: string, input: { yaml: string; dryRun?: boolean; prune?: boolean }): Promise<ApplyResult & { entities: string[] }> {
      const v = await operatorViewer(orgId);
      const read = parseBackstage(input.yaml);
      if (!read.docs) throw refused(read.problems);
      const { file, entities } = backstageServices(read.docs);
      try {
        return { ...(await applyAs(v, OPERATOR_ACTOR, orgId, { ...input, yaml: writeConfig(file) })), entities };
      } catch (err) {
        const problems = err instanceof DomainError ? (err.details.problems as ConfigProblem[] | undefined) : undefined;
        if (!problems) throw err;
        throw refused(
          problems.map((p) => {
            const m = /^services\[(\d+)\](.*)$/.exec(p.path);
            return { path: m ? `${entities[Number(m[1])] ?? 'entity'}${m[2]}` : p.path, line: null, message: p.message };
          }),
        );
      }
    },
  };
}

export type OrgConfigService = ReturnType<typeof orgConfigService>;
