import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PUBLIC_AUDIENCE } from '../../domain/audience.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { pushedPollAt } from '../../domain/poll-schedule.ts';
import type { PushHook, PushHooksRepository } from '../../store/repositories/push-hooks-repository.ts';
import type { SourcesRepository } from '../../store/repositories/sources-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';

// Push from vendors (docs/ingestion.md "Push from vendors"): a status platform's subscriber
// webhook reaches a secret URL; the push is a hint, never data. It makes the vendor's
// sources due now (at most one poll per PUSH_MIN_GAP_MS each), and the poll reads the page
// through the same guard and parsers as any other, so a forged push costs one poll.

export const PUSH_TOKEN_PREFIX = 'vpush_';
/** Pushes of one hook within this window on one instance are answered without touching the store. */
const COALESCE_MS = 1000;
/** Hooks remembered for coalescing; the oldest are forgotten first. */
const COALESCE_ENTRIES = 10_000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export function pushService(d: { pushHooks: PushHooksRepository; sources: SourcesRepository; vendors: VendorsRepository; clock: Clock }) {
  const recent = new Map<string, number>();

  return {
    /** A new secret URL for a catalog vendor; the token is returned once. */
    async create(vendor: string): Promise<{ hook: PushHook; token: string; path: string }> {
      const v = await d.vendors.get(vendor, PUBLIC_AUDIENCE);
      if (!v) throw notFound(`Unknown catalog vendor '${vendor}'`);
      const token = `${PUSH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const hook = await d.pushHooks.create({ id: randomUUID(), vendor, tokenHash: digest(token), at: d.clock.now().toISOString() });
      return { hook, token, path: `/api/v1/push/${token}` };
    },

    list(vendor?: string): Promise<PushHook[]> {
      return d.pushHooks.list(vendor);
    },

    async revoke(id: string): Promise<void> {
      if (!(await d.pushHooks.remove(id))) throw notFound(`No push hook ${id}`);
    },

    /** A push arrived: 404 for a token we do not know; otherwise the vendor's sources become due. */
    async receive(token: string): Promise<void> {
      const hash = digest(token);
      const now = d.clock.now();
      const last = recent.get(hash);
      if (last !== undefined && now.getTime() - last < COALESCE_MS) return;
      const hook = await d.pushHooks.byTokenHash(hash);
      if (!hook) throw new DomainError('not_found', 'Unknown push URL');
      recent.delete(hash);
      recent.set(hash, now.getTime());
      if (recent.size > COALESCE_ENTRIES) recent.delete(recent.keys().next().value!);
      const at = now.toISOString();
      await d.pushHooks.touch(hook.id, at);
      await d.sources.expedite(hook.vendor, at, (s) => pushedPollAt(now, s.lastPolledAt, s.nextPollAt));
    },
  };
}

export type PushService = ReturnType<typeof pushService>;
