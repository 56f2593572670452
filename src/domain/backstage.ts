import type { ConfigFile, ConfigService } from './org-config.ts';

// Backstage catalog entities as services of the config file (docs/services.md "From a
// Backstage catalog"). Pure: the caller parses the YAML documents.
//
// - kinds Component, System and Resource; other kinds are skipped;
// - an entity is a service when its annotation `vendor-status/dependencies` names vendors
//   ("stripe:API,github": comma-separated, `vendor` or `vendor:Component|Component`), or
//   when `spec.dependsOn` names an entity of the file that has that annotation (one level:
//   the dependency's vendors become the service's);
// - the service name is `metadata.name` in lower case with `_` read as `-`;
// - `vendor-status/criticality` sets the criticality; `metadata.tags` that are valid tags are kept.

export const DEPENDENCIES_ANNOTATION = 'vendor-status/dependencies';
export const CRITICALITY_ANNOTATION = 'vendor-status/criticality';
const KINDS = new Set(['component', 'system', 'resource']);

interface Entity {
  kind: string;
  name: string;
  ref: string;
  annotation: string | null;
  criticality: string | null;
  tags: string[];
  dependsOn: string[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function entityOf(doc: unknown): Entity | null {
  const d = obj(doc);
  const kind = str(d.kind)?.toLowerCase();
  const meta = obj(d.metadata);
  const name = str(meta.name);
  if (!kind || !KINDS.has(kind) || !name) return null;
  const annotations = obj(meta.annotations);
  const namespace = str(meta.namespace) ?? 'default';
  const spec = obj(d.spec);
  return {
    kind,
    name,
    ref: `${kind}:${namespace}/${name}`.toLowerCase(),
    annotation: str(annotations[DEPENDENCIES_ANNOTATION]),
    criticality: str(annotations[CRITICALITY_ANNOTATION]),
    tags: Array.isArray(meta.tags) ? meta.tags.filter((t): t is string => typeof t === 'string') : [],
    dependsOn: Array.isArray(spec.dependsOn) ? spec.dependsOn.filter((t): t is string => typeof t === 'string') : [],
  };
}

/** "stripe:API|Dashboard,github" → dependencies, in order, one per vendor. */
export function parseDependencyAnnotation(value: string): { vendor: string; components: string[] }[] {
  const out: { vendor: string; components: string[] }[] = [];
  for (const part of value.split(',')) {
    const [vendorRaw, comps] = [part.slice(0, part.includes(':') ? part.indexOf(':') : undefined), part.includes(':') ? part.slice(part.indexOf(':') + 1) : ''];
    const vendor = vendorRaw!.trim().toLowerCase();
    if (!vendor) continue;
    const components = comps
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean);
    const same = out.find((x) => x.vendor === vendor);
    if (same) same.components = same.components.length && components.length ? [...new Set([...same.components, ...components])] : [];
    else out.push({ vendor, components });
  }
  return out;
}

/** A reference of `dependsOn` ("resource:default/db", "resource:db", "db") in the key form of `Entity.ref`. */
function refKey(ref: string, fromKind: string): string {
  const lower = ref.toLowerCase();
  const [kind, rest] = lower.includes(':') ? [lower.slice(0, lower.indexOf(':')), lower.slice(lower.indexOf(':') + 1)] : [fromKind, lower];
  return `${kind}:${rest.includes('/') ? rest : `default/${rest}`}`;
}

const TAG = /^[a-z0-9]+(?:[-.:][a-z0-9]+)*$/;
const CRITICALITY = new Set(['critical', 'high', 'medium', 'low']);

/** The services of a catalog file, and which entities became which service. */
export function backstageServices(docs: readonly unknown[]): { file: ConfigFile; entities: string[] } {
  const entities = docs.map(entityOf).filter((e): e is Entity => e !== null);
  const byRef = new Map(entities.map((e) => [e.ref, e]));
  const services: ConfigService[] = [];
  const names: string[] = [];
  for (const e of entities) {
    const deps = e.annotation ? parseDependencyAnnotation(e.annotation) : [];
    for (const r of e.dependsOn) {
      const target = byRef.get(refKey(r, 'component'));
      if (!target?.annotation || target === e) continue;
      for (const x of parseDependencyAnnotation(target.annotation)) if (!deps.some((y) => y.vendor === x.vendor)) deps.push(x);
    }
    if (!deps.length) continue;
    const criticality = e.criticality?.toLowerCase();
    services.push({
      name: e.name.toLowerCase().replace(/_/g, '-'),
      ...(criticality && CRITICALITY.has(criticality) ? { criticality: criticality as ConfigService['criticality'] } : {}),
      tags: [...new Set(e.tags.map((t) => t.toLowerCase()).filter((t) => TAG.test(t) && t.length <= 40))].slice(0, 20),
      dependencies: deps.map((x) => ({ vendor: x.vendor, ...(x.components.length ? { components: x.components } : {}) })),
    });
    names.push(`${e.kind}:${e.name}`);
  }
  return { file: { version: 1, services }, entities: names };
}
