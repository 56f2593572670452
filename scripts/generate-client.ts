import fs from 'node:fs';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema.ts';
import { buildOpenApiDocument } from './openapi-document.ts';

// npm run client:generate: writes clients/typescript/src/schema.d.ts from the app's own document.
fs.writeFileSync(CLIENT_SCHEMA_FILE, await clientSchemaSource(await buildOpenApiDocument()));
console.log(`${CLIENT_SCHEMA_FILE} written`);
