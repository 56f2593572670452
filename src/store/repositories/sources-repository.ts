import { type Kysely, sql } from 'kysely';
import type { Audience } from '../../domain/audience.ts';
import type { SourcePollState } from '../../domain/source-health.ts';
import { visibleTo } from './visibility.ts';
import { PUSH_MIN_GAP_MS, type PollSchedule } from '../../domain/poll-schedule.ts';
import type { Database } from '../schema.ts';
import { claimLeases, leaseFree } from './lease-claim.ts';

export interface SourceRow {
  id: string;
  vendor: string;
  type: string;
  url: string;
  intervalSeconds: number | null;
  etag: string | null;
  lastModified: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  nextPollAt: string | null;
  /** The last push from the vendor (docs/ingestion.md "Push from vendors"), null if never. */
  pushedAt: string | null;
  lastDurationMs: number | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
  /** A URL a user gave: polled through the outbound guard (docs/per-user.md). */
  guarded: boolean;
  /** The adaptive schedule of the last poll (docs/ingestion.md "Adaptive polling"). */
  hot: boolean;
  quietPolls: number;
  scheduleSeconds: number | null;
  scheduleReason: string | null;
}

export interface ClaimOptions {
  /** Who takes the lease (one id per scheduler instance). */
  owner: string;
  now: Date;
  /** How long the lease holds if its owner dies without releasing it. */
  leaseMs: number;
  limit?: number;
  vendor?: string;
  /** Claim sources that are not due yet too (an operator's `ingest --once`). */
  force?: boolean;
}

export interface PollSuccess {
  at: string;
  etag: string | null;
  lastModified: string | null;
  durationMs: number;
  nextPollAt: string;
  schedule?: PollSchedule;
}

export interface PollFailure {
  at: string;
  error: string;
  durationMs: number;
  nextPollAt: string;
}

/**
 * The next poll of a source whose poll started at `startedAt`: as scheduled, unless a vendor
 * pushed after that start (the poll may have read the page before the change), then one
 * PUSH_MIN_GAP_MS after the start when that is sooner (docs/ingestion.md "Push from vendors").
 */
const afterPush = (startedAt: string, next: string) => {
  const gap = new Date(Date.parse(startedAt) + PUSH_MIN_GAP_MS).toISOString();
  return sql<string>`case when pushed_at is not null and pushed_at > ${startedAt} and ${gap} < ${next} then ${gap} else ${next} end`;
};

const toSource = (r: Database['sources']): SourceRow => ({
  id: r.id,
  vendor: r.vendor,
  type: r.type,
  url: r.url,
  intervalSeconds: r.interval_seconds,
  etag: r.etag,
  lastModified: r.last_modified,
  lastSuccessAt: r.last_success_at,
  lastErrorAt: r.last_error_at,
  lastError: r.last_error,
  consecutiveFailures: r.consecutive_failures,
  nextPollAt: r.next_poll_at,
  pushedAt: r.pushed_at,
  lastDurationMs: r.last_duration_ms,
  leaseOwner: r.lease_owner,
  leaseUntil: r.lease_until,
  guarded: Number(r.guarded) === 1,
  hot: Number(r.hot) === 1,
  quietPolls: Number(r.quiet_polls),
  scheduleSeconds: r.schedule_seconds,
  scheduleReason: r.schedule_reason,
});

