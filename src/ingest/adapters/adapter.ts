// The contract every upstream-format adapter implements. Adapters are pure:
// bytes in, normalised records out, no I/O and no clock other than `now`.
import type { SourceSnapshot, SourceType } from '../../domain/records.ts';

export interface AdapterInput {
  /** Catalog slug of the vendor; prefixes every record id (`<vendor>:<upstream id>`). */
  vendor: string;
  /** The URL the body was fetched from. Some formats are recognised by their path. */
  url: string;
  body: Buffer;
  contentType?: string | null;
  /** Poll time; only used where a format's meaning depends on it (e.g. maintenance windows). */
  now: Date;
}

export interface Adapter {
  type: SourceType;
  parse(input: AdapterInput): SourceSnapshot;
}

/**
 * The only error an adapter throws. The scheduler records it in sourceHealth and
 * keeps the previous snapshot, so the message must say precisely what was wrong.
 */
export class AdapterError extends Error {
  readonly code = 'malformed_payload' as const;
  override name = 'AdapterError';
  /**
   * What kind of failure, in words that never quote the payload ("invalid JSON"):
   * the message (for the service log) may; sourceHealth, which anyone can read,
   * shows only the kind (docs/security.md).
   */
  readonly kind: string;

  constructor(message: string, options?: { cause?: unknown; kind?: string }) {
    super(message, options);
    this.kind = options?.kind ?? 'malformed payload';
  }
}

/**
 * Builds an adapter whose parse never throws anything but AdapterError: a payload that
 * passes validation yet trips an unexpected shape deep inside is still a malformed
 * payload from the poller's point of view, not a crash.
 */
export function defineAdapter(type: SourceType, parse: (input: AdapterInput) => SourceSnapshot): Adapter {
  return {
    type,
    parse(input) {
      try {
        return parse(input);
      } catch (err) {
        if (err instanceof AdapterError) throw err;
        const detail = err instanceof Error ? err.message : String(err);
        throw new AdapterError(`${type}: unexpected payload structure (${detail})`, { cause: err, kind: 'unexpected payload structure' });
      }
    },
  };
}
