import type { Clock } from '../../domain/clock.ts';
import type { MaybePromise } from '../../domain/maybe-promise.ts';

// Whose cached answers are their own (docs/access.md "Response cache", docs/per-user.md
// "Custom status pages"). Only an organisation that owns private status pages can read
// anything the public cannot, and only a member of an organisation with services reads
// records with `affectedServices` (docs/services.md "Records: affectedServices"); every
// other signed-in caller reads exactly what an anonymous caller reads, so its cached
// answers are shared with the public ones. An organisation with services is keyed with the
// version of its services too, so a change to them makes new entries.
//
// The answer is remembered per organisation for a few seconds (the hot path for cache hits
// asks on every request). A stale "no" is safe: the request is then keyed AND computed
// for the public audience (response-cache plugin), so its owner misses a page just
// added through another instance for at most `ttlMs`, and nobody else ever sees it.
// Adds and removals in this process take effect at once (`changed`).

export interface PrivateReaders {
  /**
   * The cache owner of a signed-in caller's answers: its organisation (with the version of
   * its services when it has some), or null: it reads what the public reads.
   */
  orgOf(orgId: string | null): MaybePromise<string | null>;
  /** The organisation's pages changed in this process: forget what was remembered. */
  changed(orgId: string): void;
}

export const PRIVATE_READERS_TTL_MS = 10_000;
const MAX_REMEMBERED = 50_000;

export function privateReaders(d: {
  ownsPrivateVendors: (orgId: string) => Promise<boolean>;
  /** The version of the organisation's services, null when it has none. */
  servicesVersion?: (orgId: string) => Promise<string | null>;
  clock: Clock;
  ttlMs?: number;
}): PrivateReaders {
  const ttl = d.ttlMs ?? PRIVATE_READERS_TTL_MS;
  const known = new Map<string, { owner: string | null; until: number }>();
  /** Bumped by every change: a lookup that started before a change does not store its answer. */
  let epoch = 0;
  async function lookUp(orgId: string, now: number): Promise<string | null> {
    const started = epoch;
    const [owns, services] = await Promise.all([d.ownsPrivateVendors(orgId), d.servicesVersion?.(orgId) ?? null]);
    const owner = services ? `${orgId}~s${services}` : owns ? orgId : null;
    if (started === epoch) {
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(orgId, { owner, until: now + ttl });
    }
    return owner;
  }
  return {
    orgOf(orgId) {
      if (!orgId) return null;
      const now = d.clock.now().getTime();
      const hit = known.get(orgId);
      if (hit && hit.until > now) return hit.owner;
      return lookUp(orgId, now);
    },
    changed(orgId) {
      epoch++;
      known.delete(orgId);
    },
  };
}
