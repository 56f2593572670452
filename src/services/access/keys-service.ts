import { randomUUID } from 'node:crypto';
import { DomainError, invalidParameter } from '../../domain/errors.ts';
import { type Plan, planAtLeast, type UserPlan } from '../../domain/plans.ts';
import type { ApiKeyRow, ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Authenticator } from './authenticator.ts';
import { apiKeyPrefix, generateApiKey, sha256hex } from './secrets.ts';

/** A key as its owner sees it (never the secret or its hash): what `list` and `create` return. */
export type { ApiKeyRow };

/**
 * Active keys one account may hold, by plan (docs/access.md). Keys share the
 * account's quota, so more keys never mean more requests; the cap bounds what
 * one account can mint and what a leak of the account exposes.
 */
const MAX_KEYS: Record<UserPlan, number> = { free: 2, standard: 5, pro: 10, enterprise: 25, vip: 25 };
export const maxKeysFor = (plan: Plan) => (plan === 'anonymous' ? 0 : MAX_KEYS[plan]);
const MAX_NAME_LENGTH = 100;

export function keysService(deps: { apiKeys: ApiKeysRepository; auth: Authenticator; clock: Clock; minPlan: Plan }) {
  return {
    /** Creates a key; the secret is returned here and never again. */
    async create(owner: { userId: string; plan: Plan }, name?: string): Promise<{ key: ApiKeyRow; secret: string }> {
      if (!planAtLeast(owner.plan, deps.minPlan)) {
        throw new DomainError('plan_required', `Creating API keys requires the ${deps.minPlan} plan or higher`, {
          currentPlan: owner.plan,
          hint: `Upgrade your account to ${deps.minPlan} or higher to create API keys.`,
        });
      }
      const label = (name ?? '').trim() || 'API key';
      if (label.length > MAX_NAME_LENGTH) throw invalidParameter('name', `at most ${MAX_NAME_LENGTH} characters`);
      const cap = maxKeysFor(owner.plan);
      const secret = generateApiKey();
      // Counted and inserted in one step: concurrent creations never pass the cap together.
      const key = await deps.apiKeys.createWithinCap(
        { id: randomUUID(), userId: owner.userId, name: label, keyHash: sha256hex(secret), prefix: apiKeyPrefix(secret), now: deps.clock.now() },
        cap,
      );
      if (!key) {
        throw new DomainError('limit_exceeded', `An account on the ${owner.plan} plan can hold at most ${cap} active keys; revoke one first`, {
          limit: cap,
        });
      }
      return { key, secret };
    },

    list(userId: string) {
      return deps.apiKeys.listForUser(userId);
    },

    /** Revokes one of the user's keys; another user's key id is simply not found. */
    async revoke(userId: string, keyId: string): Promise<void> {
      const hash = await deps.apiKeys.revoke(userId, keyId, deps.clock.now());
      if (!hash) throw new DomainError('not_found', 'No such API key');
      deps.auth.forgetKey(hash);
    },

    /** Operator revocation by key id alone (the CLI acts for every account). */
    async revokeById(keyId: string): Promise<void> {
      const owner = await deps.apiKeys.ownerOf(keyId);
      if (!owner) throw new DomainError('not_found', 'No such active API key');
      await this.revoke(owner, keyId);
    },
  };
}
