import { ConfigFileSchema } from '../src/domain/org-config.ts';

// The published JSON Schema of the configuration file (docs/config.schema.json, docs/services.md
// "Config as code"), made from the TypeBox schema apply checks files with.

export function configSchemaText(): string {
  const schema = JSON.parse(JSON.stringify(ConfigFileSchema)) as Record<string, unknown>;
  return `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema }, null, 2)}\n`;
}
