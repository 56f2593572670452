import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { configSchemaText } from '../../scripts/config-schema.ts';

// docs/config.schema.json is made from the TypeBox schema apply uses (docs/services.md "Config as code"):
// a change to one without the other fails here. Run `npm run config-schema:generate`.

test('docs/config.schema.json is current', () => {
  const published = fs.readFileSync(new URL('../../docs/config.schema.json', import.meta.url), 'utf8');
  assert.equal(published, configSchemaText(), 'run npm run config-schema:generate');
  const schema = JSON.parse(published);
  assert.deepEqual(Object.keys(schema.properties).sort(), ['routes', 'services', 'version', 'watchlists']);
  assert.equal(schema.additionalProperties, false);
});
