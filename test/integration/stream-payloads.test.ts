import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { incident } from '../helpers/records.ts';
import { commitEvents } from '../helpers/stream.ts';
import { waitFor } from '../helpers/wait.ts';
import { createUser } from '../helpers/users.ts';

// The stream's event payloads as the OpenAPI document describes them (docs/stream.md,
// "Payloads in the OpenAPI document"): every frame a real stream sends, snapshot to
// shutdown, validates against the schema its `x-sse-events` entry names, and carries an
// `id:` line exactly when the entry says so.

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('stream payloads against the x-sse-events schemas', () => {
  interface Frame {
    event: string;
    id: string | null;
    data: unknown;
  }

  function parseFrames(text: string): Frame[] {
    const out: Frame[] = [];
    for (const block of text.split('\n\n')) {
      let event = '';
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (event) out.push({ event, id, data: JSON.parse(data.join('\n')) });
    }
    return out;
  }

  let t: TestApp;
  let closed = false;
  before(async () => {
    t = await startApp();
    await t.repos.incidents.upsert(incident('github', 'pay-a'), 'fa');
  });
  after(async () => {
    if (!closed) await t.close();
  });

  test('every event of a stream validates against the payload schema x-sse-events names for it', async () => {
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const op = doc.paths['/api/v1/infrastructure/incidents/stream'].get;
    const events = op['x-sse-events'] as Record<string, { id: boolean; schema: { $ref: string } }>;
    assert.deepEqual(Object.keys(events).sort(), ['early_warning', 'incident.created', 'incident.resolved', 'incident.updated', 'shutdown', 'snapshot']);
    assert.equal(op.responses['200'].content['text/event-stream'].schema.$ref, '#/components/schemas/StreamEvent');

    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, 'doc');
    const validate = (ref: string) => ajv.getSchema(`doc${ref}`)!;

    // A signed-in reader, so the early-warning signal of their (personal) organisation reaches the stream too.
    const reader0 = await createUser(t, 'pro');
    const res = await fetch(`${t.api}/incidents/stream`, { headers: reader0.headers });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })();
    await waitFor(() => text.includes('event: snapshot'), { message: 'the snapshot' });
    await commitEvents(t, [
      { vendor: 'github', id: 'pay-b', type: 'incident.created' },
      { vendor: 'github', id: 'pay-b', type: 'incident.updated' },
      { vendor: 'github', id: 'pay-b', type: 'incident.resolved', over: { status: 'resolved' } },
    ]);
    await waitFor(() => text.includes('event: incident.resolved'), { message: 'the live events' });
    const { signals } = t.app.services.earlyWarning;
    await signals.observe(reader0.id, { source: 'inbound', vendor: 'github', strength: 0.7, summary: 'API 5xx', actor: 'inbound:m1' });
    await signals.observe(reader0.id, { source: 'report', vendor: 'github', strength: 0.5, summary: '', actor: `user:${reader0.id}` });
    await waitFor(() => text.includes('event: early_warning'), { message: 'the early-warning event' });
    // Closing the app ends the stream with the shutdown event.
    await t.close();
    closed = true;
    await pump;

    const frames = parseFrames(text);
    assert.deepEqual(
      frames.map((f) => f.event),
      ['snapshot', 'incident.created', 'incident.updated', 'incident.resolved', 'early_warning', 'shutdown'],
    );
    for (const f of frames) {
      const entry = events[f.event]!;
      const check = validate(entry.schema.$ref);
      assert.ok(check(f.data), `${f.event}: ${ajv.errorsText(check.errors)}`);
      assert.equal(f.id !== null, entry.id, `${f.event} has an id: line exactly when x-sse-events says so`);
      // The union of all events accepts it too (what a generated client types the stream's data as).
      const any = validate('#/components/schemas/StreamEvent');
      assert.ok(any(f.data), `${f.event} as StreamEvent: ${ajv.errorsText(any.errors)}`);
    }
    // A payload of the wrong shape is refused (the schemas are closed, not decorative).
    assert.equal(validate(events.shutdown!.schema.$ref)({ type: 'shutdown', occurredAt: 'x' }), false);
  });
});
