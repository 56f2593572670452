import { randomUUID } from 'node:crypto';
import { audienceOf } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  DEFAULT_RULES,
  type EarlyWarningRules,
  fuse,
  type IncidentFacts,
  incidentConfirms,
  isQuiet,
  type Observation,
  type ObservationSource,
  REPORT_STRENGTH,
  scopeOf,
  type Signal,
  type SignalState,
  confidenceOf,
  takesObservations,
  canMove,
} from '../../domain/early-warning.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import type { DispatchRepository } from '../../store/repositories/dispatch-repository.ts';
import type { EarlyWarningRepository, SignalDetail, StoredObservation } from '../../store/repositories/early-warning-repository.ts';
import type { EventsRepository } from '../../store/repositories/events-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import type { AlertAffectedService } from '../../domain/alert-impact.ts';
import type { SignalImpact } from '../impact/signal-impact.ts';

// Early warning's use cases (docs/early-warning.md): an observation arrives (an inbound
// signal, a member's report; probes and telemetry later, through `observe`), is stored
// and fused with the organisation's recent ones about the vendor under the organisation's
// row lock; the vendor's new incidents confirm matching signals; a timer clears quiet
// ones; editors dismiss false alarms. Each change of a signal is told to `notify` (the
// stream of the owning organisation's members), after it is written.

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;

/** What a member's or a system's observation says, before it is stored. */
export interface ObservationInput {
  source: ObservationSource;
  vendor: string;
  components?: string[];
  regions?: string[];
  strength: number;
  summary: string;
  actor: string;
  externalId?: string | null;
}

export type SignalChangeKind = 'opened' | 'confirmed' | 'cleared' | 'dismissed';

/** What the stream of the owning organisation's members is told. */
export interface SignalNotice {
  orgId: string;
  change: SignalChangeKind;
  signal: SignalView;
}

/** A signal as answers show it: the domain's, without its organisation and evidence ids. */
export type SignalView = Omit<Signal, 'orgId' | 'evidence'>;

export interface ObservationView {
  id: string;
  source: ObservationSource;
  vendor: string;
  components: string[];
  regions: string[];
  strength: number;
  summary: string;
  observedAt: string;
  externalId: string | null;
}

export interface SignalDetailView extends SignalView {
  /** The organisation's services the signal may hit (docs/services.md "Impact of signals"); empty when none. */
  affectedServices: AlertAffectedService[];
  evidence: ObservationView[];
  transitions: { from: SignalState | null; to: SignalState; at: string; actor: string; reason: string }[];
}

export const signalView = (s: Signal): SignalView => ({
  id: s.id,
  vendor: s.vendor,
  state: s.state,
  confidence: s.confidence,
  components: s.components,
  regions: s.regions,
  openedAt: s.openedAt,
  updatedAt: s.updatedAt,
  lastObservedAt: s.lastObservedAt,
  incidentId: s.incidentId,
});

const observationView = (o: StoredObservation | (Observation & { externalId?: string | null })): ObservationView => ({
  id: o.id,
  source: o.source,
  vendor: o.vendor,
  components: o.components,
  regions: o.regions,
  strength: o.strength,
  summary: o.summary,
  observedAt: o.observedAt,
  externalId: o.externalId ?? null,
});

const detailView = (d: SignalDetail, affected: AlertAffectedService[] = []): SignalDetailView => ({
  ...signalView(d.signal),
  affectedServices: affected,
  evidence: d.observations.map(observationView),
  transitions: d.transitions.map((t) => ({ from: t.from, to: t.to, at: t.at, actor: t.actor, reason: t.reason })),
});

/** Reports a member may make: one per vendor every REPORT_SPACING_MS, REPORTS_PER_HOUR in all. */
export const REPORT_SPACING_MS = 5 * 60_000;
export const REPORTS_PER_HOUR = 30;
/** Signals a list answers at most. */
export const MAX_SIGNAL_LIST = 200;
/** Observations that became evidence of no signal are kept this long (the report bounds read the last hour). */
export const LOOSE_OBSERVATION_MS = 24 * 3_600_000;
/** Quiet signals one sweep clears at most (the next sweep takes the rest). */
const SWEEP_BATCH = 500;
/** The cursor of confirmation over the event log (beside the alert dispatcher's). */
export const CONFIRM_CURSOR = 'early-warning';
const LOG_PAGE = 500;

