import { randomUUID } from 'node:crypto';
import { audienceOf } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { invalidPreferences } from '../../domain/preferences.ts';
import {
  connectorProblems,
  evaluate,
  MAX_CONNECTORS,
  type PromAnswer,
  type QueryState,
  readPromAnswer,
  TELEMETRY_BREACH_STRENGTH,
  TELEMETRY_CLEAR_STRENGTH,
  type TelemetryQuery,
  TOKEN_UNREADABLE,
} from '../../domain/telemetry.ts';
import type { ConnectorRow, TelemetryRepository } from '../../store/repositories/telemetry-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { EarlyWarningService } from '../early-warning/early-warning-service.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';

// Prometheus connectors of an organisation (docs/early-warning.md "Prometheus connectors"):
// admins write them, members read them with their health. An evaluator (src/probes/) claims
// due connectors under a lease, runs each query through the `query` function it is given
// (the guarded HTTP client) and hands the answers here: a value above the threshold for the
// duration becomes a `telemetry` observation of the owning organisation; a query that fails
// marks the connector unhealthy, shown in its answer, and stops nothing else.

export interface ConnectorInput {
  name: string;
  baseUrl: string;
  token?: string | null;
  queries: TelemetryQuery[];
  enabled?: boolean;
}

export interface ConnectorView {
  id: string;
  name: string;
  baseUrl: string;
  /** The bearer token's last four characters; never the token. */
  token: { lastFour: string } | null;
  enabled: boolean;
  /** `unknown` until the first evaluation. */
  health: 'unknown' | 'ok' | 'unhealthy';
  lastError: string | null;
  lastEvaluatedAt: string | null;
  queries: (TelemetryQuery & { value: number | null; aboveSince: string | null; breaching: boolean; error: string | null; evaluatedAt: string | null })[];
  createdAt: string;
  updatedAt: string;
}

