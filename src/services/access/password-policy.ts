import { invalidParameter } from '../../domain/errors.ts';
import { loadOnce } from '../../infra/load-once.ts';

// Which new passwords are accepted (docs/security.md, "Password policy"): at least
// MIN_PASSWORD_LENGTH characters, at most MAX_PASSWORD_LENGTH, and not guessable
// from the maintained lists of common passwords, keyboard walks, repeats and
// sequences of zxcvbn-ts (score 3 or more = at least 10^8 guesses). Applied on
// signup, `cli users create` and any password change; logins of existing accounts
// never check it, so accounts made under an older policy keep working.

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;
const MIN_SCORE = 3;

// The estimator and its dictionaries (about 10 MB once unpacked) load with the first new
// password, not with the app: most processes never see one (docs/architecture.md,
// "Optional infrastructure").
const strength = loadOnce(async () => {
  const [{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
  return new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
});

/** Rejects with 400 invalid_parameter `password` when a new password breaks the policy. */
export async function checkNewPassword(password: string, userInputs: string[] = []): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidParameter('password', `must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidParameter('password', `must have at most ${MAX_PASSWORD_LENGTH} characters`);
  if ((await strength()).check(password, userInputs).score < MIN_SCORE) {
    throw invalidParameter('password', 'is too common or too easy to guess; choose a longer, less predictable one');
  }
}
