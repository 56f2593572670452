import type { Kysely } from 'kysely';
import type { Credential } from '../../domain/private-probes.ts';
import type { ProbeSample, ProbeSpec } from '../../domain/probes.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { Database } from '../schema.ts';
import { chunks, INSERT_CHUNK } from './delivery-rows.ts';
import { claimLeases } from './lease-claim.ts';
import { openSecret, resealColumn } from './sealed-values.ts';

// The probes of vendors' public endpoints and their baselines (docs/early-warning.md
// "Probes"). Claimed and released like sources (sources-repository.ts): a probe is due at
// `next_run_at`, taken under a lease so one instance runs it per interval, and its sample
// is written only by the lease's holder. An organisation's private probes share the table
// (`org_id` set; private-probes-repository.ts writes them) so the same claim takes both.

export interface ProbeRow {
  id: string;
  vendor: string;
  spec: ProbeSpec;
  samples: ProbeSample[];
  anomalous: boolean;
  anomalyReason: string | null;
  lastSampleAt: string | null;
  nextRunAt: string | null;
  relaxSteps: number;
  relaxedAt: string | null;
  retired: boolean;
  /** Null for a catalog probe; the organisation of a private probe. */
  orgId: string | null;
  /** A private probe's own interval (seconds); null: the instance's. */
  intervalSeconds: number | null;
  credentialName: string | null;
  credentialLastFour: string | null;
  createdAt: string | null;
  updatedAt: string;
}

/** A claimed probe: with its credential opened, for the runner only. */
export interface ClaimedProbe extends ProbeRow {
  credential: Credential | null;
  /** The credential could not be opened (sealed with a key this instance does not have). */
  credentialUnreadable: boolean;
}

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const toProbe = (r: Database['probes']): ProbeRow => ({
  id: r.id,
  vendor: r.vendor,
  spec: parse<ProbeSpec>(r.spec, { kind: 'dns', name: r.target }),
  samples: parse<ProbeSample[]>(r.samples, []),
  anomalous: Number(r.anomalous) === 1,
  anomalyReason: r.anomaly_reason,
  lastSampleAt: r.last_sample_at,
  nextRunAt: r.next_run_at,
  relaxSteps: Number(r.relax_steps),
  relaxedAt: r.relaxed_at,
  retired: Number(r.retired) === 1,
  orgId: r.org_id ?? null,
  intervalSeconds: r.interval_seconds === null || r.interval_seconds === undefined ? null : Number(r.interval_seconds),
  credentialName: r.credential_name ?? null,
  credentialLastFour: r.credential_last_four ?? null,
  createdAt: r.created_at ?? null,
  updatedAt: r.updated_at,
});

export interface ProbeResult {
  samples: ProbeSample[];
  anomalous: boolean;
  anomalyReason: string | null;
  at: string;
  nextRunAt: string;
  relaxSteps: number;
}

