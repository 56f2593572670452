import type { ComponentStatus } from './records.ts';

// Pushing vendors' component statuses into the team's own status page (docs/alert-routes.md
// "Our own status page"): which vendor component drives which component of the page, and
// the status word each page product takes. No I/O.

export const STATUS_PAGE_PRODUCTS = ['statuspage', 'instatus'] as const;
export type StatusPageProduct = (typeof STATUS_PAGE_PRODUCTS)[number];

/** One line of the mapping: a vendor's component (its id or name) drives one component of our page. */
export interface ComponentMapping {
  vendor: string;
  component: string;
  pageComponentId: string;
}

/** Statuspage allows one call per second per key: a route drives at most this many components. */
export const MAX_MAPPED_COMPONENTS = 25;

/** Page and component ids as both products issue them (Statuspage: 12+ lowercase alphanumerics; Instatus: cuid-like). */
const PAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const isPageObjectId = (v: string) => PAGE_ID.test(v);

const VENDOR_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const isVendorSlug = (v: string) => VENDOR_SLUG.test(v);

const INSTATUS: Record<Exclude<ComponentStatus, 'unknown'>, string> = {
  operational: 'OPERATIONAL',
  degraded_performance: 'DEGRADEDPERFORMANCE',
  partial_outage: 'PARTIALOUTAGE',
  major_outage: 'MAJOROUTAGE',
  under_maintenance: 'UNDERMAINTENANCE',
};

/**
 * The status our page component gets from the vendor component's observed status; null when
 * it was not observed ('unknown'): the page is then left as it is, never set to operational.
 */
export function pageStatus(product: StatusPageProduct, observed: ComponentStatus): string | null {
  if (observed === 'unknown') return null;
  return product === 'statuspage' ? observed : INSTATUS[observed];
}

/** Problems of a mapping as given. */
export function mappingProblems(m: readonly ComponentMapping[]): { field: string; why: string }[] {
  const out: { field: string; why: string }[] = [];
  if (!m.length) out.push({ field: 'destination.components', why: 'maps at least one vendor component to a component of the page' });
  if (m.length > MAX_MAPPED_COMPONENTS) out.push({ field: 'destination.components', why: `maps at most ${MAX_MAPPED_COMPONENTS} components` });
  m.forEach((c, i) => {
    if (!isVendorSlug(c.vendor)) out.push({ field: `destination.components.${i}.vendor`, why: 'must be a vendor id such as github' });
    if (!c.component.trim() || /[\u0000-\u001f]/.test(c.component))
      out.push({ field: `destination.components.${i}.component`, why: "must name the vendor's component (its id or name)" });
    if (!isPageObjectId(c.pageComponentId))
      out.push({ field: `destination.components.${i}.pageComponentId`, why: "must be the id of a component of your page (letters, digits, '-', '_')" });
  });
  const seen = new Set<string>();
  for (const c of m) {
    if (seen.has(c.pageComponentId)) {
      out.push({
        field: 'destination.components',
        why: `page component ${c.pageComponentId.slice(0, 64)} is driven twice: each page component follows one vendor component`,
      });
      break;
    }
    seen.add(c.pageComponentId);
  }
  return out;
}
