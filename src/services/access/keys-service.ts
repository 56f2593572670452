import { randomUUID } from 'node:crypto';
import { DomainError, invalidParameter, roleRequired } from '../../domain/errors.ts';
import { canGrant, type OrgRole, roleAtLeast } from '../../domain/org-roles.ts';
import { type Plan, planAtLeast, type UserPlan } from '../../domain/plans.ts';
import type { ApiKeyRow, ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import type { OrgViewer, UserViewer } from '../context.ts';
import { type AuditService, OPERATOR_ACTOR } from '../orgs/audit-service.ts';
import type { Authenticator } from './authenticator.ts';
import { apiKeyPrefix, generateApiKey, sha256hex } from './secrets.ts';

/** A key as its owner sees it (never the secret or its hash): what `list` and `create` return. */
export type { ApiKeyRow };

/**
 * Active keys one organisation may hold, by plan (docs/access.md). Keys share the
 * organisation's quota, so more keys never mean more requests; the cap bounds what
 * one organisation can mint and what a leak exposes.
 */
const MAX_KEYS: Record<UserPlan, number> = { free: 2, standard: 5, pro: 10, enterprise: 25, vip: 25 };
export const maxKeysFor = (plan: Plan) => (plan === 'anonymous' ? 0 : MAX_KEYS[plan]);
const MAX_NAME_LENGTH = 100;

export function keysService(deps: { apiKeys: ApiKeysRepository; auth: Authenticator; clock: Clock; minPlan: Plan; audit: AuditService }) {
  async function mint(owner: { orgId: string; plan: Plan }, k: { userId: string | null; role: OrgRole | null }, name?: string) {
    if (!planAtLeast(owner.plan, deps.minPlan)) {
      throw new DomainError('plan_required', `Creating API keys requires the ${deps.minPlan} plan or higher`, {
        currentPlan: owner.plan,
        hint: `Upgrade your organisation to ${deps.minPlan} or higher to create API keys.`,
      });
    }
    const label = (name ?? '').trim() || 'API key';
    if (label.length > MAX_NAME_LENGTH) throw invalidParameter('name', `at most ${MAX_NAME_LENGTH} characters`);
    const cap = maxKeysFor(owner.plan);
    const secret = generateApiKey();
    // Counted and inserted in one step: concurrent creations never pass the cap together.
    const key = await deps.apiKeys.createWithinCap(
      {
        id: randomUUID(),
        orgId: owner.orgId,
        userId: k.userId,
        role: k.role,
        name: label,
        keyHash: sha256hex(secret),
        prefix: apiKeyPrefix(secret),
        now: deps.clock.now(),
      },
      cap,
    );
    if (!key) {
      throw new DomainError('limit_exceeded', `An organisation on the ${owner.plan} plan can hold at most ${cap} active keys; revoke one first`, {
        limit: cap,
      });
    }
    return { key, secret };
  }

  return {
    /** Creates a key acting as the caller in their current organisation; the secret is returned here and never again. */
    async create(owner: UserViewer, name?: string): Promise<{ key: ApiKeyRow; secret: string }> {
      const made = await mint(owner, { userId: owner.userId, role: null }, name);
      await deps.audit.record(owner.orgId, owner, 'key.created', `key:${made.key.id}`, { after: { ...made.key, kind: 'member' } });
      return made;
    },

    /** Creates an organisation key (a service account acting with `role`, not tied to anyone): admins only. */
    async createForOrg(admin: OrgViewer, role: OrgRole, name?: string): Promise<{ key: ApiKeyRow; secret: string }> {
      if (!roleAtLeast(admin.role, 'admin')) throw roleRequired(admin.role, 'admin');
      if (!canGrant(admin.role, role)) throw invalidParameter('role', `cannot be above your own role (${admin.role})`);
      const made = await mint(admin, { userId: null, role }, name);
      await deps.audit.record(admin.orgId, admin, 'key.created', `key:${made.key.id}`, { after: { ...made.key, kind: 'organisation', role } });
      return made;
    },

    /** The caller's own keys in their current organisation. */
    list(viewer: UserViewer) {
      return deps.apiKeys.listForMember(viewer.orgId, viewer.userId);
    },

    /** Every key of the organisation, with whom it acts as (admins). */
    listForOrg(admin: OrgViewer) {
      if (!roleAtLeast(admin.role, 'admin')) throw roleRequired(admin.role, 'admin');
      return deps.apiKeys.listForOrg(admin.orgId);
    },

    /** Revokes one of the caller's own keys; any other key id is simply not found. */
    async revoke(viewer: UserViewer, keyId: string): Promise<void> {
      const hash = await deps.apiKeys.revoke(viewer.orgId, keyId, deps.clock.now(), viewer.userId);
      if (!hash) throw new DomainError('not_found', 'No such API key');
      deps.auth.forgetKey(hash);
      await deps.audit.record(viewer.orgId, viewer, 'key.revoked', `key:${keyId}`);
    },

    /** Revokes any key of the organisation (admins). */
    async revokeInOrg(admin: OrgViewer, keyId: string): Promise<void> {
      if (!roleAtLeast(admin.role, 'admin')) throw roleRequired(admin.role, 'admin');
      const hash = await deps.apiKeys.revoke(admin.orgId, keyId, deps.clock.now());
      if (!hash) throw new DomainError('not_found', 'No such API key');
      deps.auth.forgetKey(hash);
      await deps.audit.record(admin.orgId, admin, 'key.revoked', `key:${keyId}`);
    },

    /** Operator revocation by key id alone (the CLI acts for every organisation). */
    async revokeById(keyId: string): Promise<void> {
      const orgId = await deps.apiKeys.orgOf(keyId);
      if (!orgId) throw new DomainError('not_found', 'No such active API key');
      const hash = await deps.apiKeys.revoke(orgId, keyId, deps.clock.now());
      if (!hash) throw new DomainError('not_found', 'No such active API key');
      deps.auth.forgetKey(hash);
      await deps.audit.record(orgId, OPERATOR_ACTOR, 'key.revoked', `key:${keyId}`);
    },
  };
}
