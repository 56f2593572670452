import { Type } from '@sinclair/typebox';
import { IncidentSchema } from './records.ts';
import { DateTime, StringEnum } from './common.ts';

// Payloads (`data:` lines) of the incident stream's events (docs/stream.md, "Wire
// format"). OpenAPI 3.0 cannot describe the events of a text/event-stream body, so
// they are components referenced from the operation's `x-sse-events` extension
// (event name -> payload schema, whether it carries an `id:` line). The frames are
// written by src/events/sse.ts.

const closed = { additionalProperties: false };

const StreamSnapshotEventSchema = Type.Object(
  {
    type: StringEnum(['snapshot'] as const),
    occurredAt: DateTime({ description: 'When the snapshot was read' }),
    total: Type.Integer({ minimum: 0, description: 'Incidents matching the filters (before limit and offset)' }),
    incidents: Type.Array(Type.Ref(IncidentSchema), { description: 'The page of incidents selected by limit and offset' }),
  },
  { ...closed, $id: 'StreamSnapshotEvent', description: 'First event of a stream that does not resume: the current incidents; its `id:` is the newest event number of the log' },
);

const incidentEvent = (type: string, id: string, description: string) =>
  Type.Object(
    {
      type: StringEnum([type] as const),
      occurredAt: DateTime({ description: 'When the change was recorded' }),
      incident: Type.Ref(IncidentSchema),
    },
    { ...closed, $id: id, description },
  );

const IncidentCreatedEventSchema = incidentEvent('incident.created', 'IncidentCreatedEvent', 'A new incident; `id:` = its event number');
const IncidentUpdatedEventSchema = incidentEvent('incident.updated', 'IncidentUpdatedEvent', 'An incident changed (status, text, updates); `id:` = its event number');
const IncidentResolvedEventSchema = incidentEvent('incident.resolved', 'IncidentResolvedEvent', 'An incident was resolved; `id:` = its event number');

const StreamShutdownEventSchema = Type.Object(
  {
    type: StringEnum(['shutdown'] as const),
    occurredAt: DateTime(),
    reconnectAfterMs: Type.Integer({ minimum: 0, description: 'Also sent as `retry:`; reconnect with Last-Event-ID after this long' }),
  },
  { ...closed, $id: 'StreamShutdownEvent', description: 'Last event of a stream ended by a server shutting down; no `id:` line' },
);

export const STREAM_EVENT_SCHEMAS = [
  StreamSnapshotEventSchema,
  IncidentCreatedEventSchema,
  IncidentUpdatedEventSchema,
  IncidentResolvedEventSchema,
  StreamShutdownEventSchema,
];

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/**
 * One event's `data:`, whichever event it is: the schema of the text/event-stream
 * content (as OpenAPI 3.2's `itemSchema` would say, one item of the stream).
 */
export const StreamEventSchema = Type.Unsafe<unknown>({
  $id: 'StreamEvent',
  description: 'The `data:` of one stream event; `type` repeats the SSE event name',
  // Refs by $id: Fastify resolves them, @fastify/swagger writes them as #/components/schemas/... .
  oneOf: STREAM_EVENT_SCHEMAS.map((s) => Type.Ref(s)),
  discriminator: {
    propertyName: 'type',
    mapping: {
      snapshot: '#/components/schemas/StreamSnapshotEvent',
      'incident.created': '#/components/schemas/IncidentCreatedEvent',
      'incident.updated': '#/components/schemas/IncidentUpdatedEvent',
      'incident.resolved': '#/components/schemas/IncidentResolvedEvent',
      shutdown: '#/components/schemas/StreamShutdownEvent',
    },
  },
});

/** The `x-sse-events` extension of a stream operation: SSE event name -> payload and whether it has an `id:`. */
export const STREAM_SSE_EVENTS = {
  snapshot: { id: true, schema: ref('StreamSnapshotEvent') },
  'incident.created': { id: true, schema: ref('IncidentCreatedEvent') },
  'incident.updated': { id: true, schema: ref('IncidentUpdatedEvent') },
  'incident.resolved': { id: true, schema: ref('IncidentResolvedEvent') },
  shutdown: { id: false, schema: ref('StreamShutdownEvent') },
};
