import type { Kysely } from 'kysely';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { QueryState, TelemetryQuery } from '../../domain/telemetry.ts';
import type { Database } from '../schema.ts';
import { claimLeases } from './lease-claim.ts';
import { openSecret, resealColumn } from './sealed-values.ts';

// Telemetry connectors of organisations (docs/early-warning.md "Prometheus connectors").
// Every read and write names the organisation; the evaluator's claim is the one exception
// (it runs for every organisation, like the probes' runner), and writes back only under its
// lease. The bearer token is sealed with the secrets key and opened only for the evaluator.

export interface ConnectorRow {
  id: string;
  orgId: string;
  name: string;
  baseUrl: string;
  tokenLastFour: string | null;
  queries: TelemetryQuery[];
  enabled: boolean;
  states: (QueryState | null)[];
  health: 'unknown' | 'ok' | 'unhealthy';
  lastError: string | null;
  lastEvaluatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const toRow = (r: Database['telemetry_connectors']): ConnectorRow => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  baseUrl: r.base_url,
  tokenLastFour: r.token_last_four,
  queries: parse<TelemetryQuery[]>(r.queries, []),
  enabled: Number(r.enabled) === 1,
  states: parse<(QueryState | null)[]>(r.query_states, []),
  health: r.health as ConnectorRow['health'],
  lastError: r.last_error,
  lastEvaluatedAt: r.last_evaluated_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A claimed connector: its token opened, for the evaluator only. */
export interface ClaimedConnector extends ConnectorRow {
  token: string | null;
  /** The token could not be opened (sealed with a key this instance does not have). */
  tokenUnreadable: boolean;
}

export interface NewConnector {
  id: string;
  orgId: string;
  name: string;
  baseUrl: string;
  token: string | null;
  queries: TelemetryQuery[];
  enabled: boolean;
  now: string;
}

export function telemetryRepository(db: Kysely<Database>, box: SecretBox) {
  return {
    async list(orgId: string): Promise<ConnectorRow[]> {
      return (await db.selectFrom('telemetry_connectors').selectAll().where('org_id', '=', orgId).orderBy('name').execute()).map(toRow);
    },
    async get(orgId: string, id: string): Promise<ConnectorRow | null> {
      const r = await db.selectFrom('telemetry_connectors').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return r ? toRow(r) : null;
    },
    async count(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('telemetry_connectors')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async nameTaken(orgId: string, name: string, except: string | null): Promise<boolean> {
      let q = db.selectFrom('telemetry_connectors').select('id').where('org_id', '=', orgId).where('name', '=', name);
      if (except) q = q.where('id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },
    async create(c: NewConnector): Promise<void> {
      await db
        .insertInto('telemetry_connectors')
        .values({
          id: c.id,
          org_id: c.orgId,
          name: c.name,
          base_url: c.baseUrl,
          token: c.token === null ? null : box.seal(c.token),
          token_last_four: c.token === null ? null : c.token.slice(-4),
          queries: JSON.stringify(c.queries),
          enabled: c.enabled ? 1 : 0,
          query_states: '[]',
          health: 'unknown',
          last_error: null,
          last_evaluated_at: null,
          next_run_at: null,
          lease_owner: null,
          lease_until: null,
          created_at: c.now,
          updated_at: c.now,
        })
        .execute();
    },
    /** Changes what is given; new queries or URL forget the evaluation state (it was of other queries). */
    async update(
      orgId: string,
      id: string,
      c: { name?: string; baseUrl?: string; token?: string | null; queries?: TelemetryQuery[]; enabled?: boolean; now: string },
    ): Promise<boolean> {
      const reset = c.queries !== undefined || c.baseUrl !== undefined;
      const r = await db
        .updateTable('telemetry_connectors')
        .set({
          ...(c.name !== undefined ? { name: c.name } : {}),
          ...(c.baseUrl !== undefined ? { base_url: c.baseUrl } : {}),
          ...(c.token !== undefined
            ? { token: c.token === null ? null : box.seal(c.token), token_last_four: c.token === null ? null : c.token.slice(-4) }
            : {}),
          ...(c.queries !== undefined ? { queries: JSON.stringify(c.queries) } : {}),
          ...(c.enabled !== undefined ? { enabled: c.enabled ? 1 : 0 } : {}),
          ...(reset ? { query_states: '[]', health: 'unknown', last_error: null, last_evaluated_at: null, next_run_at: null } : {}),
          updated_at: c.now,
        })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('telemetry_connectors').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    /**
     * Takes the leases of due, enabled connectors of every organisation, with their tokens
     * opened; a token this instance cannot open is `tokenUnreadable` (the round goes on).
     */
    async claim(o: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedConnector[]> {
      const rows = await claimLeases(db, 'telemetry_connectors', {
        ...o,
        dueColumn: 'next_run_at',
        overdueFirst: null,
        where: (eb) => eb('enabled', '=', 1),
      });
      return rows.map((r) => {
        const opened = openSecret(box, r.token);
        return { ...toRow(r), token: opened.value, tokenUnreadable: opened.unreadable };
      });
    },

    /** After a rotation: bearer tokens sealed with the current key (docs/security.md "Channel secrets"). */
    resealTokens: () => resealColumn(db, box, { table: 'telemetry_connectors', key: 'id', column: 'token' }),

    /** Writes an evaluation and frees the lease; false when `owner` lost it (or the queries changed meanwhile). */
    async complete(
      id: string,
      owner: string,
      r: { states: QueryState[]; health: 'ok' | 'unhealthy'; lastError: string | null; at: string; nextRunAt: string; queries: TelemetryQuery[] },
    ): Promise<boolean> {
      const out = await db
        .updateTable('telemetry_connectors')
        .set({
          query_states: JSON.stringify(r.states),
          health: r.health,
          last_error: r.lastError,
          last_evaluated_at: r.at,
          next_run_at: r.nextRunAt,
          lease_owner: null,
          lease_until: null,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('queries', '=', JSON.stringify(r.queries))
        .executeTakeFirst();
      return Number(out.numUpdatedRows) === 1;
    },
  };
}

export type TelemetryRepository = ReturnType<typeof telemetryRepository>;
