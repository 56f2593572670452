import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, invalidParameter, notFound, roleRequired } from '../../domain/errors.ts';
import { orgName } from '../../domain/org-names.ts';
import { canGrant, type OrgRole, roleAtLeast } from '../../domain/org-roles.ts';
import { membershipChange, type ScimGroupRole } from '../../domain/scim-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { InvitationRow, InvitationsRepository } from '../../store/repositories/invitations-repository.ts';
import type { MemberRow, MyOrg, OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { SessionsRepository } from '../../store/repositories/sessions-repository.ts';
import type { SlidingLimitsRepository } from '../../store/repositories/sliding-limits-repository.ts';
import type { UsersRepository } from '../../store/repositories/users-repository.ts';
import type { Authenticator } from '../access/authenticator.ts';
import { sha256hex } from '../access/secrets.ts';
import type { OrgViewer, UserViewer, Viewer } from '../context.ts';
import { type AuditService, OPERATOR_ACTOR } from './audit-service.ts';

// Organisations, members and invitations (docs/teams.md). Every use case acts in one
// organisation: `actingIn` turns the caller into a member of the organisation a request
// names, with their role there, or answers 404 (the same for an organisation that does
// not exist and one the caller is not in, so ids cannot be probed). Role rules are
// checked here, before any write; each change is written to the audit log.

/** A member and an organisation as the use cases hand them out. */
export type { MemberRow, MyOrg };

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
/** Open invitations one organisation may have at once (bounds what one admin can send). */
export const MAX_OPEN_INVITATIONS = 100;
/**
 * Invitations per 24 hours, per organisation and per invited address (docs/teams.md,
 * "Invitations"): revoking and inviting again cannot turn the service into a mailer.
 */
export const INVITATIONS_PER_ORG_PER_DAY = 50;
export const INVITATIONS_PER_ADDRESS_PER_DAY = 3;
const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sends an invitation e-mail; true when the server accepted it. */
export type InvitationMailer = (to: string, invitation: { orgName: string; invitedBy: string | null; link: string; expiresAt: string }) => Promise<boolean>;

export type InvitationState = 'open' | 'accepted' | 'declined' | 'revoked' | 'expired';

export interface InvitationView {
  id: string;
  organisation: { id: string; name: string };
  email: string;
  role: OrgRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  state: InvitationState;
}

const ORG_NOT_FOUND = 'No such organisation';

export function orgsService(d: {
  organisations: OrganisationsRepository;
  invitations: InvitationsRepository;
  users: Pick<UsersRepository, 'findById'>;
  sessions: Pick<SessionsRepository, 'setOrg'>;
  apiKeys: Pick<ApiKeysRepository, 'hashesOf'>;
  slidingLimits: Pick<SlidingLimitsRepository, 'take'>;
  auth: Authenticator;
  audit: AuditService;
  clock: Clock;
  newOrgPlan: UserPlan;
  mailer: (() => InvitationMailer | null) | null;
  publicUrl: string | null;
}) {
  const stateOf = (i: InvitationRow): InvitationState => i.outcome ?? (i.expiresAt <= d.clock.now().toISOString() ? 'expired' : 'open');
  const invitationView = (i: InvitationRow): InvitationView => ({
    id: i.id,
    organisation: { id: i.orgId, name: i.orgName },
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
    state: stateOf(i),
  });

  /** The caller as a member of `orgId` (their role there), or 404. A key acts only in its own organisation. */
  async function actingIn(viewer: Viewer, orgId: string): Promise<OrgViewer> {
    if (!viewer.orgId) throw new DomainError('unauthorized', 'A valid API key or a logged-in web session is required');
    if (orgId === viewer.orgId) return viewer as OrgViewer;
    if (viewer.authKind === 'key' || !viewer.userId) throw notFound(ORG_NOT_FOUND);
    const role = await d.organisations.roleOf(orgId, viewer.userId);
    if (!role) throw notFound(ORG_NOT_FOUND);
    const org = await d.organisations.get(orgId);
    if (!org) throw notFound(ORG_NOT_FOUND);
    return { ...viewer, orgId, role, plan: org.plan };
  }

  const need = (v: OrgViewer, role: OrgRole) => {
    if (!roleAtLeast(v.role, role)) throw roleRequired(v.role, role);
  };

  /** Makes a membership change take effect now in this process (other instances: within AUTH_CACHE_SECONDS). */
  async function forgetMember(orgId: string, userId: string) {
    d.auth.forgetUser(userId);
    for (const hash of await d.apiKeys.hashesOf(orgId, userId)) d.auth.forgetKey(hash);
  }

  async function emailOf(userId: string) {
    return (await d.users.findById(userId))?.email ?? null;
  }

  const memberChangeRefused = (outcome: 'not_member' | 'last_owner') =>
    outcome === 'not_member'
      ? notFound('No such member')
      : new DomainError('conflict', 'An organisation keeps at least one owner: make another member owner first');

  return {
    actingIn,

    /** The caller's organisations with their role in each; `current` marks the one the request acts for. */
    async listMine(viewer: UserViewer) {
      const orgs = await d.organisations.listForUser(viewer.userId);
      return orgs.map((o) => ({ ...o, current: o.id === viewer.orgId }));
    },

    async create(viewer: UserViewer, rawName: string) {
      const name = orgName(rawName);
      const org = await d.organisations.create({ id: randomUUID(), name, plan: d.newOrgPlan, personal: false, ownerId: viewer.userId, now: d.clock.now() });
      await d.audit.record(org.id, viewer, 'org.created', `org:${org.id}`, { after: { name, plan: org.plan } });
      return { ...org, role: 'owner' as const };
    },

    async get(viewer: Viewer, orgId: string) {
      const v = await actingIn(viewer, orgId);
      const org = await d.organisations.get(v.orgId);
      if (!org) throw notFound(ORG_NOT_FOUND);
      return { ...org, role: v.role };
    },

    async rename(viewer: Viewer, orgId: string, rawName: string) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      const name = orgName(rawName);
      const before = await d.organisations.get(v.orgId);
      await d.organisations.rename(v.orgId, name, d.clock.now());
      await d.audit.record(v.orgId, v, 'org.renamed', `org:${v.orgId}`, { before: { name: before?.name }, after: { name } });
      return this.get(v, v.orgId);
    },

    async remove(viewer: Viewer, orgId: string) {
      const v = await actingIn(viewer, orgId);
      need(v, 'owner');
      const org = await d.organisations.get(v.orgId);
      if (org?.personal) throw new DomainError('conflict', 'A personal organisation goes only with its account');
      const members = await d.organisations.members(v.orgId);
      if (!(await d.organisations.delete(v.orgId))) throw notFound(ORG_NOT_FOUND);
      for (const m of members) await forgetMember(v.orgId, m.userId);
      d.auth.forgetOrg(v.orgId);
    },

    /** Switches the organisation a web session acts for. */
    async switchTo(viewer: UserViewer, sessionHash: string, orgId: string) {
      const v = await actingIn(viewer, orgId);
      await d.sessions.setOrg(sessionHash, v.orgId);
      d.auth.forgetSession(sessionHash);
      return this.get(v, v.orgId);
    },

    async members(viewer: Viewer, orgId: string) {
      const v = await actingIn(viewer, orgId);
      return d.organisations.members(v.orgId);
    },

    async setRole(viewer: Viewer, orgId: string, userId: string, role: OrgRole) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      if (!canGrant(v.role, role)) throw roleRequired(v.role, role);
      const current = await d.organisations.roleOf(v.orgId, userId);
      if (!current) throw notFound('No such member');
      // Only an owner changes an owner.
      if (current === 'owner') need(v, 'owner');
      const outcome = await d.organisations.setRole(v.orgId, userId, role);
      if (outcome !== 'changed') throw memberChangeRefused(outcome);
      await forgetMember(v.orgId, userId);
      await d.audit.record(v.orgId, v, 'member.role_changed', `user:${await emailOf(userId)}`, { before: { role: current }, after: { role } });
    },

    /** Removes another member (admins; an owner only by an owner). */
    async removeMember(viewer: Viewer, orgId: string, userId: string) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      const current = await d.organisations.roleOf(v.orgId, userId);
      if (!current) throw notFound('No such member');
      if (current === 'owner') need(v, 'owner');
      const email = await emailOf(userId);
      const outcome = await d.organisations.removeMember(v.orgId, userId, d.clock.now());
      if (outcome !== 'changed') throw memberChangeRefused(outcome);
      await forgetMember(v.orgId, userId);
      await d.audit.record(v.orgId, v, 'member.removed', `user:${email}`, { before: { role: current } });
    },

    async leave(viewer: UserViewer, orgId: string) {
      const v = (await actingIn(viewer, orgId)) as UserViewer;
      const org = await d.organisations.get(v.orgId);
      if (org?.personal) throw new DomainError('conflict', 'A personal organisation cannot be left');
      const outcome = await d.organisations.removeMember(v.orgId, v.userId, d.clock.now());
      if (outcome !== 'changed') throw memberChangeRefused(outcome);
      await forgetMember(v.orgId, v.userId);
      await d.audit.record(v.orgId, v, 'member.left', `user:${await emailOf(v.userId)}`, { before: { role: v.role } });
    },

    async transferOwnership(viewer: UserViewer, orgId: string, toUserId: string) {
      const v = (await actingIn(viewer, orgId)) as UserViewer;
      need(v, 'owner');
      const org = await d.organisations.get(v.orgId);
      if (org?.personal) throw new DomainError('conflict', 'A personal organisation stays with its account');
      const outcome = await d.organisations.transferOwnership(v.orgId, v.userId, toUserId);
      if (outcome !== 'changed') throw memberChangeRefused(outcome);
      await forgetMember(v.orgId, toUserId);
      await forgetMember(v.orgId, v.userId);
      await d.audit.record(v.orgId, v, 'org.ownership_transferred', `user:${await emailOf(toUserId)}`, {
        before: { owner: await emailOf(v.userId) },
        after: { owner: await emailOf(toUserId) },
      });
    },

    // ------------------------------------------------------------ invitations

    /** Invites an address; the link (with its single-use token) is returned once and e-mailed when SMTP is set. */
    async invite(viewer: Viewer, orgId: string, rawEmail: string, role: OrgRole) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      if (!canGrant(v.role, role)) throw roleRequired(v.role, role);
      const email = rawEmail.trim().toLowerCase();
      if (email.length > 254 || !EMAIL.test(email)) throw invalidParameter('email', 'is not a valid email address');
      const org = await d.organisations.get(v.orgId);
      if (!org) throw notFound(ORG_NOT_FOUND);
      if (org.personal) throw new DomainError('conflict', 'A personal organisation has one member; create a team organisation to invite people');
      const now = d.clock.now();
      if ((await d.invitations.countOpen(v.orgId, now)) >= MAX_OPEN_INVITATIONS) {
        throw new DomainError('limit_exceeded', `At most ${MAX_OPEN_INVITATIONS} invitations can be open at once`, { limit: MAX_OPEN_INVITATIONS });
      }
      const gate = await d.slidingLimits.take(
        [
          { subject: `invite:o:${v.orgId}`, limit: INVITATIONS_PER_ORG_PER_DAY },
          // The address itself is not stored here, only its hash.
          { subject: `invite:to:${sha256hex(email)}`, limit: INVITATIONS_PER_ADDRESS_PER_DAY },
        ],
        86_400_000,
        now,
      );
      if (!gate.allowed) {
        const whose = gate.subject.startsWith('invite:o:') ? 'this organisation' : 'this address';
        throw new DomainError('rate_limit_exceeded', `At most ${gate.limit} invitations per 24 hours for ${whose}; try again later`, {
          retryAfter: gate.retryAfterSeconds,
        });
      }
      const token = randomBytes(32).toString('base64url');
      const id = randomUUID();
      const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
      await d.invitations.create({ id, orgId: v.orgId, email, role, tokenHash: sha256hex(token), invitedBy: v.userId, now, expiresAt });
      const link = `${d.publicUrl ?? ''}/invitations/${token}`;
      const inviter = v.userId ? await emailOf(v.userId) : null;
      const mailer = d.mailer?.() ?? null;
      const emailed = mailer ? await mailer(email, { orgName: org.name, invitedBy: inviter, link, expiresAt: expiresAt.toISOString() }) : false;
      await d.audit.record(v.orgId, v, 'invitation.created', `invitation:${id}`, { after: { email, role, expiresAt: expiresAt.toISOString() } });
      return { id, email, role, expiresAt: expiresAt.toISOString(), link, token, emailed };
    },

    async invitations(viewer: Viewer, orgId: string) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      return (await d.invitations.listOpen(v.orgId, d.clock.now())).map(invitationView);
    },

    async revokeInvitation(viewer: Viewer, orgId: string, invitationId: string) {
      const v = await actingIn(viewer, orgId);
      need(v, 'admin');
      const open = (await d.invitations.listOpen(v.orgId, d.clock.now())).find((i) => i.id === invitationId);
      if (!open || !(await d.invitations.close(open.id, 'revoked', d.clock.now()))) throw notFound('No such open invitation');
      await d.audit.record(v.orgId, v, 'invitation.revoked', `invitation:${open.id}`, { before: { email: open.email, role: open.role } });
    },

    /** What an invitation link is for (shown before accepting); unknown tokens are 404. */
    async preview(token: string): Promise<InvitationView> {
      if (!INVITATION_TOKEN.test(token)) throw notFound('No such invitation');
      const inv = await d.invitations.findByTokenHash(sha256hex(token));
      if (!inv) throw notFound('No such invitation');
      return invitationView(inv);
    },

    /**
     * Accepts or declines an invitation as the signed-in user. It must be open and
     * addressed to this user's own e-mail address; the answer says why not otherwise.
     */
    async decide(viewer: UserViewer, token: string, decision: 'accept' | 'decline') {
      const inv = await this.preview(token);
      const state = inv.state;
      if (state !== 'open') {
        throw new DomainError('conflict', state === 'expired' ? 'This invitation has expired; ask for a new one' : `This invitation was already ${state}`, {
          state,
        });
      }
      const me = await emailOf(viewer.userId);
      if (!me || me !== inv.email) {
        throw new DomainError('conflict', 'This invitation is for another e-mail address; sign in with the invited address', { state: 'foreign' });
      }
      const now = d.clock.now();
      const who = { ...viewer, orgId: inv.organisation.id };
      if (decision === 'decline') {
        // `inv` came from this token a moment ago; the conditional close refuses it if decided since.
        if (!(await d.invitations.close(inv.id, 'declined', now)))
          throw new DomainError('conflict', 'This invitation was already decided', { state: 'decided' });
        await d.audit.record(inv.organisation.id, who, 'invitation.declined', `invitation:${inv.id}`, { after: { email: me } });
        return { ...inv, state: 'declined' as const };
      }
      const outcome = await d.invitations.accept(inv.id, viewer.userId, now);
      if (outcome === 'already_decided') throw new DomainError('conflict', 'This invitation was already decided', { state: 'decided' });
      if (outcome === 'already_member') throw new DomainError('conflict', 'You are already a member of this organisation', { state: 'member' });
      d.auth.forgetUser(viewer.userId);
      await d.audit.record(inv.organisation.id, who, 'member.joined', `user:${me}`, { after: { role: inv.role, via: 'invitation' } });
      return { ...inv, state: 'accepted' as const };
    },

    /**
     * SCIM provisioning (docs/teams.md, "SCIM"): gives a person the role `wanted` in the
     * organisation, or no membership (null), with the same effects as an admin's change
     * (their member keys revoked and cached credentials dropped on removal). Owners are
     * left as they are. The caller audits the outcome.
     */
    async provisionAccess(orgId: string, userId: string, wanted: ScimGroupRole | null): Promise<{ before: OrgRole | null; after: OrgRole | null }> {
      const before = await d.organisations.roleOf(orgId, userId);
      const change = membershipChange(before, wanted);
      let done = false;
      if (change.action === 'add') done = await d.organisations.addMember(orgId, userId, change.role!, d.clock.now());
      else if (change.action === 'set') done = (await d.organisations.setRole(orgId, userId, change.role!)) === 'changed';
      else if (change.action === 'remove') done = (await d.organisations.removeMember(orgId, userId, d.clock.now())) === 'changed';
      if (!done) return { before, after: before };
      await forgetMember(orgId, userId);
      return { before, after: change.role };
    },

    // ------------------------------------------------------------ operator

    async listAll() {
      return d.organisations.listAll();
    },

    /** Creates an organisation owned by an existing account (operator CLI). */
    async createFor(ownerId: string, rawName: string, plan: UserPlan) {
      const name = orgName(rawName);
      const org = await d.organisations.create({ id: randomUUID(), name, plan, personal: false, ownerId, now: d.clock.now() });
      await d.audit.record(org.id, OPERATOR_ACTOR, 'org.created', `org:${org.id}`, { after: { name, plan } });
      return org;
    },

    async setPlan(orgId: string, plan: UserPlan) {
      const before = await d.organisations.get(orgId);
      if (!before || !(await d.organisations.setPlan(orgId, plan, d.clock.now()))) throw notFound(ORG_NOT_FOUND);
      d.auth.forgetOrg(orgId);
      await d.audit.record(orgId, OPERATOR_ACTOR, 'org.plan_changed', `org:${orgId}`, { before: { plan: before.plan }, after: { plan } });
      return { ...before, plan };
    },
  };
}

export type OrgsService = ReturnType<typeof orgsService>;