const view = (c: ConnectorRow): ConnectorView => ({
  id: c.id,
  name: c.name,
  baseUrl: c.baseUrl,
  token: c.tokenLastFour ? { lastFour: c.tokenLastFour } : null,
  enabled: c.enabled,
  health: c.health,
  lastError: c.lastError,
  lastEvaluatedAt: c.lastEvaluatedAt,
  queries: c.queries.map((q, i) => {
    const s = c.states[i] ?? null;
    return {
      ...q,
      value: s?.value ?? null,
      aboveSince: s?.aboveSince ?? null,
      breaching: s?.breaching ?? false,
      error: s?.error ?? null,
      evaluatedAt: s?.evaluatedAt ?? null,
    };
  }),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** Runs one instant query; the status and body text, or throws (timeout, refused, reset). */
export type PromQuery = (baseUrl: string, token: string | null, query: string) => Promise<{ status: number; text: string }>;

export function telemetryService(d: {
  telemetry: TelemetryRepository;
  signals: Pick<EarlyWarningService, 'observe'>;
  catalog: Pick<CatalogService, 'requireAll'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  allowPrivate: readonly string[];
  intervalMs: number;
}) {
  const missing = () => notFound('No such telemetry connector');
  const refuse = (problems: { field: string; why: string }[]) => {
    if (problems.length) throw invalidPreferences(problems);
  };
  async function checked(owner: string, input: Partial<ConnectorInput>, except: string | null) {
    refuse(connectorProblems({ baseUrl: input.baseUrl, queries: input.queries }, d.allowPrivate));
    if (input.queries) {
      const vendors = await d.catalog.requireAll([...new Set(input.queries.map((q) => q.vendor))], audienceOf(owner));
      if (!vendors.length) throw new DomainError('invalid_parameter', "Invalid parameter 'queries': at least one", { parameter: 'queries' });
    }
    if (input.name !== undefined && (await d.telemetry.nameTaken(owner, input.name, except))) {
      throw new DomainError('conflict', `The organisation already has a telemetry connector named '${input.name}'`, { parameter: 'name' });
    }
  }
  const acting = async (viewer: Viewer, orgId: string, role: 'viewer' | 'admin') => {
    const v = await d.orgs.actingIn(viewer, orgId);
    return { v, owner: ownerOrg(v, role) };
  };

  return {
    async list(viewer: Viewer, orgId: string): Promise<ConnectorView[]> {
      const { owner } = await acting(viewer, orgId, 'viewer');
      return (await d.telemetry.list(owner)).map(view);
    },
    async get(viewer: Viewer, orgId: string, id: string): Promise<ConnectorView> {
      const { owner } = await acting(viewer, orgId, 'viewer');
      const c = await d.telemetry.get(owner, id);
      if (!c) throw missing();
      return view(c);
    },
    async create(viewer: Viewer, orgId: string, input: ConnectorInput): Promise<ConnectorView> {
      const { v, owner } = await acting(viewer, orgId, 'admin');
      await checked(owner, input, null);
      if ((await d.telemetry.count(owner)) >= MAX_CONNECTORS)
        throw new DomainError('conflict', `At most ${MAX_CONNECTORS} telemetry connectors per organisation`);
      const id = `tlm_${randomUUID().replace(/-/g, '')}`;
      await d.telemetry.create({
        id,
        orgId: owner,
        name: input.name,
        baseUrl: input.baseUrl,
        token: input.token ?? null,
        queries: input.queries,
        enabled: input.enabled ?? true,
        now: d.clock.now().toISOString(),
      });
      const made = (await d.telemetry.get(owner, id))!;
      await d.audit.record(owner, v, 'telemetry_connector.created', `telemetry_connector:${id}`, {
        after: { name: made.name, baseUrl: made.baseUrl, queries: made.queries.length },
      });
      return view(made);
    },
    async update(viewer: Viewer, orgId: string, id: string, input: Partial<ConnectorInput>): Promise<ConnectorView> {
      const { v, owner } = await acting(viewer, orgId, 'admin');
      const before = await d.telemetry.get(owner, id);
      if (!before) throw missing();
      await checked(owner, input, id);
      await d.telemetry.update(owner, id, { ...input, now: d.clock.now().toISOString() });
      const after = (await d.telemetry.get(owner, id))!;
      await d.audit.record(owner, v, 'telemetry_connector.updated', `telemetry_connector:${id}`, {
        before: { name: before.name, baseUrl: before.baseUrl, enabled: before.enabled, queries: before.queries.length },
        after: { name: after.name, baseUrl: after.baseUrl, enabled: after.enabled, queries: after.queries.length, tokenChanged: input.token !== undefined },
      });
      return view(after);
    },
    async delete(viewer: Viewer, orgId: string, id: string): Promise<void> {
      const { v, owner } = await acting(viewer, orgId, 'admin');
      const c = await d.telemetry.get(owner, id);
      if (!c || !(await d.telemetry.delete(owner, id))) throw missing();
      await d.audit.record(owner, v, 'telemetry_connector.deleted', `telemetry_connector:${id}`, { before: { name: c.name, baseUrl: c.baseUrl } });
    },

    /**
     * One round of the evaluator: claims due connectors, runs their queries (one connector's
     * failure never stops another's), writes states and health, observes breaches.
     */
    async evaluateDue(
      owner: string,
      query: PromQuery,
      o: { limit: number; leaseMs: number },
    ): Promise<{ evaluated: number; observations: number; unhealthy: number }> {
      const due = await d.telemetry.claim({ owner, now: d.clock.now(), leaseMs: o.leaseMs, limit: o.limit });
      let observations = 0;
      let unhealthy = 0;
      await Promise.all(
        due.map(async (c) => {
          const states: QueryState[] = [];
          const errors: string[] = [];
          const toObserve: { q: TelemetryQuery; strength: number; summary: string }[] = [];
          for (const [i, q] of c.queries.entries()) {
            let answer: PromAnswer;
            // Without its token the query would only be refused: none is sent (like a private probe's credential).
            if (c.tokenUnreadable) answer = { ok: false, error: TOKEN_UNREADABLE };
            else
              try {
                const r = await query(c.baseUrl, c.token, q.query);
                answer = readPromAnswer(r.status, r.text);
              } catch (err) {
                const e = err as { name?: string; code?: string };
                answer = {
                  ok: false,
                  error:
                    e?.name === 'TimeoutError' || e?.name === 'AbortError'
                      ? 'timeout'
                      : e?.code === 'ERR_BLOCKED_DESTINATION'
                        ? 'refused: not a public address'
                        : (e?.code ?? 'failed'),
                };
              }
            const { state, verdict } = evaluate(c.states[i] ?? null, q, answer, d.clock.now());
            states.push(state);
            if (state.error) errors.push(`queries[${i}] (${q.vendor}): ${state.error}`);
            if (verdict === 'breach')
              toObserve.push({ q, strength: TELEMETRY_BREACH_STRENGTH, summary: `${c.name}: ${state.value} above ${q.threshold} since ${state.aboveSince}` });
            if (verdict === 'cleared') toObserve.push({ q, strength: TELEMETRY_CLEAR_STRENGTH, summary: `${c.name}: back at or below ${q.threshold}` });
          }
          const now = d.clock.now();
          const written = await d.telemetry.complete(c.id, owner, {
            states,
            health: errors.length ? 'unhealthy' : 'ok',
            lastError: errors.length ? errors.join('; ').slice(0, 1000) : null,
            at: now.toISOString(),
            nextRunAt: new Date(now.getTime() + d.intervalMs).toISOString(),
            queries: c.queries,
          });
          if (!written) return;
          if (errors.length) unhealthy++;
          for (const x of toObserve) {
            await d.signals.observe(c.orgId, {
              source: 'telemetry',
              vendor: x.q.vendor,
              strength: x.strength,
              summary: x.summary.slice(0, 500),
              actor: `telemetry:${c.id}`,
            });
            observations++;
          }
        }),
      );
      return { evaluated: due.length, observations, unhealthy };
    },
  };
}

export type TelemetryService = ReturnType<typeof telemetryService>;
