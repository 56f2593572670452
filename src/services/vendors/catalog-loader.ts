import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPrivateSlug } from '../../domain/custom-sources.ts';
import { isCatalogHost } from '../../domain/diagnose.ts';
import { probeSpecProblem } from '../../domain/probes.ts';
import { DATA_TYPES, SOURCE_TYPES, type CatalogVendor } from '../../domain/records.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';

export const DEFAULT_CATALOG_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../catalog/vendors.json');

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Reads and checks the catalog file; a broken catalog stops start-up with the offending entry named. */
export function readCatalog(file = DEFAULT_CATALOG_PATH): CatalogVendor[] {
  const list = JSON.parse(fs.readFileSync(file, 'utf8')) as CatalogVendor[];
  if (!Array.isArray(list)) throw new Error(`${file}: expected an array of vendors`);
  const seen = new Set<string>();
  for (const v of list) {
    const where = `${file}: vendor '${v?.slug}'`;
    if (!v || typeof v.slug !== 'string' || !SLUG.test(v.slug)) throw new Error(`${where}: bad slug`);
    if (seen.has(v.slug)) throw new Error(`${where}: duplicate slug`);
    // The shape of user-added pages' slugs is theirs alone (docs/per-user.md "Custom status pages").
    if (isPrivateSlug(v.slug)) throw new Error(`${where}: slug has the shape of a private page (u-<12 hex>-...)`);
    seen.add(v.slug);
    for (const f of ['name', 'website', 'category', 'description', 'statusPageUrl'] as const) {
      if (typeof v[f] !== 'string') throw new Error(`${where}: '${f}' must be a string`);
    }
    if (!Array.isArray(v.availableDataTypes) || v.availableDataTypes.some((t) => !DATA_TYPES.includes(t))) {
      throw new Error(`${where}: bad availableDataTypes`);
    }
    if (!Array.isArray(v.sources) || v.sources.some((s) => !SOURCE_TYPES.includes(s.type) || typeof s.url !== 'string')) {
      throw new Error(`${where}: bad sources`);
    }
    if (!v.compliance || !Array.isArray(v.compliance.items)) throw new Error(`${where}: bad compliance`);
    if (v.hostnames !== undefined && (!Array.isArray(v.hostnames) || v.hostnames.some((h) => typeof h !== 'string' || !isCatalogHost(h)))) {
      throw new Error(`${where}: bad hostnames (lower-case DNS names, e.g. api.example.com)`);
    }
    if (v.probes !== undefined) {
      if (!Array.isArray(v.probes)) throw new Error(`${where}: probes must be a list`);
      v.probes.forEach((p, i) => {
        const problem = probeSpecProblem(p, v.hostnames);
        if (problem) throw new Error(`${where}: probe ${i + 1}: ${problem}`);
      });
    }
    if (
      v.evidence !== undefined &&
      (!Array.isArray(v.evidence) || v.evidence.some((e) => typeof e?.key !== 'string' || typeof e.commit !== 'string' || !Array.isArray(e.gave)))
    ) {
      throw new Error(`${where}: bad evidence`);
    }
  }
  return list;
}

export async function loadCatalog(vendors: VendorsRepository, catalog: CatalogVendor[], now: Date): Promise<void> {
  await vendors.upsertCatalog(catalog, now);
}
