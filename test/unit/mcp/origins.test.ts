import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { ConfigError, loadConfig } from '../../../src/infra/config.ts';
import { createOrigins } from '../../../src/mcp/origins.ts';

const req = (host: string, protocol = 'http') => ({ host, protocol }) as unknown as FastifyRequest;

test('PUBLIC_URL must be an origin; MCP_PORT may be 0 (any free port)', () => {
  assert.equal(loadConfig({ PUBLIC_URL: 'https://status.example.com/' }).publicUrl, 'https://status.example.com');
  assert.equal(loadConfig({}).publicUrl, null);
  for (const bad of ['https://status.example.com/api', 'ftp://x.example', 'not a url', 'https://u:p@x.example']) {
    assert.throws(
      () => loadConfig({ PUBLIC_URL: bad }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'PUBLIC_URL',
      bad,
    );
  }
  assert.equal(loadConfig({ MCP_PORT: '0' }).mcpPort, 0);
  assert.equal(loadConfig({ MCP_PORT: '3001' }).mcpPort, 3001);
  assert.throws(() => loadConfig({ MCP_PORT: '70000' }), ConfigError);
});

test('without PUBLIC_URL, URLs follow the request; the MCP listener points at the main port', () => {
  const main = createOrigins({ publicUrl: null, mainPort: () => 3000, mcpPort: () => 3001, onMcpListener: false });
  const r = req('status.local:3000');
  assert.equal(main.issuer(r), 'http://status.local:3000');
  assert.equal(main.resource(r), 'http://status.local:3000/mcp');
  assert.equal(main.resourceMetadataUrl(r), 'http://status.local:3000/.well-known/oauth-protected-resource/mcp');

  const own = createOrigins({ publicUrl: null, mainPort: () => 3000, mcpPort: () => 3001, onMcpListener: true });
  const m = req('status.local:3001');
  assert.equal(own.resource(m), 'http://status.local:3001/mcp');
  assert.equal(own.issuer(m), 'http://status.local:3000');

  // Both listeners are this service's MCP resource; nothing else is.
  for (const o of [main, own]) {
    assert.ok(o.isOurResource('http://status.local:3000/mcp', r));
    assert.ok(o.isOurResource('http://status.local:3001/mcp', r));
    assert.ok(!o.isOurResource('http://status.local:3000/api', r));
    assert.ok(!o.isOurResource('http://evil.example:3000/mcp', r));
    assert.ok(!o.isOurResource('http://status.local:3000/mcp?x=1', r));
    assert.ok(!o.isOurResource('not a url', r));
  }
  // A hostile Host header is not reflected.
  assert.equal(main.issuer(req('evil"><script>')), 'http://localhost');
});

test('with PUBLIC_URL, the issuer and the main resource are pinned to it', () => {
  const o = createOrigins({ publicUrl: 'https://status.example.com', mainPort: () => 3000, mcpPort: () => null, onMcpListener: false });
  const r = req('10.0.0.5:3000');
  assert.equal(o.issuer(r), 'https://status.example.com');
  assert.equal(o.resource(r), 'https://status.example.com/mcp');
  assert.ok(o.isOurResource('https://status.example.com/mcp', r));
});
