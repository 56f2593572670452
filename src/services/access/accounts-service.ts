import { randomUUID } from 'node:crypto';
import { DomainError, invalidParameter } from '../../domain/errors.ts';
import { planPolicy, type RateLimitOverrides, type UserPlan } from '../../domain/plans.ts';
import type { LimitWindow, RateLimiter } from '../../infra/rate-limiter.ts';
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts';
import type { SessionsRepository } from '../../store/repositories/sessions-repository.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { UserRow, UsersRepository } from '../../store/repositories/users-repository.ts';
import type { OrgViewer, UserViewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Authenticator } from './authenticator.ts';
import { maxKeysFor } from './keys-service.ts';
import { DAY, MINUTE, orgSubject, planWindows } from './limits.ts';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { generateSessionToken, sha256hex } from './secrets.ts';
import { emailDomain } from '../../domain/sso.ts';
import type { SsoRepository } from '../../store/repositories/sso-repository.ts';
import type { AuditService } from '../orgs/audit-service.ts';

const SESSION_DAYS = 30;

// Failed logins are throttled per account and per client address; signups per address.
// An attempt is reserved (counted atomically, refused when the window is full) before
// any scrypt work, so a burst of concurrent attempts cannot all be evaluated
// (docs/security.md, "Throttles under concurrency"); a successful login gives its
// reservation back, a signup keeps it (a 409 counts too).
const LOGIN_PER_EMAIL: LimitWindow[] = [{ name: 'login', limit: 5, windowSeconds: 15 * MINUTE }];
const LOGIN_PER_IP: LimitWindow[] = [{ name: 'login', limit: 30, windowSeconds: 15 * MINUTE }];
const SIGNUP_PER_IP: LimitWindow[] = [{ name: 'signup', limit: 10, windowSeconds: 60 * MINUTE }];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw invalidParameter('email', 'is not a valid email address');
  return email;
}

function throttled(message: string, retryAfter: number) {
  return new DomainError('rate_limit_exceeded', message, { retryAfter });
}

