import { randomBytes } from 'node:crypto';
import { isUserPlan, type Plan, planAtLeast, type UserPlan } from '../domain/plans.ts';
import type { Authenticator } from './access/authenticator.ts';
import type { Services } from './index.ts';
import type { DemoLoginVault } from '../infra/demo-login-file.ts';

// The ready-made login of `npm run demo` (docs/operations.md "Demo"): created once
// per demo store, then printed at every start so a newcomer can call the API at
// once. Only demo mode makes it; the secret is kept where the demo keeps its data
// (DATA_DIR, readable by its owner alone) because a key cannot be read back from its hash.

const DEMO_EMAIL = 'demo@example.com';

export interface DemoLogin {
  email: string;
  /** null when the account exists but its saved password was lost (the store outlived the file). */
  password: string | null;
  apiKey: string;
  /** True when this start created the account or the key. */
  created: boolean;
}

export async function ensureDemoLogin(
  services: Pick<Services, 'accounts' | 'keys'>,
  auth: Pick<Authenticator, 'verifyKey'>,
  minPlan: Plan,
  vault: DemoLoginVault,
): Promise<DemoLogin> {
  const saved = vault.read();
  if (saved && (await services.accounts.findByEmail(saved.email)) && (await auth.verifyKey(saved.apiKey))) {
    return { ...saved, created: false };
  }
  let user = await services.accounts.findByEmail(DEMO_EMAIL);
  let password = saved?.email === DEMO_EMAIL ? saved.password : null;
  if (!user) {
    password = randomBytes(12).toString('base64url');
    // Pro, or the lowest plan allowed to create keys when API_KEY_MIN_PLAN is higher.
    const plan: UserPlan = planAtLeast('pro', minPlan) || !isUserPlan(minPlan) ? 'pro' : minPlan;
    user = await services.accounts.createUser({ email: DEMO_EMAIL, password, plan });
  }
  const { secret } = await services.keys.create(await services.accounts.personalViewer(user.id), 'demo');
  const login = { email: user.email, password, apiKey: secret };
  vault.write(login);
  return { ...login, created: true };
}

/**
 * The demo's example services (docs/operations.md "Demo"): a few services of the demo
 * account's organisation depending on simulated vendors, so `/team/services` and
 * `GET /orgs/{id}/impact` show what the fleet's incidents hit within the first minute.
 * Whole vendors (and an AWS region): the simulator makes new component ids at every start.
 */
export const DEMO_SERVICES_CONFIG = `version: 1
services:
  - name: checkout-api
    criticality: critical
    tags: [team:payments]
    dependencies:
      - vendor: stripe
      - vendor: amazon-web-services
        regions: [us-east-1]
  - name: ci-pipeline
    criticality: high
    tags: [team:platform]
    dependencies:
      - vendor: github
  - name: website
    criticality: medium
    dependencies:
      - vendor: cloudflare
      - vendor: vercel
        kind: soft
  - name: notifications
    criticality: low
    dependencies:
      - vendor: twilio
      - vendor: slack
        kind: soft
`;

/** Adds the example services when the demo account's organisation has none; returns how many were made. */
export async function ensureDemoServices(services: Pick<Services, 'accounts' | 'orgConfig' | 'teamServices'>, email: string): Promise<number> {
  const user = await services.accounts.findByEmail(email);
  if (!user) return 0;
  const viewer = await services.accounts.personalViewer(user.id);
  if ((await services.teamServices.list(viewer, viewer.orgId)).length) return 0;
  const r = await services.orgConfig.apply(viewer, viewer.orgId, { yaml: DEMO_SERVICES_CONFIG });
  return r.summary.create;
}
