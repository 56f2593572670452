import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * onSend hook for routes whose answers are private or carry a secret shown once
 * (invitation links, key secrets, audit entries): no cache may keep them.
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header('cache-control', 'no-store');
  return payload;
}
