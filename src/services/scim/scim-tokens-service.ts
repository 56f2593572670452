import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditActor } from '../../domain/audit-chain.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound, roleRequired } from '../../domain/errors.ts';
import { orgName } from '../../domain/org-names.ts';
import { roleAtLeast } from '../../domain/org-roles.ts';
import { ScimError } from '../../domain/scim-errors.ts';
import type { RateLimiter } from '../../infra/rate-limiter.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { ScimTokenRow, ScimTokensRepository } from '../../store/repositories/scim-tokens-repository.ts';
import { sha256hex } from '../access/secrets.ts';
import type { OrgViewer, Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';

// SCIM bearer tokens (docs/teams.md, "SCIM"). Admins of a team organisation make them
// (shown once; only the SHA-256 is stored), list and revoke them; a token names its
// organisation, so the SCIM endpoints need nothing else. A revoked token is refused on
// its next request (tokens are looked up on every request, not cached). Each token
// may make `requestsPerMinute` requests a minute (SCIM_REQUESTS_PER_MINUTE).

export const MAX_SCIM_TOKENS = 5;
const TOKEN_PREFIX = 'scim_';
const TOKEN = /^scim_[A-Za-z0-9_-]{43}$/;
const TOUCH_EVERY_MS = 60_000;

/** Who is calling the SCIM endpoints: a token of one organisation. */
export interface ScimCaller {
  orgId: string;
  tokenId: string;
  /** The audit log's actor (kind 'scim'). */
  actor: AuditActor;
}

export type ScimTokenView = Omit<ScimTokenRow, 'orgId'>;
const view = ({ orgId: _o, ...t }: ScimTokenRow): ScimTokenView => t;

export function scimTokensService(d: {
  scimTokens: ScimTokensRepository;
  organisations: Pick<OrganisationsRepository, 'get'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  limiter: RateLimiter;
  clock: Clock;
  requestsPerMinute: number;
}) {
  async function adminIn(viewer: Viewer, orgId: string): Promise<OrgViewer> {
    const v = await d.orgs.actingIn(viewer, orgId);
    if (!roleAtLeast(v.role, 'admin')) throw roleRequired(v.role, 'admin');
    return v;
  }

  const unauthorized = () => new ScimError(401, 'A valid SCIM bearer token is required (Authorization: Bearer scim_...)');

  return {
    adminIn,

    async list(viewer: Viewer, orgId: string): Promise<ScimTokenView[]> {
      const v = await adminIn(viewer, orgId);
      return (await d.scimTokens.listActive(v.orgId)).map(view);
    },

    /** A new token; its secret is in the answer once. */
    async create(viewer: Viewer, orgId: string, rawName: string): Promise<{ token: ScimTokenView; secret: string }> {
      const v = await adminIn(viewer, orgId);
      const org = await d.organisations.get(v.orgId);
      if (!org) throw notFound('No such organisation');
      if (org.personal) throw new DomainError('conflict', 'A personal organisation has one member; SCIM provisions team organisations');
      const name = orgName(rawName);
      const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await d.scimTokens.create(
        { id: randomUUID(), orgId: v.orgId, name, tokenHash: sha256hex(secret), prefix: secret.slice(0, 12), createdBy: v.userId, now: d.clock.now() },
        MAX_SCIM_TOKENS,
      );
      if (!row) throw new DomainError('limit_exceeded', `An organisation holds at most ${MAX_SCIM_TOKENS} active SCIM tokens`, { limit: MAX_SCIM_TOKENS });
      await d.audit.record(v.orgId, v, 'scim.token_created', `scim-token:${row.id}`, { after: { name, prefix: row.prefix } });
      return { token: view(row), secret };
    },

    async revoke(viewer: Viewer, orgId: string, tokenId: string): Promise<void> {
      const v = await adminIn(viewer, orgId);
      const row = await d.scimTokens.revoke(v.orgId, tokenId, d.clock.now());
      if (!row) throw notFound('No such SCIM token');
      await d.audit.record(v.orgId, v, 'scim.token_revoked', `scim-token:${row.id}`, { before: { name: row.name, prefix: row.prefix } });
    },

    /** The caller behind an Authorization header, or 401; 429 over the token's rate. */
    async authenticate(authorization: string | undefined, address: string | null): Promise<ScimCaller> {
      const m = /^Bearer +(\S+)$/i.exec(authorization ?? '');
      if (!m || !TOKEN.test(m[1]!)) throw unauthorized();
      const row = await d.scimTokens.findActive(sha256hex(m[1]!));
      if (!row) throw unauthorized();
      const gate = await d.limiter.consume(`scim:${row.id}`, [{ name: 'scim-minute', limit: d.requestsPerMinute, windowSeconds: 60 }]);
      if (!gate.allowed) {
        const retry = Math.max(1, ...gate.violated.map((w) => w.resetSeconds));
        throw new ScimError(429, `At most ${d.requestsPerMinute} requests a minute per SCIM token; try again later`, null, retry);
      }
      const now = d.clock.now();
      if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) >= TOUCH_EVERY_MS) await d.scimTokens.touch(row.id, now);
      return { orgId: row.orgId, tokenId: row.id, actor: { kind: 'scim', id: row.id, label: `SCIM token ${row.prefix} (${row.name})`, address } };
    },
  };
}

export type ScimTokensService = ReturnType<typeof scimTokensService>;
