// Broken payloads: every adapter answers with AdapterError ('malformed_payload') and a
// message that says what was wrong, never with any other exception.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SOURCE_TYPES, type SourceType } from '../../../../src/domain/records.ts';
import { AdapterError, defineAdapter } from '../../../../src/ingest/adapters/adapter.ts';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import { input } from './helpers.ts';

const FEED_TYPES = new Set<SourceType>(['aws-rss', 'azure-rss', 'statuspage-rss', 'statuspage-atom', 'advisory-feed', 'release-feed']);

function rejects(type: SourceType, body: Buffer | string, message: RegExp) {
  assert.throws(
    () => parseSource(type, input('acme', 'https://status.acme.test/api/v2/summary.json', body)),
    (err: unknown) => {
      assert.ok(err instanceof AdapterError, `${type}: expected AdapterError, got ${String(err)}`);
      assert.equal(err.code, 'malformed_payload');
      assert.match(err.message, message, `${type}: message "${err.message}"`);
      return true;
    },
  );
}

describe('malformed payloads', () => {
  for (const type of SOURCE_TYPES) {
    test(`${type}: empty, blank, invalid UTF-8, truncated UTF-16, garbage`, () => {
      rejects(type, Buffer.alloc(0), /empty body/);
      rejects(type, ' \n\t ', /empty body/);
      rejects(type, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), /not valid UTF-8/);
      rejects(type, Buffer.from([0xfe, 0xff, 0x00, 0x5b, 0x00]), /not valid UTF-16BE/);
      if (FEED_TYPES.has(type)) {
        rejects(type, '<rss><channel><item><title>cut off', /invalid XML at line 1/);
        rejects(type, '<<<< not xml >>>>', /invalid XML/);
        rejects(type, '<html><body><h1>502 Bad Gateway</h1></body></html>', /not an RSS or Atom feed \(root element <html>\)/);
        rejects(type, '{"page": {}}', type === 'advisory-feed' || type === 'release-feed' ? /invalid payload at \/version/ : /got JSON/);
      } else if (type === 'hund') {
        // A server-sent event stream: JSON, HTML or a stream without its opening event are refused.
        rejects(type, '{"state": "operational", "issues": []}', /no complete init_event/);
        rejects(type, '<html><body>502 Bad Gateway</body></html>', /no complete init_event/);
        rejects(type, 'event: init_event\ndata: {"state": \n\n', /invalid JSON/);
        rejects(type, 'event: init_event\ndata: {"unexpected": true}\n\n', /invalid payload/);
      } else if (type === 'statuspage-html') {
        // An HTML page: JSON, an error page or a page without Statuspage's markup are refused.
        rejects(type, '{"page": {"id": "x", ', /got JSON/);
        rejects(type, '<html><body>502 Bad Gateway</body></html>', /no Statuspage components, page status or incidents/);
        rejects(type, '"just a string"', /no Statuspage components/);
      } else if (type === 'fastly-status') {
        // An HTML page: its state is in the icons of its component rows.
        rejects(type, '<html><body>502 Bad Gateway</body></html>', /no component rows/);
        rejects(type, '{"page": {"id": "x", ', /no component rows/);
        rejects(type, '<tr data-path="1"><td><a>API</a></td></tr>', /no component rows/);
      } else if (type === 'okta-status') {
        // An HTML page: its records are JSON inside the element marked data-id="incidents".
        rejects(type, '<html><body>502 Bad Gateway</body></html>', /no element with data-id="incidents"/);
        rejects(type, '{"page": {"id": "x", ', /no element with data-id="incidents"/);
        rejects(type, '<span data-id="incidents">[{"Status__c": </span>', /invalid JSON/);
        rejects(type, '<span data-id="incidents">{"unexpected": true}</span>', /invalid payload/);
      } else {
        rejects(type, '{"page": {"id": "x", ', /invalid JSON/);
        rejects(type, '<html><body>502 Bad Gateway</body></html>', /invalid JSON/);
        rejects(type, '{"unexpected": true}', /.+/);
        rejects(type, '"just a string"', /.+/);
      }
    });
  }

  test('wrong shapes name the offending path', () => {
    rejects(
      'statuspage-v2',
      '{"page":{"id":"p"},"incidents":[{"id":"a","name":"n"}]}',
      /statuspage-v2: invalid payload at \/incidents\/0\/status: Expected required property/,
    );
    rejects('statuspage-v2', '{"page":{"id":"p"},"components":[{"id":"a","name":"n","position":"first"}]}', /\/components\/0\/position: Expected number/);
    rejects('statuspage-v2', '{"period":{},"metrics":[]}', /not a Statuspage v2 payload .*got keys period, metrics/);
    rejects(
      'statuspage-v2',
      '{"page":{"id":"p"},"incidents":[{"id":"a","name":"n","status":"investigating","created_at":"soon"}]}',
      /incident a started_at\/created_at: missing or unparseable date "soon"/,
    );
    rejects('instatus', '{"page":{"name":"x"}}', /instatus: invalid payload at \/page\/status/);
    rejects('gcp-json', '{"incidents":[]}', /gcp-json: invalid payload at \/: Expected array/);
    rejects('gcp-json', '[{"id":"x","begin":"2026-01-01T00:00:00Z"}]', /\/0\/external_desc/);
    rejects('betterstack', '{"data":{"type":"monitor","attributes":{"aggregate_state":"operational"}}}', /\/data\/type/);
    rejects('checkly', '{"incidents":[{"id":"x","name":"y"}]}', /\/incidents\/0\/created_at/);
    rejects('aws-currentevents', '[{"service":"ec2","summary":"x","status":"1"}]', /\/0\/date/);
    rejects('advisory-feed', '<rss version="2.0"></rss>', /RSS document without <channel>/);
  });

  test('a wrong type deep inside is named by its path', () => {
    rejects(
      'statuspage-v2',
      '{"page":{"id":"p"},"incidents":[{"id":"a","name":"n","status":"resolved","created_at":"2026-01-01T00:00:00Z","incident_updates":[5]}]}',
      /incident_updates\/0: Expected object/,
    );
  });

  test('defineAdapter turns any other exception into AdapterError, keeping the cause', () => {
    const cause = new TypeError("Cannot read properties of undefined (reading 'x')");
    const adapter = defineAdapter('gcp-json', () => {
      throw cause;
    });
    assert.throws(
      () => adapter.parse(input('acme', 'https://x/', '[]')),
      (err: unknown) => err instanceof AdapterError && err.cause === cause && /gcp-json: unexpected payload structure \(Cannot read/.test(err.message),
    );
  });

  test('property: arbitrary JSON never escapes as anything but AdapterError', () => {
    const shaped = fc.oneof(
      fc.jsonValue(),
      fc.record({ page: fc.jsonValue(), status: fc.jsonValue(), components: fc.jsonValue(), incidents: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ summary: fc.record({ ongoing_incidents: fc.jsonValue(), structure: fc.jsonValue(), components: fc.jsonValue() }, { requiredKeys: [] }) }),
      fc.record({ page: fc.record({ status: fc.string() }), activeIncidents: fc.jsonValue() }),
      fc.record({
        data: fc.jsonValue(),
        included: fc.array(
          fc.record({
            id: fc.string(),
            type: fc.constantFrom('status_report', 'status_page_resource', 'status_update'),
            attributes: fc.dictionary(fc.string(), fc.jsonValue()),
          }),
        ),
      }),
      fc.array(
        fc.record(
          {
            id: fc.string(),
            begin: fc.string(),
            external_desc: fc.string(),
            date: fc.string(),
            service: fc.string(),
            summary: fc.string(),
            status: fc.string(),
          },
          { requiredKeys: [] },
        ),
      ),
    );
    fc.assert(
      fc.property(shaped, fc.constantFrom(...SOURCE_TYPES), (value, type) => {
        try {
          parseSource(type, input('acme', 'https://status.acme.test/api/v2/summary.json', JSON.stringify(value) ?? 'null'));
        } catch (err) {
          if (!(err instanceof AdapterError)) throw err;
          // Validation, not a caught TypeError, must be what stops a bad payload.
          assert.doesNotMatch(err.message, /unexpected payload structure/);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('property: arbitrary text as a feed never escapes as anything but AdapterError', () => {
    const xmlish = fc.oneof(
      fc.string(),
      fc
        .string()
        .map((s) => `<rss version="2.0"><channel><item><title>${s}</title><pubDate>${s}</pubDate><description>${s}</description></item></channel></rss>`),
      fc
        .string()
        .map((s) => `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${s}</id><title>${s}</title><content type="html">${s}</content></entry></feed>`),
    );
    fc.assert(
      fc.property(xmlish, fc.constantFrom(...FEED_TYPES), (text, type) => {
        try {
          parseSource(type, input('acme', 'https://status.acme.test/history.rss', text));
        } catch (err) {
          if (!(err instanceof AdapterError)) throw err;
          assert.doesNotMatch(err.message, /unexpected payload structure/);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('property: arbitrary text in Statuspage markup never escapes as anything but AdapterError', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '<div class="unresolved-incidents">',
        '<div class="unresolved-incident impact-major">',
        '<a class="actual-title" href="/incidents/abc">',
        '<div class="update">',
        '<strong>',
        '<small>',
        '<span class="ago" data-datetime-unix="1663102886000">',
        '<div class="component-container is-group">',
        '<div class="child-components-container">',
        '<div data-component-id="x" data-component-status="partial_outage">',
        '<span class="name">',
        '<div class="page-status status-minor">',
        '<span class="status">',
        '</div>',
        '</span>',
        '</a>',
        '<script>',
        '<!--',
        'Jan 12, 16:04 UTC',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        try {
          const s = parseSource('statuspage-html', input('acme', 'https://status.acme.test/', `<html><body>${pieces.join('')}</body></html>`));
          for (const c of s.components ?? []) assert.doesNotMatch(c.name, /<\/?(div|span|a|script)\b/);
        } catch (err) {
          if (!(err instanceof AdapterError)) throw err;
          assert.doesNotMatch(err.message, /unexpected payload structure/);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
