import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape } from 'zod';
import { API_VERSION } from '../http/index.ts';
import type { ToolContext, ToolDefinition } from './context.ts';
import { errorResult, toolError } from './errors.ts';
import { getActiveIncidents, getIncidentHistory } from './tools/incidents.ts';
import { diagnose } from './tools/diagnose.ts';
import { getMaintenance } from './tools/maintenance.ts';
import { getImpact, listServices } from './tools/services.ts';
import { getVendorStatus, listVendors } from './tools/vendors.ts';
import { listSignals, reportVendorProblem } from './tools/early-warning.ts';

// One McpServer per HTTP request (stateless Streamable HTTP): it carries the
// caller of that request, so tools never look at HTTP themselves.

// biome-ignore lint/suspicious/noExplicitAny: each tool has its own input and output types
const TOOLS: ToolDefinition<any, any>[] = [
  listVendors,
  getVendorStatus,
  getActiveIncidents,
  getIncidentHistory,
  getMaintenance,
  diagnose,
  listServices,
  getImpact,
  listSignals,
  reportVendorProblem,
];

/** Tools that need a bearer token; calling one without gives HTTP 401 (see plugin). */
export const PROTECTED_TOOLS: ReadonlySet<string> = new Set(TOOLS.filter((t) => t.requiresAuth).map((t) => t.name));

const INSTRUCTIONS =
  'Live status of infrastructure vendors (cloud, CDN, payments, AI APIs, developer tools ...), normalised from their public ' +
  'status pages. For "what is down right now?" call get_active_incidents; for one vendor call get_vendor_status; ' +
  'list_vendors gives the vendor ids; for "is this error ours or a vendor\'s?" call diagnose with the error message or host. These need no sign-in. get_incident_history and get_maintenance need the user to ' +
  "sign in (OAuth) or an API key; history is limited to the user's plan window, and the answer says when it was shortened. " +
  'For "does this hit us?" call get_impact (signed in): the organisation\'s own services hit now, with confidence and reasons; ' +
  'list_services shows those services and the vendors they depend on. ' +
  "list_signals gives the organisation's early-warning signals (suspected problems before the vendor's page admits them); " +
  'report_vendor_problem records that the user sees problems with a vendor.';

// A server per request would otherwise compile its own Ajv instance (most of the
// per-request cost); one validator serves them all.
const validator = new AjvJsonSchemaValidator();

async function runTool<I extends ZodRawShape, O extends ZodRawShape>(tool: ToolDefinition<I, O>, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  if (tool.requiresAuth && ctx.caller.auth.kind === 'anonymous') {
    return toolError(`Sign-in required: ${tool.name} reads your plan's history; connect with OAuth or an API key.`);
  }
  if (!ctx.quota.allowed) return toolError(ctx.quota.message);
  try {
    const { text, data } = await tool.run(args as never, ctx);
    return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
  } catch (err) {
    return errorResult(err, ctx.log, tool.name);
  }
}

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'vendor-infrastructure-status', title: 'Vendor Infrastructure Status', version: API_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: validator },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly !== false, idempotentHint: tool.readOnly !== false, openWorldHint: false },
      },
      (args: unknown) => runTool(tool, args, ctx),
    );
  }
  return server;
}
