import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

// Typed REST client of the Vendor Infrastructure Status API: openapi-fetch over the
// types openapi-typescript generated from the service's OpenAPI document (schema.d.ts).

export type { components, operations, paths };
export * from './stream.ts';

export interface VendorStatusClientOptions extends ClientOptions {
  /** Origin of the service, e.g. `https://status.example.com`. */
  baseUrl: string;
  /** Sent as X-API-Key on every request; omit for the anonymous tier. */
  apiKey?: string;
}

export type VendorStatusClient = Client<paths>;

export function createVendorStatusClient({ apiKey, headers, ...rest }: VendorStatusClientOptions): VendorStatusClient {
  return createClient<paths>({ ...rest, headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(headers as Record<string, string> | undefined) } });
}
