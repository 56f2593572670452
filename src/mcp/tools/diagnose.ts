import { z } from 'zod';
import { MAX_DIAGNOSE_INPUT } from '../../domain/diagnose.ts';
import { defineTool } from '../context.ts';
import { plural } from './format.ts';

// "Is it us or them" (docs/diagnose.md): the same use case as `GET /diagnose`.
export const diagnose = defineTool({
  name: 'diagnose',
  title: 'Is it us or them?',
  description:
    'Takes an error message, host name, URL or log line (e.g. "ECONNRESET api.stripe.com", "502 Bad Gateway from github.com") and answers ' +
    'which vendor it points at, what that vendor reports now (open incidents, maintenance in progress), and a verdict with a confidence. ' +
    'A vendor reporting nothing is not proof that the fault is on our side: vendor pages lag outages. No sign-in needed; signed in, ' +
    "the answer also names your organisation's services that depend on the vendor and its open early-warning signals, and an input naming one of your services is read as its vendors.",
  inputSchema: {
    input: z.string().min(1).max(MAX_DIAGNOSE_INPUT).describe('The error message, host name, URL or log line'),
  },
  outputSchema: {
    hosts: z.array(z.string()),
    vendors: z.array(
      z.object({
        vendor: z.string(),
        name: z.string(),
        indicator: z.string(),
        observed: z.boolean(),
        incidents: z.array(z.object({ id: z.string(), title: z.string() }).passthrough()),
        ourServices: z
          .array(
            z.object({ service: z.string(), criticality: z.string(), dependency: z.string(), components: z.array(z.string()), regions: z.array(z.string()) }),
          )
          .optional()
          .describe("Your organisation's services that depend on the vendor (signed in only)"),
        signals: z
          .array(z.object({ id: z.string(), state: z.string(), confidence: z.number(), openedAt: z.string() }))
          .optional()
          .describe("Your organisation's open early-warning signals about the vendor (signed in only)"),
      }),
    ),
    verdict: z.string(),
    confidence: z.string(),
    summary: z.string(),
  },
  requiresAuth: false,
  async run({ input }, { services, caller }) {
    const r = await services.diagnose.diagnose(input, caller.viewer);
    const lines = [
      `Verdict: ${r.verdict.replaceAll('_', ' ')} (confidence ${r.confidence}). ${r.summary}`,
      r.hosts.length ? `Hosts found: ${r.hosts.join(', ')}.` : 'No host name found in the input.',
      ...r.vendors.map(
        (v) =>
          `- ${v.name} (id: ${v.vendor}): ${v.observed ? v.indicator : 'status unknown (page not read)'}; ${plural(v.incidents.length, 'open incident')}` +
          (v.incidents.length ? `: ${v.incidents.map((i) => i.title).join('; ')}` : '') +
          (v.signals?.length ? `; our early warning: ${v.signals.map((g) => `${g.state} since ${g.openedAt}`).join(', ')}` : '') +
          (v.ourServices
            ? `; our services depending on it: ${v.ourServices.length ? v.ourServices.map((o) => `${o.service} (${o.criticality}, ${o.dependency})`).join(', ') : 'none'}`
            : ''),
      ),
    ];
    return {
      text: lines.join('\n'),
      data: {
        hosts: r.hosts,
        // The organisation's parts only when read (absent = not read for this caller).
        vendors: r.vendors.map(({ ourServices, signals, ...v }) => ({ ...v, ...(ourServices ? { ourServices } : {}), ...(signals ? { signals } : {}) })),
        verdict: r.verdict,
        confidence: r.confidence,
        summary: r.summary,
      },
    };
  },
});
