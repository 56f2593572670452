import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Plan } from '../domain/plans.ts';
import { anonymousViewer } from '../services/context.ts';
import { Assets } from './assets.ts';
import { ensureCsrfToken } from './csrf.ts';
import type { Html } from './html.ts';
import { layout } from './layout.ts';
import { CONTENT_SECURITY_POLICY, setSecurityHeaders } from './security.ts';

// Pages another adapter serves with the site's layout and stylesheet: the sign-in and
// consent pages of the MCP authorization server (docs/mcp.md, "Rules and decisions").
// Their headers differ from the web pages' in two ways, both for the OAuth redirect:
// - no `form-action`: the consent form's answer is a redirect to the application's own
//   redirect URI (another origin, or a scheme such as cursor://), and Chromium applies
//   form-action to the redirects of a form submission too;
// - no Cross-Origin-Opener-Policy: an application that opened the page in a popup keeps its
//   window.opener once the redirect reaches its own page.
// `Referrer-Policy: same-origin` as on every page: the browser sends the real Origin on the
// form posts (with no-referrer it sends `Origin: null`, docs/security.md), and no Referer
// leaves the site.

const FORMS_LEAVE_SITE_CSP = CONTENT_SECURITY_POLICY.split('; ')
  .filter((d) => !d.startsWith('form-action'))
  .join('; ');

export interface StandalonePage {
  title: string;
  main: Html;
  status: number;
  /** The signed-in account, for the navigation (null: the log-in and sign-up links). */
  account: { plan: Plan } | null;
}

export interface StandaloneOptions {
  demo: boolean;
  clock: { now(): Date };
  assets?: Assets;
}

export type SendStandalonePage = (request: FastifyRequest, reply: FastifyReply, page: StandalonePage) => FastifyReply;

export function standalonePages(opts: StandaloneOptions): SendStandalonePage {
  const assets = opts.assets ?? new Assets();
  return (request, reply, page) => {
    const ctx = {
      now: opts.clock.now(),
      viewer: request.viewer ?? anonymousViewer,
      account: page.account,
      csrfToken: ensureCsrfToken(request, reply),
      assets,
      path: request.url.split('?')[0]!,
      demo: opts.demo,
    };
    setSecurityHeaders(reply);
    reply.removeHeader('Cross-Origin-Opener-Policy');
    return reply
      .code(page.status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', FORMS_LEAVE_SITE_CSP)
      .send(layout(ctx, { title: page.title, main: page.main }).value);
  };
}