/** `box` opens private probes' credentials when they are claimed; readers without the secrets key pass none. */
export function probesRepository(db: Kysely<Database>, box?: SecretBox) {
  return {
    /**
     * Makes the rows match the catalog's probes: new ones added, dropped ones retired, listed
     * ones active. One upsert, not a read then inserts: instances starting together on one
     * database sync the same list at once, and the second insert of a row must not fail.
     * A row of an organisation's private probes is never touched (the conflict's WHERE).
     */
    async sync(probes: { id: string; vendor: string; kind: string; target: string; spec: ProbeSpec }[], now: Date): Promise<void> {
      const at = now.toISOString();
      await db.transaction().execute(async (trx) => {
        for (const batch of chunks(probes, INSERT_CHUNK)) {
          await trx
            .insertInto('probes')
            .values(
              batch.map((p) => ({
                id: p.id,
                vendor: p.vendor,
                kind: p.kind,
                target: p.target,
                spec: JSON.stringify(p.spec),
                retired: 0,
                next_run_at: null,
                lease_owner: null,
                lease_until: null,
                samples: '[]',
                anomalous: 0,
                anomaly_reason: null,
                last_sample_at: null,
                relax_steps: 0,
                relaxed_at: null,
                updated_at: at,
              })),
            )
            .onConflict((oc) =>
              oc
                .column('id')
                .doUpdateSet((eb) => ({ retired: 0, spec: eb.ref('excluded.spec'), vendor: eb.ref('excluded.vendor') }))
                .where('probes.org_id', 'is', null),
            )
            .execute();
        }
        const keep = probes.map((p) => p.id);
        let q = trx.updateTable('probes').set({ retired: 1 }).where('org_id', 'is', null);
        if (keep.length) q = q.where('id', 'not in', keep);
        await q.execute();
      });
    },

    /**
     * Takes the leases of due probes, catalog and private alike (never run first, then the
     * longest overdue); a private probe's credential is opened for the runner.
     */
    async claim(o: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedProbe[]> {
      const rows = await claimLeases(db, 'probes', {
        ...o,
        dueColumn: 'next_run_at',
        overdueFirst: 'next_run_at',
        where: (eb) => eb('retired', '=', 0),
      });
      return rows.map((r) => {
        if (!r.credential_name) return { ...toProbe(r), credential: null, credentialUnreadable: false };
        const opened = openSecret(box, r.credential_value);
        const credential = opened.value === null ? null : { name: r.credential_name, value: opened.value };
        return { ...toProbe(r), credential, credentialUnreadable: opened.unreadable };
      });
    },

    /** After a rotation: private probes' credentials sealed with the current key (docs/security.md "Channel secrets"). */
    resealCredentials: () => (box ? resealColumn(db, box, { table: 'probes', key: 'id', column: 'credential_value' }) : Promise.resolve(0)),

    /** Writes a sample's outcome and frees the lease; false when `owner` no longer holds it. */
    async complete(id: string, owner: string, r: ProbeResult): Promise<boolean> {
      const out = await db
        .updateTable('probes')
        .set({
          samples: JSON.stringify(r.samples),
          anomalous: r.anomalous ? 1 : 0,
          anomaly_reason: r.anomalyReason,
          last_sample_at: r.at,
          next_run_at: r.nextRunAt,
          relax_steps: r.relaxSteps,
          updated_at: r.at,
          lease_owner: null,
          lease_until: null,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(out.numUpdatedRows) === 1;
    },

    /** The catalog's probes (instance-wide); never an organisation's private ones. */
    async list(vendor?: string): Promise<ProbeRow[]> {
      let q = db.selectFrom('probes').selectAll().where('retired', '=', 0).where('org_id', 'is', null);
      if (vendor) q = q.where('vendor', '=', vendor);
      return (await q.orderBy('vendor').orderBy('id').execute()).map(toProbe);
    },

    async get(id: string): Promise<ProbeRow | null> {
      const r = await db.selectFrom('probes').selectAll().where('id', '=', id).executeTakeFirst();
      return r ? toProbe(r) : null;
    },

    /** One more relaxation step (a dismissed false alarm), at most `max`. */
    async relax(id: string, steps: number, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('probes')
        .set({ relax_steps: steps, relaxed_at: now.toISOString(), updated_at: now.toISOString() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /**
     * Organisations that follow a vendor: a service of theirs depends on it, or their own
     * watchlist (`watchlist_vendors`, the one alerts and the overview follow) or one of their
     * named watchlists lists it. A probe's observation goes to each of them.
     */
    async followers(vendor: string): Promise<string[]> {
      const a = await db.selectFrom('service_dependencies').select('org_id').where('vendor', '=', vendor).distinct().execute();
      const own = await db.selectFrom('watchlist_vendors').select('org_id').where('vendor', '=', vendor).distinct().execute();
      const b = await db
        .selectFrom('org_watchlist_vendors')
        .innerJoin('org_watchlists', 'org_watchlists.id', 'org_watchlist_vendors.watchlist_id')
        .select('org_watchlists.org_id')
        .where('org_watchlist_vendors.vendor', '=', vendor)
        .distinct()
        .execute();
      return [...new Set([...a, ...own, ...b].map((r) => r.org_id))].sort();
    },
  };
}

export type ProbesRepository = ReturnType<typeof probesRepository>;
