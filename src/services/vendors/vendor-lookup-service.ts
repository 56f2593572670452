import { DomainError } from '../../domain/errors.ts';
import type { Audience } from '../../domain/audience.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';

// What a person typed, resolved to a vendor (used by the MCP tools, docs/mcp.md).
// Assistants pass what the user said ("GitHub", "Amazon Web Services"), not
// always a slug. A vendor resolves by slug, by display name, or by a name that
// slugifies to the slug; anything else is a tool error that suggests close
// matches, never an empty answer. Only slugs and names are read (one light query).

export interface VendorRef {
  id: string;
  name: string;
}

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function match(all: VendorRef[], input: string): VendorRef | undefined {
  const raw = input.trim();
  const lower = raw.toLowerCase();
  return (
    all.find((v) => v.id === lower) ??
    all.find((v) => v.name.toLowerCase() === lower) ??
    all.find((v) => v.id === slugify(raw)) ??
    all.find((v) => slugify(v.name) === slugify(raw))
  );
}

function suggestions(all: VendorRef[], input: string): string[] {
  const q = slugify(input);
  if (!q) return [];
  return all
    .filter((v) => v.id.includes(q) || slugify(v.name).includes(q) || (q.length >= 3 && q.includes(v.id)))
    .slice(0, 5)
    .map((v) => v.id);
}

function unknown(inputs: string[], all: VendorRef[]): DomainError {
  const hints = [...new Set(inputs.flatMap((i) => suggestions(all, i)))];
  const quoted = inputs.map((i) => `'${i}'`).join(', ');
  const message =
    `Unknown vendor${inputs.length > 1 ? 's' : ''} ${quoted}.` +
    (hints.length ? ` Did you mean: ${hints.join(', ')}?` : '') +
    ' Call list_vendors to see every vendor id.';
  return new DomainError('not_found', message, { vendors: inputs });
}

async function refs(vendors: VendorsRepository, audience: Audience): Promise<VendorRef[]> {
  return [...(await vendors.names(audience))].map(([id, name]) => ({ id, name })).sort((a, b) => a.id.localeCompare(b.id));
}

async function resolveVendor(vendors: VendorsRepository, input: string, audience: Audience): Promise<VendorRef> {
  const all = await refs(vendors, audience);
  const found = match(all, input);
  if (!found) throw unknown([input], all);
  return found;
}

/** Resolves every entry; one error names all the unknown ones. */
async function resolveVendors(vendors: VendorsRepository, inputs: string[], audience: Audience): Promise<VendorRef[]> {
  const all = await refs(vendors, audience);
  const found: VendorRef[] = [];
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

export function vendorLookupService(vendors: VendorsRepository) {
  return {
    /** One vendor by slug or name; a not_found error with close matches otherwise. */
    resolve: (input: string, audience: Audience) => resolveVendor(vendors, input, audience),
    /** Every entry resolved; one error names all the unknown ones. */
    resolveAll: (inputs: string[], audience: Audience) => resolveVendors(vendors, inputs, audience),
  };
}
