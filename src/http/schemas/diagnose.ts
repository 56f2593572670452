import { Type } from '@sinclair/typebox';
import { MAX_DIAGNOSE_INPUT } from '../../domain/diagnose.ts';
import { DateTime, Nullable, StringEnum } from './common.ts';

// "Is it us or them" (docs/diagnose.md).

/** An error message, host name, URL or log line: tabs and line breaks allowed, other control characters not. */
export const DiagnoseQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: MAX_DIAGNOSE_INPUT,
      pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
      description: 'An error message, host name, URL or log line, e.g. `ECONNRESET api.stripe.com`',
    }),
  },
  { additionalProperties: false },
);

const Verdict = StringEnum(
  ['vendor_incident', 'early_warning', 'vendor_maintenance', 'vendor_reports_no_problem', 'several_vendors', 'no_vendor_matches'] as const,
  {
    description:
      "`vendor_incident`: the vendor reports an open incident; `early_warning`: the caller's organisation's early warning suspects the vendor while its page reports no incident; `vendor_maintenance`: maintenance in progress; `vendor_reports_no_problem`: nothing reported (vendor pages lag outages, so not proof); `several_vendors`: the input names more than one; `no_vendor_matches`: no catalog vendor owns the hosts named",
  },
);

export const DiagnoseSchema = Type.Object(
  {
    input: Type.String(),
    hosts: Type.Array(Type.String(), { description: 'Host names found in the input' }),
    errorHints: Type.Array(
      Type.Object({
        kind: StringEnum(['dns', 'connection', 'timeout', 'tls', 'server_error', 'rate_limited', 'client_error'] as const),
        token: Type.String({ description: 'What in the input said so' }),
      }),
    ),
    matches: Type.Array(
      Type.Object({
        host: Type.String(),
        vendor: Type.String(),
        name: Type.String(),
        matched: Type.String({ description: 'The catalog host that matched: the host itself or a parent domain' }),
        strength: StringEnum(['listed', 'derived', 'service'] as const, {
          description:
            "`listed`: a host the vendor documents; `derived`: its website or status page host; `service`: the input names one of the caller's services (`host` and `matched` hold its name) and the vendor is one it depends on",
        }),
      }),
    ),
    vendors: Type.Array(
      Type.Object({
        vendor: Type.String(),
        name: Type.String(),
        indicator: Type.String({ description: "The vendor's status indicator, `unknown` when its page was never read" }),
        checkedAt: Nullable(DateTime()),
        observed: Type.Boolean({ description: "Whether the vendor's page has been read successfully" }),
        monitored: Type.Boolean({ description: 'False for a catalog vendor without a machine-readable status source' }),
        incidents: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), impact: Type.String(), components: Type.Array(Type.String()) })),
        maintenance: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), components: Type.Array(Type.String()) })),
        ourServices: Type.Optional(
          Type.Array(
            Type.Object({
              service: Type.String(),
              criticality: Type.String(),
              dependency: StringEnum(['hard', 'soft'] as const),
              components: Type.Array(Type.String(), { description: 'Component ids of the dependency; empty = the whole vendor' }),
              regions: Type.Array(Type.String()),
            }),
            {
              description:
                "The caller's organisation's services that depend on the vendor (docs/services.md). Present only for a member of an organisation that has services; absent = not read for this caller, never 'none'",
            },
          ),
        ),
        signals: Type.Optional(
          Type.Array(
            Type.Object({
              id: Type.String(),
              state: StringEnum(['suspected', 'confirmed'] as const),
              confidence: Type.Number({ minimum: 0, maximum: 1 }),
              openedAt: DateTime(),
            }),
            {
              description:
                "The caller's organisation's open early-warning signals about the vendor (docs/early-warning.md). Present only for a member of an organisation that has services (the answer is then its own); absent = not read for this caller",
            },
          ),
        ),
      }),
    ),
    verdict: Verdict,
    confidence: StringEnum(['high', 'medium', 'low'] as const),
    summary: Type.String(),
  },
  { $id: 'Diagnosis' },
);
