import type { FastifyRequest } from 'fastify';
import type { OAuthClient, OAuthService } from '../../services/oauth/oauth-service.ts';
import { SUPPORTED_SCOPES } from '../context.ts';
import { OAuthError } from '../../domain/oauth-errors.ts';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, newId, newSecret, sameSecret, sha256Hex } from '../../services/oauth/secrets.ts';

// Dynamic client registration (RFC 7591) and client authentication at the token
// and revocation endpoints (RFC 6749 §2.3: client_secret_basic,
// client_secret_post, or `none` for public clients such as desktop assistants).

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'about:', 'blob:', 'filesystem:', 'ws:', 'wss:', 'ftp:']);
const STRING_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'software_id', 'software_version'] as const;

/**
 * OAuth 2.1 §2.3.1 / RFC 8252: https anywhere, plain http only on loopback
 * (native apps listening locally), or a private-use scheme (`cursor://...`).
 * Never a fragment.
 */
function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || !uri) return 'must be a non-empty string';
  if (uri.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (u.hash || uri.includes('#')) return 'must not contain a fragment';
  if (u.username || u.password) return 'must not contain credentials';
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `scheme ${u.protocol} is not allowed`;
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) return 'http is only allowed for loopback addresses (localhost, 127.0.0.1, [::1])';
  if (u.protocol !== 'https:' && u.protocol !== 'http:' && !/^[a-z][a-z0-9+.-]*:$/.test(u.protocol)) return 'has an invalid scheme';
  return null;
}

function optionalString(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const v = body[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new OAuthError('invalid_client_metadata', `${name} must be a string`);
  if (v.length > max) throw new OAuthError('invalid_client_metadata', `${name} must be at most ${max} characters`);
  return v;
}

function stringArray(body: Record<string, unknown>, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new OAuthError('invalid_client_metadata', `${name} must be an array of strings`);
  return v as string[];
}

export interface Registration {
  client: OAuthClient;
  /** Shown once, in the registration response. */
  secret: string | null;
}

export function registerClient(body: unknown, now: Date): Registration {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata');
  }
  const b = body as Record<string, unknown>;
  const redirectUris = stringArray(b, 'redirect_uris');
  if (!redirectUris?.length) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list at least one URI');
  if (redirectUris.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uri '${uri.slice(0, 200)}' ${problem}`);
  }

  const authMethod = optionalString(b, 'token_endpoint_auth_method', 50) ?? 'client_secret_basic';
  if (!(AUTH_METHODS as readonly string[]).includes(authMethod)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  }
  const grantTypes = stringArray(b, 'grant_types') ?? ['authorization_code', 'refresh_token'];
  if (grantTypes.some((g) => !(GRANT_TYPES as readonly string[]).includes(g)) || !grantTypes.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code and may add refresh_token');
  }
  const responseTypes = stringArray(b, 'response_types') ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) throw new OAuthError('invalid_client_metadata', "response_types may only contain 'code'");

  // Unknown scopes are dropped rather than refused (RFC 7591 §2 lets the server
  // replace requested values), so generic clients asking for e.g. `openid` still register.
  const requested = (optionalString(b, 'scope', 1000) ?? '').split(' ').filter(Boolean);
  const known = requested.filter((s) => (SUPPORTED_SCOPES as readonly string[]).includes(s));
  const scope = (known.length ? known : [...SUPPORTED_SCOPES]).join(' ');

  const metadata: Record<string, unknown> = {};
  for (const f of STRING_FIELDS) {
    const v = optionalString(b, f, MAX_URI_LENGTH);
    if (v !== undefined) metadata[f] = v;
  }
  const contacts = stringArray(b, 'contacts');
  if (contacts) metadata.contacts = contacts.slice(0, 10).map((c) => c.slice(0, 200));

  const name = (optionalString(b, 'client_name', 100) ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'Unnamed application';
  const secret = authMethod === 'none' ? null : newSecret(CLIENT_SECRET_PREFIX);
  return {
    secret,
    client: {
      clientId: newId(CLIENT_ID_PREFIX),
      secretHash: secret ? sha256Hex(secret) : null,
      name,
      redirectUris,
      grantTypes,
      authMethod,
      scope,
      metadata,
      createdAt: now.toISOString(),
    },
  };
}

/** The registration response (RFC 7591 §3.2.1). */
export function registrationResponse(r: Registration) {
  const c = r.client;
  return {
    client_id: c.clientId,
    client_id_issued_at: Math.floor(Date.parse(c.createdAt) / 1000),
    ...(r.secret ? { client_secret: r.secret, client_secret_expires_at: 0 } : {}),
    client_name: c.name,
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: c.authMethod,
    scope: c.scope,
    ...c.metadata,
  };
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before Base64.
  try {
    const id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
    const secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
    // Credentials are printable; a NUL would also fail the PostgreSQL lookup.
    return /[\u0000-\u001f\u007f]/.test(id + secret) ? null : { id, secret };
  } catch {
    return null;
  }
}

/** Authenticates the client of a token or revocation request. */
export async function authenticateClient(
  req: FastifyRequest,
  params: Record<string, string | undefined>,
  oauth: Pick<OAuthService, 'getClient'>,
): Promise<OAuthClient> {
  const basic = basicCredentials(req.headers.authorization);
  if (req.headers.authorization && !basic) throw new OAuthError('invalid_client', 'Malformed Authorization header');
  if (basic && (params.client_secret !== undefined || (params.client_id !== undefined && params.client_id !== basic.id))) {
    throw new OAuthError('invalid_request', 'Use one client authentication method');
  }
  const clientId = basic?.id ?? params.client_id;
  const secret = basic?.secret ?? params.client_secret;
  if (!clientId) throw new OAuthError('invalid_client', 'client_id is required');
  const client = await oauth.getClient(clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client');
  if (client.secretHash) {
    if (!secret || !sameSecret(sha256Hex(secret), client.secretHash)) throw new OAuthError('invalid_client', 'Client authentication failed');
  } else if (secret !== undefined) {
    throw new OAuthError('invalid_client', 'This public client has no secret');
  }
  return client;
}
