import type { Kysely } from 'kysely';
import { type Credential, lastFour } from '../../domain/private-probes.ts';
import type { ProbeSpec } from '../../domain/probes.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { Database } from '../schema.ts';
import { type ProbeRow, toProbe } from './probes-repository.ts';

// An organisation's private probes (docs/early-warning.md "Private probes"): rows of the
// probes table with `org_id` set. Every read and write names the organisation; the runner's
// claim (probes-repository.ts) is the one reader across organisations. The credential's value
// is sealed with the secrets key on the way in and never read back here.

export interface NewPrivateProbe {
  id: string;
  orgId: string;
  vendor: string;
  spec: ProbeSpec;
  target: string;
  intervalSeconds: number;
  credential: Credential | null;
  now: string;
}

export interface PrivateProbeChange {
  vendor?: string;
  spec?: ProbeSpec;
  target?: string;
  intervalSeconds?: number;
  /** Undefined keeps it; null removes it. */
  credential?: Credential | null;
  now: string;
}

export function privateProbesRepository(db: Kysely<Database>, box: SecretBox) {
  const sealed = (c: Credential | null) =>
    c === null
      ? { credential_name: null, credential_value: null, credential_last_four: null }
      : { credential_name: c.name.toLowerCase(), credential_value: box.seal(c.value), credential_last_four: lastFour(c.value) };
  return {
    async list(orgId: string, vendor?: string): Promise<ProbeRow[]> {
      let q = db.selectFrom('probes').selectAll().where('org_id', '=', orgId);
      if (vendor) q = q.where('vendor', '=', vendor);
      return (await q.orderBy('vendor').orderBy('created_at').orderBy('id').execute()).map(toProbe);
    },
    async get(orgId: string, id: string): Promise<ProbeRow | null> {
      const r = await db.selectFrom('probes').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return r ? toProbe(r) : null;
    },
    async count(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('probes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async create(p: NewPrivateProbe): Promise<void> {
      await db
        .insertInto('probes')
        .values({
          id: p.id,
          org_id: p.orgId,
          vendor: p.vendor,
          kind: p.spec.kind,
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
          interval_seconds: p.intervalSeconds,
          ...sealed(p.credential),
          created_at: p.now,
          updated_at: p.now,
        })
        .execute();
    },
    /**
     * Changes what is given. A new target forgets the baseline (it was of another endpoint) and
     * makes the probe due at once; a new credential forgets nothing but is due at once too, so
     * a replaced key shows whether it is accepted without waiting an interval.
     */
    async update(orgId: string, id: string, c: PrivateProbeChange): Promise<boolean> {
      const reset = c.spec !== undefined;
      const r = await db
        .updateTable('probes')
        .set({
          ...(c.vendor !== undefined ? { vendor: c.vendor } : {}),
          ...(c.spec !== undefined ? { spec: JSON.stringify(c.spec), kind: c.spec.kind, target: c.target! } : {}),
          ...(c.intervalSeconds !== undefined ? { interval_seconds: c.intervalSeconds } : {}),
          ...(c.credential !== undefined ? sealed(c.credential) : {}),
          ...(reset ? { samples: '[]', anomalous: 0, anomaly_reason: null, last_sample_at: null, relax_steps: 0, relaxed_at: null } : {}),
          ...(reset || c.credential !== undefined ? { next_run_at: null } : {}),
          updated_at: c.now,
        })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('probes').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}

export type PrivateProbesRepository = ReturnType<typeof privateProbesRepository>;
