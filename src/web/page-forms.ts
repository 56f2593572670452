import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import type { UserViewer } from '../services/context.ts';
import type { Page, PageContext } from './layout.ts';

// What the form pages of the team area share (docs/web.md "Team"): who may use them, how a
// posted field is read, and one post/redirect/show cycle. A form that worked redirects (303)
// to its page with `?done=`, so a reload does not repeat it; a refusal the page knows shows
// the page again with the reason and the refusal's status; an answer that must be seen once
// (an invitation link, a token's secret) is shown on the answer itself.

/** A page's message above its forms. */
export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

/** How the web plugin renders a page: its context and the layout around it. */
export interface PageHelpers {
  context: (request: FastifyRequest, reply: FastifyReply) => PageContext;
  send: (reply: FastifyReply, ctx: PageContext, page: Page) => FastifyReply;
}

/** Page routes: hidden from the API description, session recognised when present. */
export const PAGE_ROUTE = { schema: { hide: true }, config: { auth: 'optional' as const } };
/** A page route acting on one item named by `:id`. */
export const ID_ROUTE = {
  ...PAGE_ROUTE,
  schema: { hide: true, params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } },
};

/** The person signed in with a web session, or null after a redirect to the login page. */
export function signedInMember(request: FastifyRequest, reply: FastifyReply): UserViewer | null {
  const v = request.viewer;
  if (v.authKind === 'session' && v.userId && v.orgId) return v as UserViewer;
  reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
  return null;
}

/** A posted text field, cut to `max` characters; '' when absent or not text. */
export function formField(body: unknown, name: string, max = 300): string {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' ? v.slice(0, max) : '';
}

/** Comma-separated form text as a list, blanks dropped. */
export const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export interface FormPage<N extends Notice> {
  /** The page's own address, e.g. `/team/services`. */
  path: string;
  /** `?done=` keys a form may redirect with, and what the page then says. */
  done: Record<string, string>;
  /** Refusals the page explains, by error code, with their status; any other error is the site's. */
  refusals: Partial<Record<string, number>>;
  /** Renders the page for the member, with a notice and a status. */
  show: (request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: N, status?: number) => Promise<FastifyReply>;
}

/**
 * What a form's use case answers: a `done` key (303 to the page saying so), another text
 * (the page at once with it as an ok notice), or a notice shown once on a 201 answer.
 */
export type FormOutcome<N extends Notice> = string | N;

export function formPage<N extends Notice>(app: FastifyInstance, p: FormPage<N>) {
  const refusal = (err: unknown): number | null => (err instanceof DomainError && p.refusals[err.code]) || null;

  /** GET of the page: a member only; `?done=` says what the last form did. */
  function page(opts: typeof PAGE_ROUTE = PAGE_ROUTE) {
    app.get(p.path, opts, async (request, reply) => {
      const v = signedInMember(request, reply);
      if (!v) return reply;
      const done = (request.query as { done?: unknown }).done;
      const text = typeof done === 'string' && Object.hasOwn(p.done, done) ? p.done[done] : undefined;
      return p.show(request, reply, v, text ? ({ kind: 'ok', text } as N) : undefined);
    });
  }

  /** One form posting to `path`, running `run` for the member. */
  function action(path: string, opts: typeof PAGE_ROUTE | typeof ID_ROUTE, run: (v: UserViewer, request: FastifyRequest) => Promise<FormOutcome<N>>) {
    app.post(path, opts, async (request, reply) => {
      const v = signedInMember(request, reply);
      if (!v) return reply;
      let outcome: FormOutcome<N>;
      try {
        outcome = await run(v, request);
      } catch (err) {
        const status = refusal(err);
        if (status === null) throw err;
        return p.show(request, reply, v, { kind: 'error', text: (err as Error).message } as N, status);
      }
      if (typeof outcome !== 'string') return p.show(request, reply, v, outcome, 201);
      if (Object.hasOwn(p.done, outcome)) return reply.redirect(`${p.path}?done=${outcome}`, 303);
      return p.show(request, reply, v, { kind: 'ok', text: outcome } as N);
    });
  }

  return { page, action, refusal };
}
