import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT, decodeJwt } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID Provider for the single sign-on tests (panva's certified `oidc-provider`),
// on its own loopback port. Interactions are ours: GET /interaction/:uid shows a small
// log-in form (the browser test fills it) or, when `autoLogin` names an account, logs it
// in at once (the headless tests follow redirects); consent is granted for the test
// client without a prompt. Switches make it misbehave like a real provider can:
// - `wrongAudience`: the ID token is re-signed (with the provider's own key) for another client;
// - `rogueKey`: the ID token is re-signed with a key the provider does not publish;
// - `idTokenTtl`: seconds an ID token lives (1 + a service clock ahead = an expired token).
// `rotate()` restarts the provider on the same address with a new first signing key
// (the old one published after it), the documented rotation.

export interface IdpAccount {
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** Account id logged in without a form; null shows the form. */
  autoLogin: string | null;
  wrongAudience: boolean;
  rogueKey: boolean;
  idTokenTtl: number;
  /** kid of the key that signs now. */
  signingKid(): string;
  rotate(): Promise<void>;
  close(): Promise<void>;
}

async function newKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body><main>${body}</main></body></html>`;

export async function startIdp(o: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<TestIdp> {
  const clientId = o.clientId ?? 'vis-test';
  const clientSecret = o.clientSecret ?? 'idp-client-secret-0123456789abcdef';
  let handler: ReturnType<Provider['callback']> | null = null;
  let provider: Provider;
  const server = http.createServer((req, res) => void route(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let keys: JWK[] = [await newKey('k1')];
  let generation = 1;

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts: new Map(),
    autoLogin: null,
    wrongAudience: false,
    rogueKey: false,
    idTokenTtl: 300,
    signingKid: () => keys[0]!.kid!,
    async rotate() {
      generation++;
      keys = [await newKey(`k${generation}`), ...keys];
      provider = build();
      handler = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** Re-signs the ID token of a token response as a provider gone wrong would. */
  async function tamper(ctx: KoaContextWithOIDC) {
    const body = ctx.body as { id_token?: string } | undefined;
    if (!body?.id_token || !(idp.wrongAudience || idp.rogueKey)) return;
    const claims = decodeJwt(body.id_token);
    if (idp.wrongAudience) claims.aud = 'someone-else';
    const jwk = idp.rogueKey ? await newKey('rogue') : keys[0]!;
    const { importJWK } = await import('jose');
    const key = await importJWK(jwk, 'RS256');
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid }).sign(key);
  }

  function build(): Provider {
    const config: Configuration = {
      clients: [
        { client_id: clientId, client_secret: clientSecret, redirect_uris: o.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      async findAccount(_ctx, id) {
        const a = idp.accounts.get(id);
        if (!a) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, email: a.email, email_verified: a.emailVerified, name: a.name ?? id }) };
      },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      jwks: { keys: keys as never },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      ttl: { IdToken: () => idp.idTokenTtl, AccessToken: 300, AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600 },
      async loadExistingGrant(ctx) {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId) return undefined;
        const grant = new provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    };
    const p = new Provider(issuer, config);
    p.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/token' && ctx.method === 'POST') await tamper(ctx as KoaContextWithOIDC);
    });
    return p;
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    try {
      const url = new URL(req.url ?? '/', issuer);
      const m = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
      if (!m) return handler!(req, res);
      const details = await provider.interactionDetails(req, res);
      let accountId: string | null = idp.autoLogin;
      if (m[2] && req.method === 'POST') {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        accountId = new URLSearchParams(raw).get('login');
      }
      if (details.prompt.name === 'login' && !accountId) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          page(
            `<h1>Test identity provider</h1><form method="post" action="/interaction/${details.uid}/login"><label for="login">Account</label><input id="login" name="login"><button type="submit">Sign in</button></form>`,
          ),
        );
        return;
      }
      const result = details.prompt.name === 'login' ? { login: { accountId: accountId! } } : { consent: {} };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  }

  provider = build();
  handler = provider.callback();
  return idp;
}
