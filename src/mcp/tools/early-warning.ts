import { z } from 'zod';
import { audienceFor } from '../../services/access/audience.ts';
import { MAX_SIGNAL_COMPONENTS, MAX_SIGNAL_SUMMARY, OBSERVATION_SOURCES, SIGNAL_STATES } from '../../domain/early-warning.ts';
import { DomainError } from '../../domain/errors.ts';
import { defineTool } from '../context.ts';
import { plural, when } from './format.ts';
import { VendorArg } from './schemas.ts';
import type { SignalView } from '../../services/early-warning/early-warning-service.ts';

/** The fields of a signal both tools answer with (the use case's view, less `updatedAt`). */
const signalOut = (s: SignalView) => ({
  id: s.id,
  vendor: s.vendor,
  state: s.state,
  confidence: s.confidence,
  components: s.components,
  regions: s.regions,
  openedAt: s.openedAt,
  lastObservedAt: s.lastObservedAt,
  incidentId: s.incidentId,
});

// Early warning over MCP (docs/early-warning.md): the signals of the organisation the
// caller acts for, and a member's "we see problems with X". A signal is ours, never the
// vendor's status: every answer says "suspected" until the vendor confirms.

const Text = z
  .string()
  .trim()
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters');

const SignalOut = z.object({
  id: z.string(),
  vendor: z.string(),
  state: z.enum(SIGNAL_STATES),
  confidence: z.number(),
  components: z.array(z.string()),
  regions: z.array(z.string()),
  openedAt: z.string(),
  lastObservedAt: z.string(),
  incidentId: z.string().nullable(),
  evidence: z.array(z.object({ source: z.enum(OBSERVATION_SOURCES), strength: z.number(), summary: z.string(), observedAt: z.string() })),
  affectedServices: z.array(
    z.object({
      serviceId: z.string(),
      serviceName: z.string(),
      criticality: z.string(),
      confidence: z.string(),
      reasons: z.array(z.string()),
      via: z.string(),
    }),
  ),
});

const orgOf = (viewer: { orgId: string | null }) => {
  if (!viewer.orgId) throw new DomainError('unauthorized', 'Sign-in required: signals belong to an organisation');
  return viewer.orgId;
};

export const listSignals = defineTool({
  name: 'list_signals',
  title: 'Early-warning signals of my organisation',
  description:
    "Signals that a vendor may be failing before its own status page says so, from the organisation's own inputs (signed calls " +
    "of its systems, members' reports). A signal is `suspected` until the vendor posts a matching incident (`confirmed`); it is " +
    "`cleared` when nothing more is observed for a while, `dismissed` when a member marked it a false alarm. Not the vendor's status. " +
    'Optional filters: `state`, `vendor`.',
  inputSchema: {
    state: z.enum(SIGNAL_STATES).optional().describe('Only signals in this state'),
    vendor: VendorArg.optional(),
  },
  outputSchema: { count: z.number().int(), signals: z.array(SignalOut) },
  requiresAuth: true,
  async run({ state, vendor }, { services, caller }) {
    const orgId = orgOf(caller.viewer);
    const v = vendor ? await services.vendorLookup.resolve(vendor, audienceFor(caller.viewer)) : null;
    const list = await services.earlyWarning.signals.list(caller.viewer, orgId, { state, vendor: v?.id, limit: 50 });
    const signals = list.map((s) => ({
      ...signalOut(s),
      evidence: s.evidence.map((e) => ({ source: e.source, strength: e.strength, summary: e.summary, observedAt: e.observedAt })),
      affectedServices: s.affectedServices,
    }));
    const lines = signals.length
      ? [
          `${plural(signals.length, 'signal')}${state ? ` (${state})` : ''}:`,
          ...signals.map(
            (s) =>
              `- ${s.vendor}: ${s.state}${s.state === 'suspected' ? ' (not confirmed by the vendor)' : ''}, confidence ${Math.round(s.confidence * 100)}%, ` +
              `opened ${when(s.openedAt)}, last observed ${when(s.lastObservedAt)}; ${plural(s.evidence.length, 'observation')} (${[...new Set(s.evidence.map((e) => e.source))].join(', ')})` +
              `${s.components.length ? `; components: ${s.components.join(', ')}` : ''}${s.incidentId ? `; vendor incident ${s.incidentId}` : ''}` +
              `${s.affectedServices.length ? `; may hit ${s.affectedServices.map((a) => `${a.serviceName} (${a.criticality}, via ${a.via})`).join(', ')}` : ''}`,
          ),
        ]
      : [`No${state ? ` ${state}` : ''} signals${v ? ` about ${v.name}` : ''}.`];
    return { text: lines.join('\n'), data: { count: signals.length, signals } };
  },
});

export const reportVendorProblem = defineTool({
  name: 'report_vendor_problem',
  title: 'Report a problem with a vendor',
  description:
    '"We see problems with this vendor": records a report of the caller for early warning in their organisation. Reports of ' +
    'several members, or a report together with another source, open a suspected signal. One report per vendor every 5 minutes. ' +
    "Does not change the vendor's status.",
  inputSchema: {
    vendor: VendorArg,
    components: z.array(Text.min(1)).max(MAX_SIGNAL_COMPONENTS).optional().describe('Affected components, as the vendor names them'),
    summary: z
      .string()
      .trim()
      .max(MAX_SIGNAL_SUMMARY)
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters')
      .optional()
      .describe('What you see'),
  },
  outputSchema: { reported: z.boolean(), vendor: z.string(), signal: SignalOut.omit({ evidence: true, affectedServices: true }).nullable() },
  requiresAuth: true,
  readOnly: false,
  async run({ vendor, components, summary }, { services, caller }) {
    const orgId = orgOf(caller.viewer);
    const v = await services.vendorLookup.resolve(vendor, audienceFor(caller.viewer));
    const r = await services.earlyWarning.signals.report(caller.viewer, orgId, { vendor: v.id, components, summary });
    const s = r.signal;
    const signal = s ? signalOut(s) : null;
    const text = s
      ? `Reported ${v.name}. Early-warning signal ${s.state} (confidence ${Math.round(s.confidence * 100)}%, opened ${when(s.openedAt)}); the vendor's status is unchanged.`
      : `Reported ${v.name}. No signal yet: it opens when another source or more members see the same.`;
    return { text, data: { reported: true, vendor: v.id, signal } };
  },
});
