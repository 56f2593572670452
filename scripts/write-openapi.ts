import fs from 'node:fs';
import { buildOpenApiDocument } from './openapi-document.ts';

// Writes the generated OpenAPI document to build/openapi.json (for linting and publishing).
const doc = await buildOpenApiDocument();
fs.mkdirSync('build', { recursive: true });
fs.writeFileSync('build/openapi.json', JSON.stringify(doc, null, 2));
console.log('build/openapi.json written');
