import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchemaText } from './config-schema.ts';

// `npm run config-schema:generate`: writes docs/config.schema.json (test/unit/config-schema.test.ts checks it is current).

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'config.schema.json');
fs.writeFileSync(out, configSchemaText());
console.log(`${out} written`);
