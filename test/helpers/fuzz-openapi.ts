// The fuzz suite's view of the served OpenAPI document: one entry per operation
// (method + path template) with its parameters, request body schema (refs
// resolved), security and documented statuses. Generators and checks read only
// this, so a new route is fuzzed as soon as it is in the document.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  id: string;
  method: string;
  /** Path template as in the document, e.g. `/api/v1/infrastructure/vendor-info/{vendor}`. */
  path: string;
  params: Param[];
  body: Schema | null;
  /** True when the operation needs a key or a session (never anonymous). */
  perUser: boolean;
  /** True when only a web session is accepted (key management). */
  sessionOnly: boolean;
  /** True when only a SCIM token is accepted (the SCIM endpoints, docs/teams.md "SCIM"). */
  scim: boolean;
  /** Statuses the document lists for the operation. */
  statuses: Set<number>;
  /** Media types of the success response (to know a stream from JSON). */
  successTypes: string[];
}

export interface ApiDocument {
  raw: any;
  operations: Operation[];
  errorBody: Schema;
  resolve(schema: Schema | undefined): Schema;
}

export function readDocument(raw: any): ApiDocument {
  const components = raw.components?.schemas ?? {};
  const resolve = (schema: Schema | undefined): Schema => {
    let s = schema ?? {};
    for (let i = 0; s.$ref && i < 10; i++) {
      const name = String(s.$ref).replace('#/components/schemas/', '');
      s = { ...components[name], ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
    }
    return s;
  };
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries<any>(raw.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const security: Record<string, unknown>[] | undefined = op.security;
      const perUser = !!security?.length && !security.some((s) => Object.keys(s).length === 0);
      const sessionOnly = perUser && security!.every((s) => Object.keys(s).length === 1 && 'sessionCookie' in s);
      const scim = perUser && security!.every((s) => Object.keys(s).length === 1 && 'scimBearer' in s);
      const ok = Object.entries<any>(op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      operations.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({
          name: p.name,
          in: p.in,
          required: !!p.required,
          schema: resolve(p.schema),
        })),
        body: op.requestBody ? resolve(op.requestBody.content?.['application/json']?.schema) : null,
        perUser,
        sessionOnly,
        scim,
        statuses: new Set(Object.keys(op.responses ?? {}).map(Number)),
        successTypes: Object.keys(ok?.content ?? {}),
      });
    }
  }
  return { raw, operations, errorBody: resolve(components.ErrorBody ?? { $ref: '#/components/schemas/ErrorBody' }), resolve };
}
