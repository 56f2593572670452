import { createHash, randomBytes } from 'node:crypto';

// Secrets the service generates for a user's delivery channels.

/** Standard Webhooks symmetric secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Personal feed token: 32 random bytes, URL-safe (43 characters). */
export const newFeedToken = () => randomBytes(32).toString('base64url');

/** Feed tokens are stored and looked up only as this hash. */
export const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** E-mail confirmation token: 32 random bytes, URL-safe; stored only as its SHA-256 (same hash as feed tokens). */
export const newEmailConfirmToken = () => randomBytes(32).toString('base64url');