export function earlyWarningService(d: {
  earlyWarning: EarlyWarningRepository;
  /** The event log and the cursor over it that confirmation reads (new incidents). */
  events: Pick<EventsRepository, 'after' | 'latestSeq'>;
  cursors: Pick<DispatchRepository, 'ensureCursor' | 'cursor'>;
  catalog: Pick<CatalogService, 'requireAll'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  rules?: EarlyWarningRules;
  /** The services of the organisation each signal may hit; none without. */
  impactOf?: SignalImpact;
  /** How long a signal that ended is kept with its evidence (docs/early-warning.md "Retention"); forever without. */
  retentionMs?: number;
  notify?: (n: SignalNotice) => void;
  /** A false alarm was dismissed: its evidence, for the sources that tune themselves by it (probes). */
  onDismissed?: (evidence: readonly { source: string; actor: string }[]) => Promise<unknown>;
}) {
  const rules = d.rules ?? DEFAULT_RULES;
  const tell = (orgId: string, change: SignalChangeKind, s: Signal) => d.notify?.({ orgId, change, signal: signalView(s) });

  /** Detail views with the organisation's services each signal may hit. */
  async function withImpact(orgId: string, rows: SignalDetail[]): Promise<SignalDetailView[]> {
    const hits = d.impactOf
      ? await d.impactOf(
          orgId,
          rows.map((r) => ({
            id: r.signal.id,
            vendor: r.signal.vendor,
            components: r.signal.components,
            regions: r.signal.regions,
            summaries: r.observations.map((o) => o.summary),
          })),
        )
      : new Map<string, AlertAffectedService[]>();
    return rows.map((r) => detailView(r, hits.get(r.signal.id) ?? []));
  }

  /**
   * Stores one observation of an organisation and fuses: joins the signal about the
   * vendor that takes observations, or opens one when the rules say so.
   */
  async function observe(orgId: string, input: ObservationInput): Promise<{ observation: ObservationView; signal: SignalView | null }> {
    const now = d.clock.now();
    const at = now.toISOString();
    const o: Observation & { externalId: string | null } = {
      id: newId('obs'),
      orgId,
      source: input.source,
      vendor: input.vendor,
      components: [...new Set(input.components ?? [])],
      regions: [...new Set(input.regions ?? [])],
      strength: Math.min(Math.max(input.strength, 0), 1),
      observedAt: at,
      summary: input.summary,
      actor: input.actor,
      externalId: input.externalId ?? null,
    };
    const outcome = await d.earlyWarning.locked(orgId, async (r) => {
      const active = await r.latestActive(orgId, o.vendor);
      if (active && takesObservations(active, now, rules)) {
        await r.addObservation({ ...o, signalId: active.id });
        const all = await r.observationsSince(orgId, o.vendor, active.openedAt);
        const joined = all.filter((x) => x.id === o.id || active.evidence.includes(x.id));
        const scope = scopeOf(joined);
        const next: Signal = {
          ...active,
          ...scope,
          confidence: Math.max(active.confidence, confidenceOf(joined.filter((x) => Date.parse(x.observedAt) >= now.getTime() - rules.windowMs))),
          lastObservedAt: at,
          updatedAt: at,
          evidence: joined.map((x) => x.id),
        };
        await r.updateSignal(active.id, next);
        return { signal: next, opened: false };
      }
      await r.addObservation(o);
      const since = await r.lastClosedAt(orgId, o.vendor);
      const recent = await r.observationsSince(orgId, o.vendor, new Date(now.getTime() - rules.windowMs).toISOString());
      const fused = fuse(recent, now, rules, since);
      if (!fused.open) return { signal: null, opened: false };
      const s: Signal = {
        id: newId('sig'),
        orgId,
        vendor: o.vendor,
        state: 'suspected',
        confidence: fused.confidence,
        ...scopeOf(fused.evidence),
        openedAt: at,
        updatedAt: at,
        lastObservedAt: at,
        incidentId: null,
        evidence: fused.evidence.map((x) => x.id),
      };
      await r.createSignal(s);
      await r.attachObservations(s.id, s.evidence);
      await r.addOpening({ id: newId('sgt'), signalId: s.id, from: null, to: 'suspected', at, actor: 'system', reason: fused.reason });
      return { signal: s, opened: true };
    });
    if (outcome.opened && outcome.signal) tell(orgId, 'opened', outcome.signal);
    return { observation: observationView(o), signal: outcome.signal ? signalView(outcome.signal) : null };
  }

  /** Whether this process made (or found) confirmation's cursor row (confirmFromLog). */
  let cursorMade = false;

  async function incidentsSeen(incidents: readonly IncidentFacts[]): Promise<number> {
    let confirmed = 0;
    for (const i of incidents) {
      const started = Date.parse(i.startedAt);
      if (Number.isNaN(started)) continue;
      // A cleared signal is confirmed only by an incident that began within the lag after its last observation.
      const clearedSince = new Date(started - rules.confirmLagMs).toISOString();
      for (const s of await d.earlyWarning.confirmableAbout(i.vendor, clearedSince)) {
        if (!incidentConfirms(s, i, rules)) continue;
        const late = s.state === 'cleared' ? ' after the signal had cleared' : '';
        if (await move(s, 'confirmed', 'ingest', `the vendor posted incident ${i.id}${late}`, { incidentId: i.id })) confirmed++;
      }
    }
    return confirmed;
  }

  /** Moves a signal and tells the stream; false when another change got there first. */
  async function move(s: Signal, to: SignalState, actor: string, reason: string, extra: { incidentId?: string } = {}): Promise<Signal | null> {
    if (!canMove(s.state, to)) return null;
    const at = d.clock.now().toISOString();
    const ok = await d.earlyWarning.move({ id: newId('sgt'), signalId: s.id, from: s.state, to, at, actor, reason }, extra);
    if (!ok) return null;
    const next: Signal = { ...s, state: to, updatedAt: at, incidentId: extra.incidentId ?? s.incidentId };
    tell(s.orgId, to as SignalChangeKind, next);
    return next;
  }

  return {
    observe,

    /** A member says "we see problems with X" (docs/early-warning.md "Reports"): viewers and up. */
    async report(viewer: Viewer, orgId: string, input: { vendor: string; components?: string[]; regions?: string[]; summary?: string }) {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'viewer');
      const [vendor] = await d.catalog.requireAll([input.vendor], audienceOf(owner));
      const actor = v.userId ? `user:${v.userId}` : `key:${v.keyId ?? 'unknown'}`;
      const now = d.clock.now();
      const counts = await d.earlyWarning.reportCounts(owner, actor, vendor!, new Date(now.getTime() - 3_600_000).toISOString());
      const spacingLeft = counts.vendorLatest ? Date.parse(counts.vendorLatest) + REPORT_SPACING_MS - now.getTime() : 0;
      if (spacingLeft > 0) {
        throw new DomainError(
          'rate_limit_exceeded',
          `You reported ${vendor} less than ${REPORT_SPACING_MS / 60_000} minutes ago; one report per vendor every ${REPORT_SPACING_MS / 60_000} minutes`,
          {
            retryAfter: Math.ceil(spacingLeft / 1000),
          },
        );
      }
      if (counts.all >= REPORTS_PER_HOUR)
        throw new DomainError('rate_limit_exceeded', `At most ${REPORTS_PER_HOUR} reports an hour per member; try again later`, { retryAfter: 600 });
      return observe(owner, {
        source: 'report',
        vendor: vendor!,
        components: input.components,
        regions: input.regions,
        strength: REPORT_STRENGTH,
        summary: input.summary ?? '',
        actor,
      });
    },

    /** The organisation's signals with evidence and transitions (members). */
    async list(viewer: Viewer, orgId: string, f: { state?: SignalState; vendor?: string; limit?: number } = {}): Promise<SignalDetailView[]> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'viewer');
      const rows = await d.earlyWarning.list(owner, { state: f.state, vendor: f.vendor, limit: Math.min(f.limit ?? 50, MAX_SIGNAL_LIST) });
      return withImpact(owner, rows);
    },

    /** A false alarm (editors): suspected or confirmed to dismissed. */
    async dismiss(viewer: Viewer, orgId: string, signalId: string, reason: string | undefined): Promise<SignalDetailView> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const owner = ownerOrg(v, 'editor');
      const s = await d.earlyWarning.get(owner, signalId);
      if (!s) throw notFound('No such signal');
      if (!canMove(s.state, 'dismissed')) throw new DomainError('conflict', `The signal is ${s.state} already`, { state: s.state });
      const actor = v.userId ? `user:${v.userId}` : `key:${v.keyId ?? 'unknown'}`;
      const moved = await move(s, 'dismissed', actor, reason?.trim() || 'marked a false alarm');
      if (!moved) throw new DomainError('conflict', 'The signal changed meanwhile; read it again');
      await d.audit.record(owner, v, 'signal.dismissed', `signal:${s.id}`, {
        before: { state: s.state },
        after: { state: 'dismissed', reason: reason ?? null },
      });
      const [detail] = await d.earlyWarning.list(owner, { id: s.id, limit: 1 });
      if (d.onDismissed) await d.onDismissed(detail!.observations.map((o) => ({ source: o.source, actor: o.actor })));
      return (await withImpact(owner, [detail!]))[0]!;
    },

    /** Suspected and confirmed signals of the viewer's organisation (the vendor page marker); none for anonymous callers. */
    async activeFor(viewer: Viewer): Promise<Map<string, { id: string; state: SignalState; confidence: number; openedAt: string }>> {
      const out = new Map<string, { id: string; state: SignalState; confidence: number; openedAt: string }>();
      if (!viewer.orgId) return out;
      for (const s of await d.earlyWarning.activeVendors(viewer.orgId))
        out.set(s.vendor, { id: s.id, state: s.state, confidence: s.confidence, openedAt: s.openedAt });
      return out;
    },

    /** New vendor incidents: matching suspected signals become confirmed. */
    incidentsSeen,

    /**
     * Reads the event log after confirmation's cursor (made at the log's head on first
     * use: incidents from before early warning existed confirm nothing) and confirms
     * with every new incident (`incident.created`). Idempotent: a signal moves once,
     * so two instances reading the same page confirm it once.
     */
    async confirmFromLog(): Promise<number> {
      // The cursor row is made once per process, then only read: an insert on every pass is a
      // write, and on SQLite a write on the API thread waits for the ingestion worker's lock
      // (docs/ingestion.md "Profile of a round").
      let cursor: number;
      if (cursorMade) cursor = await d.cursors.cursor(CONFIRM_CURSOR);
      else {
        cursor = await d.cursors.ensureCursor(CONFIRM_CURSOR, await d.events.latestSeq(), d.clock.now());
        cursorMade = true;
      }
      let confirmed = 0;
      for (;;) {
        const page = await d.events.after(cursor, LOG_PAGE);
        if (!page.length) return confirmed;
        const facts: IncidentFacts[] = [];
        for (const e of page) {
          if (e.type !== 'incident.created') continue;
          facts.push({ id: e.entityId, vendor: e.vendor, components: e.payload.components ?? [], regions: [], startedAt: e.payload.startedAt ?? e.occurredAt });
        }
        confirmed += await incidentsSeen(facts);
        const to = page[page.length - 1]!.seq;
        if (!(await d.earlyWarning.advanceCursor(CONFIRM_CURSOR, cursor, to, d.clock.now().toISOString()))) return confirmed;
        cursor = to;
      }
    },

    /** Clears suspected signals quiet for the quiet period (the periodic sweep). */
    async sweep(): Promise<number> {
      const now = d.clock.now();
      const quiet = await d.earlyWarning.quietSince(new Date(now.getTime() - rules.quietMs).toISOString(), SWEEP_BATCH);
      let cleared = 0;
      for (const s of quiet) {
        if (!isQuiet(s, now, rules)) continue;
        if (await move(s, 'cleared', 'system', `no observation for ${Math.round(rules.quietMs / 60_000)} min and no incident`)) cleared++;
      }
      await d.earlyWarning.pruneLoose(new Date(now.getTime() - LOOSE_OBSERVATION_MS).toISOString());
      return cleared;
    },

    /**
     * Forgets signals that ended longer ago than the retention, with their evidence and
     * transitions (at most a batch per run; the next run takes the rest). Suspected signals
     * are never forgotten. How many went.
     */
    async prune(): Promise<{ signals: number; observations: number }> {
      if (d.retentionMs === undefined) return { signals: 0, observations: 0 };
      return d.earlyWarning.pruneSignals(new Date(d.clock.now().getTime() - d.retentionMs).toISOString(), SWEEP_BATCH);
    },
  };
}

export type EarlyWarningService = ReturnType<typeof earlyWarningService>;
