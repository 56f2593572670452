import { PUBLIC_AUDIENCE } from '../../domain/audience.ts';
import { type Badge, componentBadge, indicatorBadge } from '../../domain/badges.ts';
import { notFound } from '../../domain/errors.ts';
import type { StatusService } from '../records/status-service.ts';

// Status badges of a vendor and of one of its components (docs/integrations.md).
// Read from the same vendor status as GET /vendor-status/{vendor}, so the badge
// never disagrees with the API.

export function badgeService(d: { status: StatusService }) {
  return {
    /** 404 for a vendor outside the public catalog (badges are public, docs/per-user.md). */
    async vendor(slug: string): Promise<Badge> {
      const s = await d.status.vendorStatus(slug, PUBLIC_AUDIENCE);
      return indicatorBadge(s.vendorName, s.indicator, s.sourceHealth.stale, s.monitored);
    },

    /** The component is matched by name, ignoring case; 404 when the vendor publishes none of that name. */
    async component(slug: string, component: string): Promise<Badge> {
      const s = await d.status.vendorStatus(slug, PUBLIC_AUDIENCE);
      const wanted = component.toLowerCase();
      const c = s.components.find((x) => x.name.toLowerCase() === wanted);
      if (!c) throw notFound(`Vendor '${slug}' publishes no component named '${component}'`);
      return componentBadge(`${s.vendorName} ${c.name}`, c.status, s.sourceHealth.stale);
    },
  };
}