export function accountsService(deps: {
  users: UsersRepository;
  organisations: OrganisationsRepository;
  sessions: SessionsRepository;
  apiKeys: ApiKeysRepository;
  auth: Authenticator;
  limiter: RateLimiter;
  clock: Clock;
  passwordHashCost: number;
  rateLimits: RateLimitOverrides;
  /** The plan of the personal organisation a web signup gets (NEW_ORG_PLAN, docs/teams.md "Operator"). */
  newOrgPlan: UserPlan;
  /** Organisations requiring single sign-on for an e-mail domain (docs/teams.md, "Single sign-on"). */
  sso?: Pick<SsoRepository, 'requiringSso'>;
  audit?: Pick<AuditService, 'record'>;
}) {
  const { users, clock } = deps;
  // Unknown emails are checked against this so a miss costs as much as a wrong password.
  let dummyHash: Promise<string> | null = null;
  const dummy = () => (dummyHash ??= hashPassword('not-a-password', deps.passwordHashCost));

  /** Checks a new account's email and password against the policy; returns the normalised email. */
  async function checkNewAccount(input: { email: string; password: string }): Promise<string> {
    const email = normaliseEmail(input.email);
    await checkNewPassword(input.password, [email]);
    return email;
  }

  async function insertUser(email: string, password: string, plan: UserPlan): Promise<UserRow> {
    const passwordHash = await hashPassword(password, deps.passwordHashCost);
    const user = await users.create({ id: randomUUID(), email, passwordHash, plan, now: clock.now() });
    if (!user) throw new DomainError('conflict', 'An account with this email already exists');
    return user;
  }

  async function createUser(input: { email: string; password: string; plan: UserPlan }): Promise<UserRow> {
    return insertUser(await checkNewAccount(input), input.password, input.plan);
  }

  /** The plan a signed-in person sees first: their personal organisation's. */
  async function personalOrg(userId: string) {
    const org = await deps.organisations.personalOrgOf(userId);
    if (!org) throw new DomainError('unauthorized', 'This account has no organisation');
    return org;
  }

  /**
   * A session starts on the user's personal organisation (the org switcher moves it), or
   * on the organisation a single sign-on was for.
   */
  async function openSession(userId: string, orgId?: string) {
    const token = generateSessionToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY * 1000);
    const org = orgId ? { id: orgId } : await personalOrg(userId);
    await deps.sessions.create({ tokenHash: sha256hex(token), userId, orgId: org.id, now, expiresAt });
    // Expired sessions are useless rows; logins are rare enough to sweep them here.
    await deps.sessions.deleteExpired(now);
    return { token, expiresAt };
  }

  /** Counts one attempt against the account and the address, or refuses (nothing counted) when either is full. */
  async function reserveLogin(byEmail: string, byIp: string) {
    const e = await deps.limiter.consume(byEmail, LOGIN_PER_EMAIL);
    const i = e.allowed ? await deps.limiter.consume(byIp, LOGIN_PER_IP) : null;
    if (e.allowed && i!.allowed) return;
    if (e.allowed) await deps.limiter.refund(byEmail, LOGIN_PER_EMAIL);
    const blocked = [...e.violated, ...(i?.violated ?? [])];
    throw throttled('Too many failed login attempts; try again later', Math.max(...blocked.map((w) => w.resetSeconds)));
  }

  /**
   * Password sign-in of a member of an organisation that requires single sign-on for the
   * member's verified e-mail domain is refused; owners pass (break-glass) and the pass is
   * written to that organisation's audit log (docs/teams.md, "Single sign-on").
   */
  async function ssoGate(user: { id: string; email: string }, ip: string) {
    const domain = emailDomain(user.email);
    if (!deps.sso || !domain) return;
    const orgs = await deps.sso.requiringSso(user.id, domain);
    if (!orgs.length) return;
    if (orgs.some((o) => o.role !== 'owner')) {
      throw new DomainError('sso_required', 'Your organisation requires single sign-on: use "Sign in with SSO" with your work e-mail address');
    }
    for (const o of orgs) {
      await deps.audit?.record(o.orgId, { kind: 'user', id: user.id, label: user.email, address: ip }, 'sso.break_glass', `user:${user.id}`, {
        after: { method: 'password', role: o.role },
      });
    }
  }

  return {
    createUser,
    openSession,

    /** Web signup: a Free account and a session. */
    async signup(input: { email: string; password: string; ip: string }) {
      // Bad input is answered before anything is counted (a 400 costs no attempt).
      const email = await checkNewAccount(input);
      const gate = await deps.limiter.consume(`signup:${input.ip}`, SIGNUP_PER_IP);
      if (!gate.allowed) throw throttled('Too many signups from this address; try again later', gate.violated[0].resetSeconds);
      const user = await insertUser(email, input.password, deps.newOrgPlan);
      return { user: { ...user, plan: deps.newOrgPlan }, session: await openSession(user.id) };
    },

    async login(input: { email: string; password: string; ip: string }) {
      const email = input.email.trim().toLowerCase();
      const byEmail = `login:e:${sha256hex(email).slice(0, 32)}`;
      const byIp = `login:ip:${input.ip}`;
      await reserveLogin(byEmail, byIp);
      const user = email.length <= 254 ? await users.findByEmailWithPassword(email) : null;
      const ok = await verifyPassword(input.password.slice(0, MAX_PASSWORD_LENGTH), user?.passwordHash ?? (await dummy()));
      if (!user || !ok) throw new DomainError('unauthorized', 'Invalid email or password');
      await ssoGate(user, input.ip);
      // Only failures are throttled: a successful attempt gives its reservation back.
      await Promise.all([deps.limiter.refund(byEmail, LOGIN_PER_EMAIL), deps.limiter.refund(byIp, LOGIN_PER_IP)]);
      const session = await openSession(user.id);
      const { plan } = await personalOrg(user.id);
      return { user: { id: user.id, email: user.email, plan, createdAt: user.createdAt }, session };
    },

    async logout(sessionHash: string) {
      await deps.sessions.delete(sessionHash);
      deps.auth.forgetSession(sessionHash);
    },

    /** Sets the plan of an account's personal organisation (operator CLI `users set-plan`). */
    async setPlan(email: string, plan: UserPlan) {
      const normalised = normaliseEmail(email);
      const found = await users.findByEmail(normalised);
      if (!found) throw new DomainError('not_found', `No account with email ${normalised}`);
      const org = await personalOrg(found.id);
      await deps.organisations.setPlan(org.id, plan, clock.now());
      deps.auth.forgetOrg(org.id);
      return { ...found, plan };
    },

    /**
     * The account acting as owner of its personal organisation, with no request behind it
     * (the operator CLI and the demo login act for an account this way).
     */
    async personalViewer(userId: string): Promise<UserViewer> {
      const org = await personalOrg(userId);
      return { plan: org.plan, userId, orgId: org.id, role: org.role, authKind: 'session', keyId: null, address: null };
    },

    /** Every account with its personal organisation's plan (operator CLI). */
    async list() {
      const all = await users.list();
      return Promise.all(all.map(async (u) => ({ ...u, plan: (await personalOrg(u.id)).plan })));
    },

    /** The account behind a session or token, or null when it no longer exists. */
    findById(userId: string) {
      return users.findById(userId);
    },

    async findByEmail(email: string): Promise<UserRow | null> {
      return users.findByEmail(normaliseEmail(email));
    },

    /**
     * Plan, limits and today's usage of the organisation the caller acts for (all its keys
     * and its members' sessions together), with the caller's own account.
     */
    async summary(viewer: OrgViewer & { userId: string }) {
      const user = await users.findById(viewer.userId);
      const org = await deps.organisations.get(viewer.orgId);
      if (!user || !org) throw new DomainError('unauthorized', 'A valid API key or a logged-in session is required');
      const policy = planPolicy(org.plan, deps.rateLimits);
      const windows = planWindows(policy);
      const [minute, day] = (await deps.limiter.peek(orgSubject(org.id), windows)).windows;
      const now = clock.now();
      return {
        account: { id: user.id, email: user.email, plan: org.plan, createdAt: user.createdAt },
        organisation: { id: org.id, name: org.name, personal: org.personal, role: viewer.role },
        limits: {
          perMinute: policy.perMinute,
          perDay: policy.perDay,
          countedPer: 'organisation' as const,
          maxKeys: maxKeysFor(org.plan),
          windowDays: policy.windowDays,
          watchlistLimit: policy.watchlistLimit,
          compliance: policy.compliance,
          concurrentStreams: policy.concurrentStreams,
        },
        usage: {
          day: now.toISOString().slice(0, 10),
          resetsInSeconds: Math.max(1, Math.ceil((DAY * 1000 - (now.getTime() % (DAY * 1000))) / 1000)),
          total: day.used,
          usedToday: day.used,
          remainingToday: day.remaining,
          usedThisMinute: minute.used,
          remainingThisMinute: minute.remaining,
        },
      };
    },
  };
}

export type AccountsService = ReturnType<typeof accountsService>;
