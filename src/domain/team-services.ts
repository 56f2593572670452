import { type Cloud, regionCandidates } from './regions.ts';

// An organisation's own services and the vendors they depend on (docs/services.md
// "Model"). These rules check a service as given, with no I/O; the use case checks what
// needs the store (vendors, components, the owner's alert route).

/** Services per organisation: 1,000 fit with room; the impact of one change reads them all. */
export const MAX_SERVICES = 2000;
export const MAX_DEPENDENCIES = 50;
export const MAX_DEPENDENCY_COMPONENTS = 100;
export const MAX_DEPENDENCY_REGIONS = 50;
export const MAX_TAGS = 20;
export const MAX_SERVICE_NAME = 64;
export const MAX_TAG = 40;
export const MAX_COMPONENT_ID = 200;

export const CRITICALITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Criticality = (typeof CRITICALITIES)[number];

export const DEPENDENCY_KINDS = ['hard', 'soft'] as const;
/** hard: the service fails when the vendor does; soft: it degrades or has a fallback. */
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];

/**
 * Service names are slug-like: lower-case letters, digits and single dashes or dots
 * between them, starting with a letter or digit, at most 64 characters (`checkout-api`,
 * `payments.worker`). They end up in alerts, URLs of the web pages and tool answers.
 */
export const SERVICE_NAME_PATTERN = '^[a-z0-9]+(?:[-.][a-z0-9]+)*$';
/** Tags: the same rule, 40 characters. */
export const TAG_PATTERN = '^[a-z0-9]+(?:[-.:][a-z0-9]+)*$';
const NAME = new RegExp(SERVICE_NAME_PATTERN);
const TAG = new RegExp(TAG_PATTERN);
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export interface Dependency {
  vendor: string;
  kind: DependencyKind;
  /** Component ids of the vendor (stable across renames); empty = the whole vendor. */
  components: string[];
  /** Region codes (docs/services.md "Regions"); empty = every region. */
  regions: string[];
}

export interface Service {
  id: string;
  orgId: string;
  name: string;
  /** An alert route of the same organisation that reaches the owning team. */
  ownerRouteId: string | null;
  criticality: Criticality;
  tags: string[];
  dependencies: Dependency[];
  createdAt: string;
  updatedAt: string;
}

export type Problem = { field: string; why: string };

/** The cloud a vendor's regions are read in, for places several clouds share ("Tokyo"). */
const CLOUD_OF_VENDOR: Record<string, Cloud> = { 'amazon-web-services': 'aws', 'google-cloud': 'gcp', 'microsoft-azure': 'azure' };
export const cloudOfVendor = (vendor: string): Cloud | undefined => CLOUD_OF_VENDOR[vendor];

export function nameProblem(name: string): string | null {
  if (typeof name !== 'string' || name.length > MAX_SERVICE_NAME || !NAME.test(name)) {
    return `must be 1-${MAX_SERVICE_NAME} lower-case letters, digits, and dashes or dots between them (e.g. checkout-api)`;
  }
  return null;
}

/**
 * Problems of a service's fields as given, and the dependencies in their normal form:
 * regions as codes, components and regions each once, in the order given.
 */
export function checkService(input: { name?: string; tags?: string[]; dependencies?: Dependency[] }): {
  problems: Problem[];
  dependencies?: Dependency[];
  tags?: string[];
} {
  const problems: Problem[] = [];
  if (input.name !== undefined) {
    const why = nameProblem(input.name);
    if (why) problems.push({ field: 'name', why });
  }
  let tags: string[] | undefined;
  if (input.tags !== undefined) {
    tags = [...new Set(input.tags)];
    if (tags.length > MAX_TAGS) problems.push({ field: 'tags', why: `at most ${MAX_TAGS} tags` });
    const bad = tags.find((t) => typeof t !== 'string' || t.length > MAX_TAG || !TAG.test(t));
    if (bad !== undefined)
      problems.push({ field: 'tags', why: `'${String(bad).slice(0, 40)}' is not a tag: lower-case letters, digits, and dashes, dots or colons between them` });
  }
  let dependencies: Dependency[] | undefined;
  if (input.dependencies !== undefined) {
    dependencies = [];
    if (input.dependencies.length > MAX_DEPENDENCIES) problems.push({ field: 'dependencies', why: `at most ${MAX_DEPENDENCIES} dependencies` });
    const seen = new Set<string>();
    input.dependencies.slice(0, MAX_DEPENDENCIES).forEach((d, i) => {
      const at = `dependencies[${i}]`;
      if (seen.has(d.vendor)) problems.push({ field: `${at}.vendor`, why: `'${d.vendor}' is named twice; one dependency per vendor` });
      seen.add(d.vendor);
      if (!(DEPENDENCY_KINDS as readonly string[]).includes(d.kind))
        problems.push({ field: `${at}.kind`, why: `must be one of ${DEPENDENCY_KINDS.join(', ')}` });
      const components = [...new Set(d.components)];
      if (components.length > MAX_DEPENDENCY_COMPONENTS) problems.push({ field: `${at}.components`, why: `at most ${MAX_DEPENDENCY_COMPONENTS} components` });
      const badComponent = components.find((c) => typeof c !== 'string' || !c || c.length > MAX_COMPONENT_ID || CONTROL.test(c));
      if (badComponent !== undefined) problems.push({ field: `${at}.components`, why: 'component ids are 1-200 characters without control characters' });
      if (d.regions.length > MAX_DEPENDENCY_REGIONS) problems.push({ field: `${at}.regions`, why: `at most ${MAX_DEPENDENCY_REGIONS} regions` });
      const regions: string[] = [];
      for (const text of d.regions.slice(0, MAX_DEPENDENCY_REGIONS)) {
        const found = typeof text === 'string' ? regionCandidates(text, cloudOfVendor(d.vendor)) : [];
        const shown = String(text).replace(new RegExp(CONTROL.source, 'g'), '?').slice(0, 64);
        if (found.length > 1) {
          problems.push({ field: `${at}.regions`, why: `'${shown}' names several regions (${found.map((r) => r.code).join(', ')}); give the code` });
        } else if (!found.length) {
          problems.push({ field: `${at}.regions`, why: `'${shown}' is not one known region (a code such as us-east-1, us-central1 or eastus)` });
        } else if (!regions.includes(found[0]!.code)) regions.push(found[0]!.code);
      }
      dependencies!.push({ vendor: d.vendor, kind: d.kind, components, regions });
    });
  }
  return { problems, dependencies, tags };
}
