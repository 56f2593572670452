import { nearestName } from '../../domain/suggest.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import type { DataType } from '../../domain/records.ts';
import type { VendorRow, VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { Audience } from '../../domain/audience.ts';
import { audienceFor } from '../access/audience.ts';
import type { Viewer } from '../context.ts';
import { isMonitored, NOT_MONITORED, notMonitoredWarning } from '../../domain/monitoring.ts';

export interface VendorProfile {
  id: string;
  name: string;
  description: string;
  website: string;
  category: string;
  statusPageUrl: string;
  availableDataTypes: DataType[];
  /** false: no machine-readable status source, so no status at all (docs/web.md "Not monitored"). */
  monitored: boolean;
}

export interface VendorCapabilities {
  vendor: string;
  monitored: boolean;
  /** Why there is no status, when not monitored; null otherwise. */
  monitoring: string | null;
  dataTypes: DataType[];
  features: {
    status: boolean;
    components: boolean;
    statistics: boolean;
    compliance: boolean;
    stream: boolean;
  };
  sources: { type: string; url: string }[];
}

const profile = (v: VendorRow): VendorProfile => ({
  id: v.slug,
  name: v.name,
  description: v.description,
  website: v.website,
  category: v.category,
  statusPageUrl: v.statusPageUrl,
  availableDataTypes: v.availableDataTypes,
  monitored: isMonitored(v),
});

export function catalogService(vendors: VendorsRepository, sourcesOf: (slug: string) => Promise<{ type: string; url: string }[]>) {
  /** The nearest vendor id this audience may see, for "did you mean" (docs/api.md, "Errors"). */
  async function nearestVendor(slug: string, audience: Audience): Promise<string | null> {
    return nearestName(slug, (await vendors.names(audience)).keys());
  }

  /** 404 for an unknown vendor and for another account's page alike (docs/per-user.md). */
  async function require(slug: string, audience: Audience): Promise<VendorRow> {
    const v = await vendors.get(slug, audience);
    if (!v) {
      const suggestion = await nearestVendor(slug, audience);
      throw new DomainError('not_found', `Unknown vendor '${slug}'${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`, suggestion ? { suggestion } : {});
    }
    return v;
  }

  return {
    require,

    async list(audience: Audience): Promise<VendorProfile[]> {
      return (await vendors.list(audience)).map(profile);
    },

    async count(audience: Audience): Promise<number> {
      return vendors.count(audience);
    },

    /**
     * Warnings for the vendors of `slugs` that are not monitored (no machine-readable status
     * source), in their order: following them is allowed, but shows nothing (docs/web.md
     * "Not monitored").
     */
    async notMonitoredWarnings(slugs: readonly string[], audience: Audience): Promise<string[]> {
      if (!slugs.length) return [];
      const wanted = new Set(slugs);
      const rows = (await vendors.list(audience)).filter((v) => wanted.has(v.slug) && !isMonitored(v));
      const bySlug = new Map(rows.map((v) => [v.slug, v.name]));
      return slugs.flatMap((s) => (bySlug.has(s) ? [notMonitoredWarning(bySlug.get(s)!)] : []));
    },

    /** Display name of every vendor this audience may see, by slug. */
    names(audience: Audience): Promise<Map<string, string>> {
      return vendors.names(audience);
    },

    async info(slug: string, audience: Audience): Promise<VendorProfile> {
      return profile(await require(slug, audience));
    },

    /** The slugs of `slugs` this audience may see, in their order (no error for the others). */
    async visible(slugs: string[], audience: Audience): Promise<string[]> {
      const found = await vendors.existing([...new Set(slugs)], audience);
      return slugs.filter((s) => found.has(s));
    },

    /** Throws 404 naming the unknown slugs, so a typo in a filter is not an empty result. */
    async requireAll(slugs: string[], audience: Audience): Promise<string[]> {
      const unique = [...new Set(slugs)];
      const found = await vendors.existing(unique, audience);
      const missing = unique.filter((s) => !found.has(s));
      if (missing.length) {
        const suggestion = await nearestVendor(missing[0]!, audience);
        throw new DomainError(
          'not_found',
          `Unknown vendor${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`,
          { vendors: missing, ...(suggestion ? { suggestion } : {}) },
        );
      }
      return unique;
    },

    async requireDataType(slug: string, dataType: DataType, audience: Audience): Promise<VendorRow> {
      const v = await require(slug, audience);
      if (!v.availableDataTypes.includes(dataType)) {
        throw notFound(`Vendor '${slug}' does not publish ${dataType}`);
      }
      return v;
    },

    async capabilities(slug: string, audience: Audience): Promise<VendorCapabilities> {
      const v = await require(slug, audience);
      const sources = await sourcesOf(slug);
      return {
        vendor: v.slug,
        monitored: isMonitored(v),
        monitoring: isMonitored(v) ? null : NOT_MONITORED,
        dataTypes: v.availableDataTypes,
        features: {
          // Status comes from a status source; advisory or release feeds alone give none.
          status: isMonitored(v),
          components: sources.some((s) => s.type !== 'advisory-feed' && s.type !== 'release-feed'),
          statistics: v.availableDataTypes.includes('incidents'),
          compliance: v.compliance.items.length > 0,
          stream: v.availableDataTypes.includes('incidents'),
        },
        sources,
      };
    },

    async compliance(slug: string, viewer: Viewer) {
      const v = await require(slug, audienceFor(viewer));
      if (!DEFAULT_PLAN_POLICIES[viewer.plan].compliance) {
        throw new DomainError('plan_required', 'Compliance data requires the Standard plan or higher', {
          currentPlan: viewer.plan,
          hint: 'Upgrade to Standard, Pro or Enterprise, then call this endpoint with an API key of that account.',
        });
      }
      const items = v.compliance.items;
      const scorecard: Record<string, number> = {};
      for (const i of items) scorecard[i.category] = (scorecard[i.category] ?? 0) + 1;
      const researched = items
        .map((i) => i.researchedAt)
        .filter((x): x is string => !!x)
        .sort();
      return {
        vendor: v.slug,
        sourceUrl: v.compliance.sourceUrl,
        sourceType: v.compliance.sourceUrl ? 'trust-page' : 'catalog',
        lastUpdated: researched.at(-1) ?? null,
        itemCount: items.length,
        message: items.length ? null : `No certifications are recorded for ${v.name} in the current snapshot`,
        items,
        scorecard: { total: items.length, ...scorecard },
      };
    },
  };
}

export type CatalogService = ReturnType<typeof catalogService>;
