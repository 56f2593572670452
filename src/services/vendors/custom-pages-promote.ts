// Promotion of a user-added page to the public catalog (docs/catalog.md "Promoted
// pages"): an operator's decision, made with `cli sources promote`. The page becomes a
// catalog entry (returned, for the catalog file) and a public vendor in the store at
// once; the private vendor goes and its owner's watchlist follows the public slug.
import { createHash } from 'node:crypto';
import { isPrivateSlug, publicSlugOf } from '../../domain/custom-sources.ts';
import { DomainError, invalidParameter, notFound } from '../../domain/errors.ts';
import type { CatalogVendor } from '../../domain/records.ts';
import type { CustomPagesRepository } from '../../store/repositories/custom-pages-repository.ts';
import type { Clock } from '../../domain/clock.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface PromoteInput {
  slug: string;
  publicSlug?: string;
  name?: string;
  category: string;
  description?: string;
  website?: string;
  /** The catalog as it is (to refuse a taken slug and an unknown category). */
  catalog: CatalogVendor[];
  /**
   * The operator vouches for the page's host: its sources are polled as trusted catalog
   * sources. Without it they stay behind the outbound guard, since whoever named the page may
   * still control its DNS name (docs/catalog.md, "Promoted pages").
   */
  trust?: boolean;
}

/** Evidence of a detected page: the commit field holds the SHA-1 of the probe record (docs/catalog.md "Evidence"). */
export const probeEvidence = (type: string, url: string, at: string) => ({
  key: 'PROBE',
  commit: createHash('sha1').update(`${type} ${url} ${at}`).digest('hex'),
  gave: ['platform', 'endpoint'],
});

export async function promotePage(d: { customPages: CustomPagesRepository; clock: Clock }, input: PromoteInput): Promise<CatalogVendor> {
  const page = await d.customPages.find(input.slug);
  if (!page) throw notFound(`No user-added page '${input.slug}'`);
  const slug = input.publicSlug ?? publicSlugOf(page.slug);
  if (!SLUG.test(slug) || isPrivateSlug(slug)) throw invalidParameter('slug', `'${slug}' is not a public vendor slug`);
  if (input.catalog.some((v) => v.slug === slug)) throw new DomainError('conflict', `The catalog already has '${slug}'`);
  const categories = new Set(input.catalog.map((v) => v.category));
  if (!categories.has(input.category)) throw invalidParameter('category', `must be one of ${[...categories].sort().join(', ')}`);
  const name = input.name?.trim() || page.name;
  const now = d.clock.now();
  const first = page.sources[0]!;
  const entry: CatalogVendor = {
    slug,
    name,
    website: input.website ?? new URL(page.pageUrl).origin,
    category: input.category,
    description: input.description ?? `${name} status page.`,
    statusPageUrl: page.pageUrl,
    availableDataTypes: page.dataTypes,
    sources: page.sources.map((s) => ({
      type: s.type,
      url: s.url,
      ...(s.intervalSeconds !== null ? { intervalSeconds: s.intervalSeconds } : {}),
      ...(input.trust ? {} : { guarded: true }),
    })),
    compliance: { sourceUrl: null, items: [] },
    evidence: [probeEvidence(first.type, first.url, now.toISOString())],
  };
  if (!(await d.customPages.promote(page.slug, entry, now))) throw new DomainError('conflict', `A vendor '${slug}' exists already`);
  return entry;
}
