import { audienceOf } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import { DEFAULT_RULES, type EarlyWarningRules } from '../../domain/early-warning.ts';
import {
  rankTransparency,
  TRANSPARENCY_DAYS,
  type TransparencyOrder,
  transparencyOf,
  type VendorTransparency,
} from '../../domain/early-warning-transparency.ts';
import type { SignalHistoryRepository } from '../../store/repositories/signal-history-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';

// Transparency of vendors (docs/early-warning.md "Transparency"): per organisation, from its
// own signals' recorded transitions over the last 90 days. Signals rest on the
// organisation's own inputs, so the figures are its own: members read them, nobody else.

export interface TransparencyAnswer {
  windowDays: number;
  from: string;
  to: string;
  vendors: VendorTransparency[];
}

export function transparencyService(d: {
  history: SignalHistoryRepository;
  catalog: Pick<CatalogService, 'requireAll'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  clock: Clock;
  rules?: EarlyWarningRules;
}) {
  const rules = d.rules ?? DEFAULT_RULES;

  async function compute(orgId: string, vendor: string | undefined): Promise<TransparencyAnswer> {
    const now = d.clock.now();
    const from = new Date(now.getTime() - TRANSPARENCY_DAYS * 86_400_000).toISOString();
    const history = await d.history.since(orgId, from, vendor);
    const resolved = await d.history.resolvedAt(history.flatMap((h) => (h.incidentId ? [h.incidentId] : [])));
    const vendors = vendor ? [vendor] : [...new Set(history.map((h) => h.vendor))];
    return { windowDays: TRANSPARENCY_DAYS, from, to: now.toISOString(), vendors: vendors.map((v) => transparencyOf(v, history, resolved, now, rules)) };
  }

  return {
    /**
     * The organisation's figures (members): one vendor's, even with no signal (its figures
     * then null with the reason), or every vendor it had a signal about, ranked.
     */
    async forOrg(viewer: Viewer, orgId: string, q: { vendor?: string; order?: TransparencyOrder } = {}): Promise<TransparencyAnswer> {
      const owner = ownerOrg(await d.orgs.actingIn(viewer, orgId), 'viewer');
      const vendor = q.vendor ? (await d.catalog.requireAll([q.vendor], audienceOf(owner)))[0]! : undefined;
      const answer = await compute(owner, vendor);
      return { ...answer, vendors: rankTransparency(answer.vendors, q.order ?? 'lead') };
    },

    /** One vendor's figures for the organisation the viewer acts for; null for callers acting for none (the vendor is checked by the caller). */
    async forViewer(viewer: Viewer, vendor: string): Promise<VendorTransparency | null> {
      if (!viewer.orgId) return null;
      const owner = ownerOrg(viewer, 'viewer');
      return (await compute(owner, vendor)).vendors[0]!;
    },
  };
}

export type TransparencyService = ReturnType<typeof transparencyService>;
