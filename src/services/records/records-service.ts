import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import type { Advisory, DataType, Incident, IncidentRecord, IncidentStatus, Maintenance, MaintenanceRecord, ReleaseUpdate } from '../../domain/records.ts';
import { type DataWindow, resolveWindow } from '../../domain/time-window.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { PublicationsRepository } from '../../store/repositories/publications-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { audienceFor } from '../access/audience.ts';
import type { Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Audience } from '../../domain/audience.ts';
import { incidentView, nameOf, withVendorName } from '../../domain/record-views.ts';
import type { AffectedServiceRef, RecordAnnotator } from '../impact/record-annotations.ts';

export interface ListResult<T> {
  items: T[];
  total: number;
  dataWindow: DataWindow;
}

export interface IncidentQuery {
  vendors?: string[];
  status?: IncidentStatus;
  activeOnly?: boolean;
  timePeriod?: string;
  limit: number;
  offset: number;
}

export interface MaintenanceQuery {
  vendors?: string[];
  scheduledOnly?: boolean;
  timePeriod?: string;
  limit: number;
  offset: number;
}

export interface PublicationQuery {
  vendors?: string[];
  timePeriod?: string;
  limit: number;
  offset: number;
}

export type ActivityItem =
  | ({ kind: 'incident'; at: string } & Incident)
  | ({ kind: 'maintenance'; at: string } & Maintenance)
  | ({ kind: 'advisory'; at: string } & Advisory)
  | ({ kind: 'update'; at: string } & ReleaseUpdate);

export interface Deps {
  catalog: CatalogService;
  vendors: VendorsRepository;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  publications: PublicationsRepository;
  clock: Clock;
  /** `affectedServices` for members of an organisation with services (docs/services.md "Records: affectedServices"). */
  annotate?: RecordAnnotator;
}

const withAffected = <T extends { id: string }>(items: T[], affected: Map<string, AffectedServiceRef[]> | null | undefined): T[] =>
  affected ? items.map((i) => ({ ...i, affectedServices: affected.get(i.id) ?? [] })) : items;

