import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Observation, ObservationSource, Signal, SignalState, SignalTransition } from '../../domain/early-warning.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { Database, EwObservationsTable, EwSignalsTable } from '../schema.ts';
import { chunks, ID_CHUNK } from './delivery-rows.ts';
import { fromJson, toJson } from './json.ts';
import { openOrUnavailable, resealColumn } from './sealed-values.ts';

// Early warning (docs/early-warning.md): observations, signals and their transitions, the
// inbound signing secret (sealed here on write, opened on read) and the inbound message
// ids of the replay check. Every method an API call reaches takes the organisation id;
// confirmation and clearing read across organisations (they act on what ingestion and
// the clock say, for every organisation alike). `locked` runs a use case's reads and
// writes under the organisation's row lock, so two observations arriving together never
// open two signals about one vendor.

const toObservation = (r: EwObservationsTable): Observation => ({
  id: r.id,
  orgId: r.org_id,
  source: r.source as ObservationSource,
  vendor: r.vendor,
  components: fromJson<string[]>(r.components, []),
  regions: fromJson<string[]>(r.regions, []),
  strength: r.strength_pm / 1000,
  observedAt: r.observed_at,
  summary: r.summary,
  actor: r.actor,
});

export interface StoredObservation extends Observation {
  signalId: string | null;
  externalId: string | null;
}

const toStored = (r: EwObservationsTable): StoredObservation => ({ ...toObservation(r), signalId: r.signal_id, externalId: r.external_id });

const toSignal = (r: EwSignalsTable, evidence: string[]): Signal => ({
  id: r.id,
  orgId: r.org_id,
  vendor: r.vendor,
  state: r.state as SignalState,
  confidence: r.confidence_pc / 100,
  components: fromJson<string[]>(r.components, []),
  regions: fromJson<string[]>(r.regions, []),
  openedAt: r.opened_at,
  updatedAt: r.updated_at,
  lastObservedAt: r.last_observed_at,
  incidentId: r.incident_id,
  evidence,
});

export interface SignalDetail {
  signal: Signal;
  observations: StoredObservation[];
  transitions: SignalTransition[];
}

export interface SignalChange {
  confidence: number;
  components: string[];
  regions: string[];
  lastObservedAt: string;
  updatedAt: string;
}

const CLOSED: SignalState[] = ['cleared', 'dismissed'];

