import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { SessionsRepository } from '../../store/repositories/sessions-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import type { MaybePromise } from '../../domain/maybe-promise.ts';
import { orgSubject } from './limits.ts';
import { API_KEY_PATTERN, SESSION_TOKEN_PATTERN, keyedDigest, safeEqual, sha256hex } from './secrets.ts';

// Turns a presented credential (API key or session cookie) into who it acts as: the
// person (none for an organisation key), the organisation and the role there.
// Lookups go by SHA-256 digest, so the database never sees a secret. Results,
// including misses, are kept for a few seconds of real time (AUTH_CACHE_SECONDS)
// so a hot key costs no query per request; revocation, logout and plan changes
// made through this process drop the entry at once, other instances within that TTL
// (a removed member's keys and sessions included: docs/teams.md, "Removing a member").
//
// Keys (docs/access.md, "Credential cache"): a key is verified against the database
// once, then remembered under a keyed digest of the raw value (SHA-256 of a random
// per-process pepper + the key), so the process's memory holds neither secrets nor the
// digests the database is searched by. A remembered key is re-checked in the background
// once half of AUTH_CACHE_SECONDS has passed and it is used again, so a busy key never
// waits for the database, and a revocation elsewhere is seen within AUTH_CACHE_SECONDS:
// an entry older than that is never served without a fresh answer from the database.

export interface KeyIdentity {
  kind: 'key';
  keyId: string;
  /** null: an organisation key (a service account). */
  userId: string | null;
  orgId: string;
  role: OrgRole;
  plan: UserPlan;
  /** What the key's requests are counted against: its organisation (see limits.ts). */
  subject: string;
}

export interface SessionIdentity {
  kind: 'session';
  /** Digest of the cookie value: identifies the session without being it. */
  sessionHash: string;
  userId: string;
  orgId: string;
  role: OrgRole;
  plan: UserPlan;
  expiresAt: string;
  /** What the session's requests are counted against (its current organisation). */
  subject: string;
}

/** lastUsedAt is written at most once per minute per key. */
const TOUCH_INTERVAL_MS = 60_000;

interface Entry<T> {
  value: T | null;
  at: number;
}

interface KeyEntry extends Entry<KeyIdentity> {
  /** The database digest of a known key (what revocation names it by). */
  keyHash: string | null;
  /** A background re-check is under way. */
  refreshing: boolean;
}

