import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.ts';

// The one place where errors become MCP tool results. A failing tool answers a
// result with `isError: true` and a sentence the assistant can act on (the model
// sees it), never a JSON-RPC protocol error. Internals never reach the text.

const PREFIX: Record<ErrorCode, string> = {
  invalid_parameter: 'Invalid argument',
  not_found: 'Not found',
  unauthorized: 'Sign-in required',
  direct_api_not_allowed: 'Not allowed',
  session_required: 'Not allowed',
  origin_not_allowed: 'Not allowed',
  csrf_token_invalid: 'Not allowed',
  plan_required: 'Plan too low',
  role_required: 'Role too low',
  sso_required: 'Single sign-on required',
  limit_exceeded: 'Limit reached',
  rate_limit_exceeded: 'Rate limit exceeded',
  conflict: 'Conflict',
  unprocessable: 'Not usable',
  unavailable: 'Temporarily unavailable',
  internal_error: 'Internal error',
};

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Driver errors reach here already translated: the store turns an unreachable database into `unavailable`. */
export function errorResult(err: unknown, log: FastifyBaseLogger, tool: string): CallToolResult {
  if (err instanceof DomainError) {
    const hint = typeof err.details.hint === 'string' ? ` ${err.details.hint}` : '';
    return toolError(`${PREFIX[err.code]}: ${err.message}${hint}`);
  }
  log.error({ err, tool }, 'mcp tool failed');
  return toolError('Internal error while answering; try again shortly.');
}
