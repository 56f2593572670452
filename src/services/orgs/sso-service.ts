import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, invalidParameter, notFound, roleRequired } from '../../domain/errors.ts';
import { canGrant, type OrgRole } from '../../domain/org-roles.ts';
import { webhookUrlProblem } from '../../domain/outbound-url.ts';
import { isMasked, mask } from '../../domain/preferences.ts';
import { type OidcRelyingParty, SsoProblem, ssoDomain, type TxtResolver, txtProves, verificationName, verificationValue } from '../../domain/sso.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { SsoConnectionRow, SsoDomainRow, SsoRepository } from '../../store/repositories/sso-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from './audit-service.ts';
import type { OrgsService } from './orgs-service.ts';

// An organisation's single sign-on settings (docs/teams.md, "Single sign-on"): its
// OpenID Connect connection and its e-mail domains, proven by a DNS TXT record. Admins
// read and change them; the client secret is sealed at rest and shown masked; every change
// is in the audit log (the secret masked there too).

/** Domains one organisation may hold (verified or not). */
export const MAX_SSO_DOMAINS = 20;
/** Roles a person may be given on their first single sign-on: never owner. */
export const JIT_ROLES = ['viewer', 'editor', 'admin'] as const satisfies readonly OrgRole[];

export interface SsoSettingsInput {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  defaultRole: OrgRole;
  ssoRequired: boolean;
  enabled: boolean;
}

export interface SsoSettingsView {
  issuer: string;
  clientId: string;
  /** Masked: the last four characters only. */
  clientSecret: string;
  defaultRole: OrgRole;
  ssoRequired: boolean;
  enabled: boolean;
  redirectUri: string;
  createdAt: string;
  updatedAt: string;
}

