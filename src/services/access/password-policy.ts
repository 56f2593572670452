import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { invalidParameter } from '../../domain/errors.ts';

// Which new passwords are accepted (docs/security.md, "Password policy"): at least
// MIN_PASSWORD_LENGTH characters, at most MAX_PASSWORD_LENGTH, and not guessable
// from the maintained lists of common passwords, keyboard walks, repeats and
// sequences of zxcvbn-ts (score 3 or more = at least 10^8 guesses). Applied on
// signup, `cli users create` and any password change; logins of existing accounts
// never check it, so accounts made under an older policy keep working.

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;
const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | null = null;
const strength = () => (estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }));

/** Throws 400 invalid_parameter `password` when a new password breaks the policy. */
export function checkNewPassword(password: string, userInputs: string[] = []): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidParameter('password', `must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidParameter('password', `must have at most ${MAX_PASSWORD_LENGTH} characters`);
  if (strength().check(password, userInputs).score < MIN_SCORE) {
    throw invalidParameter('password', 'is too common or too easy to guess; choose a longer, less predictable one');
  }
}
