import type * as Oidc from 'openid-client';
import { loadOnce } from './load-once.ts';
import { request } from 'undici';
import { SsoProblem, type OidcConnection, type OidcIdentity, type OidcRelyingParty } from '../domain/sso.ts';
import { webhookUrlProblem } from '../domain/outbound-url.ts';
import { assertAllowedUrl, guardedAgent } from './ssrf-guard.ts';

// The OpenID Connect relying party of single sign-on (docs/teams.md, "Single sign-on"),
// over openid-client v6. Every request to the identity provider (discovery, keys, token,
// userinfo) goes through the outbound URL guard: the save-time rules of
// domain/outbound-url.ts, then the connect-time guarded agent of infra/ssrf-guard.ts, so
// an issuer cannot point the service at its own network unless OUTBOUND_ALLOW_PRIVATE
// names the host (tests: loopback). Redirects are not followed; bodies are capped.
//
// Discovery and the key set are read afresh for every sign-in (one configuration per
// flow, nothing cached between sign-ins): a provider that rotated its signing keys is
// followed at the next sign-in, on every instance, without waiting for a cache to age.
// The ID token's signature is checked against those keys (enableNonRepudiationChecks),
// not only trusted because it came over TLS.

const MAX_BODY = 512 * 1024;
/** openid-client (and jose) load with the first sign-in, not with the app (docs/architecture.md, "Optional infrastructure"). */
const library = loadOnce(() => import('openid-client'));
const SCOPE = 'openid email profile';

export interface RelyingPartyOptions {
  allowList: readonly string[];
  timeoutMs: number;
  /** The service's clock: ID token times are judged against it. */
  now: () => Date;
}

/** Plain words for what openid-client refused, never its stack. */
function reasonOf(err: unknown): string {
  if (err instanceof SsoProblem) return err.message;
  const e = err as { code?: string; message?: string; error?: string; cause?: unknown; name?: string };
  if (e?.name === 'AuthorizationResponseError' || e?.name === 'ResponseBodyError') {
    return `the identity provider answered with an error (${String(e.error ?? 'unknown').slice(0, 80)})`;
  }
  // openid-client wraps oauth4webapi's error, whose `cause` names the claim.
  let claim: unknown;
  for (let c: unknown = e?.cause, i = 0; c && typeof c === 'object' && i < 4 && claim === undefined; c = (c as { cause?: unknown }).cause, i++) {
    claim = (c as { claim?: unknown }).claim;
  }
  if (e?.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && typeof claim === 'string') {
    const hint: Record<string, string> = {
      aud: 'it was issued for another client',
      iss: 'it was issued by another issuer',
      nonce: 'it belongs to another sign-in',
      azp: 'it was issued for another client',
    };
    return `the ID token's "${claim.slice(0, 20)}" claim is wrong (${hint[claim] ?? 'unexpected value'})`;
  }
  if (e?.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && typeof claim === 'string') {
    return claim === 'exp' ? 'the ID token has expired ("exp")' : `the ID token's "${claim.slice(0, 20)}" time is not valid now`;
  }
  const msg = String(e?.message ?? 'unknown error')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 200);
  if (e?.code === 'ERR_BLOCKED_DESTINATION' || /destination refused/.test(msg)) return 'the identity provider is not at a public address';
  if (e?.code === 'OAUTH_TIMEOUT' || e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'the identity provider did not answer in time';
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|socket|connect/i.test(msg)) return 'the identity provider could not be reached';
  return msg;
}

export function oidcRelyingParty(o: RelyingPartyOptions): OidcRelyingParty & { close(): Promise<void> } {
  const agent = guardedAgent({ allowList: o.allowList, timeoutMs: o.timeoutMs, connections: 8 });

  /** fetch for openid-client: guarded agent, no redirects, capped body, a global Response. */
  const guardedFetch: Oidc.CustomFetch = async (url, options) => {
    const target = new URL(url);
    const problem = webhookUrlProblem(url, o.allowList);
    if (problem) throw new SsoProblem(400, `The identity provider's address ${problem}`);
    assertAllowedUrl(target, o.allowList);
    const res = await request(target, {
      method: options.method as 'GET' | 'POST',
      headers: options.headers as Record<string, string>,
      body: options.body instanceof URLSearchParams ? options.body.toString() : (options.body as string | undefined),
      dispatcher: agent,
      signal: options.signal ?? AbortSignal.timeout(o.timeoutMs),
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) {
        res.body.destroy();
        throw new SsoProblem(400, 'The identity provider sent an answer that is too large');
      }
      chunks.push(chunk as Buffer);
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const nullBody = res.statusCode === 204 || res.statusCode === 304 || (res.statusCode >= 300 && res.statusCode < 400);
    return new Response(nullBody ? null : Buffer.concat(chunks), { status: res.statusCode, headers });
  };

  async function configure(c: OidcConnection): Promise<Oidc.Configuration> {
    const oidc = await library();
    let issuer: URL;
    try {
      issuer = new URL(c.issuer);
    } catch {
      throw new SsoProblem(400, 'The issuer URL is not valid');
    }
    const metadata: Partial<Oidc.ClientMetadata> = {
      client_secret: c.clientSecret,
      // ID token times are judged by the service's clock (seconds it is ahead of this machine's).
      [oidc.clockSkew]: Math.round((o.now().getTime() - Date.now()) / 1000),
    };
    const execute = [oidc.enableNonRepudiationChecks];
    if (issuer.protocol === 'http:') execute.push(oidc.allowInsecureRequests);
    try {
      return await oidc.discovery(issuer, c.clientId, metadata, oidc.ClientSecretBasic(c.clientSecret), {
        [oidc.customFetch]: guardedFetch,
        execute,
        timeout: Math.ceil(o.timeoutMs / 1000),
      });
    } catch (err) {
      throw new SsoProblem(400, `The identity provider's discovery document could not be used: ${reasonOf(err)}`);
    }
  }

  return {
    async discover(c) {
      await configure(c);
    },

    async authorizationUrl(c, p) {
      const oidc = await library();
      const config = await configure(c);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: p.redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(p.codeVerifier),
        code_challenge_method: 'S256',
        state: p.state,
        nonce: p.nonce,
      });
      // The browser is sent there: a web address, nothing else (a `javascript:` endpoint).
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new SsoProblem(400, "The identity provider's authorization endpoint is not a web address");
      return url.href;
    },

    async redeem(c, callbackUrl, checks): Promise<OidcIdentity> {
      const oidc = await library();
      const config = await configure(c);
      let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw new SsoProblem(401, `The identity provider's answer failed a check: ${reasonOf(err)}`);
      }
      const claims = tokens.claims();
      if (!claims) throw new SsoProblem(401, 'The identity provider sent no ID token');
      let source: Record<string, unknown> = claims;
      // Providers that keep e-mail claims for userinfo (OpenID Connect's rule for claims
      // asked by scope) are asked there, for the same subject.
      if (typeof claims.email !== 'string' && tokens.access_token) {
        try {
          source = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
        } catch (err) {
          throw new SsoProblem(401, `The identity provider's user information could not be read: ${reasonOf(err)}`);
        }
      }
      const email = typeof source.email === 'string' && source.email.length <= 254 ? source.email.trim().toLowerCase() : null;
      return {
        subject: claims.sub,
        email,
        // Entra ID has no email_verified; its optional xms_edov says the domain owner verified it.
        emailVerified: source.email_verified === true || source.xms_edov === true || source.xms_edov === '1',
        name: typeof source.name === 'string' ? source.name.slice(0, 200) : null,
      };
    },

    close: () => agent.close(),
  };
}
