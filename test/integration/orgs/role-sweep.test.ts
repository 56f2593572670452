import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Every operation of /openapi.json that needs a credential, called by a viewer and by an
// editor of a team organisation (docs/teams.md, "Roles"): what changes the team's data
// is refused below the role it needs (403 `role_required`, nothing written), reads answer,
// and what belongs to the person (their keys, connections, leaving, answering invitations)
// stays theirs. The list comes from the document, so a new route fails here until it is
// classified.

type Need = 'viewer' | 'editor' | 'admin' | 'owner' | 'self';

/** The least role each operation needs in the organisation; 'self': the person's own business. */
const NEEDS: Record<string, Need> = {
  getWatchlist: 'viewer',
  replaceWatchlist: 'editor',
  addToWatchlist: 'editor',
  removeFromWatchlist: 'editor',
  getNotificationPreferences: 'viewer',
  updateNotificationPreferences: 'editor',
  rotateWebhookSecret: 'editor',
  rotateFeedToken: 'editor',
  startSlackInstall: 'editor',
  uninstallSlack: 'editor',
  getDashboardFavorites: 'viewer',
  listNotifications: 'viewer',
  markNotificationRead: 'viewer',
  markAllNotificationsRead: 'viewer',
  listNotificationDeliveries: 'viewer',
  sendTestAlert: 'editor',
  getAccount: 'self',
  listApiKeys: 'self',
  createApiKey: 'self',
  revokeApiKey: 'self',
  listConnections: 'self',
  disconnectConnection: 'self',
  listBoards: 'viewer',
  createBoard: 'editor',
  revokeBoard: 'editor',
  listCustomStatusPages: 'viewer',
  addCustomStatusPage: 'editor',
  removeCustomStatusPage: 'editor',
  listOrganisations: 'self',
  createOrganisation: 'self',
  getOrganisation: 'viewer',
  renameOrganisation: 'admin',
  deleteOrganisation: 'owner',
  switchOrganisation: 'self',
  listMembers: 'viewer',
  changeMemberRole: 'admin',
  removeMember: 'admin',
  leaveOrganisation: 'self',
  transferOwnership: 'owner',
  listInvitations: 'admin',
  inviteMember: 'admin',
  revokeInvitation: 'admin',
  acceptInvitation: 'self',
  declineInvitation: 'self',
  listOrganisationKeys: 'admin',
  createOrganisationKey: 'admin',
  revokeOrganisationKey: 'admin',
  listAuditLog: 'admin',
  listNamedWatchlists: 'viewer',
  getNamedWatchlist: 'viewer',
  createNamedWatchlist: 'editor',
  updateNamedWatchlist: 'editor',
  deleteNamedWatchlist: 'editor',
  listAlertRoutes: 'viewer',
  getAlertRoute: 'viewer',
  createAlertRoute: 'editor',
  updateAlertRoute: 'editor',
  deleteAlertRoute: 'editor',
  testAlertRoute: 'editor',
  listServices: 'viewer',
  getService: 'viewer',
  createService: 'editor',
  updateService: 'editor',
  deleteService: 'editor',
  getImpact: 'viewer',
  exportOrgConfig: 'viewer',
  applyOrgConfig: 'editor',
  listScimTokens: 'admin',
  createScimToken: 'admin',
  revokeScimToken: 'admin',
  listScimGroups: 'admin',
  setScimGroupRole: 'admin',
  // The SCIM endpoints take a SCIM token (it names the organisation), no member's role.
  scimServiceProviderConfig: 'self',
  scimResourceTypes: 'self',
  scimSchemas: 'self',
  scimListUsers: 'self',
  scimCreateUser: 'self',
  scimGetUser: 'self',
  scimReplaceUser: 'self',
  scimPatchUser: 'self',
  scimDeleteUser: 'self',
  scimListGroups: 'self',
  scimCreateGroup: 'self',
  scimGetGroup: 'self',
  scimReplaceGroup: 'self',
  scimPatchGroup: 'self',
  scimDeleteGroup: 'self',
  listSignals: 'viewer',
  getVendorTransparency: 'viewer',
  dismissSignal: 'editor',
  listTelemetryConnectors: 'viewer',
  getTelemetryConnector: 'viewer',
  createTelemetryConnector: 'admin',
  updateTelemetryConnector: 'admin',
  deleteTelemetryConnector: 'admin',
  listPrivateProbes: 'viewer',
  getPrivateProbe: 'viewer',
  createPrivateProbe: 'editor',
  updatePrivateProbe: 'editor',
  deletePrivateProbe: 'editor',
  reportVendorProblem: 'viewer',
  getSignalSecret: 'admin',
  rotateSignalSecret: 'admin',
  // Signed with the organisation's signing secret (docs/early-warning.md), no member's role.
  receiveSignal: 'self',
  getSsoConnection: 'admin',
  putSsoConnection: 'admin',
  deleteSsoConnection: 'admin',
  listSsoDomains: 'admin',
  addSsoDomain: 'admin',
  verifySsoDomain: 'admin',
  deleteSsoDomain: 'admin',
};