export function sourcesRepository(db: Kysely<Database>) {
  return {
    async list(vendor?: string): Promise<SourceRow[]> {
      let q = db.selectFrom('sources').selectAll();
      if (vendor) q = q.where('vendor', '=', vendor);
      return (await q.orderBy('vendor').orderBy('id').execute()).map(toSource);
    },

    /**
     * What health and observation need of each source, of one vendor or of all
     * (one query whatever the number of vendors); folded in the domain
     * (src/domain/source-health.ts).
     */
    async pollStates(vendor?: string, o: { catalogOnly?: boolean; audience?: Audience } = {}): Promise<SourcePollState[]> {
      let q = db
        .selectFrom('sources')
        .select(['vendor', 'interval_seconds', 'first_success_at', 'last_success_at', 'last_error_at', 'last_error', 'consecutive_failures', 'failing_since']);
      if (vendor) q = q.where('vendor', '=', vendor);
      // Pages users added (docs/per-user.md) do not decide the service's readiness; promoted
      // pages, guarded or not, are catalog vendors.
      if (o.catalogOnly) q = q.where('vendor', 'in', db.selectFrom('vendors').select('slug').where('owner_id', 'is', null));
      if (o.audience) q = visibleTo(db, q, o.audience);
      return (await q.execute()).map((r) => ({
        vendor: r.vendor,
        intervalSeconds: r.interval_seconds,
        firstSuccessAt: r.first_success_at,
        lastSuccessAt: r.last_success_at,
        lastErrorAt: r.last_error_at,
        lastError: r.last_error,
        consecutiveFailures: Number(r.consecutive_failures),
        failingSince: r.failing_since,
      }));
    },

    /**
     * Takes the lease of due sources whose lease is free or expired. The lease check
     * is repeated in the UPDATE itself, so two instances racing for one source never
     * both get it (PostgreSQL re-evaluates the condition on the locked row; SQLite
     * has a single writer).
     */
    async claim(o: ClaimOptions): Promise<SourceRow[]> {
      const rows = await claimLeases(db, 'sources', {
        owner: o.owner,
        now: o.now,
        leaseMs: o.leaseMs,
        dueColumn: o.force ? null : 'next_poll_at',
        overdueFirst: 'next_poll_at',
        ...(o.limit !== undefined ? { limit: o.limit } : {}),
        ...(o.vendor ? { where: (eb) => eb('vendor', '=', o.vendor!) } : {}),
      });
      return rows.map(toSource).sort((a, b) => (a.nextPollAt ?? '').localeCompare(b.nextPollAt ?? '') || a.id.localeCompare(b.id));
    },

    /** Takes the lease of one source if it is free (and due, unless forced); null when it is not. */
    async claimOne(id: string, o: Omit<ClaimOptions, 'limit' | 'vendor'>): Promise<SourceRow | null> {
      const now = o.now.toISOString();
      const until = new Date(o.now.getTime() + o.leaseMs).toISOString();
      let q = db.updateTable('sources').set({ lease_owner: o.owner, lease_until: until }).where('id', '=', id).where(leaseFree(now));
      if (!o.force) q = q.where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', now)]));
      const row = await q.returningAll().executeTakeFirst();
      return row ? toSource(row) : null;
    },

    /** Records a successful poll and frees the lease; false when `owner` no longer holds it. */
    async completeSuccess(id: string, owner: string, s: PollSuccess): Promise<boolean> {
      const r = await db
        .updateTable('sources')
        .set((eb) => ({
          etag: s.etag,
          last_modified: s.lastModified,
          last_success_at: s.at,
          first_success_at: eb.fn.coalesce('first_success_at', eb.val(s.at)),
          failing_since: null,
          consecutive_failures: 0,
          next_poll_at: afterPush(s.at, s.nextPollAt),
          last_duration_ms: s.durationMs,
          lease_owner: null,
          lease_until: null,
          ...(s.schedule
            ? {
                hot: s.schedule.hot ? 1 : 0,
                quiet_polls: s.schedule.quietPolls,
                schedule_seconds: s.schedule.intervalSeconds,
                schedule_reason: s.schedule.reason,
              }
            : {}),
        }))
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Records a failed poll (the previous snapshot stays) and frees the lease. */
    async completeFailure(id: string, owner: string, f: PollFailure): Promise<boolean> {
      const r = await db
        .updateTable('sources')
        .set((eb) => ({
          last_error_at: f.at,
          failing_since: eb.fn.coalesce('failing_since', eb.val(f.at)),
          // Messages may quote upstream bytes; PostgreSQL text cannot hold NUL, logs want no control characters.
          last_error: f.error.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 500),
          consecutive_failures: eb('consecutive_failures', '+', 1),
          next_poll_at: afterPush(f.at, f.nextPollAt),
          last_duration_ms: f.durationMs,
          lease_owner: null,
          lease_until: null,
        }))
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Gives a lease back without recording a poll (shutdown mid-flight). */
    async release(id: string, owner: string): Promise<void> {
      await db.updateTable('sources').set({ lease_owner: null, lease_until: null }).where('id', '=', id).where('lease_owner', '=', owner).execute();
    },

    /**
     * A vendor push (docs/ingestion.md "Push from vendors"): each of the vendor's sources becomes
     * due at the time `dueAt` gives it (null: left as it is). Returns how many were moved.
     */
    async expedite(vendor: string, pushedAt: string, dueAt: (s: { lastPolledAt: string | null; nextPollAt: string | null }) => Date | null): Promise<number> {
      // First marked: a poll in flight, which may have read the page before the change, is followed by another.
      await db.updateTable('sources').set({ pushed_at: pushedAt }).where('vendor', '=', vendor).execute();
      const rows = await db.selectFrom('sources').select(['id', 'last_success_at', 'last_error_at', 'next_poll_at']).where('vendor', '=', vendor).execute();
      let moved = 0;
      for (const r of rows) {
        const last =
          [r.last_success_at, r.last_error_at]
            .filter((x): x is string => !!x)
            .sort()
            .pop() ?? null;
        const at = dueAt({ lastPolledAt: last, nextPollAt: r.next_poll_at });
        if (!at) continue;
        const iso = at.toISOString();
        // Only ever earlier: a poll that ran meanwhile set a later time, which a second push moves again.
        const res = await db
          .updateTable('sources')
          .set({ next_poll_at: iso })
          .where('id', '=', r.id)
          .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '>', iso)]))
          .executeTakeFirst();
        moved += Number(res.numUpdatedRows);
      }
      return moved;
    },

    async lastSuccessfulPoll(): Promise<string | null> {
      const r = await db
        .selectFrom('sources')
        .select((eb) => eb.fn.max('last_success_at').as('at'))
        .executeTakeFirst();
      return (r?.at as string | null | undefined) ?? null;
    },
  };
}

export type SourcesRepository = ReturnType<typeof sourcesRepository>;
