import { regionsNamedIn, regionTagOf } from './regions.ts';
import { CRITICALITIES, type Criticality, type Dependency, type DependencyKind } from './team-services.ts';

// Which of an organisation's services a vendor's incident or maintenance may hit, how sure
// that is, and why (docs/services.md "Impact rules"). Pure: the use case reads the records,
// the components and the services; these rules only compare them.

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** A component a record lists: its id when the vendor's component list knows the name. */
export interface RecordComponent {
  id: string | null;
  name: string;
}

/** An incident, a maintenance or an early-warning signal as the rules read it. */
export interface ImpactRecord {
  kind: 'incident' | 'maintenance' | 'signal';
  id: string;
  vendor: string;
  title: string;
  /** Where `title` comes from in a reason ("us-east-1 named in the evidence"); default "the title". */
  titlePlace?: string;
  components: RecordComponent[];
  updates: { createdAt: string; body: string }[];
}

/** The part of a service the rules read. */
export interface ImpactService {
  id: string;
  name: string;
  criticality: Criticality;
  dependencies: Dependency[];
}

export interface ServiceImpact {
  serviceId: string;
  serviceName: string;
  criticality: Criticality;
  dependencyKind: DependencyKind;
  confidence: Confidence;
  /** Why, in words: "component 'Actions' listed", "us-east-1 named in the 14:02 update". */
  reasons: string[];
}

/** A record's component names read against the vendor's components (id → current name). */
export function recordComponents(names: readonly string[], known: ReadonlyMap<string, string> | undefined): RecordComponent[] {
  const byName = new Map<string, string>();
  for (const [id, name] of known ?? []) {
    const key = name.toLowerCase();
    // A name two components share points at neither.
    byName.set(key, byName.has(key) ? '' : id);
  }
  return names.map((name) => {
    const id = byName.get(name.toLowerCase()) || (known?.has(name) ? name : null);
    return { id, name };
  });
}

/** Services by the vendors they depend on, built once for many records. */
export type ImpactIndex = ReadonlyMap<string, { service: ImpactService; dependency: Dependency }[]>;

export function impactIndex(services: readonly ImpactService[]): ImpactIndex {
  const out = new Map<string, { service: ImpactService; dependency: Dependency }[]>();
  for (const service of services) {
    for (const dependency of service.dependencies) {
      const list = out.get(dependency.vendor) ?? [];
      list.push({ service, dependency });
      out.set(dependency.vendor, list);
    }
  }
  return out;
}

const hhmm = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(11, 16);
};

/** Where a record names each region: the title, a listed component's region tag, or the first update (oldest) that does. */
function regionMentions(record: ImpactRecord): Map<string, string> {
  const where = new Map<string, string>();
  const note = (text: string, place: string) => {
    for (const m of regionsNamedIn(text)) if (!where.has(m.region.code)) where.set(m.region.code, place);
  };
  note(record.title, record.titlePlace ?? 'the title');
  // A listed component of one service in one region carries that region (docs/mappings.md "Cloud depth").
  for (const c of record.components) {
    const tag = regionTagOf(c.name);
    if (tag && !where.has(tag.code)) where.set(tag.code, `the listed component '${c.name}'`);
  }
  const updates = [...record.updates].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const u of updates) {
    const at = hhmm(u.createdAt);
    note(u.body, at ? `the ${at} update` : 'an update');
  }
  return where;
}

const lower = (c: Confidence): Confidence => (c === 'high' ? 'medium' : 'low');
const RANK: Record<Confidence, number> = { high: 0, medium: 1, low: 2 };
const CRIT: Record<Criticality, number> = Object.fromEntries(CRITICALITIES.map((c, i) => [c, i])) as Record<Criticality, number>;

/**
 * One dependency against one record: null when the record rules the dependency out
 * (its components are listed and none is ours; it names regions and none is ours).
 */
function judge(record: ImpactRecord, dep: Dependency, regions: Map<string, string>): { confidence: Confidence; reasons: string[] } | null {
  const reasons: string[] = [];
  let confidence: Confidence | null = null;
  const listed = dep.components.length ? record.components.filter((c) => c.id !== null && dep.components.includes(c.id)) : [];
  for (const c of listed) reasons.push(`component '${c.name}' listed`);
  if (listed.length) confidence = 'high';
  const named = dep.regions.filter((r) => regions.has(r));
  for (const r of named) reasons.push(`${r} named in ${regions.get(r)}`);
  if (named.length && confidence === null) confidence = 'medium';
  if (confidence === null) {
    // Only components the vendor's list knows can rule ours out: a name it does not know
    // (a source without a component list) says nothing about our ids.
    const known = record.components.filter((c) => c.id !== null).length;
    const componentsRuledOut = dep.components.length > 0 && known > 0;
    const regionsRuledOut = dep.regions.length > 0 && regions.size > 0;
    if (componentsRuledOut || regionsRuledOut) return null;
    if (!dep.components.length && !dep.regions.length) reasons.push(`the dependency on ${record.vendor} names no components or regions`);
    else {
      if (dep.components.length) {
        reasons.push(
          record.components.length ? `the ${record.kind} lists no component of ${record.vendor}'s component list` : `the ${record.kind} lists no components`,
        );
      }
      if (dep.regions.length) reasons.push(`the ${record.kind} names no region`);
    }
    confidence = 'low';
  }
  if (dep.kind === 'soft') {
    confidence = lower(confidence);
    reasons.push('soft dependency');
  }
  return { confidence, reasons };
}

/** The services a record may hit, most certain and most critical first. */
export function affectedServices(record: ImpactRecord, index: ImpactIndex): ServiceImpact[] {
  const candidates = index.get(record.vendor);
  if (!candidates?.length) return [];
  const regions = regionMentions(record);
  const out: ServiceImpact[] = [];
  for (const { service, dependency } of candidates) {
    const j = judge(record, dependency, regions);
    if (!j) continue;
    out.push({
      serviceId: service.id,
      serviceName: service.name,
      criticality: service.criticality,
      dependencyKind: dependency.kind,
      confidence: j.confidence,
      reasons: j.reasons,
    });
  }
  return out.sort((a, b) => RANK[a.confidence] - RANK[b.confidence] || CRIT[a.criticality] - CRIT[b.criticality] || a.serviceName.localeCompare(b.serviceName));
}

export const moreCertain = (a: Confidence, b: Confidence): Confidence => (RANK[a] <= RANK[b] ? a : b);
export const confidenceRank = (c: Confidence) => RANK[c];

/**
 * An early-warning signal as the impact rules read it (docs/services.md "Impact rules"): the
 * components its evidence names (read against the vendor's list, like a record's), and the
 * regions it names and its evidence's summaries as the text regions are looked for in.
 */
export function signalImpactRecord(
  signal: { id: string; vendor: string; components: readonly string[]; regions: readonly string[] },
  summaries: readonly string[],
  known: ReadonlyMap<string, string> | undefined,
): ImpactRecord {
  return {
    kind: 'signal',
    id: signal.id,
    vendor: signal.vendor,
    title: [...signal.regions, ...summaries].join('\n'),
    titlePlace: 'the evidence',
    components: recordComponents(signal.components, known),
    updates: [],
  };
}
