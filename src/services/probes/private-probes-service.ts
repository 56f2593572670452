import { randomUUID } from 'node:crypto';
import { audienceOf } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { invalidPreferences } from '../../domain/preferences.ts';
import {
  type Credential,
  DEFAULT_PRIVATE_INTERVAL_SECONDS,
  MAX_PRIVATE_PROBES,
  type PrivateProbeInput,
  type PrivateProbeKind,
  privateProbeProblems,
  privateProbeState,
} from '../../domain/private-probes.ts';
import { type ProbeSpec, probeTarget, statsOf } from '../../domain/probes.ts';
import type { PrivateProbesRepository } from '../../store/repositories/private-probes-repository.ts';
import type { ProbeRow } from '../../store/repositories/probes-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';

// An organisation's private probes (docs/early-warning.md "Private probes"): editors write
// them, members read them with their state. The credential's value is taken once and never
// answered, audited or logged: answers and the audit log carry its header name and last four
// characters. The runner (src/probes/) measures them with the catalog's probes.

export interface PrivateProbeView {
  id: string;
  vendor: string;
  kind: PrivateProbeKind;
  target: string;
  /** Statuses that count as good (http only). */
  expect: number[] | null;
  intervalSeconds: number;
  credential: { name: string; lastFour: string } | null;
  /** `unknown` before the first sample; `credential_rejected` while the vendor refuses the credential (401/403). */
  state: 'unknown' | 'ok' | 'anomalous' | 'credential_rejected';
  reason: string | null;
  samples: number;
  p50Ms: number | null;
  p99Ms: number | null;
  errorRate: number | null;
  lastSampleAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type PrivateProbeChange = Partial<PrivateProbeInput>;

const specOf = (kind: PrivateProbeKind, target: string, expect: number[] | undefined): ProbeSpec =>
  kind === 'http' ? { kind, url: target, expect: [...new Set(expect ?? [200])].sort((a, b) => a - b) } : { kind, host: target };

/** A private probe as answered: its state and figures, its credential as a name and last four only. */
export function privateProbeView(p: ProbeRow): PrivateProbeView {
  const s = statsOf(p.samples);
  const state = privateProbeState(p.samples, p.anomalous);
  const last = p.samples[p.samples.length - 1];
  return {
    id: p.id,
    vendor: p.vendor,
    kind: p.spec.kind as PrivateProbeKind,
    target: probeTarget(p.spec),
    expect: p.spec.kind === 'http' ? p.spec.expect : null,
    intervalSeconds: p.intervalSeconds ?? DEFAULT_PRIVATE_INTERVAL_SECONDS,
    credential: p.credentialName ? { name: p.credentialName, lastFour: p.credentialLastFour ?? '' } : null,
    state,
    reason: state === 'credential_rejected' ? (last?.reason ?? null) : p.anomalyReason,
    samples: s.samples,
    p50Ms: s.p50,
    p99Ms: s.p99,
    errorRate: s.errorRate,
    lastSampleAt: p.lastSampleAt,
    createdAt: p.createdAt ?? p.updatedAt,
    updatedAt: p.updatedAt,
  };
}

/** What the audit log keeps of a probe: never the credential's value. */
const audited = (p: ProbeRow) => ({
  vendor: p.vendor,
  kind: p.spec.kind,
  target: probeTarget(p.spec),
  intervalSeconds: p.intervalSeconds,
  credential: p.credentialName ? { name: p.credentialName, lastFour: p.credentialLastFour } : null,
});

export function privateProbesService(d: {
  privateProbes: PrivateProbesRepository;
  catalog: Pick<CatalogService, 'require'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  allowPrivate: readonly string[];
}) {
  const missing = () => notFound('No such probe');
  const acting = async (viewer: Viewer, orgId: string, role: 'viewer' | 'editor') => {
    const v = await d.orgs.actingIn(viewer, orgId);
    return { v, owner: ownerOrg(v, role) };
  };
  /** Checks the probe as it would be saved; unknown vendor 404, anything else wrong 400. */
  const checked = async (owner: string, p: PrivateProbeInput) => {
    const vendor = await d.catalog.require(p.vendor, audienceOf(owner));
    const problems = privateProbeProblems(p, { allowList: d.allowPrivate, hostnames: vendor.hostnames ?? [] });
    if (problems.length) throw invalidPreferences(problems);
  };

  return {
    async list(viewer: Viewer, orgId: string, vendor?: string): Promise<PrivateProbeView[]> {
      const { owner } = await acting(viewer, orgId, 'viewer');
      return (await d.privateProbes.list(owner, vendor)).map(privateProbeView);
    },
    async get(viewer: Viewer, orgId: string, id: string): Promise<PrivateProbeView> {
      const { owner } = await acting(viewer, orgId, 'viewer');
      const p = await d.privateProbes.get(owner, id);
      if (!p) throw missing();
      return privateProbeView(p);
    },
    async create(viewer: Viewer, orgId: string, input: PrivateProbeInput): Promise<PrivateProbeView> {
      const { v, owner } = await acting(viewer, orgId, 'editor');
      await checked(owner, input);
      if ((await d.privateProbes.count(owner)) >= MAX_PRIVATE_PROBES)
        throw new DomainError('conflict', `At most ${MAX_PRIVATE_PROBES} private probes per organisation`);
      const id = `prp_${randomUUID().replace(/-/g, '')}`;
      const spec = specOf(input.kind, input.target, input.expect);
      await d.privateProbes.create({
        id,
        orgId: owner,
        vendor: input.vendor,
        spec,
        target: probeTarget(spec),
        intervalSeconds: input.intervalSeconds ?? DEFAULT_PRIVATE_INTERVAL_SECONDS,
        credential: input.credential ?? null,
        now: d.clock.now().toISOString(),
      });
      const made = (await d.privateProbes.get(owner, id))!;
      await d.audit.record(owner, v, 'private_probe.created', `probe:${id}`, { after: audited(made) });
      return privateProbeView(made);
    },
    async update(viewer: Viewer, orgId: string, id: string, change: PrivateProbeChange): Promise<PrivateProbeView> {
      const { v, owner } = await acting(viewer, orgId, 'editor');
      const before = await d.privateProbes.get(owner, id);
      if (!before) throw missing();
      const kind = change.kind ?? (before.spec.kind as PrivateProbeKind);
      const target = change.target ?? probeTarget(before.spec);
      const expect = change.expect ?? (before.spec.kind === 'http' && kind === 'http' ? before.spec.expect : undefined);
      // The probe as it would be: a kept credential counts against a kind that cannot send one.
      const keeps: Credential | null =
        change.credential === undefined && before.credentialName ? { name: before.credentialName, value: 'kept-credential' } : null;
      await checked(owner, {
        vendor: change.vendor ?? before.vendor,
        kind,
        target,
        expect: change.expect,
        intervalSeconds: change.intervalSeconds,
        credential: change.credential ?? keeps,
      });
      const spec = specOf(kind, target, expect);
      const specChanged = JSON.stringify(spec) !== JSON.stringify(before.spec);
      await d.privateProbes.update(owner, id, {
        vendor: change.vendor,
        ...(specChanged ? { spec, target: probeTarget(spec) } : {}),
        intervalSeconds: change.intervalSeconds,
        credential: change.credential,
        now: d.clock.now().toISOString(),
      });
      const after = (await d.privateProbes.get(owner, id))!;
      await d.audit.record(owner, v, 'private_probe.updated', `probe:${id}`, {
        before: audited(before),
        after: { ...audited(after), credentialChanged: change.credential !== undefined },
      });
      return privateProbeView(after);
    },
    async delete(viewer: Viewer, orgId: string, id: string): Promise<void> {
      const { v, owner } = await acting(viewer, orgId, 'editor');
      const p = await d.privateProbes.get(owner, id);
      if (!p || !(await d.privateProbes.delete(owner, id))) throw missing();
      await d.audit.record(owner, v, 'private_probe.deleted', `probe:${id}`, { before: audited(p) });
    },
  };
}

export type PrivateProbesService = ReturnType<typeof privateProbesService>;
