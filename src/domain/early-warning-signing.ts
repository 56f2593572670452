import { createHmac, timingSafeEqual } from 'node:crypto';

// Inbound signals (docs/early-warning.md "Inbound signals") are signed the way our outgoing
// webhooks are (docs/alerts.md "Webhook (Standard Webhooks)"): headers `webhook-id`,
// `webhook-timestamp` (unix seconds) and `webhook-signature` (`v1,<base64>`, space
// separated), HMAC-SHA256 keyed with the base64 secret after `whsec_`, over
// `${id}.${timestamp}.${body}`. Pure: no I/O.

/** How far a timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Message ids: printable, short (they are stored for the replay check). */
const MESSAGE_ID = /^[\x21-\x7e]{1,128}$/;

export type SignatureCheck = { ok: true; messageId: string; timestamp: number } | { ok: false; why: string };

const keyOf = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** Checks the three headers against the exact body bytes and the secret, at `now`. */
export function checkSignature(
  headers: { id: unknown; timestamp: unknown; signature: unknown },
  body: string,
  secret: string,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  const { id, timestamp, signature } = headers;
  if (typeof id !== 'string' || !MESSAGE_ID.test(id)) return { ok: false, why: 'missing or malformed webhook-id' };
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return { ok: false, why: 'missing or malformed webhook-timestamp' };
  if (typeof signature !== 'string' || signature.length > 1024) return { ok: false, why: 'missing or malformed webhook-signature' };
  const ts = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - ts) > toleranceSeconds) return { ok: false, why: `webhook-timestamp is more than ${toleranceSeconds} s from now` };
  const expected = Buffer.from(signatureOf(secret, id, ts, body));
  const match = signature.split(' ').some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true, messageId: id, timestamp: ts } : { ok: false, why: 'signature does not match' };
}