export function recordsService(d: Deps) {
  const capOf = (viewer: Viewer) => DEFAULT_PLAN_POLICIES[viewer.plan].windowDays;
  const windowFor = (viewer: Viewer, timePeriod?: string) => resolveWindow(timePeriod, capOf(viewer), d.clock.now());

  /**
   * Names of the vendors of a page only: an uncached list used to read every vendor's
   * name (the whole catalog) to label twenty records (docs/ingestion.md, "Profile of a round").
   */
  const namesOf = (audience: Audience, ...lists: { vendor: string }[][]) =>
    d.vendors.names(
      audience,
      lists.flat().map((i) => i.vendor),
    );

  /** Adds vendorName (one lookup for the whole page) and derived fields. */
  async function named<T extends { vendor: string }>(items: T[], viewer: Viewer): Promise<(T & { vendorName: string })[]> {
    const names = await namesOf(audienceFor(viewer), items);
    return items.map((i) => withVendorName(i, nameOf(names, i.vendor)));
  }
  const now = () => d.clock.now();
  const incidentOf = (names: Map<string, string>, i: IncidentRecord): Incident => incidentView(i, nameOf(names, i.vendor), now());
  const maintenanceOf = (names: Map<string, string>, m: MaintenanceRecord): Maintenance => withVendorName(m, nameOf(names, m.vendor));

  async function incidents(q: IncidentQuery, viewer: Viewer): Promise<ListResult<Incident>> {
    const audience = audienceFor(viewer);
    const vendors = q.vendors?.length ? await d.catalog.requireAll(q.vendors, audience) : undefined;
    const dataWindow = windowFor(viewer, q.timePeriod);
    const page = await d.incidents.list(
      { audience, vendors, status: q.status, activeOnly: q.activeOnly, since: dataWindow.since ?? undefined },
      q.limit,
      q.offset,
    );
    const [names, affected] = await Promise.all([
      namesOf(audience, page.items),
      d.annotate?.(
        viewer,
        page.items.map((record) => ({ kind: 'incident' as const, record })),
      ),
    ]);
    return {
      items: withAffected(
        page.items.map((i) => incidentOf(names, i)),
        affected,
      ),
      total: page.total,
      dataWindow,
    };
  }

  async function maintenance(q: MaintenanceQuery, viewer: Viewer): Promise<ListResult<Maintenance>> {
    const audience = audienceFor(viewer);
    const vendors = q.vendors?.length ? await d.catalog.requireAll(q.vendors, audience) : undefined;
    const dataWindow = windowFor(viewer, q.timePeriod);
    const page = await d.maintenances.list({ audience, vendors, upcomingOnly: q.scheduledOnly, since: dataWindow.since ?? undefined }, q.limit, q.offset);
    const [names, affected] = await Promise.all([
      namesOf(audience, page.items),
      d.annotate?.(
        viewer,
        page.items.map((record) => ({ kind: 'maintenance' as const, record })),
      ),
    ]);
    return {
      items: withAffected(
        page.items.map((m) => maintenanceOf(names, m)),
        affected,
      ),
      total: page.total,
      dataWindow,
    };
  }

  async function advisories(q: PublicationQuery, viewer: Viewer): Promise<ListResult<Advisory>> {
    const audience = audienceFor(viewer);
    const vendors = q.vendors?.length ? await d.catalog.requireAll(q.vendors, audience) : undefined;
    const dataWindow = windowFor(viewer, q.timePeriod);
    const page = await d.publications.listAdvisories({ audience, vendors, since: dataWindow.since ?? undefined }, q.limit, q.offset);
    return { items: await named(page.items, viewer), total: page.total, dataWindow };
  }

  async function updates(q: PublicationQuery, viewer: Viewer): Promise<ListResult<ReleaseUpdate>> {
    const audience = audienceFor(viewer);
    const vendors = q.vendors?.length ? await d.catalog.requireAll(q.vendors, audience) : undefined;
    const dataWindow = windowFor(viewer, q.timePeriod);
    const page = await d.publications.listUpdates({ audience, vendors, since: dataWindow.since ?? undefined }, q.limit, q.offset);
    return { items: await named(page.items, viewer), total: page.total, dataWindow };
  }

  return {
    incidents,
    maintenance,
    advisories,
    updates,

    /** `/vendors/{vendor}/{dataType}`: 404 when the vendor does not publish that type. */
    async vendorData(
      vendor: string,
      dataType: DataType,
      q: { timePeriod?: string; activeOnly?: boolean; limit: number },
      viewer: Viewer,
    ): Promise<ListResult<Incident | Maintenance | Advisory | ReleaseUpdate>> {
      await d.catalog.requireDataType(vendor, dataType, audienceFor(viewer));
      const base = { vendors: [vendor], timePeriod: q.timePeriod, limit: q.limit, offset: 0 };
      switch (dataType) {
        case 'incidents':
          return incidents({ ...base, activeOnly: q.activeOnly }, viewer);
        case 'maintenance':
          return maintenance({ ...base, scheduledOnly: q.activeOnly }, viewer);
        case 'advisories':
          return advisories(base, viewer);
        case 'updates':
          return updates(base, viewer);
      }
    },

    /**
     * Merged feed of incidents, maintenance, advisories and updates, newest first.
     * Four queries whatever the number of vendors.
     */
    async recentActivity(q: { vendors?: string[]; timePeriod?: string; limit: number }, viewer: Viewer): Promise<ListResult<ActivityItem>> {
      const audience = audienceFor(viewer);
      const vendors = q.vendors?.length ? await d.catalog.requireAll(q.vendors, audience) : undefined;
      const dataWindow = resolveWindow(q.timePeriod, capOf(viewer), now(), '7d');
      const since = dataWindow.since ?? undefined;
      const [inc, mnt, adv, upd] = await Promise.all([
        d.incidents.list({ audience, vendors, since }, q.limit, 0),
        d.maintenances.list({ audience, vendors, since }, q.limit, 0),
        d.publications.listAdvisories({ audience, vendors, since }, q.limit, 0),
        d.publications.listUpdates({ audience, vendors, since }, q.limit, 0),
      ]);
      const names = await namesOf(audience, inc.items, mnt.items, adv.items, upd.items);
      const name = (v: string) => nameOf(names, v);
      const merged: ActivityItem[] = [
        ...inc.items.map((i) => ({ kind: 'incident' as const, at: i.updatedAt, ...incidentOf(names, i) })),
        ...mnt.items.map((m) => ({ kind: 'maintenance' as const, at: m.scheduledFor, ...maintenanceOf(names, m) })),
        ...adv.items.map((a) => ({ kind: 'advisory' as const, at: a.publishedAt, ...withVendorName(a, name(a.vendor)) })),
        ...upd.items.map((u) => ({ kind: 'update' as const, at: u.publishedAt, ...withVendorName(u, name(u.vendor)) })),
      ];
      merged.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return {
        items: merged.slice(0, q.limit),
        total: inc.total + mnt.total + adv.total + upd.total,
        dataWindow,
      };
    },
  };
}

export type RecordsService = ReturnType<typeof recordsService>;
