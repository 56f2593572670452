import { Type } from '@sinclair/typebox';
import { CONFIDENCES } from '../../domain/impact.ts';
import { CRITICALITIES } from '../../domain/team-services.ts';
import { DateTime, Nullable, StringEnum } from './common.ts';

// What vendor incidents and maintenance hit of an organisation's services (docs/services.md "Impact now").

export const Confidence = StringEnum(CONFIDENCES, {
  description: 'high: a listed component is one of the dependency; medium: one of its regions is named; low: only the vendor matches',
});

export const ImpactRecordSchema = Type.Object({
  kind: StringEnum(['incident', 'maintenance'] as const),
  id: Type.String(),
  vendor: Type.String(),
  title: Type.String(),
  status: Type.String(),
  impact: Type.String(),
  url: Nullable(Type.String()),
  startedAt: Nullable(DateTime()),
  confidence: Confidence,
  reasons: Type.Array(Type.String(), { description: 'Why, in words: "component \'Actions\' listed", "us-east-1 named in the 14:02 update"' }),
});

export const AffectedServiceSchema = Type.Object({
  serviceId: Type.String(),
  serviceName: Type.String(),
  criticality: StringEnum(CRITICALITIES),
  confidence: Confidence,
  records: Type.Array(ImpactRecordSchema),
});

export const ImpactResponse = Type.Object({
  success: Type.Boolean(),
  openRecords: Type.Integer({ minimum: 0, description: 'Open incidents and maintenance windows under way of the vendors the services depend on' }),
  services: Type.Array(AffectedServiceSchema, { description: 'Services hit now, most certain and most critical first' }),
});
