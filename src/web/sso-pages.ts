import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SSO_CALLBACK_PATH, SSO_PENDING_SECONDS, SsoProblem } from '../domain/sso.ts';
import { clientKey, cookieValue, SESSION_COOKIE } from '../http/index.ts';
import { formField, PAGE_ROUTE, type PageHelpers } from './page-forms.ts';
import { localPath } from './pages/auth.ts';
import { ssoContinuePage, ssoErrorPage } from './pages/sso.ts';

// Single sign-on in the browser (docs/teams.md, "Single sign-on"). POST /auth/sso (the
// log-in page's form, CSRF-checked like every form) starts a sign-in for the work
// e-mail's organisation and hands the browser to the identity provider; the provider sends
// it back to /auth/sso/callback, which finishes it and opens a session on that
// organisation. Every refusal is a 4xx page with the reason in plain words, never a 500.

const BROWSER_COOKIE = 'vis_sso';
const COOKIE_PATH = '/auth/sso';

/** Posted fields of the SSO forms are read up to 600 characters (a return path can be long). */
const field = (body: unknown, name: string) => formField(body, name, 600);

export async function ssoPageRoutes(app: FastifyInstance, h: PageHelpers) {
  const { ssoSignIn, accounts } = app.services;
  const PAGE = PAGE_ROUTE;
  const base = (request: FastifyRequest) => app.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const secure = (request: FastifyRequest) => request.protocol === 'https';

  /** A refusal as a page; anything unexpected is logged and shown as a refusal too, without internals. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (err instanceof SsoProblem) return h.send(reply, h.context(request, reply), ssoErrorPage(err.status, err.message));
    request.log.warn({ err }, 'single sign-on failed');
    return h.send(reply, h.context(request, reply), ssoErrorPage(400, 'The sign-in could not be finished. Start it again from the sign-in page.'));
  };

  app.post('/auth/sso', PAGE, async (request, reply) => {
    try {
      const started = await ssoSignIn.start({
        email: field(request.body, 'email'),
        returnTo: localPath(field(request.body, 'next'), '/account'),
        redirectUri: `${base(request)}${SSO_CALLBACK_PATH}`,
        address: clientKey(request),
      });
      reply.setCookie(BROWSER_COOKIE, started.browserSecret, {
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET navigation from its site.
        sameSite: 'lax',
        secure: secure(request),
        path: COOKIE_PATH,
        maxAge: SSO_PENDING_SECONDS,
      });
      return h.send(reply, h.context(request, reply), ssoContinuePage(started.url));
    } catch (err) {
      return refuse(request, reply, err);
    }
  });

  app.get(SSO_CALLBACK_PATH, PAGE, async (request, reply) => {
    try {
      const callbackUrl = new URL(request.url, base(request));
      const done = await ssoSignIn.finish({
        callbackUrl,
        query: (request.query ?? {}) as Record<string, unknown>,
        browserSecret: cookieValue(request.headers, BROWSER_COOKIE) ?? null,
        address: clientKey(request),
      });
      reply.clearCookie(BROWSER_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secure(request) });
      // A session this browser had before is ended: the new one acts for the SSO organisation.
      if (request.session) await accounts.logout(request.session.sessionHash);
      reply.setCookie(SESSION_COOKIE, done.session.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
        path: '/',
        expires: done.session.expiresAt,
      });
      return reply.redirect(localPath(done.returnTo), 303);
    } catch (err) {
      return refuse(request, reply, err);
    }
  });
}
