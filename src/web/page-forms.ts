import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserViewer } from '../services/context.ts';

// What the form pages of the team area share (docs/web.md "Team"): who may use them and
// how a posted field is read. Each page keeps its own map of refusals to statuses.

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
