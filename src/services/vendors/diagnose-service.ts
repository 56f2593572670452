import { PUBLIC_AUDIENCE } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  type ErrorHint,
  errorHintsIn,
  type HostIndex,
  type HostMatch,
  hostIndex,
  hostsIn,
  siteHost,
  type VendorReport,
  type VerdictResult,
  vendorsOfHost,
  verdictOf,
} from '../../domain/diagnose.ts';
import { isMonitored } from '../../domain/monitoring.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { StatusService } from '../records/status-service.ts';

// "Is it us or them" (docs/diagnose.md): the vendor an input points at, what it reports now,
// and a verdict. Read for the public catalog only: a user-added page has no hosts of its own.

/** How long the host index of the catalog is kept before it is read again. */
const INDEX_SECONDS = 60;
/** Vendors looked up for one input at most: an input naming more is answered for the first ones. */
export const MAX_DIAGNOSED_VENDORS = 5;

export interface DiagnoseResult {
  input: string;
  hosts: string[];
  errorHints: ErrorHint[];
  matches: HostMatch[];
  vendors: (VendorReport & { name: string; indicator: string; checkedAt: string | null; monitored: boolean })[];
  verdict: VerdictResult['verdict'];
  confidence: VerdictResult['confidence'];
  summary: string;
}

export function diagnoseService(d: { vendors: VendorsRepository; status: StatusService; clock: Clock }) {
  let cached: { index: HostIndex; monitored: Map<string, boolean>; until: number } | null = null;

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
    cached = { index: built, monitored: new Map(rows.map((v) => [v.slug, isMonitored(v)])), until: now + INDEX_SECONDS * 1000 };
    return cached;
  }

  return {
    async diagnose(input: string): Promise<DiagnoseResult> {
      const hosts = hostsIn(input);
      const errorHints = errorHintsIn(input);
      const { index: idx, monitored } = await index();
      const matches = hosts.flatMap((h) => vendorsOfHost(idx, h));
      const slugs = [...new Set(matches.map((m) => m.vendor))].slice(0, MAX_DIAGNOSED_VENDORS);
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