export interface SsoDomainView {
  id: string;
  domain: string;
  verified: boolean;
  verifiedAt: string | null;
  /** The TXT record that proves the domain: name and value. */
  record: { name: string; value: string };
  createdAt: string;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

export function ssoService(d: {
  sso: SsoRepository;
  organisations: Pick<OrganisationsRepository, 'get'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  relyingParty: () => OidcRelyingParty | null;
  resolveTxt: TxtResolver;
  allowPrivate: readonly string[];
  /** Where the identity provider sends people back: `<public URL>/auth/sso/callback`. */
  redirectUri: (base: string) => string;
}) {
  const view = (c: SsoConnectionRow, base: string): SsoSettingsView => ({
    issuer: c.issuer,
    clientId: c.clientId,
    clientSecret: mask(c.clientSecret),
    defaultRole: c.defaultRole,
    ssoRequired: c.ssoRequired,
    enabled: c.enabled,
    redirectUri: d.redirectUri(base),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });
  const domainView = (r: SsoDomainRow): SsoDomainView => ({
    id: r.id,
    domain: r.domain,
    verified: r.verifiedAt !== null,
    verifiedAt: r.verifiedAt,
    record: { name: verificationName(r.domain), value: verificationValue(r.verificationToken) },
    createdAt: r.createdAt,
  });
  /** The audited state of a connection (the secret is masked by the audit log). */
  const audited = (c: SsoConnectionRow) => ({
    issuer: c.issuer,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    defaultRole: c.defaultRole,
    ssoRequired: c.ssoRequired,
    enabled: c.enabled,
  });

  /** The organisation an admin acts in; a personal organisation has no single sign-on. */
  async function adminOf(viewer: Viewer, orgId: string) {
    const v = await d.orgs.actingIn(viewer, orgId);
    const owner = ownerOrg(v, 'admin');
    const org = await d.organisations.get(owner);
    if (!org) throw notFound('No such organisation');
    if (org.personal) throw new DomainError('conflict', 'A personal organisation has no single sign-on: create a team organisation');
    return { v, orgId: owner };
  }

  const text = (name: string, value: string, max: number) => {
    const t = value.trim();
    if (!t || t.length > max || CONTROL.test(t)) throw invalidParameter(name, `must be 1 to ${max} characters without control characters`);
    return t;
  };

  return {
    redirectUri: (base: string) => d.redirectUri(base),

    async get(viewer: Viewer, orgId: string, base: string): Promise<SsoSettingsView | null> {
      const { orgId: id } = await adminOf(viewer, orgId);
      const c = await d.sso.connection(id);
      return c ? view(c, base) : null;
    },

    async put(viewer: Viewer, orgId: string, input: SsoSettingsInput, base: string): Promise<SsoSettingsView> {
      const { v, orgId: id } = await adminOf(viewer, orgId);
      const issuer = text('issuer', input.issuer, 500);
      const problem = webhookUrlProblem(issuer, d.allowPrivate);
      if (problem) throw invalidParameter('issuer', problem);
      const clientId = text('clientId', input.clientId, 255);
      if (!(JIT_ROLES as readonly string[]).includes(input.defaultRole)) throw invalidParameter('defaultRole', 'must be viewer, editor or admin');
      if (!canGrant(v.role, input.defaultRole)) throw roleRequired(v.role, input.defaultRole);
      const before = await d.sso.connection(id);
      const kept = input.clientSecret === undefined || isMasked(input.clientSecret);
      if (kept && !before) throw invalidParameter('clientSecret', 'is required for a new connection');
      const clientSecret = kept ? before!.clientSecret : text('clientSecret', input.clientSecret!, 1000);
      const rp = d.relyingParty();
      if (!rp) throw new DomainError('unavailable', 'Single sign-on is not available in this process');
      // The issuer must answer with a discovery document naming itself, through the outbound guard.
      try {
        await rp.discover({ issuer, clientId, clientSecret });
      } catch (err) {
        if (err instanceof SsoProblem) throw new DomainError('unprocessable', err.message, { parameter: 'issuer' });
        throw err;
      }
      const saved = await d.sso.saveConnection(
        { orgId: id, issuer, clientId, clientSecret, defaultRole: input.defaultRole, ssoRequired: input.ssoRequired, enabled: input.enabled },
        d.clock.now(),
      );
      await d.audit.record(id, v, 'sso.configured', `org:${id}`, { before: before ? audited(before) : null, after: audited(saved) });
      return view(saved, base);
    },

    async remove(viewer: Viewer, orgId: string): Promise<void> {
      const { v, orgId: id } = await adminOf(viewer, orgId);
      const before = await d.sso.connection(id);
      if (!before || !(await d.sso.deleteConnection(id))) throw notFound('This organisation has no single sign-on connection');
      await d.audit.record(id, v, 'sso.deleted', `org:${id}`, { before: audited(before) });
    },

    async domains(viewer: Viewer, orgId: string): Promise<SsoDomainView[]> {
      const { orgId: id } = await adminOf(viewer, orgId);
      return (await d.sso.domains(id)).map(domainView);
    },

    async addDomain(viewer: Viewer, orgId: string, raw: string): Promise<SsoDomainView> {
      const { v, orgId: id } = await adminOf(viewer, orgId);
      const domain = ssoDomain(raw);
      const r = await d.sso.addDomain(
        { id: randomUUID(), orgId: id, domain, token: randomBytes(24).toString('base64url'), now: d.clock.now() },
        MAX_SSO_DOMAINS,
      );
      if (r === 'full') throw new DomainError('limit_exceeded', `An organisation holds at most ${MAX_SSO_DOMAINS} domains`, { limit: MAX_SSO_DOMAINS });
      if (r === 'taken') throw new DomainError('conflict', `The organisation has ${domain} already`, { parameter: 'domain' });
      await d.audit.record(id, v, 'sso.domain_added', `domain:${r.id}`, { after: { domain } });
      return domainView(r);
    },

    /** Looks up the domain's TXT record now and marks it verified when it holds the token. */
    async verifyDomain(viewer: Viewer, orgId: string, domainId: string): Promise<SsoDomainView> {
      const { v, orgId: id } = await adminOf(viewer, orgId);
      const row = await d.sso.domain(id, domainId);
      if (!row) throw notFound('No such domain');
      if (row.verifiedAt) return domainView(row);
      const name = verificationName(row.domain);
      let records: string[][];
      try {
        records = await d.resolveTxt(name);
      } catch {
        throw new DomainError('unavailable', `The DNS lookup of ${name} failed; try again in a moment`);
      }
      if (!txtProves(records, row.verificationToken)) {
        throw new DomainError(
          'unprocessable',
          `No TXT record at ${name} holds ${verificationValue(row.verificationToken)} yet (DNS changes can take a while to show)`,
          {
            parameter: 'domain',
          },
        );
      }
      const r = await d.sso.markVerified(id, domainId, d.clock.now());
      if (r === 'not_found') throw notFound('No such domain');
      if (r === 'taken') throw new DomainError('conflict', `${row.domain} is verified by another organisation`, { parameter: 'domain' });
      await d.audit.record(id, v, 'sso.domain_verified', `domain:${domainId}`, { after: { domain: row.domain } });
      return domainView((await d.sso.domain(id, domainId))!);
    },

    async deleteDomain(viewer: Viewer, orgId: string, domainId: string): Promise<void> {
      const { v, orgId: id } = await adminOf(viewer, orgId);
      const row = await d.sso.domain(id, domainId);
      if (!row || !(await d.sso.deleteDomain(id, domainId))) throw notFound('No such domain');
      await d.audit.record(id, v, 'sso.domain_deleted', `domain:${domainId}`, { before: { domain: row.domain, verified: row.verifiedAt !== null } });
    },
  };
}

export type SsoService = ReturnType<typeof ssoService>;