export function authenticator(deps: {
  apiKeys: ApiKeysRepository;
  sessions: SessionsRepository;
  clock: Clock;
  cacheSeconds: number;
  onTouchError?: (err: unknown) => void;
}) {
  const ttl = deps.cacheSeconds * 1000;
  const keys = new LRUCache<string, KeyEntry>({ max: 20_000 });
  const pepper = randomBytes(32).toString('base64');
  const sessions = new LRUCache<string, Entry<SessionIdentity>>({ max: 20_000 });
  const touched = new Map<string, number>();

  // Ages on the injected clock (tests move it instead of sleeping). A clock that stepped
  // back makes an entry stale, never fresher: a revocation is never seen later than the TTL.
  const nowMs = () => deps.clock.now().getTime();
  /** Whether an entry may be served at `now` (its age on the clock, read once per request). */
  const fresh = <T>(e: Entry<T> | undefined, now: number): e is Entry<T> => !!e && ttl > 0 && now - e.at >= 0 && now - e.at < ttl;

  /** A promise only when lastUsedAt is written (once a minute), so a hot key does not wait. */
  function touch(keyId: string, now: number): Promise<void> | undefined {
    const last = touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return undefined;
    touched.set(keyId, now);
    return deps.apiKeys.touch(keyId, new Date(now)).catch((err) => deps.onTouchError?.(err));
  }

  /** A remembered key's answer: at once, unless this is the minute's lastUsedAt write. */
  function answer(e: KeyEntry, now: number): MaybePromise<KeyIdentity | null> {
    const written = e.value ? touch(e.value.keyId, now) : undefined;
    return written ? written.then(() => e.value) : e.value;
  }

  /** A session past its expiry is no one's, whatever was remembered. */
  const live = (value: SessionIdentity | null, now: Date) => (value && value.expiresAt <= now.toISOString() ? null : value);

  async function verifySessionFromStore(hash: string): Promise<SessionIdentity | null> {
    const s = await deps.sessions.findActive(hash, deps.clock.now());
    const value: SessionIdentity | null = s
      ? {
          kind: 'session',
          sessionHash: hash,
          userId: s.userId,
          orgId: s.orgId,
          role: s.role,
          plan: s.plan,
          expiresAt: s.expiresAt,
          subject: orgSubject(s.orgId),
        }
      : null;
    sessions.set(hash, { value, at: nowMs() });
    return live(value, deps.clock.now());
  }

  async function verifyKeyFromStore(id: string, secret: string): Promise<KeyIdentity | null> {
    const hash = sha256hex(secret);
    const value = await lookupKey(hash);
    const e: KeyEntry = { value, at: nowMs(), keyHash: value ? hash : null, refreshing: false };
    keys.set(id, e);
    return answer(e, e.at);
  }

  async function lookupKey(hash: string): Promise<KeyIdentity | null> {
    const owner = await deps.apiKeys.findActiveByHash(hash);
    // The row was found by digest; compare once more in constant time anyway.
    return owner && safeEqual(owner.keyHash, hash)
      ? {
          kind: 'key' as const,
          keyId: owner.keyId,
          userId: owner.userId,
          orgId: owner.orgId,
          role: owner.role,
          plan: owner.plan,
          subject: orgSubject(owner.orgId),
        }
      : null;
  }

  /** Re-checks a remembered key without holding up the request that found it half-way through its TTL. */
  function refresh(e: KeyEntry) {
    e.refreshing = true;
    lookupKey(e.keyHash!).then(
      (value) => {
        // A revocation in this process meanwhile (forgetKey) wins over the answer.
        if (e.keyHash === null) return;
        e.value = value;
        e.at = nowMs();
        e.refreshing = false;
      },
      () => {
        e.refreshing = false;
      },
    );
  }

  return {
    /**
     * The owner of an active API key, or null (unknown, malformed or revoked): without a
     * promise when the key is remembered and fresh.
     */
    verifyKey(secret: string): MaybePromise<KeyIdentity | null> {
      if (!API_KEY_PATTERN.test(secret)) return null;
      const id = keyedDigest(pepper, secret);
      const e = keys.get(id);
      const now = nowMs();
      if (!fresh(e, now)) return verifyKeyFromStore(id, secret);
      if (e.value && !e.refreshing && now - e.at >= ttl / 2) refresh(e);
      return answer(e, now);
    },

    /** The user of a live session, or null: without a promise when the session is remembered and fresh. */
    verifySession(token: string): MaybePromise<SessionIdentity | null> {
      if (!SESSION_TOKEN_PATTERN.test(token)) return null;
      const hash = sha256hex(token);
      const e = sessions.get(hash);
      const now = deps.clock.now();
      if (fresh(e, now.getTime())) return live(e.value, now);
      return verifySessionFromStore(hash);
    },

    /** Drops a revoked key (by its database digest: the cache is keyed otherwise). */
    forgetKey(keyHash: string) {
      for (const [id, e] of keys.entries()) {
        if (e.keyHash === keyHash) {
          e.keyHash = null;
          e.value = null;
          keys.delete(id);
        }
      }
    },
    forgetSession(sessionHash: string) {
      sessions.delete(sessionHash);
    },
    /** Drops every cached credential acting for an organisation (after a plan change). */
    forgetOrg(orgId: string) {
      for (const [k, e] of keys.entries()) if (e.value?.orgId === orgId) keys.delete(k);
      for (const [k, e] of sessions.entries()) if (e.value?.orgId === orgId) sessions.delete(k);
    },
    /** Drops every cached credential of a person (membership or role changed). */
    forgetUser(userId: string) {
      for (const [k, e] of keys.entries()) if (e.value?.userId === userId) keys.delete(k);
      for (const [k, e] of sessions.entries()) if (e.value?.userId === userId) sessions.delete(k);
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;
