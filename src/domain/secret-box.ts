// Channel secrets are sealed at rest (docs/security.md): repositories seal and open
// through this interface; the AES-GCM implementation and its keys are in infra/secret-box.ts.

export interface SecretBox {
  /** Id of the key new values are written with. */
  readonly keyId: string;
  seal(plain: string): string;
  /** Clear text of a sealed value; a value that is not sealed (written before encryption) is returned as it is. */
  open(stored: string): string;
  /** Whether a stored value must be (re)written: clear text, or sealed with an older key. */
  stale(stored: string): boolean;
}
