import { PUBLIC_AUDIENCE } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  type ErrorHint,
  errorHintsIn,
  type HostIndex,
  type HostMatch,
  hostIndex,
  hostsIn,
  servicesNamedIn,
  siteHost,
  type VendorReport,
  type VerdictResult,
  vendorsOfHost,
  verdictOf,
} from '../../domain/diagnose.ts';
import { isMonitored } from '../../domain/monitoring.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { ServicesRepository } from '../../store/repositories/services-repository.ts';
import type { EarlyWarningRepository } from '../../store/repositories/early-warning-repository.ts';
import type { Viewer } from '../context.ts';
import { readsOwnServices } from '../impact/record-annotations.ts';
import type { StatusService } from '../records/status-service.ts';

// "Is it us or them" (docs/diagnose.md): the vendor an input points at, what it reports now,
// and a verdict. Read for the public catalog only: a user-added page has no hosts of its own.
// For a member of an organisation with services (whose answers are its own, never shared:
// docs/access.md "Response cache"), also which of its services depend on the vendor, its
// open early-warning signals, and its services named in the input.

/** How long the host index of the catalog is kept before it is read again. */
const INDEX_SECONDS = 60;
/** Vendors looked up for one input at most: an input naming more is answered for the first ones. */
export const MAX_DIAGNOSED_VENDORS = 5;

export interface DiagnoseResult {
  input: string;
  hosts: string[];
  errorHints: ErrorHint[];
  matches: HostMatch[];
  vendors: (VendorReport & { name: string; indicator: string; checkedAt: string | null; monitored: boolean; ourServices?: OurService[] })[];
  verdict: VerdictResult['verdict'];
  confidence: VerdictResult['confidence'];
  summary: string;
}

export interface OurService {
  service: string;
  criticality: string;
  dependency: 'hard' | 'soft';
  components: string[];
  regions: string[];
}

export function diagnoseService(d: {
  vendors: VendorsRepository;
  status: StatusService;
  clock: Clock;
  services: Pick<ServicesRepository, 'list' | 'dependingOn'>;
  signals: Pick<EarlyWarningRepository, 'activeVendors'>;
}) {
  let cached: { index: HostIndex; monitored: Map<string, boolean>; names: Map<string, string>; until: number } | null = null;

  async function index(): Promise<NonNullable<typeof cached>> {
    const now = d.clock.now().getTime();
    if (cached && cached.until > now) return cached;
    const rows = await d.vendors.list(PUBLIC_AUDIENCE);
    const built = hostIndex(
      rows.map((v) => ({
        slug: v.slug,
        name: v.name,
        listed: v.hostnames,
        derived: [siteHost(v.website), siteHost(v.statusPageUrl)].filter((h): h is string => !!h && h.includes('.')),
      })),
    );
    cached = {
      index: built,
      monitored: new Map(rows.map((v) => [v.slug, isMonitored(v)])),
      names: new Map(rows.map((v) => [v.slug, v.name])),
      until: now + INDEX_SECONDS * 1000,
    };
    return cached;
  }

  return {
    async diagnose(input: string, viewer?: Viewer): Promise<DiagnoseResult> {
      const hosts = hostsIn(input);
      const errorHints = errorHintsIn(input);
      const { index: idx, monitored, names } = await index();
      const matches = hosts.flatMap((h) => vendorsOfHost(idx, h));
      const orgId = viewer && readsOwnServices(viewer) ? viewer.orgId : null;
      // No host named: one of our services may be (its vendors are then the suspects).
      if (orgId && !matches.length) {
        const ours = await d.services.list(orgId);
        for (const name of servicesNamedIn(
          input,
          ours.map((s) => s.name),
        )) {
          for (const dep of ours.find((s) => s.name === name)!.dependencies) {
            const vendorName = names.get(dep.vendor);
            if (vendorName && !matches.some((m) => m.vendor === dep.vendor))
              matches.push({ host: name, vendor: dep.vendor, name: vendorName, matched: name, strength: 'service' });
          }
        }
      }
      const slugs = [...new Set(matches.map((m) => m.vendor))].slice(0, MAX_DIAGNOSED_VENDORS);
      const [depending, active] = orgId ? await Promise.all([d.services.dependingOn(orgId, slugs), d.signals.activeVendors(orgId)]) : [null, null];
      const vendors = await Promise.all(
        slugs.map(async (slug) => {
          const s = await d.status.vendorStatus(slug, PUBLIC_AUDIENCE);
          const incidents = s.activeIncidents.map((i) => ({ id: i.id, title: i.title, impact: i.impact, components: i.components }));
          const maintenance = s.activeMaintenance.filter((m) => m.status !== 'scheduled').map((m) => ({ id: m.id, title: m.title, components: m.components }));
          return {
            vendor: slug,
            name: s.vendorName,
            indicator: s.indicator,
            checkedAt: s.checkedAt,
            // Known when its page was read, or when it holds an open record read from it.
            observed: s.checkedAt !== null || incidents.length > 0 || maintenance.length > 0,
            monitored: monitored.get(slug) ?? true,
            incidents,
            maintenance,
            ...(depending && active
              ? {
                  ourServices: depending.flatMap((s) =>
                    s.dependencies
                      .filter((dep) => dep.vendor === slug)
                      .map((dep) => ({ service: s.name, criticality: s.criticality, dependency: dep.kind, components: dep.components, regions: dep.regions })),
                  ),
                  signals: active
                    .filter((a) => a.vendor === slug && (a.state === 'suspected' || a.state === 'confirmed'))
                    .map((a) => ({ id: a.id, state: a.state as 'suspected' | 'confirmed', confidence: a.confidence, openedAt: a.openedAt })),
                }
              : {}),
          };
        }),
      );
      const kept = matches.filter((m) => slugs.includes(m.vendor));
      const v = verdictOf(kept, vendors, errorHints);
      return { input, hosts, errorHints, matches: kept, vendors, ...v };
    },
  };
}

export type DiagnoseService = ReturnType<typeof diagnoseService>;
