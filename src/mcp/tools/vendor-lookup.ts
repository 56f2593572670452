import { DomainError } from '../../domain/errors.ts';
import type { CatalogService, VendorProfile } from '../../services/catalog-service.ts';

// Assistants pass what the user said ("GitHub", "Amazon Web Services"), not
// always a slug. A vendor resolves by slug, by display name, or by a name that
// slugifies to the slug; anything else is a tool error that suggests close
// matches, never an empty answer.

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function match(all: VendorProfile[], input: string): VendorProfile | undefined {
  const raw = input.trim();
  const lower = raw.toLowerCase();
  return (
    all.find((v) => v.id === lower) ??
    all.find((v) => v.name.toLowerCase() === lower) ??
    all.find((v) => v.id === slugify(raw)) ??
    all.find((v) => slugify(v.name) === slugify(raw))
  );
}

function suggestions(all: VendorProfile[], input: string): string[] {
  const q = slugify(input);
  if (!q) return [];
  return all
    .filter((v) => v.id.includes(q) || slugify(v.name).includes(q) || (q.length >= 3 && q.includes(v.id)))
    .slice(0, 5)
    .map((v) => v.id);
}

function unknown(inputs: string[], all: VendorProfile[]): DomainError {
  const hints = [...new Set(inputs.flatMap((i) => suggestions(all, i)))];
  const quoted = inputs.map((i) => `'${i}'`).join(', ');
  const message =
    `Unknown vendor${inputs.length > 1 ? 's' : ''} ${quoted}.` +
    (hints.length ? ` Did you mean: ${hints.join(', ')}?` : '') +
    ' Call list_vendors to see every vendor id.';
  return new DomainError('not_found', message, { vendors: inputs });
}

export async function resolveVendor(catalog: CatalogService, input: string): Promise<VendorProfile> {
  const all = await catalog.list();
  const found = match(all, input);
  if (!found) throw unknown([input], all);
  return found;
}

/** Resolves every entry; one error names all the unknown ones. */
export async function resolveVendors(catalog: CatalogService, inputs: string[]): Promise<VendorProfile[]> {
  const all = await catalog.list();
  const found: VendorProfile[] = [];
  const missing: string[] = [];
  for (const input of inputs) {
    const v = match(all, input);
    if (v) {
      if (!found.includes(v)) found.push(v);
    } else missing.push(input);
  }
  if (missing.length) throw unknown(missing, all);
  return found;
}
