// Errors of the SCIM 2.0 endpoints (RFC 7644 §3.12; docs/teams.md, "SCIM"): an HTTP
// status and, for 400 and 409, a `scimType`. The SCIM routes turn them into the SCIM
// error body. Pure: no I/O.

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimType | null;
  /** Seconds until the caller may try again (429). */
  readonly retryAfter: number | null;

  constructor(status: number, detail: string, scimType: ScimType | null = null, retryAfter: number | null = null) {
    super(detail);
    this.name = 'ScimError';
    this.status = status;
    this.scimType = scimType;
    this.retryAfter = retryAfter;
  }
}

export const scimBadRequest = (scimType: ScimType, detail: string) => new ScimError(400, detail, scimType);
export const scimNotFound = (detail: string) => new ScimError(404, detail);
export const scimConflict = (detail: string) => new ScimError(409, detail, 'uniqueness');

/** Control characters (C0, DEL, C1) are refused in every string a SCIM client sends. */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
