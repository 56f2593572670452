import type { FastifyBaseLogger } from 'fastify';
import type { z, ZodRawShape } from 'zod';
import type { Services } from '../services/index.ts';
import type { Viewer } from '../services/context.ts';

/** How the caller of one MCP request authenticated. */
type McpAuth = { kind: 'anonymous' } | { kind: 'oauth'; clientId: string; scopes: string[]; expiresAt: number } | { kind: 'api_key'; keyId: string };

export interface McpCaller {
  viewer: Viewer;
  auth: McpAuth;
}

/** Outcome of counting this request's tool calls against the caller's quota. */
export type QuotaOutcome = { allowed: true } | { allowed: false; message: string };

/** What a tool sees: the services, who calls, and whether the quota let the call through. */
export interface ToolContext {
  services: Services;
  /** What "now" is for answers (the app's clock: tests move it). */
  now: () => Date;
  caller: McpCaller;
  quota: QuotaOutcome;
  log: FastifyBaseLogger;
}

/** The scope an OAuth token needs for the tools that read per-plan history. */
export const HISTORY_SCOPE = 'history:read';
export const SUPPORTED_SCOPES = [HISTORY_SCOPE] as const;

interface ToolResult<O extends ZodRawShape> {
  /** Human-readable answer (what an assistant quotes). */
  text: string;
  /** The same answer as data, matching the output schema. */
  data: z.infer<z.ZodObject<O>>;
}

export interface ToolDefinition<I extends ZodRawShape = ZodRawShape, O extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  /** Needs a bearer token (OAuth access token or API key). */
  requiresAuth: boolean;
  /** Changes nothing (the default); false for a tool that records something. */
  readOnly?: boolean;
  run(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<ToolResult<O>>;
}

/** Keeps the argument and result types of one definition tied to its schemas. */
export const defineTool = <I extends ZodRawShape, O extends ZodRawShape>(def: ToolDefinition<I, O>): ToolDefinition<I, O> => def;
