import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuditActor } from '../../domain/audit-chain.ts';
import type { Clock } from '../../domain/clock.ts';
import type { UserPlan } from '../../domain/plans.ts';
import { emailDomain, type OidcRelyingParty, SSO_PENDING_SECONDS, SsoProblem } from '../../domain/sso.ts';
import type { LimitWindow, RateLimiter } from '../../infra/rate-limiter.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { SsoRepository } from '../../store/repositories/sso-repository.ts';
import type { UsersRepository } from '../../store/repositories/users-repository.ts';
import { hashPassword } from '../access/passwords.ts';
import type { AuditService } from './audit-service.ts';

// Signing in with an organisation's identity provider (docs/teams.md, "Single sign-on").
// start: the work e-mail's domain names the organisation (a verified domain) and its
// connection; a pending sign-in (state, nonce, PKCE verifier, organisation, expiry) is
// stored, bound to the browser by a random value kept in a cookie (only its SHA-256 is
// stored), and the browser goes to the provider. finish: the state is taken once (in the
// same browser, before it expires), the code is redeemed and the ID token checked
// (infra/oidc-relying-party.ts), the e-mail must be verified and of a verified domain of
// that organisation; the account is found by e-mail or made (just in time, without a usable
// password), the membership made with the default role, and a session opened on that
// organisation. Every refusal is an SsoProblem: a 4xx status and plain words.

const START_PER_ADDRESS: LimitWindow[] = [{ name: 'sso', limit: 60, windowSeconds: 15 * 60 }];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TOKEN = /^[A-Za-z0-9._~-]{16,200}$/;
const MAX_CALLBACK_URL = 4096;

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const random = () => randomBytes(32).toString('base64url');
/** Printable ASCII, short: what a provider's error may put on our page. */
const plain = (v: unknown, max: number) => (typeof v === 'string' ? v.replace(/[^\x20-\x7e]/g, '').slice(0, max) : '');

export interface SsoStart {
  /** The provider's authorization URL. */
  url: string;
  /** Keep in the browser (a cookie); the callback must bring it back. */
  browserSecret: string;
}

export interface SsoFinish {
  userId: string;
  orgId: string;
  returnTo: string;
  joined: boolean;
  session: { token: string; expiresAt: Date };
}

