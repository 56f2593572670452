import { z } from 'zod';
import { CONFIDENCES } from '../../domain/impact.ts';
import { DomainError } from '../../domain/errors.ts';
import { CRITICALITIES, DEPENDENCY_KINDS } from '../../domain/team-services.ts';
import type { Viewer } from '../../services/context.ts';
import { defineTool } from '../context.ts';
import { oneLine, plural } from './format.ts';

// The caller's own services and what vendor trouble hits of them now (docs/services.md
// "MCP tools"). They act in the caller's current organisation: the organisation of the
// API key, or the one the signed-in user has switched to; its members read both.

const orgOf = (viewer: Viewer): string => {
  if (!viewer.orgId) throw new DomainError('unauthorized', 'Authentication required: sign in or use an API key');
  return viewer.orgId;
};

const ServiceOut = z.object({
  id: z.string(),
  name: z.string(),
  criticality: z.enum(CRITICALITIES),
  tags: z.array(z.string()),
  dependencies: z.array(
    z.object({
      vendor: z.string(),
      kind: z.enum(DEPENDENCY_KINDS),
      components: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
      regions: z.array(z.string()),
    }),
  ),
});

export const listServices = defineTool({
  name: 'list_services',
  title: 'Our services',
  description:
    "The services of the caller's organisation and the vendors each depends on (hard or soft, limited to components or cloud regions). " +
    'Use it to learn which of our services use a vendor. Requires sign-in (OAuth) or an API key.',
  inputSchema: {
    vendor: z
      .string()
      .min(1)
      .max(63)
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .optional()
      .describe('Only services depending on this vendor slug'),
  },
  outputSchema: { count: z.number().int(), services: z.array(ServiceOut) },
  requiresAuth: true,
  async run({ vendor }, { services, caller }) {
    const all = await services.teamServices.list(caller.viewer, orgOf(caller.viewer));
    const chosen = vendor ? all.filter((s) => s.dependencies.some((d) => d.vendor === vendor)) : all;
    const data = chosen.map((s) => ({
      id: s.id,
      name: s.name,
      criticality: s.criticality,
      tags: s.tags,
      dependencies: s.dependencies.map((d) => ({ vendor: d.vendor, kind: d.kind, components: d.components, regions: d.regions.map((r) => r.code) })),
    }));
    const lines = [
      chosen.length
        ? `${plural(chosen.length, 'service')}${vendor ? ` depending on ${vendor}` : ''}:`
        : `No services${vendor ? ` depending on ${vendor}` : ''}.`,
    ];
    for (const s of chosen.slice(0, 200)) {
      const deps = s.dependencies
        .map((d) => {
          const parts = [...d.components.map((c) => oneLine(c.name ?? c.id, 60)), ...d.regions.map((r) => r.code)];
          return `${d.vendor}${d.kind === 'soft' ? ' (soft)' : ''}${parts.length ? ` [${parts.join(', ')}]` : ''}`;
        })
        .join('; ');
      lines.push(`- ${s.name} (${s.criticality})${deps ? `: ${deps}` : ''}`);
    }
    if (chosen.length > 200) lines.push(`… and ${chosen.length - 200} more (see structured content)`);
    return { text: lines.join('\n'), data: { count: data.length, services: data } };
  },
});

const RecordOut = z.object({
  kind: z.enum(['incident', 'maintenance']),
  id: z.string(),
  vendor: z.string(),
  title: z.string(),
  status: z.string(),
  url: z.string().nullable(),
  confidence: z.enum(CONFIDENCES),
  reasons: z.array(z.string()),
});

export const getImpact = defineTool({
  name: 'get_impact',
  title: 'Impact on our services',
  description:
    "Which of the caller's organisation's services are hit now by open vendor incidents and maintenance in progress, each with a " +
    'confidence (high: a listed component is ours; medium: one of our regions is named; low: only the vendor matches) and the reasons. ' +
    'Answers "does this outage hit us?". Requires sign-in (OAuth) or an API key.',
  inputSchema: {},
  outputSchema: {
    openRecords: z.number().int(),
    services: z.array(
      z.object({
        serviceId: z.string(),
        serviceName: z.string(),
        criticality: z.enum(CRITICALITIES),
        confidence: z.enum(CONFIDENCES),
        records: z.array(RecordOut),
      }),
    ),
  },
  requiresAuth: true,
  async run(_args, { services, caller }) {
    const now = await services.impact.now(caller.viewer, orgOf(caller.viewer));
    const lines: string[] = [];
    if (!now.services.length) {
      lines.push(
        now.openRecords
          ? `None of our services is hit by the ${plural(now.openRecords, 'open record')} of our vendors.`
          : 'No open incident or maintenance in progress at the vendors our services depend on.',
      );
    } else {
      lines.push(`${plural(now.services.length, 'service')} hit now:`);
      for (const s of now.services) {
        lines.push(`- ${s.serviceName} (${s.criticality}): ${s.confidence} confidence`);
        for (const r of s.records)
          lines.push(`  - ${r.vendor} ${r.kind} "${oneLine(r.title, 160)}" (${r.confidence}): ${r.reasons.map((x) => oneLine(x, 160)).join('; ')}`);
      }
    }
    return {
      text: lines.join('\n'),
      data: {
        openRecords: now.openRecords,
        services: now.services.map((s) => ({
          serviceId: s.serviceId,
          serviceName: s.serviceName,
          criticality: s.criticality,
          confidence: s.confidence,
          records: s.records.map((r) => ({
            kind: r.kind,
            id: r.id,
            vendor: r.vendor,
            title: r.title,
            status: r.status,
            url: r.url,
            confidence: r.confidence,
            reasons: r.reasons,
          })),
        })),
      },
    };
  },
});
