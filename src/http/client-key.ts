import type { FastifyRequest } from 'fastify';
import { clientGroup } from '../domain/client-address.ts';

/**
 * Who an anonymous request is counted as in every per-address limit (quota, signup,
 * login, OAuth registration, stream slots): its address, an IPv6 one by its network
 * (IPV6_CLIENT_PREFIX; docs/security.md, "IPv6 clients").
 */
export const clientKey = (request: FastifyRequest) => clientGroup(request.ip, request.server.config.ipv6ClientPrefix);