export function ssoSignIn(d: {
  sso: SsoRepository;
  users: Pick<UsersRepository, 'findByEmail' | 'create'>;
  organisations: Pick<OrganisationsRepository, 'roleOf' | 'addMember'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  limiter: RateLimiter;
  relyingParty: () => OidcRelyingParty | null;
  openSession: (userId: string, orgId: string) => Promise<{ token: string; expiresAt: Date }>;
  newOrgPlan: UserPlan;
  passwordHashCost: number;
}) {
  const rp = () => {
    const r = d.relyingParty();
    if (!r) throw new SsoProblem(404, 'Single sign-on is not available on this server');
    return r;
  };

  return {
    async start(input: { email: string; returnTo: string; redirectUri: string; address: string }): Promise<SsoStart> {
      const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
      if (email.length > 254 || !EMAIL.test(email)) throw new SsoProblem(400, 'Enter your work e-mail address, such as name@example.com.');
      const gate = await d.limiter.consume(`sso:ip:${input.address}`, START_PER_ADDRESS);
      if (!gate.allowed) throw new SsoProblem(400, 'Too many sign-ins were started from this address; try again in a few minutes.');
      const domain = emailDomain(email)!;
      const found = await d.sso.byVerifiedDomain(domain);
      if (!found?.connection?.enabled)
        throw new SsoProblem(404, `Single sign-on is not set up for ${domain}. Sign in with your password, or ask your administrator.`);
      const state = random();
      const nonce = random();
      const codeVerifier = random();
      const browserSecret = random();
      const now = d.clock.now();
      await d.sso.addPending(
        sha256(state),
        {
          orgId: found.orgId,
          browserHash: sha256(browserSecret),
          nonce,
          codeVerifier,
          returnTo: input.returnTo,
          expiresAt: new Date(now.getTime() + SSO_PENDING_SECONDS * 1000).toISOString(),
        },
        now,
      );
      const c = found.connection;
      const url = await rp().authorizationUrl(
        { issuer: c.issuer, clientId: c.clientId, clientSecret: c.clientSecret },
        { redirectUri: input.redirectUri, state, nonce, codeVerifier },
      );
      return { url, browserSecret };
    },

    async finish(input: { callbackUrl: URL; query: Record<string, unknown>; browserSecret: string | null; address: string }): Promise<SsoFinish> {
      const q = input.query;
      if (input.callbackUrl.href.length > MAX_CALLBACK_URL) throw new SsoProblem(400, 'The answer from the identity provider is too long to be a sign-in.');
      const state = q.state;
      if (typeof state !== 'string' || !TOKEN.test(state))
        throw new SsoProblem(400, 'The answer from the identity provider has no valid state: start the sign-in again.');
      const pending = await d.sso.pending(sha256(state));
      if (!pending) throw new SsoProblem(400, 'This sign-in has expired or was already used: start it again from the sign-in page.');
      const browserHash = input.browserSecret ? sha256(input.browserSecret) : '';
      if (browserHash !== pending.browserHash) {
        throw new SsoProblem(400, 'This sign-in was started in another browser (or its cookie is gone): start it again in this browser.');
      }
      // Taken once, whatever happens next: a replayed answer finds nothing.
      if (!(await d.sso.consumePending(sha256(state), browserHash)))
        throw new SsoProblem(400, 'This sign-in has expired or was already used: start it again from the sign-in page.');
      if (pending.expiresAt <= d.clock.now().toISOString()) throw new SsoProblem(400, 'This sign-in has expired: start it again from the sign-in page.');
      if (typeof q.error === 'string') {
        const desc = plain(q.error_description, 200);
        throw new SsoProblem(400, `The identity provider did not sign you in (${plain(q.error, 60)}${desc ? `: ${desc}` : ''}).`);
      }
      if (typeof q.code !== 'string' || q.code.length < 1 || q.code.length > 2048)
        throw new SsoProblem(400, 'The answer from the identity provider has no valid code.');
      const c = await d.sso.connection(pending.orgId);
      if (!c?.enabled) throw new SsoProblem(400, 'Single sign-on is no longer set up for this organisation.');
      const identity = await rp().redeem({ issuer: c.issuer, clientId: c.clientId, clientSecret: c.clientSecret }, input.callbackUrl, {
        state,
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
      });
      const email = identity.email;
      if (!email || email.length > 254 || !EMAIL.test(email))
        throw new SsoProblem(403, 'The identity provider did not share your e-mail address (ask for the "email" scope).');
      if (!identity.emailVerified) throw new SsoProblem(403, `The identity provider has not verified ${email}.`);
      const domain = emailDomain(email)!;
      const verified = (await d.sso.domains(pending.orgId)).filter((r) => r.verifiedAt).map((r) => r.domain);
      if (!verified.includes(domain)) throw new SsoProblem(403, `${domain} is not a verified domain of this organisation.`);

      let user = await d.users.findByEmail(email);
      if (!user) {
        // No usable password: the hash of 32 random bytes nobody keeps.
        const passwordHash = await hashPassword(randomBytes(32).toString('base64url'), d.passwordHashCost);
        user = (await d.users.create({ id: randomUUID(), email, passwordHash, plan: d.newOrgPlan, now: d.clock.now() })) ?? (await d.users.findByEmail(email));
        if (!user) throw new SsoProblem(400, 'The account could not be made; try again.');
      }
      const actor: AuditActor = { kind: 'user', id: user.id, label: email, address: input.address };
      let joined = false;
      if (!(await d.organisations.roleOf(pending.orgId, user.id))) {
        joined = await d.organisations.addMember(pending.orgId, user.id, c.defaultRole, d.clock.now());
        if (joined)
          await d.audit.record(pending.orgId, actor, 'sso.member_joined', `user:${user.id}`, {
            after: { email, role: c.defaultRole, subject: identity.subject },
          });
      }
      const session = await d.openSession(user.id, pending.orgId);
      return { userId: user.id, orgId: pending.orgId, returnTo: pending.returnTo, joined, session };
    },
  };
}

export type SsoSignIn = ReturnType<typeof ssoSignIn>;
