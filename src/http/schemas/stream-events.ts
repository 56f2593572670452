import { Type } from '@sinclair/typebox';
import { IncidentSchema } from './records.ts';
import { DateTime, StringEnum } from './common.ts';
import { SignalSchema } from './early-warning.ts';

// Payloads (`data:` lines) of the incident stream's events (docs/stream.md, "Wire
// format"). OpenAPI 3.0 cannot describe the events of a text/event-stream body, so
// they are components referenced from the operation's `x-sse-events` extension
// (event name -> payload schema, whether it carries an `id:` line). The frames are
// written by src/events/sse.ts.

const closed = { additionalProperties: false };

/** Who gets `affectedServices` on the stream (docs/stream.md "Affected services"). */
const AFFECTED =
  "`affectedServices` only on the stream of a signed-in member of an organisation with services: that organisation's services the incident may hit; never for anonymous readers, other organisations or a board's stream";

const StreamSnapshotEventSchema = Type.Object(
  {
    type: StringEnum(['snapshot'] as const),
    occurredAt: DateTime({ description: 'When the snapshot was read' }),
    total: Type.Integer({ minimum: 0, description: 'Incidents matching the filters (before limit and offset)' }),
    incidents: Type.Array(Type.Ref(IncidentSchema), { description: `The page of incidents selected by limit and offset; ${AFFECTED}` }),
  },
  {
    ...closed,
    $id: 'StreamSnapshotEvent',
    description: 'First event of a stream that does not resume: the current incidents; its `id:` is the newest event number of the log',
  },
);

const incidentEvent = (type: string, id: string, description: string) =>
  Type.Object(
    {
      type: StringEnum([type] as const),
      occurredAt: DateTime({ description: 'When the change was recorded' }),
      incident: Type.Ref(IncidentSchema, { description: `The incident as \`/incidents\` serves it; ${AFFECTED}` }),
    },
    { ...closed, $id: id, description },
  );

const IncidentCreatedEventSchema = incidentEvent('incident.created', 'IncidentCreatedEvent', 'A new incident; `id:` = its event number');
const IncidentUpdatedEventSchema = incidentEvent(
  'incident.updated',
  'IncidentUpdatedEvent',
  'An incident changed (status, text, updates); `id:` = its event number',
);
const IncidentResolvedEventSchema = incidentEvent('incident.resolved', 'IncidentResolvedEvent', 'An incident was resolved; `id:` = its event number');

const StreamShutdownEventSchema = Type.Object(
  {
    type: StringEnum(['shutdown'] as const),
    occurredAt: DateTime(),
    reconnectAfterMs: Type.Integer({ minimum: 0, description: 'Also sent as `retry:`; reconnect with Last-Event-ID after this long' }),
  },
  { ...closed, $id: 'StreamShutdownEvent', description: 'Last event of a stream ended by a server shutting down; no `id:` line' },
);

const EarlyWarningEventSchema = Type.Object(
  {
    type: StringEnum(['early_warning'] as const),
    occurredAt: DateTime({ description: 'When the signal changed' }),
    change: StringEnum(['opened', 'confirmed', 'cleared', 'dismissed'] as const, { description: 'What happened to the signal' }),
    signal: SignalSchema,
  },
  {
    ...closed,
    $id: 'EarlyWarningEvent',
    description:
      "An early-warning signal of the reader's organisation opened or changed (docs/early-warning.md); only to signed-in members of that organisation, on the incident stream; no `id:` line (not in the event log). Never the vendor's status",
  },
);

export const STREAM_EVENT_SCHEMAS = [
  StreamSnapshotEventSchema,
  IncidentCreatedEventSchema,
  IncidentUpdatedEventSchema,
  IncidentResolvedEventSchema,
  StreamShutdownEventSchema,
  EarlyWarningEventSchema,
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
      early_warning: '#/components/schemas/EarlyWarningEvent',
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

/** The incident stream's events: those of every stream, and early-warning signals of the reader's organisation. */
export const INCIDENT_STREAM_SSE_EVENTS = { ...STREAM_SSE_EVENTS, early_warning: { id: false, schema: ref('EarlyWarningEvent') } };