const RANK = { viewer: 0, editor: 1, admin: 2, owner: 3 } as const;

describe('roles: every operation by a viewer and an editor of a team', () => {
  let t: TestApp;
  let owner: TestUser;
  const members: Record<'viewer' | 'editor', { user: TestUser; cookie: string }> = {} as never;
  let orgId: string;
  let ops: { id: string; method: string; path: string }[];

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    owner = await createUser(t, 'pro');
    const ownerCookie = await loginCookie(t, owner);
    const s = (c: string) => ({ cookie: c, origin: t.url });
    const org = await send(`${t.url}/api/v1/orgs`, 'POST', s(ownerCookie), { name: 'Sweep team' });
    orgId = org.body.organisation.id;
    await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(ownerCookie));
    await send(`${t.api}/watchlist`, 'PUT', s(ownerCookie), { vendors: ['github'] });
    for (const role of ['viewer', 'editor'] as const) {
      const user = await createUser(t, 'free');
      const cookie = await loginCookie(t, user);
      const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', s(ownerCookie), { email: user.email, role });
      const token = inv.body.invitation.link.split('/').pop();
      assert.equal((await send(`${t.url}/api/v1/invitations/${token}/accept`, 'POST', s(cookie))).status, 200);
      assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(cookie))).status, 200);
      members[role] = { user, cookie };
    }
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    ops = [];
    for (const [path, byMethod] of Object.entries<Record<string, { operationId?: string; security?: object[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(byMethod)) {
        const security = op.security ?? doc.security ?? [];
        if (op.operationId && security.length > 0 && !security.some((x: object) => Object.keys(x).length === 0))
          ops.push({ id: op.operationId, method: method.toUpperCase(), path });
      }
    }
  });
  after(() => t.close());

  test('every operation that needs a credential is classified', () => {
    assert.deepEqual(
      ops.filter((o) => !(o.id in NEEDS)).map((o) => o.id),
      [],
    );
  });

  for (const role of ['viewer', 'editor'] as const) {
    test(`a ${role} is refused every operation above the role, before anything is written`, async () => {
      const { cookie } = members[role];
      const auditBefore = await t.repos.audit.head(orgId);
      const watchBefore = (await send(`${t.api}/watchlist`, 'GET', { cookie })).body.vendors;
      let refused = 0;
      for (const op of ops) {
        const need = NEEDS[op.id]!;
        if (need === 'self' || RANK[need] <= RANK[role]) continue;
        // Path parameters: this team, a vendor, an id that need not exist (the role check comes first).
        const path = op.path
          .replace('{orgId}', orgId)
          .replace('{vendor}', 'github')
          .replace('{userId}', owner.id)
          .replace(/\{[A-Za-z]+\}/g, '00000000-0000-4000-8000-000000000000');
        const body = ['POST', 'PUT', 'PATCH'].includes(op.method) ? bodyFor(op.id) : undefined;
        const r = await send(`${t.url}${path}`, op.method, { cookie, origin: t.url }, body);
        assert.equal(r.status, 403, `${op.id} ${op.method} ${path} as ${role}: ${r.status} ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error, 'role_required', `${op.id} as ${role}`);
        refused++;
      }
      assert.ok(refused >= (role === 'viewer' ? 20 : 10), `${refused} refusals`);
      // Nothing was written: the audit chain did not move, the watchlist is as it was.
      assert.deepEqual(await t.repos.audit.head(orgId), auditBefore);
      assert.deepEqual((await send(`${t.api}/watchlist`, 'GET', { cookie })).body.vendors, watchBefore);
    });
  }

  test('reads a viewer may make answer', async () => {
    const { cookie } = members.viewer;
    for (const op of ops) {
      if (NEEDS[op.id] !== 'viewer' || op.method !== 'GET' || op.path.includes('{')) continue;
      const r = await send(`${t.url}${op.path.replace('{orgId}', orgId)}`, 'GET', { cookie });
      assert.equal(r.status, 200, `${op.id} as viewer: ${r.status} ${JSON.stringify(r.body)}`);
    }
    for (const p of [`/api/v1/orgs/${orgId}`, `/api/v1/orgs/${orgId}/members`]) assert.equal((await send(`${t.url}${p}`, 'GET', { cookie })).status, 200, p);
  });
});

/** A well-formed body for each operation that takes one, so the answer is about the role and not the body. */
function bodyFor(id: string): unknown {
  switch (id) {
    case 'replaceWatchlist':
      return { vendors: ['stripe'] };
    case 'updateNotificationPreferences':
      return { in_app: { enabled: false } };
    case 'reportVendorProblem':
      return { vendor: 'github' };
    case 'dismissSignal':
      return {};
    case 'createTelemetryConnector':
      return { name: 'prom', baseUrl: 'https://prom.example.com', queries: [{ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 60 }] };
    case 'updateTelemetryConnector':
      return { enabled: false };
    case 'createPrivateProbe':
      return { vendor: 'github', kind: 'tls', target: 'api.github.com:443' };
    case 'updatePrivateProbe':
      return { intervalSeconds: 60 };
    case 'sendTestAlert':
      return { channel: 'webhook' };
    case 'createBoard':
      return { title: 'x' };
    case 'addCustomStatusPage':
      return { url: 'https://status.example.com/' };
    case 'renameOrganisation':
      return { name: 'Renamed' };
    case 'changeMemberRole':
      return { role: 'viewer' };
    case 'transferOwnership':
      return { userId: '00000000-0000-4000-8000-000000000000' };
    case 'inviteMember':
      return { email: 'x@example.com', role: 'viewer' };
    case 'createOrganisationKey':
      return { name: 'x', role: 'viewer' };
    case 'createNamedWatchlist':
      return { name: 'payments', vendors: ['github'] };
    case 'updateNamedWatchlist':
      return { vendors: ['stripe'] };
    case 'createAlertRoute':
      return { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) } };
    case 'updateAlertRoute':
      return { enabled: false };
    case 'createService':
      return { name: 'checkout', dependencies: [{ vendor: 'github' }] };
    case 'updateService':
      return { criticality: 'low' };
    case 'applyOrgConfig':
      return { yaml: 'version: 1', dryRun: true };
    case 'createScimToken':
      return { name: 'x' };
    case 'setScimGroupRole':
      return { role: 'viewer' };
    case 'putSsoConnection':
      return { issuer: 'https://idp.example.com', clientId: 'x', clientSecret: 'y', defaultRole: 'viewer', ssoRequired: false, enabled: true };
    case 'addSsoDomain':
      return { domain: 'example.com' };
    default:
      return undefined;
  }
}