function over(db: Kysely<Database>, box: SecretBox) {
  const evidenceOf = async (ids: string[]) => {
    const out = new Map<string, StoredObservation[]>();
    for (const part of chunks(ids, ID_CHUNK)) {
      const rows = await db.selectFrom('ew_observations').selectAll().where('signal_id', 'in', part).orderBy('observed_at').orderBy('id').execute();
      for (const r of rows) {
        const list = out.get(r.signal_id!) ?? [];
        list.push(toStored(r));
        out.set(r.signal_id!, list);
      }
    }
    return out;
  };
  const withEvidence = async (rows: EwSignalsTable[]): Promise<Signal[]> => {
    const ev = await evidenceOf(rows.map((r) => r.id));
    return rows.map((r) =>
      toSignal(
        r,
        (ev.get(r.id) ?? []).map((o) => o.id),
      ),
    );
  };

  return {
    async addObservation(o: Observation & { externalId?: string | null; signalId?: string | null }): Promise<void> {
      await db
        .insertInto('ew_observations')
        .values({
          id: o.id,
          org_id: o.orgId,
          signal_id: o.signalId ?? null,
          source: o.source,
          vendor: o.vendor,
          components: toJson(o.components),
          regions: toJson(o.regions),
          strength_pm: Math.round(o.strength * 1000),
          summary: o.summary,
          actor: o.actor,
          external_id: o.externalId ?? null,
          observed_at: o.observedAt,
        })
        .execute();
    },

    /** The organisation's observations about a vendor at or after `from` (fusion's window). */
    async observationsSince(orgId: string, vendor: string, from: string): Promise<Observation[]> {
      const rows = await db
        .selectFrom('ew_observations')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('vendor', '=', vendor)
        .where('observed_at', '>=', from)
        .orderBy('observed_at')
        .orderBy('id')
        .execute();
      return rows.map(toObservation);
    },

    async attachObservations(signalId: string, ids: string[]): Promise<void> {
      for (const part of chunks(ids, ID_CHUNK))
        await db.updateTable('ew_observations').set({ signal_id: signalId }).where('id', 'in', part).where('signal_id', 'is', null).execute();
    },

    /** The organisation's newest suspected or confirmed signal about the vendor. */
    async latestActive(orgId: string, vendor: string): Promise<Signal | null> {
      const r = await db
        .selectFrom('ew_signals')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('vendor', '=', vendor)
        .where('state', 'in', ['suspected', 'confirmed'])
        .orderBy('opened_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return r ? (await withEvidence([r]))[0]! : null;
    },

    /** When the organisation's last signal about the vendor closed (cleared or dismissed). */
    async lastClosedAt(orgId: string, vendor: string): Promise<string | null> {
      const r = await db
        .selectFrom('ew_signals')
        .select((eb) => eb.fn.max('closed_at').as('at'))
        .where('org_id', '=', orgId)
        .where('vendor', '=', vendor)
        .where('state', 'in', CLOSED)
        .executeTakeFirst();
      return (r?.at as string | null | undefined) ?? null;
    },

    async createSignal(s: Signal): Promise<void> {
      await db
        .insertInto('ew_signals')
        .values({
          id: s.id,
          org_id: s.orgId,
          vendor: s.vendor,
          state: s.state,
          confidence_pc: Math.round(s.confidence * 100),
          components: toJson(s.components),
          regions: toJson(s.regions),
          opened_at: s.openedAt,
          updated_at: s.updatedAt,
          last_observed_at: s.lastObservedAt,
          closed_at: null,
          incident_id: null,
        })
        .execute();
    },

    async updateSignal(signalId: string, c: SignalChange): Promise<void> {
      await db
        .updateTable('ew_signals')
        .set({
          confidence_pc: Math.round(c.confidence * 100),
          components: toJson(c.components),
          regions: toJson(c.regions),
          last_observed_at: c.lastObservedAt,
          updated_at: c.updatedAt,
        })
        .where('id', '=', signalId)
        .execute();
    },

    /**
     * Moves a signal from `from` to `to` when it is still in `from` (a conditional update:
     * a signal dismissed meanwhile is not also cleared); records the transition. False when
     * it was not in `from` any more. Run it in a transaction (`locked`, or `move` below).
     */
    async move(t: SignalTransition & { id: string; from: SignalState }, extra: { incidentId?: string } = {}): Promise<boolean> {
      const r = await db
        .updateTable('ew_signals')
        .set({
          state: t.to,
          updated_at: t.at,
          ...(CLOSED.includes(t.to) ? { closed_at: t.at } : {}),
          ...(extra.incidentId ? { incident_id: extra.incidentId } : {}),
        })
        .where('id', '=', t.signalId)
        .where('state', '=', t.from)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      const { n } = await db
        .selectFrom('ew_transitions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('signal_id', '=', t.signalId)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ew_transitions')
        .values({ id: t.id, signal_id: t.signalId, position: Number(n), from_state: t.from, to_state: t.to, at: t.at, actor: t.actor, reason: t.reason })
        .execute();
      return true;
    },

    /** The opening transition of a signal just created. */
    async addOpening(t: SignalTransition & { id: string }): Promise<void> {
      await db
        .insertInto('ew_transitions')
        .values({ id: t.id, signal_id: t.signalId, position: 0, from_state: t.from, to_state: t.to, at: t.at, actor: t.actor, reason: t.reason })
        .execute();
    },

    async get(orgId: string, id: string): Promise<Signal | null> {
      const r = await db.selectFrom('ew_signals').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return r ? (await withEvidence([r]))[0]! : null;
    },

    /** The organisation's signals, newest first, with evidence and transitions. */
    async list(orgId: string, f: { state?: SignalState; vendor?: string; id?: string; limit: number }): Promise<SignalDetail[]> {
      let q = db.selectFrom('ew_signals').selectAll().where('org_id', '=', orgId);
      if (f.id) q = q.where('id', '=', f.id);
      if (f.state) q = q.where('state', '=', f.state);
      if (f.vendor) q = q.where('vendor', '=', f.vendor);
      const rows = await q.orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
      if (!rows.length) return [];
      const ev = await evidenceOf(rows.map((r) => r.id));
      const tr = new Map<string, SignalTransition[]>();
      for (const part of chunks(
        rows.map((r) => r.id),
        ID_CHUNK,
      )) {
        const ts = await db.selectFrom('ew_transitions').selectAll().where('signal_id', 'in', part).orderBy('signal_id').orderBy('position').execute();
        for (const t of ts) {
          const list = tr.get(t.signal_id) ?? [];
          list.push({
            signalId: t.signal_id,
            from: t.from_state as SignalState | null,
            to: t.to_state as SignalState,
            at: t.at,
            actor: t.actor,
            reason: t.reason,
          });
          tr.set(t.signal_id, list);
        }
      }
      return rows.map((r) => {
        const observations = ev.get(r.id) ?? [];
        return {
          signal: toSignal(
            r,
            observations.map((o) => o.id),
          ),
          observations,
          transitions: tr.get(r.id) ?? [],
        };
      });
    },

    /** Vendors of the organisations' suspected or confirmed signals, for the vendor page marker. */
    async activeVendors(orgId: string): Promise<{ vendor: string; state: SignalState; id: string; confidence: number; openedAt: string }[]> {
      const rows = await db
        .selectFrom('ew_signals')
        .select(['id', 'vendor', 'state', 'confidence_pc', 'opened_at'])
        .where('org_id', '=', orgId)
        .where('state', 'in', ['suspected', 'confirmed'])
        .execute();
      return rows.map((r) => ({ id: r.id, vendor: r.vendor, state: r.state as SignalState, confidence: r.confidence_pc / 100, openedAt: r.opened_at }));
    },

    /**
     * Signals about a vendor that an incident may confirm, whatever their organisation: the
     * suspected ones, and those cleared with a last observation at or after `clearedSince`.
     */
    async confirmableAbout(vendor: string, clearedSince: string): Promise<Signal[]> {
      const rows = await db
        .selectFrom('ew_signals')
        .selectAll()
        .where('vendor', '=', vendor)
        .where((w) => w.or([w('state', '=', 'suspected'), w.and([w('state', '=', 'cleared'), w('last_observed_at', '>=', clearedSince)])]))
        .execute();
      return withEvidence(rows);
    },

    /** Suspected signals whose last observation is at or before `before`, whatever their organisation. */
    async quietSince(before: string, limit: number): Promise<Signal[]> {
      const rows = await db
        .selectFrom('ew_signals')
        .selectAll()
        .where('state', '=', 'suspected')
        .where('last_observed_at', '<=', before)
        .orderBy('last_observed_at')
        .limit(limit)
        .execute();
      return rows.map((r) => toSignal(r, []));
    },

    /** Forgets observations that are evidence of no signal and older than `before`; how many. */
    async pruneLoose(before: string): Promise<number> {
      const r = await db.deleteFrom('ew_observations').where('signal_id', 'is', null).where('observed_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /**
     * Forgets signals that ended before `before`, with their evidence and transitions, at
     * most `limit` of them: cleared or dismissed ones by when they closed, confirmed ones by
     * their last observation (a confirmed signal stays confirmed; long after its quiet period
     * it takes nothing more). A suspected signal is never forgotten, whatever its age.
     */
    async pruneSignals(before: string, limit: number): Promise<{ signals: number; observations: number }> {
      return db.transaction().execute(async (trx) => {
        const ended = (eb: ExpressionBuilder<Database, 'ew_signals'>) =>
          eb.or([
            eb.and([eb('state', 'in', CLOSED), eb('closed_at', '<', before)]),
            eb.and([eb('state', '=', 'confirmed'), eb('last_observed_at', '<', before)]),
          ]);
        const rows = await trx.selectFrom('ew_signals').select('id').where(ended).orderBy('opened_at').limit(limit).execute();
        let signals = 0;
        let observations = 0;
        for (const part of chunks(
          rows.map((r) => r.id),
          ID_CHUNK,
        )) {
          const o = await trx.deleteFrom('ew_observations').where('signal_id', 'in', part).executeTakeFirst();
          observations += Number(o.numDeletedRows);
          await trx.deleteFrom('ew_transitions').where('signal_id', 'in', part).execute();
          const s = await trx.deleteFrom('ew_signals').where('id', 'in', part).where(ended).executeTakeFirst();
          signals += Number(s.numDeletedRows);
        }
        return { signals, observations };
      });
    },

    /**
     * Transitions at or after `from` (and after `after`, the last of the page before) with
     * their signals and the signals' evidence (newest first), oldest transition first, at most
     * `limit`: what early-warning alerts are written from.
     */
    async transitionsSince(
      from: string,
      limit: number,
      after: { at: string; id: string } | null = null,
    ): Promise<{ transition: SignalTransition & { id: string }; signal: Signal; evidence: StoredObservation[] }[]> {
      let q = db.selectFrom('ew_transitions').selectAll().where('at', '>=', from);
      // Paging: strictly after the last one of the page before, in (at, id) order.
      if (after) q = q.where((eb) => eb.or([eb('at', '>', after.at), eb.and([eb('at', '=', after.at), eb('id', '>', after.id)])]));
      const ts = await q.orderBy('at').orderBy('id').limit(limit).execute();
      if (!ts.length) return [];
      const ids = [...new Set(ts.map((t) => t.signal_id))];
      const rows: EwSignalsTable[] = [];
      for (const part of chunks(ids, ID_CHUNK)) rows.push(...(await db.selectFrom('ew_signals').selectAll().where('id', 'in', part).execute()));
      const ev = await evidenceOf(ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ts.flatMap((t) => {
        const r = byId.get(t.signal_id);
        if (!r) return [];
        const evidence = [...(ev.get(r.id) ?? [])].reverse();
        return [
          {
            transition: {
              id: t.id,
              signalId: t.signal_id,
              from: t.from_state as SignalState | null,
              to: t.to_state as SignalState,
              at: t.at,
              actor: t.actor,
              reason: t.reason,
            },
            signal: toSignal(
              r,
              evidence.map((o) => o.id),
            ),
            evidence,
          },
        ];
      });
    },

    /** Signals the given vendor incidents confirmed, per organisation: `${orgId}\u0000${incidentId}` → signal id. */
    async confirmedBy(incidentIds: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (const part of chunks(incidentIds, ID_CHUNK)) {
        const rows = await db.selectFrom('ew_signals').select(['id', 'org_id', 'incident_id']).where('incident_id', 'in', part).orderBy('opened_at').execute();
        for (const r of rows) {
          const key = `${r.org_id}\u0000${r.incident_id}`;
          if (!out.has(key)) out.set(key, r.id);
        }
      }
      return out;
    },

    /** Reports a member made since `from`, in all and about the vendor. */
    async reportCounts(orgId: string, actor: string, vendor: string, from: string): Promise<{ all: number; vendorLatest: string | null }> {
      const rows = await db
        .selectFrom('ew_observations')
        .select(['vendor', 'observed_at'])
        .where('org_id', '=', orgId)
        .where('actor', '=', actor)
        .where('source', '=', 'report')
        .where('observed_at', '>=', from)
        .execute();
      const mine = rows
        .filter((r) => r.vendor === vendor)
        .map((r) => r.observed_at)
        .sort();
      return { all: rows.length, vendorLatest: mine.at(-1) ?? null };
    },

    /** Moves a named cursor over the event log from `from` to `to`; false when another instance moved it first. */
    async advanceCursor(name: string, from: number, to: number, now: string): Promise<boolean> {
      const r = await db.updateTable('alert_cursors').set({ seq: to, updated_at: now }).where('name', '=', name).where('seq', '=', from).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async secret(orgId: string): Promise<{ secret: string; lastFour: string; createdAt: string } | null> {
      const r = await db.selectFrom('ew_inbound_secrets').selectAll().where('org_id', '=', orgId).executeTakeFirst();
      return r
        ? { secret: openOrUnavailable(box, r.secret, "This organisation's early-warning signing secret is"), lastFour: r.last_four, createdAt: r.created_at }
        : null;
    },

    async setSecret(orgId: string, secret: string, by: string | null, now: string): Promise<void> {
      const row = { org_id: orgId, secret: box.seal(secret), last_four: secret.slice(-4), created_by: by, created_at: now };
      await db
        .insertInto('ew_inbound_secrets')
        .values(row)
        .onConflict((oc) => oc.column('org_id').doUpdateSet({ secret: row.secret, last_four: row.last_four, created_by: by, created_at: now }))
        .execute();
    },

    /** Takes an inbound message id for the organisation; false when it was already taken (a replay). Forgets ids older than `forgetBefore`. */
    async takeMessageId(orgId: string, messageId: string, now: string, forgetBefore: string): Promise<boolean> {
      await db.deleteFrom('ew_inbound_messages').where('received_at', '<', forgetBefore).execute();
      const r = await db
        .insertInto('ew_inbound_messages')
        .values({ org_id: orgId, message_id: messageId, received_at: now })
        .onConflict((oc) => oc.columns(['org_id', 'message_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

export function earlyWarningRepository(db: Kysely<Database>, box: SecretBox) {
  return {
    ...over(db, box),
    /** After a rotation: inbound signing secrets sealed with the current key (docs/security.md "Channel secrets"). */
    resealInboundSecrets: () => resealColumn(db, box, { table: 'ew_inbound_secrets', key: 'org_id', column: 'secret' }),
    /** `move` in a transaction of its own: the state and its transition are written together. */
    move: (t: Parameters<ReturnType<typeof over>['move']>[0], extra: Parameters<ReturnType<typeof over>['move']>[1] = {}) =>
      db.transaction().execute((trx) => over(trx, box).move(t, extra)),
    /** Runs `fn` in a transaction holding the organisation's row lock, over the same methods. */
    async locked<T>(orgId: string, fn: (r: ReturnType<typeof over>) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', orgId)
          .execute();
        return fn(over(trx, box));
      });
    },
  };
}

export type EarlyWarningRepository = ReturnType<typeof earlyWarningRepository>;
