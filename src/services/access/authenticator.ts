import { LRUCache } from 'lru-cache';
import type { UserPlan } from '../../domain/plans.ts';
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { SessionsRepository } from '../../store/repositories/sessions-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import { userSubject } from './limits.ts';
import { API_KEY_PATTERN, SESSION_TOKEN_PATTERN, safeEqual, sha256hex } from './secrets.ts';

// Turns a presented credential (API key or session cookie) into its owner.
// Lookups go by SHA-256 digest, so the database never sees a secret. Results,
// including misses, are kept for a few seconds of real time (AUTH_CACHE_SECONDS)
// so a hot key costs no query per request; revocation, logout and plan changes
// made through this process drop the entry at once, other instances within that TTL.

export interface KeyIdentity {
  kind: 'key';
  keyId: string;
  userId: string;
  plan: UserPlan;
  /** What the key's requests are counted against: its account (see limits.ts). */
  subject: string;
}

export interface SessionIdentity {
  kind: 'session';
  /** Digest of the cookie value: identifies the session without being it. */
  sessionHash: string;
  userId: string;
  plan: UserPlan;
  expiresAt: string;
  /** What the session's requests are counted against (the user). */
  subject: string;
}

/** lastUsedAt is written at most once per minute per key. */
const TOUCH_INTERVAL_MS = 60_000;

interface Entry<T> {
  value: T | null;
  at: number;
}

export function authenticator(deps: {
  apiKeys: ApiKeysRepository;
  sessions: SessionsRepository;
  clock: Clock;
  cacheSeconds: number;
  onTouchError?: (err: unknown) => void;
}) {
  const ttl = deps.cacheSeconds * 1000;
  const keys = new LRUCache<string, Entry<KeyIdentity>>({ max: 20_000 });
  const sessions = new LRUCache<string, Entry<SessionIdentity>>({ max: 20_000 });
  const touched = new Map<string, number>();

  const fresh = <T>(e: Entry<T> | undefined): e is Entry<T> => !!e && ttl > 0 && performance.now() - e.at < ttl;

  async function touch(keyId: string) {
    const now = deps.clock.now();
    const last = touched.get(keyId);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
    touched.set(keyId, now.getTime());
    try {
      await deps.apiKeys.touch(keyId, now);
    } catch (err) {
      deps.onTouchError?.(err);
    }
  }

  return {
    /** The owner of an active API key, or null (unknown, malformed or revoked). */
    async verifyKey(secret: string): Promise<KeyIdentity | null> {
      if (!API_KEY_PATTERN.test(secret)) return null;
      const hash = sha256hex(secret);
      let e = keys.get(hash);
      if (!fresh(e)) {
        const owner = await deps.apiKeys.findActiveByHash(hash);
        // The row was found by digest; compare once more in constant time anyway.
        const value =
          owner && safeEqual(owner.keyHash, hash)
            ? { kind: 'key' as const, keyId: owner.keyId, userId: owner.userId, plan: owner.plan, subject: userSubject(owner.userId) }
            : null;
        e = { value, at: performance.now() };
        keys.set(hash, e);
      }
      if (e.value) await touch(e.value.keyId);
      return e.value;
    },

    /** The user of a live session, or null. */
    async verifySession(token: string): Promise<SessionIdentity | null> {
      if (!SESSION_TOKEN_PATTERN.test(token)) return null;
      const hash = sha256hex(token);
      let e = sessions.get(hash);
      if (!fresh(e)) {
        const s = await deps.sessions.findActive(hash, deps.clock.now());
        const value: SessionIdentity | null = s
          ? { kind: 'session', sessionHash: hash, userId: s.userId, plan: s.plan, expiresAt: s.expiresAt, subject: userSubject(s.userId) }
          : null;
        e = { value, at: performance.now() };
        sessions.set(hash, e);
      }
      if (e.value && e.value.expiresAt <= deps.clock.now().toISOString()) return null;
      return e.value;
    },

    forgetKey(keyHash: string) {
      keys.delete(keyHash);
    },
    forgetSession(sessionHash: string) {
      sessions.delete(sessionHash);
    },
    /** Drops every cached credential of a user (after a plan change). */
    forgetUser(userId: string) {
      for (const [k, e] of keys.entries()) if (e.value?.userId === userId) keys.delete(k);
      for (const [k, e] of sessions.entries()) if (e.value?.userId === userId) sessions.delete(k);
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;
