import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { orgName } from '../../domain/org-names.ts';
import { uniqueSlugs, watchlistLimit, watchlistLimitError } from '../../domain/watchlist.ts';
import type { NamedWatchlist, NamedWatchlistsRepository } from '../../store/repositories/named-watchlists-repository.ts';
import { audienceFor } from '../access/audience.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from './audit-service.ts';
import type { OrgsService } from './orgs-service.ts';

// Named watchlists of an organisation (docs/teams.md, "Named watchlists"): several
// lists ("payments", "platform") beside the organisation's own watchlist. Members read
// them; editors create, change and delete them. Each list holds at most the plan's
// watchlist cap of vendors; an organisation holds at most MAX_NAMED_WATCHLISTS lists.

export const MAX_NAMED_WATCHLISTS = 50;

export type { NamedWatchlist };

export function namedWatchlistsService(d: {
  namedWatchlists: NamedWatchlistsRepository;
  catalog: CatalogService;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
}) {
  /** The vendors of a list as given: known to the caller (404 naming the unknown), within the plan's cap. */
  async function vendorsFor(viewer: Viewer, slugs: string[]): Promise<string[]> {
    const vendors = await d.catalog.requireAll(uniqueSlugs(slugs), audienceFor(viewer));
    const limit = watchlistLimit(viewer.plan);
    if (limit !== null && vendors.length > limit) throw watchlistLimitError(viewer.plan, limit, vendors.length);
    return vendors;
  }

  const missing = () => notFound('No such watchlist');
  const taken = (name: string) => new DomainError('conflict', `The organisation already has a watchlist named '${name}'`, { parameter: 'name' });

  return {
    async list(viewer: Viewer, orgId: string): Promise<NamedWatchlist[]> {
      const v = await d.orgs.actingIn(viewer, orgId);
      return d.namedWatchlists.list(ownerOrg(v));
    },

    async get(viewer: Viewer, orgId: string, id: string): Promise<NamedWatchlist> {
      const v = await d.orgs.actingIn(viewer, orgId);
      return (await d.namedWatchlists.get(ownerOrg(v), id)) ?? Promise.reject(missing());
    },

    async create(viewer: Viewer, orgId: string, input: { name: string; vendors: string[] }): Promise<NamedWatchlist> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'editor');
      const name = orgName(input.name);
      const vendors = await vendorsFor(v, input.vendors);
      const r = await d.namedWatchlists.create({ id: randomUUID(), orgId: owner, name, vendors, now: d.clock.now() }, MAX_NAMED_WATCHLISTS);
      if (r.status === 'full') {
        throw new DomainError('limit_exceeded', `An organisation holds at most ${MAX_NAMED_WATCHLISTS} named watchlists`, { limit: MAX_NAMED_WATCHLISTS });
      }
      if (r.status === 'name_taken') throw taken(name);
      await d.audit.record(owner, v, 'watchlist.created', `watchlist:${r.list.id}`, { after: { name, vendors } });
      return r.list;
    },

    async update(viewer: Viewer, orgId: string, id: string, input: { name?: string; vendors?: string[] }): Promise<NamedWatchlist> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'editor');
      const before = await d.namedWatchlists.get(owner, id);
      if (!before) throw missing();
      const change = {
        name: input.name === undefined ? undefined : orgName(input.name),
        vendors: input.vendors === undefined ? undefined : await vendorsFor(v, input.vendors),
      };
      const r = await d.namedWatchlists.update(owner, id, change, d.clock.now());
      if (r.status === 'not_found') throw missing();
      if (r.status === 'name_taken') throw taken(change.name!);
      await d.audit.record(owner, v, 'watchlist.updated', `watchlist:${id}`, {
        before: { name: before.name, vendors: before.vendors },
        after: { name: r.list.name, vendors: r.list.vendors },
      });
      return r.list;
    },

    async remove(viewer: Viewer, orgId: string, id: string): Promise<void> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'editor');
      const before = await d.namedWatchlists.get(owner, id);
      if (!before || !(await d.namedWatchlists.delete(owner, id))) throw missing();
      await d.audit.record(owner, v, 'watchlist.deleted', `watchlist:${id}`, { before: { name: before.name, vendors: before.vendors } });
    },
  };
}

export type NamedWatchlistsService = ReturnType<typeof namedWatchlistsService>;
