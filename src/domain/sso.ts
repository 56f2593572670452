import { invalidParameter } from './errors.ts';

// Single sign-on rules (docs/teams.md, "Single sign-on"). Pure: no I/O. The OpenID
// Connect client and the DNS resolver are interfaces here, implemented in infra/.

/** Where identity providers send people back (the redirect URI to register). */
export const SSO_CALLBACK_PATH = '/auth/sso/callback';
/** How long a started sign-in may take at the identity provider before its state expires. */
export const SSO_PENDING_SECONDS = 10 * 60;
/** The DNS name that proves a domain: a TXT record there holding `vis-verify=<token>`. */
export const VERIFY_LABEL = '_vis-verify';
export const VERIFY_PREFIX = 'vis-verify=';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A domain as stored: lower case, no trailing dot, at least two labels, LDH labels, at most 253 characters. */
export function ssoDomain(raw: string): string {
  const d = raw.trim().toLowerCase().replace(/\.$/, '');
  const labels = d.split('.');
  if (d.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    throw invalidParameter('domain', 'must be a domain name such as example.com');
  }
  return d;
}

/** The domain of an e-mail address (lower case), or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

export const verificationName = (domain: string) => `${VERIFY_LABEL}.${domain}`;
export const verificationValue = (token: string) => `${VERIFY_PREFIX}${token}`;

/** Whether TXT answers (each record a list of strings, joined) hold the expected value. */
export function txtProves(records: string[][], token: string): boolean {
  const want = verificationValue(token);
  return records.some((chunks) => chunks.join('').trim() === want);
}

/** Reads the TXT records of a name; an absent name answers []. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** A connection as the relying party needs it. */
export interface OidcConnection {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the identity provider said about the person, after every check passed. */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  /** `email_verified` (or Entra ID's `xms_edov`) was true. */
  emailVerified: boolean;
  name: string | null;
}

/** Why a callback was refused: plain words for the person, never a stack. */
export class SsoProblem extends Error {
  readonly status: 400 | 401 | 403 | 404;
  constructor(status: 400 | 401 | 403 | 404, message: string) {
    super(message);
    this.name = 'SsoProblem';
    this.status = status;
  }
}

/**
 * The OpenID Connect relying party (infra/oidc-relying-party.ts: openid-client over the
 * outbound URL guard). Each call reads the provider's discovery document afresh.
 */
export interface OidcRelyingParty {
  /** The authorization URL to send the browser to (code flow, S256 PKCE, state, nonce). */
  authorizationUrl(c: OidcConnection, p: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<string>;
  /**
   * Redeems the code of `callbackUrl` and checks the ID token: issuer, audience, expiry,
   * signature against the provider's keys, nonce, PKCE, state. Throws SsoProblem.
   */
  redeem(c: OidcConnection, callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<OidcIdentity>;
  /** Reads the discovery document only (saving a connection checks the issuer answers). */
  discover(c: OidcConnection): Promise<void>;
}
