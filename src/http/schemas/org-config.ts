import { Type } from '@sinclair/typebox';
import { MAX_CONFIG_CHARS } from '../../domain/org-config.ts';
import { StringEnum } from './common.ts';

// Config as code (docs/services.md "Config as code"): the apply body and the plan answered.

export const ConfigApplyBody = Type.Object(
  {
    yaml: Type.String({ minLength: 1, maxLength: MAX_CONFIG_CHARS, description: 'The configuration file (YAML; docs/config.schema.json)' }),
    dryRun: Type.Optional(Type.Boolean({ description: 'Only answer the plan; nothing is written' })),
    prune: Type.Optional(Type.Boolean({ description: 'Delete the services, watchlists and routes the file does not name' })),
  },
  { additionalProperties: false },
);

const PlanItem = Type.Object({
  kind: StringEnum(['service', 'watchlist', 'route'] as const),
  name: Type.String(),
  action: StringEnum(['create', 'update', 'delete', 'unchanged'] as const),
  fields: Type.Optional(Type.Array(Type.String(), { description: 'For updates: the fields that differ' })),
});

export const ConfigApplyResponse = Type.Object({
  success: Type.Boolean(),
  dryRun: Type.Boolean(),
  applied: Type.Boolean({ description: 'Whether anything was written (false for a dry run and for a file that changes nothing)' }),
  items: Type.Array(PlanItem),
  summary: Type.Object({ create: Type.Integer(), update: Type.Integer(), delete: Type.Integer(), unchanged: Type.Integer() }),
});

export const ConfigExportResponse = Type.Object({
  success: Type.Boolean(),
  yaml: Type.String({ description: 'The configuration file; destinations as `{channel, ref: <route id>}`, never their secrets' }),
});
